"""The drawing pool: images come from other processes, the same bytes as drawn here, and a pool
whose worker died is replaced without losing the image."""

import os
import pickle
import signal

from bot import drawing
from bot.ui.presenter import presenters
from render.leaderboard import leaderboard

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
    assert await drawing.draw(os.getpid) != os.getpid()
    here = leaderboard("Powerline · this server", ROWS, 1, "")
    assert await drawing.draw(leaderboard, "Powerline · this server", ROWS, 1, "") == here


async def test_a_dead_worker_costs_no_image() -> None:
    await drawing.warm()
    for pid in list(drawing.pool()._processes):
        os.kill(pid, signal.SIGKILL)
    assert await drawing.draw(os.getpid) != os.getpid()


def test_every_presenter_image_can_be_drawn_in_the_pool() -> None:
    """The pool gets renderers by reference: a lambda or closure here would fail at post time."""
    for shown in presenters().values():
        for name in shown.DRAWN:
            renderer = getattr(shown, name)
            if renderer is not None:
                assert pickle.loads(pickle.dumps(renderer)) is renderer, name
