"""A COMMIT whose answer is lost on PostgreSQL: the change is reported as made if the server
stored it (asked again while the server cannot answer yet), as failed if it did not, and as
unknown only once the server could not be asked for `COMMIT_CHECK_SECONDS`."""

from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import pytest
from asyncpg.transaction import Transaction

from bot.errors import UNSURE, unreachable
from bot.sandbox.postgres import Cluster
from bot.store import postgres
from bot.store.backend import CommitUnknown
from bot.store.postgres import PostgresDatabase

CUT = asyncpg.exceptions.ConnectionDoesNotExistError("connection was closed in the middle")


@pytest.fixture
async def db(
    pg_cluster: Cluster, request: pytest.FixtureRequest
) -> AsyncIterator[PostgresDatabase]:
    url = await pg_cluster.create_database(f"lost_commit_{request.node.name[5:40].lower()}")
    database = await PostgresDatabase.connect(url)
    async with database.transaction() as session:
        await session.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY)")
    yield database
    await database.close()


def lose_the_answer(db: PostgresDatabase, monkeypatch: pytest.MonkeyPatch, stored: bool) -> None:
    """COMMIT's answer never comes back: the server has it (`stored`) or the cut aborted it."""
    commit = Transaction.commit

    async def cut(self: Transaction) -> None:
        if stored:
            await commit(self)
        else:
            pid = self._connection.get_server_pid()
            async with db.pool.acquire() as other:
                await other.execute("SELECT pg_terminate_backend($1)", pid)
        raise CUT

    monkeypatch.setattr(Transaction, "commit", cut)


def server_unreachable_for(
    db: PostgresDatabase, monkeypatch: pytest.MonkeyPatch, tries: int
) -> list[int]:
    """The next `tries` connections the pool hands out fail: the server is restarting."""
    left = [tries]

    class Flaky:
        def __init__(self, pool: asyncpg.Pool) -> None:
            self.pool = pool

        def acquire(self, *args: Any, **kwargs: Any) -> Any:
            if left[0] > 0:
                left[0] -= 1
                raise ConnectionRefusedError("the server is starting up")
            return self.pool.acquire(*args, **kwargs)

        def __getattr__(self, name: str) -> Any:
            return getattr(self.pool, name)

    monkeypatch.setattr(db, "pool", Flaky(db.pool))
    return left


async def count(db: PostgresDatabase) -> int:
    async with db.reading() as session:
        row = await session.one("SELECT count(*) AS n FROM notes")
        assert row is not None
        return int(row["n"])


async def test_a_stored_commit_is_reported_made_once_the_server_answers(
    db: PostgresDatabase, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(postgres, "COMMIT_CHECK_PAUSE", 0.01)
    lose_the_answer(db, monkeypatch, stored=True)
    async with db.transaction() as session:
        await session.execute("INSERT INTO notes VALUES (1)")
        left = server_unreachable_for(db, monkeypatch, 3)
    assert left == [0], "the status was asked again after the server refused"
    monkeypatch.undo()
    assert await count(db) == 1


async def test_an_aborted_commit_is_a_passing_fault_not_an_unknown(
    db: PostgresDatabase, monkeypatch: pytest.MonkeyPatch
) -> None:
    lose_the_answer(db, monkeypatch, stored=False)
    with pytest.raises(Exception) as raised:
        async with db.transaction() as session:
            await session.execute("INSERT INTO notes VALUES (1)")
    assert db.transient(raised.value) and not isinstance(raised.value, CommitUnknown)
    monkeypatch.undo()
    assert await count(db) == 0


async def test_an_unanswerable_status_is_unknown_not_failed(
    db: PostgresDatabase, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(postgres, "COMMIT_CHECK_SECONDS", 0.2)
    monkeypatch.setattr(postgres, "COMMIT_CHECK_PAUSE", 0.01)
    lose_the_answer(db, monkeypatch, stored=True)
    with pytest.raises(CommitUnknown) as raised:
        async with db.transaction() as session:
            await session.execute("INSERT INTO notes VALUES (1)")
            server_unreachable_for(db, monkeypatch, 10_000)
    assert db.transient(raised.value), "the tick and the outbox try it again later"
    assert unreachable(raised.value) == UNSURE, (
        "the person is told to look, not that nothing was done"
    )
    monkeypatch.undo()
    assert await count(db) == 1, "it was stored all along: the person is told to look"


async def test_the_status_is_asked_without_waiting_for_the_cut_connection(
    pg_cluster: Cluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With every pooled connection busy in lost commits, each is handed back before its status
    is asked on another: none waits for a free one until the window ends."""
    url = await pg_cluster.create_database("lost_commit_pool_of_one")
    db = await PostgresDatabase.connect(url, size=1)
    try:
        async with db.transaction() as session:
            await session.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY)")
        monkeypatch.setattr(postgres, "COMMIT_CHECK_SECONDS", 2.0)
        lose_the_answer(db, monkeypatch, stored=True)
        async with db.transaction() as session:
            await session.execute("INSERT INTO notes VALUES (1)")
        monkeypatch.undo()
        assert await count(db) == 1
    finally:
        await db.close()
