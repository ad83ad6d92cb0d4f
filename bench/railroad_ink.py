"""Railroad Ink engine speed and autopilot strength, per expansion set.

Run: .venv/bin/python -m bench.railroad_ink [games]
"""

import statistics
import sys
import time
from random import Random

from engine import registry
from engine.core import CHANCE
from engine.railroad_ink import autopilot
from engine.railroad_ink.autopilot import random_plan
from engine.railroad_ink.game import seat_context

GAME = registry.get("railroad_ink")
SETS = (
    frozenset(),
    frozenset({"street_lamps"}),
    frozenset({"power_grid"}),
    frozenset({"street_lamps", "power_grid"}),
)


def _random(state, seat: int, rng: Random):
    return random_plan(seat_context(state), state.players[seat], rng)


def play(config, seed: int, auto: bool, decision_ms: list[float]) -> int:
    """One seeded solo game; returns the score."""
    rng = Random(seed)
    state = GAME.new(config, seed)
    while not GAME.is_over(state):
        if CHANCE in GAME.to_act(state):
            state = GAME.apply(state, CHANCE, GAME.sample_chance(state, rng))
            continue
        t = time.perf_counter()
        plan = autopilot.choose(GAME.view(state, 0), 0) if auto else _random(state, 0, rng)
        if auto:
            decision_ms.append((time.perf_counter() - t) * 1000)
        state = GAME.apply(state, 0, plan)
    return GAME.outcome(state)[0]["score"]


def main(games: int = 100) -> None:
    for expansions in SETS:
        config = GAME.Config(players=1, expansions=expansions)
        ms: list[float] = []
        t = time.perf_counter()
        rand = [play(config, seed, False, []) for seed in range(games)]
        per_game = (time.perf_counter() - t) * 1000 / games
        auto = [play(config, seed, True, ms) for seed in range(games)]
        ms.sort()
        name = " + ".join(sorted(expansions)) or "base"
        print(
            f"{name:26s} random {statistics.mean(rand):5.1f}  autopilot "
            f"{statistics.mean(auto):5.1f} (min {min(auto)})  decision p95 "
            f"{ms[int(0.95 * len(ms))]:5.1f} ms  random game {per_game:5.1f} ms"
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100)
