"""The deadline tick with many running games: what a tick costs when none is due, and per due game.

Run: .venv/bin/python -m bench.tick
With 1,000 and then 10,000 running 2-player Powerline games in SQLite, of which 1,000 are past
their deadline with neither plan in, it prints: the median of 20 ticks while none is due (target
<= 10 ms at 10,000: the tick reads only due games, by the indexed games.next_due), then one tick
that times out the 1,000 due games (each seat played by the autopilot in the worker processes,
as the bot does, then the round resolved and stored): its time per due game, which should not
grow with the running games. Target: the whole benchmark in under a minute.
"""

import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from bench.copies import copy_game
from bot import workers
from bot.service.clock import ManualClock
from bot.service.options import TableOptions
from bot.service.service import Service
from bot.store.database import open_database
from bot.store.repo import Repo

SIZES = (1_000, 10_000)
DUE = 1_000
WEEK = 7 * 24 * 60


async def two_player_game(svc: Service, channel: int, options: TableOptions) -> int:
    table = await svc.open_table("powerline", 1, channel, 1, "Ada", {}, options)
    await svc.join(table.row.id, 2, "Ben")
    await svc.start(table.row.id, 1, False)
    return table.row.id


async def measure(path: Path, running: int) -> tuple[float, float, int]:
    """(median ms of an idle tick, ms per due game, games timed out) with `running` games in the
    database, DUE of them on a one-day deadline and the rest on a week's."""
    db = await open_database(path)
    clock = ManualClock()
    svc = Service(Repo(db), clock, workers.think)
    day = await two_player_game(svc, 1, TableOptions())
    week = await two_player_game(svc, 2, TableOptions(deadline_minutes=WEEK))
    await db.close()
    copy_game(path, day, range(10, 10 + DUE - 1))
    copy_game(path, week, range(10 + DUE, 10 + running - 1))
    db = await open_database(path)
    svc = Service(Repo(db), clock, workers.think)
    idle = []
    for _ in range(20):
        t = time.perf_counter()
        await svc.tick()
        idle.append((time.perf_counter() - t) * 1000)
    clock.advance(days=1, minutes=1)
    t = time.perf_counter()
    touched = await svc.tick()
    per_due = (time.perf_counter() - t) * 1000 / max(touched, 1)
    await db.close()
    return statistics.median(idle), per_due, touched


async def main() -> None:
    began = time.perf_counter()
    await workers.warm()
    for running in SIZES:
        with tempfile.TemporaryDirectory() as tmp:
            idle, per_due, touched = await measure(Path(tmp) / "tick.sqlite3", running)
        print(
            f"{running:>6} running games: idle tick {idle:.2f} ms (<= 10 ms at 10,000); "
            f"{touched} due games timed out at {per_due:.1f} ms a game"
        )
    print(f"the whole benchmark took {time.perf_counter() - began:.0f} s (target < 60 s)")


if __name__ == "__main__":
    asyncio.run(main())
