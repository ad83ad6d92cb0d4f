"""The service tests' fixture: a migrated database (each backend in turn) and a manual clock."""

import pytest

from bot.service.clock import ManualClock
from bot.service.service import Service
from bot.store.database import open_database
from bot.store.repo import Repo


@pytest.fixture
async def world(database_target):
    db = await open_database(database_target)
    clock = ManualClock()
    yield Service(Repo(db), clock), clock, database_target
    await db.close()
