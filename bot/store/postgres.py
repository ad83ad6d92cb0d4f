"""PostgreSQL through asyncpg: a pool shared by the tasks of one process, and by many processes."""

import re
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from functools import lru_cache
from typing import Any

import asyncpg

from bot.store.backend import Database, Row, Session, plain

MIGRATION_LOCK = 0x6267626F74
"""The advisory lock key that serialises migrations between processes starting together."""


@lru_cache(maxsize=1024)
def numbered(sql: str) -> str:
    """The repository writes `?` marks (SQLite's); PostgreSQL wants `$1`, `$2`…"""
    parts = re.split(r"('(?:[^']|'')*')", sql)
    count = 0
    for i in range(0, len(parts), 2):
        pieces = parts[i].split("?")
        text = pieces[0]
        for piece in pieces[1:]:
            count += 1
            text += f"${count}{piece}"
        parts[i] = text
    return "".join(parts)


def _changed(status: str) -> int:
    """Rows changed, from a command tag such as "UPDATE 1" or "INSERT 0 1"."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class PostgresSession(Session):
    def __init__(self, conn: asyncpg.Connection, in_transaction: bool) -> None:
        self.conn = conn
        self.in_transaction = in_transaction

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        return _changed(await self.conn.execute(numbered(sql), *[plain(a) for a in args]))

    async def one(self, sql: str, args: Sequence[Any] = ()) -> Row | None:
        return await self.conn.fetchrow(numbered(sql), *[plain(a) for a in args])

    async def all(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        return list(await self.conn.fetch(numbered(sql), *[plain(a) for a in args]))

    async def script(self, sql: str) -> None:
        await self.conn.execute(sql)


class PostgresDatabase(Database):
    """Each transaction takes its own pooled connection; rows it changes are locked until commit."""

    dialect = "postgres"

    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool

    @classmethod
    async def connect(cls, url: str, size: int = 10) -> "PostgresDatabase":
        pool = await asyncpg.create_pool(url, min_size=1, max_size=size)
        return cls(pool)

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[Session]:
        async with (
            self.pool.acquire() as conn,
            conn.transaction(isolation="repeatable_read", readonly=True),
        ):
            yield PostgresSession(conn, in_transaction=False)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Session]:
        async with self.pool.acquire() as conn, conn.transaction():
            yield PostgresSession(conn, in_transaction=True)

    async def lock_migrations(self, session: Session) -> None:
        await session.execute(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")

    async def close(self) -> None:
        await self.pool.close()
