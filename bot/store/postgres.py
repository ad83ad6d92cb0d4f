"""PostgreSQL through asyncpg: a pool shared by the tasks of one process, and by many processes."""

import asyncio
import contextlib
import logging
import re
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from functools import lru_cache
from typing import Any

import asyncpg

from bot.store.backend import CommitUnknown, Database, Row, Session, plain

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


log = logging.getLogger(__name__)

ACQUIRE_SECONDS = 5.0
"""How long a command waits for a pooled connection before it is told to try again."""
STATEMENT_SECONDS = 10
LOCK_SECONDS = 5
LIMITS = (
    f"SET LOCAL statement_timeout = '{STATEMENT_SECONDS}s'; "
    f"SET LOCAL lock_timeout = '{LOCK_SECONDS}s'"
)
"""Per transaction: a statement or a wait for a row lock never holds a connection longer (one
locked game must not exhaust the pool for every other game)."""
WRITE_LIMITS = (
    f"SELECT set_config('statement_timeout', '{STATEMENT_SECONDS}s', true), "
    f"set_config('lock_timeout', '{LOCK_SECONDS}s', true), txid_current() AS xid"
)
"""The same limits for a writing transaction, in the same round trip as its id: when the answer
to its COMMIT is lost, the id tells whether it was stored."""

COMMIT_CHECK_SECONDS = 30.0
"""How long a change whose COMMIT lost its answer waits to learn whether it was stored: longer
than a server takes to restart, and well within the 15 minutes an acknowledged interaction
may take to be answered."""
COMMIT_CHECK_PAUSE = 0.5

TRANSIENT = (
    CommitUnknown,
    asyncpg.PostgresConnectionError,
    asyncpg.InterfaceError,
    # What a connection cut mid-query reports on its next use ("another operation is in
    # progress"); the pool drops it.
    asyncpg.exceptions.InternalClientError,
    asyncpg.exceptions.ConnectionDoesNotExistError,
    asyncpg.exceptions.SerializationError,
    asyncpg.exceptions.DeadlockDetectedError,
    asyncpg.exceptions.LockNotAvailableError,
    asyncpg.exceptions.QueryCanceledError,
    asyncpg.exceptions.TooManyConnectionsError,
    asyncpg.exceptions.CannotConnectNowError,
    asyncpg.exceptions.AdminShutdownError,
    ConnectionError,
    OSError,
    TimeoutError,
)
"""Faults that pass: the connection, the server restarting, a timeout, a conflict, a full pool."""


class PostgresDatabase(Database):
    """Each transaction takes its own pooled connection; rows it changes are locked until commit."""

    dialect = "postgres"

    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool

    @classmethod
    async def connect(cls, url: str, size: int = 10) -> "PostgresDatabase":
        # No floor of idle connections: asyncpg would keep restoring it through an outage,
        # with a traceback each time; connections open as work asks for them.
        pool = await asyncpg.create_pool(
            url, min_size=0, max_size=size, command_timeout=STATEMENT_SECONDS + 5
        )
        try:
            # The pool opens nothing by itself: a server that refuses is found out here.
            async with pool.acquire(timeout=ACQUIRE_SECONDS) as conn:
                await conn.execute("SELECT 1")
        except BaseException:
            await pool.close()
            raise
        return cls(pool)

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[Session]:
        async with (
            self._connection() as conn,
            conn.transaction(isolation="repeatable_read", readonly=True),
        ):
            await conn.execute(LIMITS)
            yield PostgresSession(conn, in_transaction=False)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Session]:
        lost: Exception | None = None
        async with self._connection() as conn:
            tx = conn.transaction()
            await tx.start()
            try:
                xid = (await conn.fetchrow(WRITE_LIMITS))["xid"]
                yield PostgresSession(conn, in_transaction=True)
            except BaseException:
                with contextlib.suppress(Exception):  # a lost connection rolled it back already
                    await tx.rollback()
                raise
            try:
                await tx.commit()
            except Exception as exc:
                if not self.transient(exc):
                    raise
                lost = exc
        if lost is None:
            return
        # The connection may be cut after the server committed: the change is then stored, and
        # must be reported as made. The cut connection went back to the pool first, so that
        # asking on another never waits for it.
        stored = await self._committed(xid)
        if stored is None:
            raise CommitUnknown(f"transaction {xid}: {lost!r}") from lost
        if not stored:
            raise lost
        log.warning("a commit's answer was lost, but it is stored: %r", lost)

    async def _committed(self, xid: int) -> bool | None:
        """Whether transaction `xid` committed, asked on other connections until the server can
        tell (it may be restarting); None if it could not within `COMMIT_CHECK_SECONDS`."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + COMMIT_CHECK_SECONDS
        while True:
            try:
                async with self.pool.acquire(timeout=ACQUIRE_SECONDS) as conn:
                    status = await conn.fetchval("SELECT txid_status($1)", xid)
                if status != "in progress":
                    return status == "committed"
            except Exception as exc:
                if not self.transient(exc):
                    raise
            if loop.time() >= deadline:
                return None
            await asyncio.sleep(COMMIT_CHECK_PAUSE)

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[asyncpg.Connection]:
        """A pooled connection within the acquire timeout. Once its block has ended well (the
        transaction committed, or its COMMIT's answer was lost and is asked for next), a failure
        to hand the connection back is logged, not raised: the change may be stored."""
        conn = await self.pool.acquire(timeout=ACQUIRE_SECONDS)
        ended = False
        try:
            yield conn
            ended = True
        finally:
            try:
                await self.pool.release(conn)
            except Exception as exc:
                if not ended:
                    raise
                log.warning("a connection could not be returned after its commit: %r", exc)

    async def lock_migrations(self, session: Session) -> None:
        await session.execute(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")

    async def close(self) -> None:
        await self.pool.close()

    def transient(self, exc: BaseException) -> bool:
        return isinstance(exc, TRANSIENT)
