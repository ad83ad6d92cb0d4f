"""Delivery tells a passing fault from a broken row: an event that meets a lost database
connection, a rate limit that outlasted discord.py's tries or a database that does not answer
waits and goes out later; only one that fails on a healthy database is set aside."""

import asyncio
import sqlite3
from typing import Any

import asyncpg
import discord
import pytest

from bot.service.clock import ManualClock
from bot.store.postgres import PostgresDatabase
from tests.bot.conftest import Bots, Scene
from tests.bot.helpers import started_game


class _TooMany(discord.HTTPException):
    def __init__(self) -> None:
        Exception.__init__(self, "429 Too Many Requests")
        self.status, self.code, self.text = 429, 0, "You are being rate limited."


@pytest.mark.parametrize(
    ("fault", "healthy", "passes"),
    [
        (sqlite3.OperationalError("database is locked"), True, True),
        (_TooMany(), True, True),
        (RuntimeError("the database went away mid-event"), False, True),
        (ValueError("a broken row"), True, False),
    ],
)
async def test_a_passing_fault_keeps_the_event_and_a_broken_row_is_set_aside(
    scene: Scene,
    bots: Bots,
    clock: ManualClock,
    monkeypatch: Any,
    fault: Exception,
    healthy: bool,
    passes: bool,
) -> None:
    bot = await bots.start(clock=clock)
    game = await started_game(scene.server, bot, scene.channel, scene.ada, [scene.ben])
    delivery, service = bot.delivery, bot.service
    await service.set_deadline(game.gid, scene.ada.id, False, 60)  # queues one "deadline" post
    (event,) = await service.pending_of(game.gid)
    outbox_id = event.id

    async def broken(*args: Any) -> None:
        raise fault

    async def answers() -> bool:
        return healthy

    monkeypatch.setattr(delivery, "_deliver", broken)
    monkeypatch.setattr(service, "healthy", answers)
    # The bot's own ticker flushes too: held off until the fault is mended, or its try would
    # fail again and push the retry past the test's clock.
    async with delivery._lock:
        assert await delivery._deliver_one(event) is not passes
        row = await repo_row(service, outbox_id)
        monkeypatch.undo()
        clock.advance(seconds=5)  # its backoff has run
    if passes:
        assert row["sent_at"] is None and row["attempts"] == 1
        await delivery.flush()
        assert (await repo_row(service, outbox_id))["sent_at"] is not None
        assert [m for m in scene.server.messages(scene.channel) if "1 hour" in m.content]
    else:
        assert row["sent_at"] is not None and "broken row" in row["error"]


async def repo_row(service: Any, outbox_id: int) -> Any:
    async with service.repo.reading() as repo:
        return await repo.one("SELECT * FROM outbox WHERE id = ?", (outbox_id,))


def test_postgres_faults_that_pass_are_known_by_kind() -> None:
    database = PostgresDatabase(pool=None)  # type: ignore[arg-type]
    assert database.transient(asyncpg.exceptions.ConnectionDoesNotExistError("closed"))
    assert database.transient(asyncpg.exceptions.SerializationError("conflict"))
    assert database.transient(asyncpg.exceptions.QueryCanceledError("statement timeout"))
    assert database.transient(TimeoutError())
    assert not database.transient(asyncpg.exceptions.UndefinedColumnError("no such column"))
    assert not database.transient(ValueError("a broken row"))


async def test_a_dm_still_sending_when_its_event_fails_is_waited_for_and_sent_once(
    scene: Scene, bots: Bots, clock: ManualClock, monkeypatch: Any
) -> None:
    """One person's board DM fails to be marked while the other's is still under way: the event
    waits for that send and marks it, so the event's retry sends only the failed one, and a
    later event's nonce and parts are never taken by it."""
    s, ada, ben = scene.server, scene.ada, scene.ben
    bot = await bots.start(clock=clock)
    game = await started_game(s, bot, scene.channel, ada, [ben])
    delivery, service = bot.delivery, bot.service
    for person in (ada, ben):
        planner = await game.wait_dm_planner(person, 1)
        await game.plan_with_select(person, planner, 1, submit=False)
    mark = service.mark_posted
    marked: list[tuple[int, str]] = []
    failed: list[str] = []

    async def flaky(outbox_id: int, part: str, message_id: int) -> None:
        if part == "dm0" and not failed:
            failed.append(part)
            raise sqlite3.OperationalError("database is locked")
        if part == "dm1":
            await asyncio.sleep(0.3)  # Ben's send is confirmed after Ada's has failed
        await mark(outbox_id, part, message_id)
        marked.append((outbox_id, part))

    async with delivery._lock:  # the bot's own flushes wait: this test sends the round
        for person in (ada, ben):
            await service.submit(game.gid, person.id)
        (event,) = [e for e in await service.pending_of(game.gid) if e[2] == "round_started"]
        monkeypatch.setattr(service, "mark_posted", flaky)
        assert await delivery._deliver_one(event) is False
        assert (event[0], "dm1") in marked, "the event gave up before Ben's send was marked"
        monkeypatch.undo()
        clock.advance(seconds=5)
    await delivery.flush()
    await s.wait_for(game.outbox_empty, 10)
    for person in (ada, ben):
        assert len(game.board_dms(person, 2)) == 1, person.name
    posted = await service.posted(event[0])
    boards = {game.board_dms(person, 2)[0].id for person in (ada, ben)}
    assert {posted["dm0"], posted["dm1"]} == boards
