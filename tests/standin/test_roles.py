"""Giving and taking guild roles: MANAGE_ROLES, the role hierarchy, and the gateway events."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from standin import DriverError, Role, StandIn
from standin.limits import Code
from standin.model import P_ADMINISTRATOR, P_MANAGE_ROLES
from tests.standin.conftest import Scene, StartBot
from tests.standin.testbot import ProbeBot

ROLE_ROUTE = "/guilds/{guild_id}/members/{user_id}/roles/{role_id}"


def _member_updates(s: StandIn) -> list[dict[str, Any]]:
    """GUILD_MEMBER_UPDATE bodies the stand-in sent to the bot's sessions."""
    return [
        frame["d"]
        for session in s.gateway.sessions.values()
        for frame in session.sent
        if frame["t"] == "GUILD_MEMBER_UPDATE"
    ]


async def _client_view(scene: Scene, role: Role) -> tuple[discord.Guild, discord.Member]:
    """The bot's cached guild once it knows ``role`` and its own permissions, and Bob in it."""
    s, bot_role = scene.standin, scene.guild.bot_role
    guild = scene.bot.get_guild(scene.guild.id)
    assert guild is not None
    await s.wait_for(lambda: guild.get_role(role.id))
    cached = guild.get_role(bot_role.id)
    assert cached is not None
    await s.wait_for(lambda: cached.permissions.value == bot_role.permissions)
    bob = guild.get_member(scene.bob.id)
    assert bob is not None
    return guild, bob


async def test_give_and_take_role(scene: Scene) -> None:
    s = scene.standin
    s.grant_bot(scene.guild, P_MANAGE_ROLES)
    champion = s.add_role(scene.guild, "Champion")
    guild, bob = await _client_view(scene, champion)
    assert guild.me.guild_permissions.manage_roles
    given = guild.get_role(champion.id)
    assert given is not None
    await bob.add_roles(given, reason="Season 3 champion")
    path = f"/api/v10/guilds/{scene.guild.id}/members/{scene.bob.id}/roles/{champion.id}"
    assert f"PUT {path}" in s.requests
    assert scene.guild.members[scene.bob.id].roles == [champion]
    await s.wait_for(lambda: bob.get_role(champion.id))
    (update,) = _member_updates(s)
    assert update["guild_id"] == str(scene.guild.id) and update["roles"] == [str(champion.id)]
    # Giving a role the member has is a 204 that changes nothing and sends no event.
    await bob.add_roles(given)
    assert scene.guild.members[scene.bob.id].roles == [champion]
    assert len(_member_updates(s)) == 1
    await bob.remove_roles(given)
    assert f"DELETE {path}" in s.requests
    assert scene.guild.members[scene.bob.id].roles == []
    await s.wait_for(lambda: bob.get_role(champion.id) is None)
    await bob.remove_roles(given)
    assert len(_member_updates(s)) == 2
    assert s.errors == []


async def test_take_role_a_moderator_gave(scene: Scene) -> None:
    s = scene.standin
    s.grant_bot(scene.guild, P_MANAGE_ROLES)
    champion = s.add_role(scene.guild, "Champion")
    s.give_role(scene.guild, scene.carol, champion)
    guild, _ = await _client_view(scene, champion)
    await s.wait_for(lambda: guild.get_member(scene.carol.id).get_role(champion.id))  # type: ignore[union-attr]
    carol = guild.get_member(scene.carol.id)
    assert carol is not None
    await carol.remove_roles(discord.Object(champion.id))
    assert scene.guild.members[scene.carol.id].roles == []
    await s.wait_for(lambda: carol.get_role(champion.id) is None)
    with pytest.raises(DriverError, match="not a role one can give"):
        s.give_role(scene.guild, scene.carol, scene.guild.bot_role)


async def test_positions_shift_and_fetch_roles(scene: Scene) -> None:
    s, g = scene.standin, scene.guild
    champion = s.add_role(g, "Champion")
    admins = s.add_role(g, "Admins", position=g.bot_role.position + 1)
    expected = {"@everyone": 0, "Champion": 1, "Manager": 2, "GameBot": 3, "Admins": 4}
    assert {r.name: r.position for r in g.roles} == expected
    guild = scene.bot.get_guild(g.id)
    assert guild is not None
    fetched = await guild.fetch_roles()
    assert {r.name: r.position for r in fetched} == expected
    await s.wait_for(lambda: {r.name: r.position for r in guild.roles} == expected)
    assert guild.me.top_role.id == g.bot_role.id and admins.id == guild.roles[-1].id
    assert (await guild.fetch_role(champion.id)).name == "Champion"
    with pytest.raises(discord.NotFound) as unknown:
        await guild.fetch_role(12345)
    assert unknown.value.code == Code.UNKNOWN_ROLE
    for bad in (0, len(g.roles) + 1):
        with pytest.raises(DriverError, match="role position"):
            s.add_role(g, "Nowhere", position=bad)


