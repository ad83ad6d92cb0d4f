"""The SQLite database: opened in WAL mode, migrated idempotently at start."""

import logging
import sqlite3
from importlib import resources
from pathlib import Path

import aiosqlite

log = logging.getLogger(__name__)


class NewerDatabase(RuntimeError):
    """The database was migrated by a newer version of the bot; this one must not touch it."""


def migrations() -> list[tuple[int, str, str]]:
    """(number, name, SQL) of every migration file, in order."""
    found = []
    for entry in resources.files(__package__).joinpath("migrations").iterdir():
        if entry.name.endswith(".sql"):
            number = int(entry.name.split("_", 1)[0])
            found.append((number, entry.name, entry.read_text("utf-8")))
    numbers = [n for n, _, _ in found]
    if len(set(numbers)) != len(numbers):
        raise RuntimeError("two migrations share a number")
    return sorted(found)


async def open_database(path: Path | str) -> aiosqlite.Connection:
    """Open (creating if needed) and migrate; `:memory:` works for tests."""
    db = await aiosqlite.connect(path, isolation_level=None)
    db.row_factory = aiosqlite.Row
    await db.execute("PRAGMA journal_mode=WAL")
    await db.execute("PRAGMA foreign_keys=ON")
    await db.execute("PRAGMA busy_timeout=5000")
    try:
        await migrate(db)
    except BaseException:
        await db.close()
        raise
    return db


async def migrate(db: aiosqlite.Connection) -> list[str]:
    """Apply the migrations not yet applied, each in its own transaction; return their names."""
    await db.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations "
        "(number INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
    )
    async with db.execute("SELECT number FROM schema_migrations") as cur:
        done = {row[0] for row in await cur.fetchall()}
    known = {number for number, _, _ in migrations()}
    if done - known:
        raise NewerDatabase(
            f"The database has migration {max(done - known)}, newer than this bot knows "
            f"(up to {max(known)}): run the bot version that made it, or a newer one."
        )
    applied = []
    for number, name, sql in migrations():
        if number in done:
            continue
        await db.execute("BEGIN IMMEDIATE")
        try:
            for statement in _statements(sql):
                await db.execute(statement)
            await db.execute(
                "INSERT INTO schema_migrations VALUES (?, ?, datetime('now'))", (number, name)
            )
            await db.execute("COMMIT")
        except BaseException:
            await db.execute("ROLLBACK")
            raise
        log.info("applied migration %s", name)
        applied.append(name)
    return applied


def _statements(sql: str) -> list[str]:
    """Split a script into statements (triggers included), since executescript would commit."""
    statements, buf = [], ""
    for line in sql.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            statements.append(buf.strip())
            buf = ""
    if buf.strip() and not all(
        ln.strip().startswith("--") or not ln.strip() for ln in buf.splitlines()
    ):
        raise ValueError(f"unterminated SQL statement: {buf.strip()[:60]}")
    return statements
