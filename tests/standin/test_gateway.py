"""Login, command sync, READY/GUILD_CREATE, RESUME after RECONNECT, intents and tokens."""

from __future__ import annotations

import aiohttp
import discord
import pytest

from standin import StandIn
from tests.standin.conftest import TOKEN, Scene, StartBot
from tests.standin.testbot import ProbeBot


async def test_login_sync_and_ready(scene: Scene) -> None:
    s, bot = scene.standin, scene.bot
    assert s.requests[:4] == [
        "GET /api/v10/users/@me",
        "GET /api/v10/oauth2/applications/@me",
        f"PUT /api/v10/applications/{s.application_id}/commands",
        f"PUT /api/v10/applications/{s.application_id}/guilds/{scene.guild.id}/commands",
    ]
    assert bot.user is not None and bot.user.id == s.bot_user.id
    assert bot.application_id == s.application_id
    global_names = sorted(c["name"] for c in s.commands.listing(None))
    assert global_names == [
        "bigmenu",
        "board",
        "dm",
        "echo",
        "form",
        "game",
        "hold",
        "layout",
        "menu",
        "slow",
        "work",
    ]
    (admin,) = s.commands.listing(scene.guild.id)
    assert admin["name"] == "admin" and admin["guild_id"] == str(scene.guild.id)
    assert admin["default_member_permissions"] == str(
        discord.Permissions(manage_channels=True).value
    )
    guild = bot.get_guild(scene.guild.id)
    assert guild is not None and guild.chunked and guild.member_count == 4
    assert {m.name for m in guild.members} == {"GameBot", "alice", "bob", "carol"}
    assert guild.get_member(scene.alice.id).guild_permissions.manage_channels  # type: ignore[union-attr]
    assert guild.get_channel(scene.channel.id).name == "games"  # type: ignore[union-attr]
    # Re-syncing keeps ids stable, as Discord's bulk overwrite does for unchanged names.
    before = {c["name"]: c["id"] for c in s.commands.listing(None)}
    synced = await bot.tree.sync()
    assert {c.name: str(c.id) for c in synced} == before
    fetched = await bot.tree.fetch_commands(guild=discord.Object(id=scene.guild.id))
    assert [c.name for c in fetched] == ["admin"]
    channel = await bot.fetch_channel(scene.channel.id)
    assert isinstance(channel, discord.TextChannel) and channel.name == "games"


async def test_reconnect_resumes_and_replays(scene: Scene) -> None:
    s, bot = scene.standin, scene.bot
    await s.reconnect()
    # Sent while the client is reconnecting: delivered by RESUME's replay.
    it = await s.slash(scene.alice, scene.channel, "echo", text="still here")
    reply = await it.response()
    assert reply is not None and reply.content == "echo: still here"
    await s.wait_for(lambda: "resumed" in bot.events)
    assert (s.gateway.identifies, s.gateway.resumes) == (1, 1)
    after = await (await s.slash(scene.bob, scene.channel, "echo", text="again")).response()
    assert after is not None and after.content == "echo: again"


async def test_dropped_connection_resumes(scene: Scene) -> None:
    s, bot = scene.standin, scene.bot
    await s.drop_connections(4000)
    await s.wait_for(lambda: "resumed" in bot.events)
    reply = await (await s.slash(scene.alice, scene.channel, "echo", text="ok")).response()
    assert reply is not None and s.gateway.identifies == 1


async def test_members_and_guilds_added_while_connected(scene: Scene) -> None:
    s, bot = scene.standin, scene.bot
    dave = s.add_user("dave", guilds=[scene.guild])
    await s.wait_for(lambda: bot.get_guild(scene.guild.id).get_member(dave.id))  # type: ignore[union-attr]
    other = s.add_guild("Second")
    s.add_channel(other, "lobby")
    await s.wait_for(lambda: bot.get_guild(other.id) is not None)
    await s.wait_for(lambda: bot.get_guild(other.id).text_channels)  # type: ignore[union-attr]


async def test_message_content_intent_blanks_guild_messages(
    standin: StandIn, start_bot: StartBot
) -> None:
    s = standin
    guild = s.add_guild("Quiet")
    channel = s.add_channel(guild, "chat")
    erin = s.add_user("erin", guilds=[guild])
    intents = discord.Intents.default()  # no message_content, no members
    bot = await start_bot(ProbeBot(guild.id, intents=intents))
    quiet = bot.get_guild(guild.id)
    assert quiet is not None and quiet.member_count == 2 and len(quiet.members) == 1
    await s.say(erin, channel, "hidden text")
    await s.say(erin, channel, f"{s.bot_user.mention} visible text")
    await s.dm_from(erin, "dm text")
    await s.wait_for(lambda: len(bot.seen_messages) == 3)
    assert [m.content for m in bot.seen_messages] == [
        "",
        f"<@{s.bot_user.id}> visible text",
        "dm text",
    ]
    s.assert_clean()


async def test_wrong_token_fails_login_and_identify(standin: StandIn) -> None:
    bot = ProbeBot(1)
    with pytest.raises(discord.LoginFailure):
        await bot.login("not-" + TOKEN)
    await bot.close()
    async with aiohttp.ClientSession() as session, session.ws_connect(standin.gateway_url) as ws:
        hello = await ws.receive_json()
        assert hello["op"] == 10
        await ws.send_json({"op": 2, "d": {"token": "wrong", "intents": 0, "properties": {}}})
        closed = await ws.receive()
        assert closed.type == aiohttp.WSMsgType.CLOSE and closed.data == 4004
    assert standin.protocol_violations == ["gateway: IDENTIFY with a wrong token"]
    assert [e.status for e in standin.errors] == [401]


async def test_persistent_view_survives_a_bot_restart(scene: Scene, start_bot: StartBot) -> None:
    s = scene.standin
    message = await (await s.slash(scene.alice, scene.channel, "game start", players=2)).response()
    assert message is not None
    await scene.bot.close()
    await s.wait_for(lambda: not s.gateway.connected)
    restarted = await start_bot(ProbeBot(scene.guild.id))
    assert restarted is not scene.bot and s.gateway.identifies == 2
    click = await s.click(scene.bob, message, "game:join")
    assert await click.response() is message
    assert message.content.endswith("bob joined")
