"""Channel messages, DMs, attachments on edit, threads."""

from __future__ import annotations

import io

import discord

from standin.limits import Code
from tests.standin.conftest import Scene
from tests.standin.testbot import tiny_png


async def test_dm_to_closed_dms_is_forbidden(scene: Scene) -> None:
    s, bot = scene.standin, scene.bot
    closed = await (await s.slash(scene.alice, scene.channel, "dm", member=scene.carol)).response()
    assert closed is not None and closed.ephemeral
    await s.wait_for(lambda: closed.content == "cannot DM them")
    (error,) = bot.errors
    assert isinstance(error, discord.Forbidden) and error.code == Code.CANNOT_MESSAGE_USER
    assert s.dms(scene.carol) == []

    opened = await (await s.slash(scene.alice, scene.channel, "dm", member=scene.bob)).response()
    assert opened is not None
    await s.wait_for(lambda: opened.content == "sent")
    assert [m.content for m in s.dms(scene.bob)] == ["your secret plan"]
    # Closing DMs later affects the cached DM channel too.
    s.set_dms_open(scene.bob, False)
    user = bot.get_user(scene.bob.id)
    assert user is not None
    try:
        await user.send("again")
    except discord.Forbidden as caught:
        assert caught.code == Code.CANNOT_MESSAGE_USER
    else:
        raise AssertionError("expected Forbidden")


async def test_dm_from_user_gets_reply(scene: Scene) -> None:
    s = scene.standin
    await s.dm_from(scene.bob, "hello bot")
    reply = await s.wait_for(lambda: len(s.dms(scene.bob)) == 2 and s.dms(scene.bob)[1])
    assert reply.content == "got: hello bot" and reply.author is s.bot_user


async def test_edit_removes_unlisted_attachments_and_delete(scene: Scene) -> None:
    s, bot = scene.standin, scene.bot
    channel = bot.get_channel(scene.channel.id)
    assert isinstance(channel, discord.TextChannel)
    files = [
        discord.File(io.BytesIO(tiny_png()), filename="a.png"),
        discord.File(io.BytesIO(b"plain"), filename="b.txt"),
    ]
    sent = await channel.send("two files", files=files)
    record = s.last_message(scene.channel)
    assert record is not None and [a.filename for a in record.attachments] == ["a.png", "b.txt"]
    assert await sent.attachments[1].read() == b"plain"

    edited = await sent.edit(content="one file", attachments=[sent.attachments[0]])
    assert [a.filename for a in edited.attachments] == ["a.png"]
    assert [a.filename for a in record.attachments] == ["a.png"]
    assert record.edits[0]["attachments"] == ["a.png", "b.txt"]

    fetched = await channel.fetch_message(sent.id)
    assert fetched.content == "one file"
    await sent.delete()
    assert record.deleted and s.messages(scene.channel) == []
    assert s.messages(scene.channel, include_deleted=True) == [record]


async def test_threads(scene: Scene) -> None:
    s, bot = scene.standin, scene.bot
    channel = bot.get_channel(scene.channel.id)
    assert isinstance(channel, discord.TextChannel)
    starter = await channel.send("new game")
    thread = await starter.create_thread(name="Game 1")
    assert thread.id == starter.id
    await thread.send("turn 1")
    private = await channel.create_thread(name="Secret", type=discord.ChannelType.private_thread)
    await private.add_user(discord.Object(id=scene.bob.id))
    record = s.world.channels[private.id]
    assert record.is_thread and scene.bob.id in record.thread_members
    await s.wait_for(lambda: bot.get_channel(private.id) is not None)
    game_thread = s.world.channels[thread.id]
    assert [m.content for m in s.messages(game_thread)] == ["turn 1"]
    reply = await (await s.slash(scene.alice, game_thread, "echo", text="in thread")).response()
    assert reply is not None and reply.channel is game_thread
