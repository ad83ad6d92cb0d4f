"""Worker for bench.baseline: seeded random 5-player Germany games of Power Grid with the tree's
engine; prints {"tree", "seeds", "ms", "digests"}: the engine's tree, per-game wall times and
replay digests.

Run: PYTHONPATH=<tree> python bench/workers/power_grid_games.py [games] [first seed]
"""

import hashlib
import json
import sys
import time
from pathlib import Path
from random import Random
from typing import Any

import engine
from engine.power_grid import GAME
from engine.power_grid.baseline import random_action


def random_game(seed: int, players: int = 5, replay: list[tuple[int, Any]] | None = None) -> Any:
    """A seeded game of random legal moves to its end (the benchmarks' one policy); the final
    state, with every (seat, action) appended to `replay` if given."""
    rng = Random(seed)
    state = GAME.new(GAME.Config(players=players), seed)
    while not GAME.is_over(state):
        seat = min(GAME.to_act(state))
        action = random_action(state, seat, rng)
        if replay is not None:
            replay.append((seat, action))
        state = GAME.apply(state, seat, action)
    return state


def play(seed: int) -> tuple[float, str]:
    """One random game: its wall time (ms) and the sha256 of every (seat, action) applied, the
    final state and the outcome."""
    replay: list[tuple[int, Any]] = []
    t = time.perf_counter()
    state = random_game(seed, replay=replay)
    ms = (time.perf_counter() - t) * 1000
    digest = hashlib.sha256()
    for seat, action in replay:
        digest.update(json.dumps([seat, action], sort_keys=True).encode())
    digest.update(GAME.dump_state(state).encode())
    digest.update(json.dumps(GAME.outcome(state), sort_keys=True).encode())
    return ms, digest.hexdigest()


def main(games: int = 40, first: int = 0) -> None:
    seeds = list(range(first, first + games))
    ms, digests = zip(*(play(seed) for seed in seeds), strict=True)
    tree = str(Path(engine.__file__).parents[1])
    print(json.dumps({"tree": tree, "seeds": seeds, "ms": ms, "digests": digests}))


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:3]]
    main(*args)
