"""Settings from the environment: `.env.example` as it ships, shards, and either database."""

from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.settings import Settings

ROOT = Path(__file__).resolve().parents[2]


def test_the_shipped_env_example_loads_with_its_empty_values(monkeypatch) -> None:
    for name in ("DATABASE", "SHARD_COUNT", "SHARD_IDS", "DEV_GUILD_ID", "DISCORD_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    settings = Settings(_env_file=ROOT / ".env.example")
    assert settings.database == "bot.sqlite3" and settings.discord_token is None
    assert settings.shard_count is None and settings.shard_ids is None
    assert settings.dev_guild_id is None


def test_shard_ids_read_as_a_list_and_must_fit_the_count(monkeypatch) -> None:
    monkeypatch.setenv("SHARD_COUNT", "4")
    for text, ids in (("1", [1]), ("0,2", [0, 2]), ("0, 3", [0, 3])):
        monkeypatch.setenv("SHARD_IDS", text)
        assert Settings(_env_file=None).shard_ids == ids
    monkeypatch.setenv("SHARD_IDS", "4")
    with pytest.raises(ValidationError, match=r"SHARD_IDS \[4\] are not below SHARD_COUNT 4"):
        Settings(_env_file=None)
    monkeypatch.delenv("SHARD_COUNT")
    monkeypatch.setenv("SHARD_IDS", "0")
    with pytest.raises(ValidationError, match="SHARD_IDS needs SHARD_COUNT"):
        Settings(_env_file=None)


def test_database_is_a_file_path_or_a_postgres_url(monkeypatch) -> None:
    monkeypatch.setenv("DATABASE", "postgresql://bot@127.0.0.1:5432/games")
    assert Settings(_env_file=None).database == "postgresql://bot@127.0.0.1:5432/games"
    assert Settings(_env_file=None, database=Path("/tmp/x.sqlite3")).database == "/tmp/x.sqlite3"