async def test_without_manage_roles_is_forbidden(scene: Scene) -> None:
    s = scene.standin
    champion = s.add_role(scene.guild, "Champion")
    guild, bob = await _client_view(scene, champion)
    assert not guild.me.guild_permissions.manage_roles
    with pytest.raises(discord.Forbidden) as refused:
        await bob.add_roles(discord.Object(champion.id))
    assert (refused.value.status, refused.value.code) == (403, Code.MISSING_PERMISSIONS)
    assert refused.value.text == "Missing Permissions"
    s.give_role(scene.guild, scene.bob, champion)
    with pytest.raises(discord.Forbidden) as refused:
        await bob.remove_roles(discord.Object(champion.id))
    assert refused.value.code == Code.MISSING_PERMISSIONS
    assert scene.guild.members[scene.bob.id].roles == [champion]
    with pytest.raises(AssertionError, match="50013 Missing Permissions"):
        s.assert_clean()
    scene.allow.add(Code.MISSING_PERMISSIONS)


@pytest.mark.parametrize(
    "which", ["above the bot", "the bot's top", "the bot's own", "managed", "@everyone"]
)
async def test_hierarchy_refuses_even_with_manage_roles(scene: Scene, which: str) -> None:
    s, g = scene.standin, scene.guild
    s.grant_bot(g, P_MANAGE_ROLES)
    if which == "above the bot":
        role = s.add_role(g, "Admins", position=g.bot_role.position + 1)
        s.give_role(g, scene.bob, role)
    elif which == "the bot's top":
        # A plain role the server put on the bot, above its managed one: at its level, not below.
        role = s.add_role(g, "Helpers", position=g.bot_role.position + 1)
        s.give_role(g, s.bot_user, role)
    elif which == "managed":
        role = s.add_role(g, "OtherBot", managed=True)
    else:
        role = g.bot_role if which == "the bot's own" else g.everyone
    before = list(g.members[scene.bob.id].roles)
    _, bob = await _client_view(scene, role)
    for change in (bob.add_roles, bob.remove_roles):
        with pytest.raises(discord.Forbidden) as refused:
            await change(discord.Object(role.id))
        assert refused.value.code == Code.MISSING_PERMISSIONS
    assert g.members[scene.bob.id].roles == before
    scene.allow.add(Code.MISSING_PERMISSIONS)


async def test_administrator_skips_manage_roles_but_not_hierarchy(scene: Scene) -> None:
    s, g = scene.standin, scene.guild
    s.grant_bot(g, P_ADMINISTRATOR)
    champion = s.add_role(g, "Champion")
    admins = s.add_role(g, "Admins", position=g.bot_role.position + 1)
    _, bob = await _client_view(scene, admins)
    await bob.add_roles(discord.Object(champion.id))
    with pytest.raises(discord.Forbidden):
        await bob.add_roles(discord.Object(admins.id))
    assert g.members[scene.bob.id].roles == [champion]
    scene.allow.add(Code.MISSING_PERMISSIONS)


async def test_unknown_role_member_and_guild(scene: Scene) -> None:
    s, g, http = scene.standin, scene.guild, scene.bot.http
    s.grant_bot(g, P_MANAGE_ROLES)
    champion = s.add_role(g, "Champion")
    _, bob = await _client_view(scene, champion)
    with pytest.raises(discord.NotFound) as unknown:
        await bob.add_roles(discord.Object(12345))
    assert unknown.value.code == Code.UNKNOWN_ROLE
    with pytest.raises(discord.NotFound) as unknown:
        await http.add_role(g.id, 12345, champion.id)
    assert unknown.value.code == Code.UNKNOWN_MEMBER
    with pytest.raises(discord.NotFound) as unknown:
        await http.remove_role(12345, scene.bob.id, champion.id)
    assert unknown.value.code == Code.UNKNOWN_GUILD
    assert [e.code for e in s.errors] == [
        Code.UNKNOWN_ROLE,
        Code.UNKNOWN_MEMBER,
        Code.UNKNOWN_GUILD,
    ]
    assert g.members[scene.bob.id].roles == []


async def test_rate_limited_role_change_is_retried(scene: Scene) -> None:
    s = scene.standin
    s.grant_bot(scene.guild, P_MANAGE_ROLES)
    champion = s.add_role(scene.guild, "Champion")
    _, bob = await _client_view(scene, champion)
    s.arm_rate_limit("PUT", ROLE_ROUTE)
    await bob.add_roles(discord.Object(champion.id))
    path = f"/api/v10/guilds/{scene.guild.id}/members/{scene.bob.id}/roles/{champion.id}"
    assert s.rate_limited == [f"PUT {path}"]
    assert s.requests.count(f"PUT {path}") == 2
    assert scene.guild.members[scene.bob.id].roles == [champion]


async def test_member_updates_without_members_intent(standin: StandIn, start_bot: StartBot) -> None:
    s = standin
    g = s.add_guild("Quiet")
    erin = s.add_user("erin", guilds=[g])
    s.grant_bot(g, P_MANAGE_ROLES)
    champion = s.add_role(g, "Champion")
    bot = await start_bot(ProbeBot(g.id, intents=discord.Intents.default()))
    await bot.http.add_role(g.id, erin.id, champion.id)
    assert g.members[erin.id].roles == [champion]
    assert _member_updates(s) == []
    # The bot's own member updates come regardless of the intent.
    guild = bot.get_guild(g.id)
    assert guild is not None
    await guild.me.add_roles(discord.Object(champion.id))
    await s.wait_for(lambda: guild.me.get_role(champion.id))
    assert [u["user"]["id"] for u in _member_updates(s)] == [str(s.bot_user.id)]
    s.assert_clean()
