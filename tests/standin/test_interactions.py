"""Slash commands, autocomplete, buttons, selects, modals, followups and files, end to end."""

from __future__ import annotations

import pytest

from standin import CommandMismatch, DriverError
from standin.limits import FLAG_EPHEMERAL
from tests.standin.conftest import Scene
from tests.standin.testbot import WORDS, tiny_png


async def test_slash_in_guild_channel(scene: Scene) -> None:
    s = scene.standin
    it = await s.slash(scene.alice, scene.channel, "echo", text="hello")
    message = await it.response()
    assert message is not None
    assert message.content == "echo: hello"
    assert message.type == 20  # CHAT_INPUT_COMMAND reply
    assert message.author is s.bot_user
    assert not it.ephemeral
    assert s.last_message(scene.channel) is message


async def test_slash_in_dm_and_ephemeral(scene: Scene) -> None:
    s = scene.standin
    dm = s.dm_channel(scene.bob)
    message = await (await s.slash(scene.bob, dm, "echo", text="psst", hidden=True)).response()
    assert message is not None and message.content == "echo: psst"
    assert message.ephemeral and message.visible_to is scene.bob
    assert s.dms(scene.bob) == [message]


async def test_subcommand_with_user_option_and_persistent_button(scene: Scene) -> None:
    s = scene.standin
    it = await s.slash(scene.alice, scene.channel, "game start", players=3, opponent=scene.bob)
    message = await it.response()
    assert message is not None
    assert message.content == "game for 3, invite bob, ranked=False"
    assert s.find_component(message, label="Join") is not None

    click = await s.click(scene.bob, message, "game:join")
    assert await click.response() is message
    assert click.response_type == 7
    assert message.content.endswith("bob joined")
    assert message.edits[0]["content"] == "game for 3, invite bob, ranked=False"


async def test_driver_checks_commands_against_the_synced_definition(scene: Scene) -> None:
    s, alice, channel = scene.standin, scene.alice, scene.channel
    with pytest.raises(CommandMismatch, match="not synced"):
        await s.slash(alice, channel, "nosuch")
    with pytest.raises(CommandMismatch, match="needs a subcommand"):
        await s.slash(alice, channel, "game")
    with pytest.raises(CommandMismatch, match="no subcommand 'stop'"):
        await s.slash(alice, channel, "game stop")
    with pytest.raises(CommandMismatch, match="is a integer"):
        await s.slash(alice, channel, "game start", players="three")
    with pytest.raises(CommandMismatch, match="outside"):
        await s.slash(alice, channel, "game start", players=9)
    with pytest.raises(CommandMismatch, match="missing required"):
        await s.slash(alice, channel, "game start")
    with pytest.raises(CommandMismatch, match="no option"):
        await s.slash(alice, channel, "echo", text="x", colour="red")
    with pytest.raises(CommandMismatch, match="is a user"):
        await s.slash(alice, channel, "game start", players=2, opponent="bob")
    # Guild-only command with default_member_permissions: hidden from bob, fine for alice.
    with pytest.raises(CommandMismatch, match="lacks permissions"):
        await s.slash(scene.bob, channel, "admin")
    assert (await (await s.slash(alice, channel, "admin")).response()) is not None
    with pytest.raises(CommandMismatch, match="is a number"):
        await s.slash(alice, channel, "game config set", key="speed", value="fast")
    with pytest.raises(CommandMismatch, match="needs a subcommand"):
        await s.slash(alice, channel, "game config")
    with pytest.raises(CommandMismatch, match="not synced for a DM"):
        await s.slash(alice, s.dm_channel(alice), "admin")


async def test_autocomplete_returns_choices(scene: Scene) -> None:
    s = scene.standin
    choices = await s.autocomplete(
        scene.alice, scene.channel, "game pick", focused="word", word="ap"
    )
    assert [c["value"] for c in choices] == ["apple", "apricot"]
    everything = await s.autocomplete(scene.alice, scene.channel, "game pick", focused="word")
    assert len(everything) == len(WORDS)
    with pytest.raises(CommandMismatch, match="does not use autocomplete"):
        await s.autocomplete(scene.alice, scene.channel, "echo", focused="text")


