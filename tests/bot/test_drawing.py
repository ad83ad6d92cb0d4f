"""The drawing pool: images come from other processes, the same bytes as drawn here, a pool
whose worker died is replaced without losing the image, and workers stay small."""

import asyncio
import json
import os
import pickle
import signal
import sys
import time
from pathlib import Path

from bot import workers
from bot.ui.presenter import presenters
from render.leaderboard import leaderboard

ROOT = Path(__file__).resolve().parents[2]
ROWS = [
    {
        "name": "Ada",
        "shown": 1612,
        "provisional": False,
        "games": 4,
        "wins": 3,
        "avg_score": 41.5,
        "best": 52,
    },
    {
        "name": "Ben",
        "shown": 1530,
        "provisional": True,
        "games": 1,
        "wins": 0,
        "avg_score": 30.0,
        "best": 30,
    },
]


async def test_images_are_drawn_in_another_process_and_match() -> None:
    assert await workers.draw(os.getpid) != os.getpid()
    here = leaderboard("Powerline · this server", ROWS, 1, "")
    assert await workers.draw(leaderboard, "Powerline · this server", ROWS, 1, "") == here


async def test_a_dead_worker_costs_no_image() -> None:
    await workers.warm()
    for pid in list(workers.DRAWING.pool()._processes):
        os.kill(pid, signal.SIGKILL)
    assert await workers.draw(os.getpid) != os.getpid()


def test_every_presenter_image_can_be_drawn_in_the_pool() -> None:
    """The pool gets renderers by reference: a lambda or closure here would fail at post time."""
    for shown in presenters().values():
        for name in shown.DRAWN:
            renderer = getattr(shown, name)
            if renderer is not None:
                assert pickle.loads(pickle.dumps(renderer)) is renderer, name


OWNER = """
import asyncio, pathlib, sys, time
from bot import workers
asyncio.run(workers.warm())
pids = [*workers.DRAWING.pool()._processes, *workers.THINKING.pool()._processes]
pathlib.Path(sys.argv[1]).write_text(" ".join(map(str, pids)))
time.sleep(60)
"""


async def test_the_workers_end_when_the_bot_is_killed(tmp_path: Path) -> None:
    """kill -9 leaves the workers no queue that closes: they watch the bot's process instead."""
    found = tmp_path / "workers"
    owner = await asyncio.create_subprocess_exec(
        sys.executable, "-c", OWNER, str(found), cwd=ROOT, stdout=asyncio.subprocess.DEVNULL
    )
    deadline = time.monotonic() + 30
    while not found.exists() or not found.read_text():
        assert time.monotonic() < deadline, "the drawing pool did not start"
        await asyncio.sleep(0.1)
    pids = [int(pid) for pid in found.read_text().split()]
    assert len(pids) == workers.DRAWING.size + workers.THINKING.size
    assert all(_alive(pid) for pid in pids)
    owner.kill()
    await owner.wait()
    deadline = time.monotonic() + 10 * workers.WATCH_SECONDS
    try:
        while any(_alive(pid) for pid in pids):
            assert time.monotonic() < deadline, "a drawing worker outlived the bot"
            await asyncio.sleep(0.1)
    finally:
        for pid in pids:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # An exited worker lingers as a zombie until the init process reaps it.
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.split(") ", 1)[1][0] != "Z"


MEMORY = """
import json
from bench.drawing_memory import measure
print(json.dumps(measure(1)))
"""
"""Run as `python -c`, like `python -m bot`: workers import no __main__ of their own."""


async def test_every_worker_stays_under_60_mb_after_drawing_every_kind() -> None:
    measuring = await asyncio.create_subprocess_exec(
        sys.executable, "-c", MEMORY, cwd=ROOT, stdout=asyncio.subprocess.PIPE
    )
    out, _ = await asyncio.wait_for(measuring.communicate(), 300)
    assert measuring.returncode == 0
    measured = json.loads(out)
    workers = [mb for name, mb in measured.items() if name.startswith("worker")]
    assert workers and max(workers) < 60, measured
