"""The tournament tests' world: a service on the test's database, its AI seats quick."""

from random import Random

import pytest

from bot.service.clock import ManualClock
from bot.service.service import Service
from bot.service.tournament.runner import Tournaments
from bot.store.database import open_database
from bot.store.repo import Repo
from engine.powerline import autopilot
from engine.powerline.planning import Seat

ORGANISER = 1


@pytest.fixture
async def world(database_target, monkeypatch):
    # The autopilot plays well but takes ~20 ms a decision; random legal plans keep 24 games fast.
    rng = Random(5)
    monkeypatch.setattr(
        autopilot,
        "choose",
        lambda view, seat, **_: autopilot.random_plan(Seat.from_view(view, seat), rng),
    )
    db = await open_database(database_target)
    svc = Service(Repo(db), ManualClock())
    yield svc, Tournaments(svc)
    await db.close()
