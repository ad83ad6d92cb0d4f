"""The deadline tick with many running games: what a tick costs when none is due, and per due game.

Run: .venv/bin/python -m bench.tick
Target: <= 10 ms a tick at 10,000 running games with none due (the tick reads only due games,
by the indexed games.next_due); the cost per due game flat in the number of running games.
"""

import asyncio
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from bot.service.clock import ManualClock
from bot.service.options import TableOptions
from bot.service.service import Service
from bot.store.database import open_database
from bot.store.repo import Repo

SIZES = (1_000, 10_000)


async def measure(path: Path, running: int) -> tuple[float, float]:
    """(median ms of an idle tick, ms per due game) with `running` games in the database."""
    db = await open_database(path)
    clock = ManualClock()
    svc = Service(Repo(db), clock)
    first = await svc.open_table("powerline", 1, 1, 1, "Ada", {}, TableOptions())
    await svc.join(first.row.id, 2, "Ben")
    await svc.start(first.row.id, 1, False)
    await db.close()
    raw = sqlite3.connect(path)
    with raw:
        cols = [r[1] for r in raw.execute("PRAGMA table_info(games)")][1:]
        picked = ", ".join("?" if c == "channel_id" else c for c in cols)
        seat_cols = ", ".join(r[1] for r in raw.execute("PRAGMA table_info(seats)"))
        seat_picked = seat_cols.replace("game_id", "?", 1)
        for n in range(2, running + 1):
            raw.execute(
                f"INSERT INTO games (id, {', '.join(cols)}) SELECT ?, {picked} FROM games "
                "WHERE id = 1",
                (n, 10_000 + n),
            )
            raw.execute(
                f"INSERT INTO seats ({seat_cols}) SELECT {seat_picked} FROM seats "
                "WHERE game_id = 1",
                (n,),
            )
    raw.close()
    db = await open_database(path)
    svc = Service(Repo(db), clock)
    idle = []
    for _ in range(20):
        t = time.perf_counter()
        await svc.tick()
        idle.append((time.perf_counter() - t) * 1000)
    # Every game due at once (past its deadline): the cost per due game.
    clock.advance(days=2)
    t = time.perf_counter()
    touched = await svc.tick()
    per_due = (time.perf_counter() - t) * 1000 / max(touched, 1)
    await db.close()
    return statistics.median(idle), per_due


async def main() -> None:
    for running in SIZES:
        with tempfile.TemporaryDirectory() as tmp:
            idle, per_due = await measure(Path(tmp) / "tick.sqlite3", running)
        print(
            f"{running:>6} running games: idle tick {idle:.2f} ms (<= 10 ms at 10,000), "
            f"{per_due:.1f} ms per due game"
        )


if __name__ == "__main__":
    asyncio.run(main())
