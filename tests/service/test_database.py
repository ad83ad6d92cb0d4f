"""Migrations: numbered, applied once each, in one transaction each, and the same schema on both
backends."""

import asyncio
import json

import pytest

from bot.store.database import NewerDatabase, migrate, migrations, open_database
from bot.store.postgres import numbered
from bot.store.repo import PanelRow, Repo
from bot.store.sqlite import statements


async def test_migrations_apply_once_and_record_themselves(database_target):
    db = await open_database(database_target)
    try:
        assert await migrate(db) == []  # open_database applied them all already
        async with db.reading() as session:
            rows = await session.all("SELECT number FROM schema_migrations ORDER BY number")
        numbers = [row["number"] for row in rows]
        assert numbers == [n for n, _, _ in migrations(db.dialect)]
        assert numbers == sorted(set(numbers))
        if db.dialect == "sqlite":
            async with db.reading() as session:
                assert (await session.one("PRAGMA journal_mode"))[0] == "wal"
    finally:
        await db.close()


def test_each_migration_has_its_twin_with_the_same_number_and_name():
    sqlite, postgres = migrations("sqlite"), migrations("postgres")
    assert [(n, name) for n, name, _ in sqlite] == [(n, name) for n, name, _ in postgres]


async def _schema(db) -> dict[str, object]:
    """Tables with their columns in order, and the names of the indexes."""
    async with db.reading() as s:
        if db.dialect == "sqlite":
            tables = [
                r["name"]
                for r in await s.all(
                    "SELECT name FROM sqlite_master WHERE type = 'table' "
                    "AND name NOT LIKE 'sqlite_%' ORDER BY name"
                )
            ]
            columns = {
                t: [r["name"] for r in await s.all(f"PRAGMA table_info({t})")] for t in tables
            }
            indexes = await s.all(
                "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
            )
        else:
            rows = await s.all(
                "SELECT table_name, column_name FROM information_schema.columns "
                "WHERE table_schema = 'public' ORDER BY table_name, ordinal_position"
            )
            columns = {}
            for r in rows:
                columns.setdefault(r["table_name"], []).append(r["column_name"])
            indexes = await s.all(
                "SELECT indexname AS name FROM pg_indexes WHERE schemaname = 'public' "
                "AND indexname NOT LIKE '%_pkey' AND indexname NOT LIKE '%_key'"
            )
    return {"columns": dict(sorted(columns.items())), "indexes": sorted(r["name"] for r in indexes)}


async def test_both_backends_end_with_the_same_tables_columns_and_indexes(tmp_path, pg_cluster):
    lite = await open_database(tmp_path / "a.sqlite3")
    pg = await open_database(await pg_cluster.create_database("schema_twins"))
    try:
        assert await _schema(lite) == await _schema(pg)
    finally:
        await lite.close()
        await pg.close()


async def test_processes_starting_together_migrate_once(pg_cluster):
    url = await pg_cluster.create_database("migrate_race")
    opened = await asyncio.gather(*(open_database(url) for _ in range(4)))
    try:
        async with opened[0].reading() as s:
            rows = await s.all("SELECT number FROM schema_migrations")
        assert len(rows) == len(migrations("postgres"))
    finally:
        for db in opened:
            await db.close()


def test_statement_splitting_keeps_triggers_whole():
    sql = (
        "-- a comment; with a semicolon\n"
        "CREATE TABLE t (x INTEGER);\n"
        "CREATE TRIGGER tr AFTER INSERT ON t BEGIN\n"
        "  UPDATE t SET x = x + 1;\n"
        "END;\n"
    )
    parts = statements(sql)
    assert len(parts) == 2 and parts[1].startswith("CREATE TRIGGER") and parts[1].endswith("END;")


def test_question_marks_become_numbered_parameters_outside_string_literals():
    assert numbered("SELECT * FROM t WHERE a = ? AND b = 'why?' AND c IN (?, ?)") == (
        "SELECT * FROM t WHERE a = $1 AND b = 'why?' AND c IN ($2, $3)"
    )


async def test_a_database_newer_than_the_code_refuses_to_start(database_target):
    db = await open_database(database_target)
    async with db.transaction() as s:
        await s.execute("INSERT INTO schema_migrations VALUES (999, '0999_future.sql', 'x')")
    await db.close()
    with pytest.raises(NewerDatabase, match="migration 999, newer than this bot knows"):
        await open_database(database_target)


CLOCK_COLUMNS = [
    ("games", "clock_started"),
    ("games", "paused_at"),
    ("seats", "bank_seconds"),
    ("seats", "turn_since"),
]
"""The columns 0016 adds."""


