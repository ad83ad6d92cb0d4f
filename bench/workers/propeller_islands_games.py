"""Worker for bench.baseline: seeded random 4-player Propeller Islands games with the tree's
engine; prints {"seeds", "ms", "digests"}: per-game wall times and replay digests.

Run: PYTHONPATH=<tree> python bench/workers/propeller_islands_games.py [games] [first seed]
"""

import hashlib
import json
import sys
import time
from random import Random
from typing import Any

from engine import registry
from engine.core import CHANCE
from engine.propeller_islands import autopilot

GAME = registry.get("propeller_islands")


def random_game(seed: int, players: int = 4, replay: list[tuple[int, Any]] | None = None) -> Any:
    """A seeded game of random legal moves to its end (the benchmarks' one policy); the final
    state, with every (seat, action) appended to `replay` if given."""
    rng = Random(seed)
    state = GAME.new(GAME.Config(players=players), seed)
    while not GAME.is_over(state):
        (seat,) = GAME.to_act(state)
        if seat == CHANCE:
            action = GAME.sample_chance(state, rng)
        else:
            action = autopilot.random_action(GAME.legal_actions(state, seat), rng)
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
        entry = [seat, action.model_dump(mode="json", by_alias=True)]
        digest.update(json.dumps(entry, sort_keys=True).encode())
    digest.update(GAME.dump_state(state).encode())
    digest.update(json.dumps(GAME.outcome(state), sort_keys=True).encode())
    return ms, digest.hexdigest()


def main(games: int, first: int) -> None:
    seeds = list(range(first, first + games))
    ms, digests = zip(*(play(seed) for seed in seeds), strict=True)
    print(json.dumps({"seeds": seeds, "ms": ms, "digests": digests}))


if __name__ == "__main__":
    main(
        int(sys.argv[1]) if len(sys.argv) > 1 else 40, int(sys.argv[2]) if len(sys.argv) > 2 else 0
    )
