"""A `Database` wrapper that counts what runs through it, for benchmarks and tests; the bot never
wraps its database in it."""

from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from bot.store.backend import Database, Row, Session


@dataclass
class Counts:
    """Statements (`execute`, `one`, `all` and `script` calls), `transaction()` blocks and
    `reading()` blocks."""

    statements: int = 0
    transactions: int = 0
    reads: int = 0

    def __add__(self, other: "Counts") -> "Counts":
        return Counts(
            self.statements + other.statements,
            self.transactions + other.transactions,
            self.reads + other.reads,
        )


class CountingSession(Session):
    def __init__(self, inner: Session, owner: "CountingDatabase") -> None:
        self.inner = inner
        self.owner = owner
        self.in_transaction = inner.in_transaction

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        self.owner._statement(sql)
        return await self.inner.execute(sql, args)

    async def one(self, sql: str, args: Sequence[Any] = ()) -> Row | None:
        self.owner._statement(sql)
        return await self.inner.one(sql, args)

    async def all(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        self.owner._statement(sql)
        return await self.inner.all(sql, args)

    async def script(self, sql: str) -> None:
        self.owner._statement(sql)
        await self.inner.script(sql)


class CountingDatabase(Database):
    """Delegates everything to `inner`; between `start()` and `stop()` it counts, under the label
    of the `labelled()` block each call runs in ("" outside any)."""

    def __init__(self, inner: Database) -> None:
        self.inner = inner
        # The real databases name their dialect on the class; the wrapper takes its inner one's.
        self.dialect = inner.dialect
        self._label: ContextVar[str] = ContextVar(f"label{id(self)}", default="")
        self._counts: dict[str, Counts] | None = None
        self.trace: list[tuple[str, str]] = []
        """(label, SQL) of each statement counted since the last `start()`."""

    def start(self) -> None:
        self._counts = {}
        self.trace = []

    def stop(self) -> dict[str, Counts]:
        """The counts since `start()`, by label; counting ends until the next `start()`."""
        counts, self._counts = self._counts or {}, None
        return counts

    @contextmanager
    def labelled(self, label: str) -> Iterator[None]:
        """Counts the calls of this block, and of the tasks it starts, under `label`."""
        token = self._label.set(label)
        try:
            yield
        finally:
            self._label.reset(token)

    def _tally(self) -> Counts | None:
        if self._counts is None:
            return None
        return self._counts.setdefault(self._label.get(), Counts())

    def _statement(self, sql: str) -> None:
        if (tally := self._tally()) is not None:
            tally.statements += 1
            self.trace.append((self._label.get(), sql))

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[Session]:
        if (tally := self._tally()) is not None:
            tally.reads += 1
        async with self.inner.reading() as session:
            yield CountingSession(session, self)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Session]:
        if (tally := self._tally()) is not None:
            tally.transactions += 1
        async with self.inner.transaction() as session:
            yield CountingSession(session, self)

    async def lock_migrations(self, session: Session) -> None:
        await self.inner.lock_migrations(session)

    async def close(self) -> None:
        await self.inner.close()

    def transient(self, exc: BaseException) -> bool:
        return self.inner.transient(exc)
