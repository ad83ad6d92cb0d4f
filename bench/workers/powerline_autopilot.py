"""Worker for bench.autopilot: seeded solo Powerline games played by the tree's autopilot; prints
{"tree", "seeds", "vp", "ms", "digests"}: the engine's tree, final VP per game, every decision's
time (ms, in game order) and a sha256 per game of the plans played.

Run: PYTHONPATH=<tree> python bench/workers/powerline_autopilot.py [games] [first seed] [budget s]
(a budget is passed to `choose` only when given: older trees have no such parameter)
"""

import hashlib
import json
import sys
import time
from pathlib import Path
from random import Random

import engine
from engine import registry
from engine.core import CHANCE
from engine.powerline import autopilot

GAME = registry.get("powerline")


def play(seed: int, budget: float | None, decision_ms: list[float]) -> tuple[int, str]:
    """One seeded solo game (the dice drawn from Random(seed)); its final VP and plans' digest."""
    rng = Random(seed)
    state = GAME.new(GAME.Config(players=1), seed)
    digest = hashlib.sha256()
    while not GAME.is_over(state):
        if CHANCE in GAME.to_act(state):
            state = GAME.apply(state, CHANCE, GAME.sample_chance(state, rng))
            continue
        view = GAME.view(state, 0)
        t = time.perf_counter()
        if budget is None:
            plan = autopilot.choose(view, 0)
        else:
            plan = autopilot.choose(view, 0, budget=budget)
        decision_ms.append((time.perf_counter() - t) * 1000)
        digest.update(plan.model_dump_json().encode())
        state = GAME.apply(state, 0, plan)
    return state.players[0].vp, digest.hexdigest()


def main(games: int, first: int, budget: float | None) -> None:
    seeds = list(range(first, first + games))
    ms: list[float] = []
    vp, digests = zip(*(play(seed, budget, ms) for seed in seeds), strict=True)
    tree = str(Path(engine.__file__).parents[1])
    print(json.dumps({"tree": tree, "seeds": seeds, "vp": vp, "ms": ms, "digests": digests}))


if __name__ == "__main__":
    main(
        int(sys.argv[1]) if len(sys.argv) > 1 else 25,
        int(sys.argv[2]) if len(sys.argv) > 2 else 0,
        float(sys.argv[3]) if len(sys.argv) > 3 else None,
    )
