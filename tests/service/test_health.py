"""What `python -m bot health` tells an operator: the database answers, the outbox's backlog and
lag, the leases held, and the running and overdue games; a non-zero exit when it is not well."""

import json
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

from bot.service.options import TableOptions
from tests.service.helpers import ALICE, BOB


async def test_the_figures_follow_the_outbox_the_leases_and_the_deadlines(world) -> None:
    svc, clock, _ = world
    table = await svc.open_table("power_grid", 1, 10, ALICE, "Alice", {}, TableOptions())
    await svc.join(table.row.id, BOB, "Bob")
    await svc.start(table.row.id, ALICE, False)
    async with svc.repo.reading() as repo:
        now = await repo.health(clock.now())
    assert now["outbox_pending"] > 0 and now["outbox_lag_seconds"] == 0
    assert now["games_running"] == 1 and now["games_overdue"] == 0 and now["leases"] == {}
    leased = await svc.lease_games("shard-0", timedelta(seconds=15), 10)
    async with svc.repo.reading() as repo:
        assert (await repo.health(clock.now()))["leases"] == {"shard-0": len(leased)} != {}
    clock.advance(days=2)
    async with svc.repo.reading() as repo:
        later = await repo.health(clock.now())
    assert later["outbox_lag_seconds"] == 2 * 86400
    assert later["games_overdue"] == 1 and later["leases"] == {}, "the lease has lapsed"


def _health(database: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE": str(database), "DISCORD_TOKEN": ""}
    return subprocess.run(
        [sys.executable, "-m", "bot", "health"], env=env, capture_output=True, text=True, timeout=60
    )


def test_the_command_says_it_in_one_line_and_exits_by_it(tmp_path: Path) -> None:
    done = _health(tmp_path / "fresh.sqlite3")
    assert done.returncode == 0, done.stderr
    status = json.loads(done.stdout)
    assert status["database"] == "ok" and status["outbox_pending"] == 0
    damaged = tmp_path / "damaged.sqlite3"
    damaged.write_bytes(b"not a database" * 500)
    done = _health(damaged)
    assert done.returncode == 1
    assert "could not be" in json.loads(done.stdout)["database"]
