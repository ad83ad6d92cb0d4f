"""Engine speed: a full 6-player Powerline game with random legal plans, and state dump + load.

Run: .venv/bin/python -m bench.engine [games]
"""

import statistics
import sys
import time
from random import Random

from engine import registry
from engine.core import play_out
from engine.powerline.autopilot import random_plan
from engine.powerline.game import seat_context

GAME = registry.get("powerline")


def play(seed: int, players: int = 6):
    """One seeded game with random legal plans; returns the final state."""
    rng = Random(seed)
    state = GAME.new(GAME.Config(players=players), seed)
    return play_out(GAME, state, rng, lambda s, seat: random_plan(seat_context(s, seat), rng))


def main(games: int = 100) -> None:
    game_ms = []
    for seed in range(games):
        t = time.perf_counter()
        state = play(seed)
        game_ms.append((time.perf_counter() - t) * 1000)
    mid = play(10_000)
    round_trip_ms = []
    for _ in range(200):
        t = time.perf_counter()
        GAME.load_state(GAME.dump_state(mid))
        round_trip_ms.append((time.perf_counter() - t) * 1000)
    del state
    print(
        f"full 6-player game, random legal plans: median {statistics.median(game_ms):.1f} ms "
        f"over {games} games (p95 {sorted(game_ms)[int(0.95 * games)]:.1f} ms; target <= 50)"
    )
    print(
        f"state dump + load (6 players, final state): median "
        f"{statistics.median(round_trip_ms):.3f} ms (target <= 2)"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100)
