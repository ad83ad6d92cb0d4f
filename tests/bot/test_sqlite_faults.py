"""SQLite's own bad days: the disk fills up, or the file can no longer be written. While it
lasts, a plan is refused with one sentence and nothing changes, reading commands still answer,
and the outage is logged once; once mended, the same plan goes in and the round's posts go out
exactly once."""

import logging
import sqlite3
from typing import Any

import pytest

from bot.app import GameBot
from bot.errors import UNREACHABLE
from bot.store.sqlite import SQLiteSession
from tests.bot.conftest import Scene
from tests.bot.helpers import answer, started_game


async def _fill(monkeypatch: pytest.MonkeyPatch, connection: Any) -> None:
    """A full disk: every write meets what SQLite answers then (SQLITE_FULL). Injected, since
    no test machine lets a test fill a real disk; reads work, as they do on a full disk."""
    execute = SQLiteSession.execute

    async def full(self: SQLiteSession, sql: str, args: Any = ()) -> int:
        if sql.lstrip().split(None, 1)[0].upper() in ("INSERT", "UPDATE", "DELETE"):
            raise sqlite3.OperationalError("database or disk is full")
        return await execute(self, sql, args)

    monkeypatch.setattr(SQLiteSession, "execute", full)


async def _empty(monkeypatch: pytest.MonkeyPatch, connection: Any) -> None:
    monkeypatch.undo()


async def _read_only(monkeypatch: pytest.MonkeyPatch, connection: Any) -> None:
    """Every write refused by SQLite itself, as for a file turned read-only (SQLITE_READONLY)."""
    await connection.execute("PRAGMA query_only = ON")


async def _writable(monkeypatch: pytest.MonkeyPatch, connection: Any) -> None:
    await connection.execute("PRAGMA query_only = OFF")


FAULTS = {"disk full": (_fill, _empty), "read-only": (_read_only, _writable)}


@pytest.mark.parametrize("fault", FAULTS)
async def test_a_sqlite_fault_refuses_changes_in_words_and_loses_nothing(
    scene: Scene, bot: GameBot, fault: str, caplog: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    s, ada, ben = scene.server, scene.ada, scene.ben
    game = await started_game(s, bot, scene.channel, ada, [ben])
    for person in (ada, ben):
        planner = await game.wait_dm_planner(person, 1)
        await game.plan_with_select(person, planner, 1, submit=False)
    connection = bot.db.db  # type: ignore[union-attr]
    strike, mend = FAULTS[fault]
    await strike(monkeypatch, connection)
    caplog.set_level(logging.INFO)

    planner = await game.wait_dm_planner(ada, 1)
    refused = await answer(s.click(ada, planner, f"pl:plan:{game.gid}:1:submit"))
    told = [m for m in s.dms(ada) if m.ephemeral or m is refused]
    assert any(UNREACHABLE in m.content for m in [refused, *told]), refused.content
    assert not (await bot.service.draft(game.gid, ada.id)).submitted, "nothing was done"
    status = await answer(s.slash(ben, scene.channel, "game status"))
    assert f"Powerline game #{game.gid}" in status.embeds[0]["title"], "reading still works"

    await mend(monkeypatch, connection)
    for person in (ada, ben):
        planner = await game.wait_dm_planner(person, 1)
        done = await answer(s.click(person, planner, f"pl:plan:{game.gid}:1:submit"))
        assert "✅" in done.content, done.content
    await s.wait_for(lambda: game.channel_messages("**Round 2 of 15**"), 15)
    await s.wait_for(game.outbox_empty, 15)
    assert len(game.summaries(1)) == 1
    assert len(game.channel_messages("**Round 2 of 15**")) == 1
    for person in (ada, ben):
        assert len(game.board_dms(person, 2)) == 1, person.name
    assert "Traceback" not in caplog.text
    s.assert_clean()
