"""The service tests' fixture: a migrated database file and a manual clock."""

import pytest

from bot.service.clock import ManualClock
from bot.service.service import Service
from bot.store.database import open_database
from bot.store.repo import Repo


@pytest.fixture
async def world(tmp_path):
    db = await open_database(tmp_path / "bot.sqlite3")
    clock = ManualClock()
    yield Service(Repo(db), clock), clock, tmp_path / "bot.sqlite3"
    await db.close()
