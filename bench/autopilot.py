"""Autopilot strength and speed: solo games with the default config.

Run: .venv/bin/python -m bench.autopilot [games]   (the bar: mean >= 80 VP over 200, p95 <= 50 ms)
"""

import statistics
import sys
import time
from collections import Counter
from random import Random

from engine import registry
from engine.core import CHANCE
from engine.powerline import autopilot, scoring

GAME = registry.get("powerline")


def play(seed: int, decision_ms: list[float]) -> int:
    """One seeded solo game played by the autopilot; returns the final VP."""
    rng = Random(seed)
    state = GAME.new(GAME.Config(players=1), seed)
    while not GAME.is_over(state):
        if CHANCE in GAME.to_act(state):
            state = GAME.apply(state, CHANCE, GAME.sample_chance(state, rng))
            continue
        view = GAME.view(state, 0)
        t = time.perf_counter()
        plan = autopilot.choose(view, 0)
        decision_ms.append((time.perf_counter() - t) * 1000)
        state = GAME.apply(state, 0, plan)
    return state.players[0].vp


def main(games: int = 200) -> None:
    decision_ms: list[float] = []
    scores = [play(seed, decision_ms) for seed in range(games)]
    decision_ms.sort()
    p95 = decision_ms[int(0.95 * len(decision_ms))]
    print(
        f"solo autopilot over {games} seeded games: mean {statistics.mean(scores):.1f} VP "
        f"(median {statistics.median(scores)}, min {min(scores)}, max {max(scores)}; bar >= 80)"
    )
    print(
        f"decision time: p95 {p95:.1f} ms, max {decision_ms[-1]:.1f} ms over "
        f"{len(decision_ms)} decisions (bar <= 50 ms at p95)"
    )
    titles = Counter(scoring.solo_title(s) for s in scores)
    for title, n in titles.most_common():
        print(f"  {n:4d}  {title}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
