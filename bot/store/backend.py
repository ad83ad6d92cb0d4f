"""What the repository needs of a database, whichever engine holds it (SQLite or PostgreSQL)."""

from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol


class Row(Protocol):
    """A result row: by column name (`row["id"]`) or position (`row[0]`, unpacking), and
    `dict(row)` gives every column. Not a Mapping: iterating it gives the values."""

    def __getitem__(self, column: str | int, /) -> Any: ...
    def __iter__(self) -> Iterator[Any]: ...
    def __len__(self) -> int: ...
    def keys(self) -> Iterable[str]: ...


class CommitUnknown(RuntimeError):
    """The connection was lost as a change committed, and the database could not be asked in
    time whether it was stored: a passing fault whose outcome is not yet known."""


class Session(ABC):
    """One connection's statements, inside a transaction or a consistent read."""

    in_transaction: bool

    @abstractmethod
    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        """Run one statement written with `?` marks; returns the rows it changed."""

    @abstractmethod
    async def one(self, sql: str, args: Sequence[Any] = ()) -> Row | None: ...

    @abstractmethod
    async def all(self, sql: str, args: Sequence[Any] = ()) -> list[Row]: ...

    @abstractmethod
    async def script(self, sql: str) -> None:
        """Run a migration file (several statements) inside the current transaction."""


class Database(ABC):
    """A pool of sessions: `reading()` for consistent reads, `transaction()` for changes."""

    dialect: str
    """"sqlite" or "postgres": the few statements that differ look at it."""

    @abstractmethod
    def reading(self) -> AbstractAsyncContextManager[Session]: ...

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Session]:
        """A write transaction: committed when the block ends, rolled back if it raises."""

    @abstractmethod
    async def lock_migrations(self, session: Session) -> None:
        """Hold off other processes migrating the same database until this transaction ends."""

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    def transient(self, exc: BaseException) -> bool:
        """Whether `exc` is a passing fault of the database (a lost connection, a timeout, a
        lock or serialization conflict, an exhausted pool): the work is tried again later, not
        set aside as broken."""

    async def healthy(self) -> bool:
        """Whether the database answers now."""
        try:
            async with self.reading() as session:
                await session.one("SELECT 1 AS ok")
        except Exception:
            return False
        return True


def plain(value: Any) -> Any:
    """Flags are stored as 0/1 in both engines, so Python booleans go in as integers."""
    return int(value) if isinstance(value, bool) else value