DAILY_TABLES = (
    "daily_secret",
    "daily_entries",
    "daily_closings",
    "daily_servers",
    "daily_reminders",
    "season_closings",
)
"""The tables migration 0019 makes."""
EVENT_TABLES = ("tournament_checkins", "tournament_present", "tournament_byes", "tournament_posts")
"""The tables migration 0021 makes."""
EVENT_COLUMNS = (
    ("tournaments", "format"),
    ("tournaments", "pods"),
    ("tournaments", "signup_role_id"),
    ("tournaments", "champion_role_id"),
    ("tournaments", "event_id"),
    ("tournaments", "starts_at"),
    ("tournaments", "announced"),
    ("tournament_players", "withdrawn_at"),
    ("seats", "ai_level"),
)
"""The columns migrations 0020 and 0021 add."""


async def test_pre_moves_kept_as_draft_steps_move_to_their_own_rows(database_target):
    """A database from before 0008 keeps a seat's pre-moves as its draft steps: migrated, they
    are rows in their order, and the draft that held them is gone."""
    db = await open_database(database_target)
    try:
        async with db.transaction() as s:
            await s.execute("DROP TABLE premoves")
            await s.execute("DROP TABLE panels")
            await s.execute("DROP TABLE identify_slots")
            await s.execute("DROP TABLE owed_replies")
            await s.execute("DROP TABLE servers")
            await s.execute("ALTER TABLE seats DROP COLUMN muted")
            await s.execute("DROP TABLE vacations")
            await s.execute("DROP TABLE people")
            await s.execute("DROP TABLE heads_ups")
            await s.execute("DROP INDEX actions_timeouts")
            for table, column in CLOCK_COLUMNS:
                await s.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
            await s.execute("DROP INDEX outbox_posts_message")
            for table in DAILY_TABLES + EVENT_TABLES:
                await s.execute(f"DROP TABLE {table}")
            for table, column in EVENT_COLUMNS:
                await s.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
            # The daily entries' column, and the index that leaves them out, as before 0019.
            await s.execute("DROP INDEX one_open_game_per_channel")
            await s.execute("ALTER TABLE games DROP COLUMN challenge")
            await s.execute(
                "CREATE UNIQUE INDEX one_open_game_per_channel ON games "
                "(coalesce(thread_id, channel_id)) WHERE status IN ('lobby', 'active')"
            )
            await s.execute("DELETE FROM schema_migrations WHERE number >= 8")
            await s.execute(
                "INSERT INTO games (id, game, guild_id, channel_id, host_id, status, config, "
                "options, seed, created_at, updated_at) VALUES (1, 'g', 1, 1, 1, 'active', '{}', "
                "'{}', 1, '', '')"
            )
            steps = [
                {"premove": "auction", "scope": [2, "auction"]},
                {"premove": "resources", "scope": [2, "resources"]},
            ]
            await s.execute(
                "INSERT INTO drafts (game_id, seat, round, steps, vacation, updated_at) "
                "VALUES (1, 3, 0, ?, 0, 'then')",
                (json.dumps(steps),),
            )
        assert await migrate(db) == [
            "0008_premoves.sql",
            "0009_panels.sql",
            "0010_identify.sql",
            "0011_posted_messages.sql",
            "0012_panels_dm_flag.sql",
            "0013_owed_replies.sql",
            "0014_servers.sql",
            "0015_muted.sql",
            "0016_clocks.sql",
            "0017_people.sql",
            "0018_timeouts.sql",
            "0019_dailies.sql",
            "0020_ai_levels.sql",
            "0021_tournament_events.sql",
        ]
        async with Repo(db).reading() as repo:
            assert await repo.premoves(1, 3) == [{**p, "amount": None, "due": None} for p in steps]
            assert await repo.all("SELECT * FROM drafts") == []
    finally:
        await db.close()


async def test_a_turn_panel_is_recorded_and_read_back(database_target):
    """Recorded "your turn" panels round-trip on both backends (PostgreSQL once refused the
    flag, as 0009 declared it BOOLEAN while the repository writes flags as 0/1)."""
    db = await open_database(database_target)
    try:
        async with db.transaction() as s:
            await s.execute(
                "INSERT INTO games (id, game, guild_id, channel_id, host_id, status, config, "
                "options, seed, created_at, updated_at) VALUES (1, 'g', 1, 1, 1, 'active', '{}', "
                "'{}', 1, '', '')"
            )
        async with Repo(db).transaction() as repo:
            await repo.set_panel(1, 0, PanelRow(7, 8, dm=True))
            await repo.set_panel(1, 1, PanelRow(9, 10, dm=False))
        async with Repo(db).reading() as repo:
            assert await repo.panels(1) == {0: PanelRow(7, 8, True), 1: PanelRow(9, 10, False)}
    finally:
        await db.close()


async def test_no_postgres_column_is_boolean(pg_cluster):
    """The repository writes every flag as 0/1, which a BOOLEAN column refuses."""
    db = await open_database(await pg_cluster.create_database("no_booleans"))
    try:
        async with db.reading() as s:
            rows = await s.all(
                "SELECT table_name, column_name FROM information_schema.columns "
                "WHERE table_schema = 'public' AND data_type = 'boolean'"
            )
        assert rows == []
    finally:
        await db.close()