async def test_select_menu(scene: Scene) -> None:
    s = scene.standin
    message = await (await s.slash(scene.alice, scene.channel, "menu")).response()
    assert message is not None
    with pytest.raises(DriverError, match="offers"):
        await s.select(scene.bob, message, "menu:map", ["mars"])
    it = await s.select(scene.bob, message, "menu:map", ["italy"])
    reply = await it.response()
    assert reply is not None and reply.content == "map: italy" and reply.ephemeral
    assert reply.flags & FLAG_EPHEMERAL
    # An ephemeral reply belongs to bob alone.
    assert reply.visible_to is scene.bob


async def test_modal_round_trip(scene: Scene) -> None:
    s = scene.standin
    opener = await s.slash(scene.alice, scene.channel, "form")
    assert await opener.response() is None
    assert opener.response_type == 9 and opener.modal is not None
    with pytest.raises(DriverError, match="required"):
        await s.submit_modal(scene.alice, opener, {"form:notes": "x"})
    with pytest.raises(DriverError, match="shown to alice"):
        await s.submit_modal(scene.bob, opener, {"form:name": "Duel"})
    submit = await s.submit_modal(scene.alice, opener, {"form:name": "Duel", "form:notes": "fast"})
    reply = await submit.response()
    assert reply is not None and reply.content == "named Duel (fast)"


async def test_defer_followups_and_edit_original(scene: Scene) -> None:
    s = scene.standin
    it = await s.slash(scene.alice, scene.channel, "work")
    loading = await it.response()
    assert loading is not None and it.deferred
    # The edit of the original comes after both followups: wait for it, not just any edit.
    await s.wait_for(lambda: len(it.followups) == 1 and it.original.content == "step 1 (edited)")
    original = it.original
    assert original is loading  # the first followup edited the loading message
    assert not original.loading
    assert original.content == "step 1 (edited)"
    assert [e["content"] for e in original.edits] == ["", "step 1"]
    (secret,) = it.followups
    await s.wait_for(lambda: secret.content == "secret (edited)")
    assert secret.ephemeral and secret.visible_to is scene.alice


async def test_png_attachment_and_embed(scene: Scene) -> None:
    s = scene.standin
    it = await s.slash(scene.alice, scene.channel, "board")
    message = await it.response()
    assert message is not None
    (attachment,) = message.attachments
    assert attachment.filename == "board.png" and attachment.content_type == "image/png"
    assert (attachment.width, attachment.height) == (3, 2)
    assert s.attachment_bytes(attachment) == tiny_png()
    assert message.embeds[0]["image"]["url"] == attachment.url
    # The bot downloads it back through discord.py's CDN path.
    await s.wait_for(lambda: scene.bot.read_back is not None)
    assert scene.bot.read_back == tiny_png()


async def test_click_refuses_what_a_person_cannot_do(scene: Scene) -> None:
    s = scene.standin
    message = await (await s.slash(scene.alice, scene.channel, "echo", text="x")).response()
    assert message is not None
    with pytest.raises(DriverError, match="no component"):
        await s.click(scene.alice, message, "nothing")
    hidden = await (await s.slash(scene.alice, scene.channel, "menu")).response()
    assert hidden is not None
    reply = await (await s.select(scene.alice, hidden, "menu:map", ["usa"])).response()
    assert reply is not None and reply.ephemeral
    outsider = s.add_user("dave")
    with pytest.raises(DriverError, match="not a member"):
        await s.slash(outsider, scene.channel, "echo", text="hi")


async def test_nested_group_and_number_option(scene: Scene) -> None:
    s = scene.standin
    it = await s.slash(scene.bob, scene.channel, "game config set", key="speed", value=1.5)
    reply = await it.response()
    assert reply is not None and reply.content == "speed=1.50" and reply.ephemeral
    (group,) = it.data["options"]
    assert group["type"] == 2 and group["options"][0]["type"] == 1


async def test_components_v2_layout(scene: Scene) -> None:
    s = scene.standin
    message = await (await s.slash(scene.alice, scene.channel, "layout")).response()
    assert message is not None and message.flags & (1 << 15)
    assert message.content == "" and s.find_component(message, custom_id="v2:go")
    await (await s.click(scene.bob, message, "v2:go")).response()
    texts = [c["content"] for c in message.iter_components() if c["type"] == 10]
    assert texts == ["Board v2 (clicked)", "inside"]
