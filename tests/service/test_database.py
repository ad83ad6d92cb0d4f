"""Migrations: numbered, applied once each, in one transaction each."""

import pytest

from bot.store.database import NewerDatabase, _statements, migrate, migrations, open_database


async def test_migrations_apply_once_and_record_themselves(tmp_path):
    db = await open_database(tmp_path / "a.sqlite3")
    try:
        assert await migrate(db) == []  # open_database applied them all already
        async with db.execute("SELECT number FROM schema_migrations ORDER BY number") as cur:
            numbers = [row[0] for row in await cur.fetchall()]
        assert numbers == [n for n, _, _ in migrations()] and numbers == sorted(set(numbers))
        async with db.execute("PRAGMA journal_mode") as cur:
            assert (await cur.fetchone())[0] == "wal"
    finally:
        await db.close()


def test_statement_splitting_keeps_triggers_whole():
    sql = (
        "-- a comment; with a semicolon\n"
        "CREATE TABLE t (x INTEGER);\n"
        "CREATE TRIGGER tr AFTER INSERT ON t BEGIN\n"
        "  UPDATE t SET x = x + 1;\n"
        "END;\n"
    )
    parts = _statements(sql)
    assert len(parts) == 2 and parts[1].startswith("CREATE TRIGGER") and parts[1].endswith("END;")


async def test_a_database_newer_than_the_code_refuses_to_start(tmp_path):
    db = await open_database(tmp_path / "bot.sqlite3")
    await db.execute("INSERT INTO schema_migrations VALUES (999, '0999_future.sql', 'x')")
    await db.close()
    with pytest.raises(NewerDatabase, match="migration 999, newer than this bot knows"):
        await open_database(tmp_path / "bot.sqlite3")
