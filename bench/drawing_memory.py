"""Memory of the worker pools: every drawing worker draws every kind of image (each golden image
of tests/render/golden and a leaderboard) and the thinking worker makes an AI decision in every
hosted game; then, idle, each process's resident memory: this one (the bot's), the forkserver,
the resource tracker, the drawing workers and the thinking worker. Linux only (VmRSS from
/proc/PID/status).

Run: .venv/bin/python -m bench.drawing_memory [passes]
(target: every worker under 60 MB after drawing every kind)
"""

import asyncio
import multiprocessing.forkserver
import multiprocessing.resource_tracker
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot import workers

LIMIT_MB = 60.0
Call = tuple[Callable[..., bytes], tuple[Any, ...]]


def kinds() -> dict[str, Call]:
    """Each kind's renderer and plain arguments, as the bot sends them to the pool."""
    # Imported here: a worker imports this module too, and in the bot it imports nothing but
    # the renderers.
    from bench.workers.render_encoding import ROWS
    from render.leaderboard import leaderboard
    from tests.render.goldens import IMAGES, call

    found = {image: call(image) for image in sorted(IMAGES)}
    found["leaderboard"] = (leaderboard, ("Powerline · this server", ROWS, 1, "6 players"))
    return found


def draw_each(calls: list[Call]) -> int:
    """In a worker: every image of `calls`, in turn; the worker's pid."""
    for renderer, args in calls:
        renderer(*args)
    return os.getpid()


def rss_mb(pid: int) -> float:
    """Resident memory of process `pid` in MB, from /proc."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise LookupError(f"no VmRSS for {pid}")


def worker_pids() -> list[int]:
    return sorted(workers.DRAWING.pool()._processes)


def family() -> dict[str, int]:
    """The drawing pool's processes by role, with this one as the bot."""
    found = {"bot": os.getpid()}
    # Neither module says its helper process's pid but in these private fields.
    server = getattr(multiprocessing.forkserver._forkserver, "_forkserver_pid", None)
    if server is not None:
        found["forkserver"] = server
    tracker = getattr(multiprocessing.resource_tracker._resource_tracker, "_pid", None)
    if tracker is not None:
        found["resource tracker"] = tracker
    for i, pid in enumerate(worker_pids()):
        found[f"worker {i + 1}"] = pid
    for pid in workers.THINKING.pool()._processes:
        found["thinking worker"] = pid
    return found


async def every_game_thinks() -> None:
    """The thinking worker makes one AI decision in a fresh game of each hosted game."""
    from random import Random

    from bot.service.hosting import hosted
    from engine.core import CHANCE

    for host in hosted().values():
        game = host.engine
        state = game.new(game.Config(players=2), 0)
        while CHANCE in game.to_act(state):
            state = game.apply(state, CHANCE, game.sample_chance(state, Random(0)))
        seat = min(game.to_act(state))
        await workers.think(host.choose, game.view(state, seat), seat)


async def every_worker_draws(calls: list[Call], passes: int) -> None:
    """Each worker draws all of `calls` at least `passes` times: as many tasks of all of them
    as there are workers, until every worker has done its share."""
    done = dict.fromkeys(worker_pids(), 0)
    while min(done.values()) < passes:
        for pid in await asyncio.gather(*(workers.draw(draw_each, calls) for _ in done)):
            done[pid] += 1


def measure(passes: int) -> dict[str, float]:
    """MB of each process of the family, idle after every worker drew every kind `passes`
    times over."""
    asyncio.run(workers.warm())
    asyncio.run(every_worker_draws(list(kinds().values()), passes))
    asyncio.run(every_game_thinks())
    # Idle long enough for each worker's watcher to hand freed memory back.
    time.sleep(2 * workers.WATCH_SECONDS)
    return {name: rss_mb(pid) for name, pid in family().items()}


def main(passes: int = 2) -> None:
    measured = measure(passes)
    print(
        f"every drawing worker drew every kind of image ({len(kinds())}) {passes} times over; "
        "the thinking worker made a decision in every game"
    )
    for name, mb in measured.items():
        print(f"  {name:17s} {mb:6.1f} MB")
    print(f"  {'whole family':17s} {sum(measured.values()):6.1f} MB")
    worst = max(mb for name, mb in measured.items() if name.startswith("worker"))
    print(f"largest drawing worker: {worst:.1f} MB (limit {LIMIT_MB:.0f} MB)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2)
