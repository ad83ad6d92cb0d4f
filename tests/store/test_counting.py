"""The counting seam on a real SQLite database: a known sequence of calls gives known counts, and
the wrapped database behaves as before (the benchmarks' figures rest on it)."""

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store.counting import CountingDatabase, Counts
from bot.store.database import open_database
from bot.store.repo import Repo


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[CountingDatabase]:
    counting = CountingDatabase(await open_database(tmp_path / "bot.sqlite3"))
    async with counting.transaction() as session:
        await session.execute("CREATE TABLE scratch (n INTEGER)")
    yield counting
    await counting.close()


async def test_counts_statements_transactions_and_reads(db: CountingDatabase) -> None:
    db.start()
    async with db.transaction() as session:
        assert session.in_transaction
        await session.execute("INSERT INTO scratch VALUES (?)", (1,))
        await session.execute("INSERT INTO scratch VALUES (?)", (2,))
        row = await session.one("SELECT COUNT(*) AS n FROM scratch")
        assert row is not None and row["n"] == 2
    async with db.reading() as session:
        assert not session.in_transaction
        assert [r["n"] for r in await session.all("SELECT n FROM scratch ORDER BY n")] == [1, 2]
    with pytest.raises(RuntimeError):
        async with db.transaction() as session:
            await session.execute("INSERT INTO scratch VALUES (3)")
            raise RuntimeError("rolled back")
    async with db.transaction() as session:
        await session.script("INSERT INTO scratch VALUES (4);\nDELETE FROM scratch WHERE n = 4;")
    counts = db.stop()
    assert counts == {"": Counts(statements=6, transactions=3, reads=1)}
    assert [sql for _, sql in db.trace][:2] == ["INSERT INTO scratch VALUES (?)"] * 2
    async with db.reading() as session:
        # The rolled-back insert is gone: the wrapper changes nothing of what runs.
        assert [r["n"] for r in await session.all("SELECT n FROM scratch ORDER BY n")] == [1, 2]
    assert db.stop() == {}, "nothing is counted after stop()"


async def test_counts_what_the_repository_runs(db: CountingDatabase) -> None:
    repo = Repo(db)
    db.start()
    await repo.execute("INSERT INTO scratch VALUES (1)")  # a block of its own
    async with repo.transaction():
        await repo.one("SELECT n FROM scratch")
        async with repo.reading():  # the transaction's session, not another block
            await repo.all("SELECT n FROM scratch")
    assert db.stop() == {"": Counts(statements=3, transactions=2, reads=0)}


async def test_labels_follow_the_block_and_its_tasks(db: CountingDatabase) -> None:
    async def read() -> None:
        async with db.reading() as session:
            await session.one("SELECT 1")

    db.start()
    await read()
    with db.labelled("delivery"):
        await read()
        await asyncio.create_task(read())
    counts = db.stop()
    assert counts == {"": Counts(1, 0, 1), "delivery": Counts(2, 0, 2)}
    assert sum(counts.values(), Counts()) == Counts(3, 0, 3)
    assert db.trace == [("", "SELECT 1"), ("delivery", "SELECT 1"), ("delivery", "SELECT 1")]
