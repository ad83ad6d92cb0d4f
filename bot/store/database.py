"""Opening the database that `DATABASE` names (a SQLite file, or a `postgresql://` URL) and
migrating it idempotently at start."""

import logging
import sqlite3
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path

import asyncpg

from bot.store.backend import Database
from bot.store.postgres import PostgresDatabase
from bot.store.sqlite import SQLiteDatabase

log = logging.getLogger(__name__)

DIALECTS = ("sqlite", "postgres")


class NewerDatabase(RuntimeError):
    """The database was migrated by a newer version of the bot; this one must not touch it."""


class DatabaseUnavailable(RuntimeError):
    """The database could not be opened (a damaged file, a server that refuses): the bot does
    not start, and says why in one sentence."""


def is_postgres(target: Path | str) -> bool:
    return str(target).startswith(("postgresql://", "postgres://"))


def migrations(dialect: str) -> list[tuple[int, str, str]]:
    """(number, name, SQL) of every migration file of a dialect, in order."""
    found = []
    folder = resources.files(__package__).joinpath("migrations", dialect)
    for entry in folder.iterdir():
        if entry.name.endswith(".sql"):
            number = int(entry.name.split("_", 1)[0])
            found.append((number, entry.name, entry.read_text("utf-8")))
    numbers = [n for n, _, _ in found]
    if len(set(numbers)) != len(numbers):
        raise RuntimeError("two migrations share a number")
    return sorted(found)


async def open_database(target: Path | str) -> Database:
    """Open (creating a SQLite file if needed) and migrate; `:memory:` works for tests."""
    where = "the PostgreSQL server" if is_postgres(target) else str(target)
    try:
        if is_postgres(target):
            db: Database = await PostgresDatabase.connect(str(target))
        else:
            db = await SQLiteDatabase.connect(str(target))
    except (OSError, sqlite3.Error, asyncpg.PostgresError) as exc:
        raise DatabaseUnavailable(f"the database at {where} could not be opened: {exc}") from exc
    try:
        await migrate(db)
    except (sqlite3.DatabaseError, asyncpg.PostgresError) as exc:
        await db.close()
        raise DatabaseUnavailable(f"the database at {where} could not be read: {exc}") from exc
    except BaseException:
        await db.close()
        raise
    return db


async def migrate(db: Database) -> list[str]:
    """Apply the migrations not yet applied, each in its own transaction; return their names.
    Processes starting together take turns, and each migration is applied once."""
    async with db.transaction() as session:
        await db.lock_migrations(session)
        await session.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations "
            "(number INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
        )
    applied = []
    known = migrations(db.dialect)
    for number, name, sql in known:
        async with db.transaction() as session:
            await db.lock_migrations(session)
            done = {
                row["number"] for row in await session.all("SELECT number FROM schema_migrations")
            }
            newer = done - {n for n, _, _ in known}
            if newer:
                raise NewerDatabase(
                    f"The database has migration {max(newer)}, newer than this bot knows "
                    f"(up to {known[-1][0]}): run the bot version that made it, or a newer one."
                )
            if number in done:
                continue
            await session.script(sql)
            await session.execute(
                "INSERT INTO schema_migrations VALUES (?, ?, ?)",
                (number, name, datetime.now(UTC).isoformat()),
            )
        log.info("applied migration %s", name)
        applied.append(name)
    return applied
