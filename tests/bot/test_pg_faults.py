"""The fault suite on a real PostgreSQL: each fault strikes two bot processes (shards 0 and 1)
with four games in flight, on a cluster of its own. Nothing is lost, nothing is posted twice,
every interaction is answered within Discord's 3 s (then with its answer or a sentence), nobody
is told "nothing was done" of a stored plan, and the games the fault does not touch go on.

The five faults run at once, so the suite waits for the longest (the row lock), not for their
sum. The outage and the lock are shorter than `bench.faults`' (30 s, 60 s) but still outlast
every timeout the bot has for them (a statement 10 s, a row lock 5 s, a connection 5 s)."""

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

from tests.bot.faultbed import Bed, Report

LOCKED = 25.0
"""Seconds a stray session holds one game's row."""
UNTOUCHED_STALL = 8.0
"""Seconds an untouched game may wait for its next round (its people's own commands included):
a busy 2-core machine, not the fault."""


async def _run(
    root: Path, fault: str, strike: Callable[[Bed], Awaitable[None]], pace: float
) -> tuple[Report, Bed]:
    bed = Bed(root / fault, pace=pace)
    bed.root.mkdir()
    try:
        await bed.start()
        return await bed.run(fault, strike), bed
    finally:
        await bed.close()


async def test_postgres_faults_lose_nothing_and_answer_everyone(tmp_path: Path) -> None:
    runs = await asyncio.gather(
        _run(tmp_path, "terminated", lambda b: b.terminate_connections(10, 0.3), pace=1.0),
        _run(tmp_path, "restarted", lambda b: b.restart_server(), pace=1.0),
        _run(tmp_path, "stopped", lambda b: b.stop_server(20), pace=2.0),
        _run(tmp_path, "locked", lambda b: b.lock_game("s0-a", LOCKED), pace=3.0),
        _run(tmp_path, "killed", lambda b: b.kill_shard(1), pace=1.0),
    )
    for report, bed in runs:
        name = report.fault
        assert not report.errors, (name, report.errors)
        assert (report.lost, report.doubled) == (0, 0), report
        assert report.unanswered == 0, report
        assert report.misled == 0, report
        assert report.stopped_in is not None and report.stopped_in < 12, report
        bed.server.assert_clean()
    reports = {report.fault: report for report, _ in runs}
    # The database was there to refuse: people were told, and tried again.
    for name in ("terminated", "stopped", "locked"):
        assert reports[name].refused > 0, reports[name]
    locked = reports["locked"]
    assert locked.stall(["s0-b", "s1-a", "s1-b"]) < UNTOUCHED_STALL, locked
    assert locked.stall(["s0-a"]) >= LOCKED - 10, "the locked game waited for its row"
    # Any process delivers any game: the dead one's deliveries under way wait for its lease
    # (LEASE_SECONDS, 15 s) to lapse, then the other process takes them over.
    killed = reports["killed"]
    assert killed.stall(list(killed.stalls)) < 15 + UNTOUCHED_STALL, killed
