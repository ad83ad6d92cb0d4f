"""SQLite, the embedded default: one connection in WAL mode, transactions taken in turn."""

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import aiosqlite

from bot.store.backend import Database, Row, Session, plain


class SQLiteSession(Session):
    def __init__(self, db: aiosqlite.Connection, in_transaction: bool) -> None:
        self.db = db
        self.in_transaction = in_transaction

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        async with self.db.execute(sql, [plain(a) for a in args]) as cur:
            return cur.rowcount

    async def one(self, sql: str, args: Sequence[Any] = ()) -> Row | None:
        async with self.db.execute(sql, [plain(a) for a in args]) as cur:
            return await cur.fetchone()

    async def all(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        async with self.db.execute(sql, [plain(a) for a in args]) as cur:
            return list(await cur.fetchall())

    async def script(self, sql: str) -> None:
        # executescript would commit the open transaction, so statements go one by one.
        for statement in statements(sql):
            await self.db.execute(statement)


class SQLiteDatabase(Database):
    """One connection serves every task, so a transaction must not interleave with another."""

    dialect = "sqlite"

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db
        self._lock = asyncio.Lock()

    @classmethod
    async def connect(cls, path: str) -> "SQLiteDatabase":
        db = await aiosqlite.connect(path, isolation_level=None)
        try:
            db.row_factory = aiosqlite.Row
            # First, so that switching to WAL waits for another process opening the file too.
            await db.execute("PRAGMA busy_timeout=5000")
            await db.execute("PRAGMA journal_mode=WAL")
            await db.execute("PRAGMA foreign_keys=ON")
        except BaseException:
            # aiosqlite's thread would keep the process alive after the error.
            await db.close()
            raise
        return cls(db)

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[Session]:
        async with self._lock:
            yield SQLiteSession(self.db, in_transaction=False)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Session]:
        async with self._lock:
            # IMMEDIATE takes the write lock at once, so other processes on the file wait here
            # rather than failing at their first write.
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                yield SQLiteSession(self.db, in_transaction=True)
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise
            await self.db.execute("COMMIT")

    async def lock_migrations(self, session: Session) -> None:
        """BEGIN IMMEDIATE already excludes every other writer."""

    def transient(self, exc: BaseException) -> bool:
        # A locked or busy file passes, and so does a full disk or a file made read-only (until
        # the operator mends it, work waits); "no such table" or a corrupt row does not.
        text = str(exc).lower()
        return isinstance(exc, sqlite3.OperationalError) and any(
            word in text for word in ("locked", "busy", "disk is full", "readonly")
        )

    async def close(self) -> None:
        await self.db.close()


def statements(sql: str) -> list[str]:
    """Split a script into statements (triggers included)."""
    found, buf = [], ""
    for line in sql.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            found.append(buf.strip())
            buf = ""
    if buf.strip() and not all(
        ln.strip().startswith("--") or not ln.strip() for ln in buf.splitlines()
    ):
        raise ValueError(f"unterminated SQL statement: {buf.strip()[:60]}")
    return found
