"""A whole game of every hosted game through the stand-in, as its people would meet it: the
lobby, `/game status|board|log`, `/mygames`, a reminder, timeouts until the AI has every seat,
and the results. Taken from `hosted()`: a new game is played here without a line of its own."""

import json

import pytest

from bot.sandbox import press_lobby
from bot.service.clock import ManualClock
from bot.service.hosting import hosted
from engine.core import player_counts
from standin import Message
from tests.bot.conftest import Bots, Scene
from tests.bot.helpers import TIMEOUT, answer, png, respond
from tests.contract.games import HOSTED


def _attachment(scene: Scene, message: Message, suffix: str) -> bytes:
    (found,) = [a for a in message.attachments if a.filename.endswith(suffix)]
    return scene.server.attachment_bytes(found)


@pytest.mark.parametrize("name", HOSTED)
async def test_a_whole_game_through_the_stand_in(
    name: str, scene: Scene, bots: Bots, clock: ManualClock
) -> None:
    s, ada, ben = scene.server, scene.ada, scene.ben
    plug = hosted()[name]
    bot = await bots.start(clock=clock)
    channel = s.add_channel(scene.guild, name.replace("_", "-"))
    lobby = await answer(s.slash(ada, channel, f"{plug.command} open", deadline="10 minutes"))
    table = await bot.service.table_in(channel.id)
    assert table is not None and table.row.status == "lobby"
    gid, label = table.row.id, f"{plug.title} game #{table.row.id}"
    assert lobby.embeds[0]["title"] == label
    await respond(s.click(ben, lobby, f"pl:lobby:{gid}:join"))
    least = player_counts(plug.engine).start
    for _ in range(max(0, least - 2)):
        await respond(press_lobby(s, ada, lobby, gid, "ai"))
    await answer(s.click(ada, lobby, f"pl:lobby:{gid}:start"))
    outbox = bot.service.repo

    async def quiet() -> bool:
        async with outbox.reading() as repo:
            return not await repo.pending(limit=1)

    await s.wait_for(quiet, TIMEOUT)
    table = await bot.service.table(gid)
    assert table.row.status == "active"
    progress = table.game.progress(table.state)

    status = await answer(s.slash(scene.outsider, channel, "game status"))
    assert status.embeds[0]["title"].startswith(label), status.embeds
    board = await answer(s.slash(ada, channel, "game board"))
    assert board.ephemeral and label in board.content
    png(_attachment(scene, board, ".png"))
    log = await answer(s.slash(ben, channel, "game log"))
    assert log.ephemeral and log.visible_to is ben
    doc = json.loads(_attachment(scene, log, ".json"))
    assert "seed" not in doc and doc["viewer"] == table.seat_of(ben.id).seat
    mine = await answer(s.slash(ada, s.dm_channel(ada), "mygames"))
    assert label in mine.embeds[0]["description"]
    offered = await s.autocomplete(ada, channel, "game status", focused="game", game="")
    assert [c["value"] for c in offered] == [gid], offered

    # Half the deadline: whoever owes a move is reminded, once, in the words of the game's shape.
    owed = [p for p in (ada, ben) if table.seat_of(p.id).seat in table.game.to_act(table.state)]
    assert owed, "nobody owes a move at the start"
    clock.advance(minutes=5)

    def reminded(person) -> list[str]:
        return [m.content for m in s.dms(person) if m.content.startswith(f"Reminder: [{label}]")]

    await s.wait_for(lambda: all(reminded(p) for p in owed), TIMEOUT)
    said = reminded(owed[0])[0]
    noun = "round" if table.game.dynamics == "simultaneous" else "your move"
    assert noun in said and "autopilot" in said, said
    if table.game.dynamics == "simultaneous":
        assert f"round {progress.round} closes" in said

    # Nobody moves again: timeouts make the autopilot move, then the AI takes every seat and
    # plays the game to its end.
    async def handled() -> bool:
        row = (await bot.service.table(gid)).row
        due = row.status == "active" and row.deadline is not None and row.deadline <= clock.now()
        return not due and await quiet()

    for _ in range(600):
        clock.advance(minutes=10)
        await s.wait_for(handled, TIMEOUT)
        if (await bot.service.table(gid)).row.status != "active":
            break
    table = await bot.service.table(gid)
    assert table.row.status == "finished"
    assert all(seat.is_ai for seat in table.seats)
    posts = [m.content for m in s.messages(channel) if not m.ephemeral]
    assert any(p.startswith("Time is up: the autopilot") for p in posts)
    assert any("is now played by the AI after repeated timeouts" in p for p in posts)
    (results,) = [m for m in s.messages(channel) if "**Game over!**" in m.content]
    png(_attachment(scene, results, "results.png"))
    for person in (ada, ben):
        assert [m for m in s.dms(person) if "is over: you placed " in m.content]

    finished = await answer(s.slash(ben, channel, "game log", game=gid))
    doc = json.loads(_attachment(scene, finished, ".json"))
    assert isinstance(doc["seed"], int) and len(doc["actions"]) == await bot.service.action_count(
        gid
    )
    status = await answer(s.slash(ada, channel, "game status", game=gid))
    assert status.embeds[0]["title"].startswith(label)
