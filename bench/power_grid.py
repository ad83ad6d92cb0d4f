"""Power Grid engine and autopilot figures.

Run: .venv/bin/python -m bench.power_grid [games]
(targets: random 5-player game <= 300 ms median; 5-city USA build price <= 2 ms;
autopilot beats random by a wide margin in 4-player games; decision p95 <= 100 ms)

Or: .venv/bin/python -m bench.power_grid [games] --against COMMIT [--rounds N]
random games with COMMIT's engine and this tree's, interleaved; the replays must be identical.
"""

import argparse
import statistics
import time
from random import Random

from bench.baseline import ROOT, comparison, interleaved, tree_at
from bench.render import median_ms
from bench.workers.power_grid_games import random_game
from engine import registry
from engine.core import CHANCE
from engine.power_grid import autopilot
from engine.power_grid.baseline import random_action
from engine.power_grid.build import price_build
from engine.power_grid.network import distances

GAME = registry.get("power_grid")
WORKER = ROOT / "bench" / "workers" / "power_grid_games.py"


def versus(seed: int, decision_ms: list[float]) -> tuple[int, int, float]:
    """One 4-player game, one autopilot seat: its rank, its powered cities, random's mean."""
    rng = Random(seed)
    me = seed % 4
    state = GAME.new(GAME.Config(players=4, map="usa" if seed % 2 else "germany"), seed)
    while not GAME.is_over(state):
        seat = min(GAME.to_act(state))
        if seat == me:
            t = time.perf_counter()
            action = autopilot.choose(GAME.view(state, seat), seat)
            decision_ms.append((time.perf_counter() - t) * 1000)
        else:
            action = random_action(state, seat, rng)
        state = GAME.apply(state, seat, action)
    rows = GAME.outcome(state)
    others = [r["details"]["powered"] for r in rows if r["seat"] != me]
    return rows[me]["rank"], rows[me]["details"]["powered"], statistics.mean(others)


def main(games: int = 40) -> None:
    game_ms = []
    for seed in range(games):
        t = time.perf_counter()
        random_game(seed)
        game_ms.append((time.perf_counter() - t) * 1000)
    print(
        f"full random 5-player game: median {statistics.median(game_ms):.1f} ms over {games} "
        f"(p95 {sorted(game_ms)[int(0.95 * games)]:.1f} ms; target <= 300)"
    )
    config = GAME.Config(players=5, map="usa", regions=["purple", "cyan", "red", "yellow", "brown"])
    state = GAME.new(config, 0)
    for _ in range(2):
        state = GAME.apply(state, CHANCE, GAME.sample_chance(state, Random(0)))
    state.phase = "build"
    state.players[0].money = 1000
    cities = ["Seattle", "Portland", "Boise", "Billings", "Cheyenne"]
    distances.cache_clear()

    def price() -> bytes:
        price_build(state, 0, cities)
        return b""

    cold = time.perf_counter()
    price()
    cold_ms = (time.perf_counter() - cold) * 1000
    warm_ms, _ = median_ms(price, 200)
    print(
        f"5-city build price on the USA map: {warm_ms:.3f} ms median with the cached "
        f"shortest paths ({cold_ms:.1f} ms the first time per map/regions; target <= 2)"
    )
    decision_ms: list[float] = []
    results = [versus(seed, decision_ms) for seed in range(games)]
    decision_ms.sort()
    print(
        f"autopilot vs 3 random seats, {games} 4-player games: wins "
        f"{sum(r[0] == 1 for r in results)}/{games}, mean rank "
        f"{statistics.mean(r[0] for r in results):.2f}, mean cities powered "
        f"{statistics.mean(r[1] for r in results):.1f} vs random "
        f"{statistics.mean(r[2] for r in results):.1f}"
    )
    print(
        f"autopilot decision: p95 {decision_ms[int(0.95 * len(decision_ms))]:.2f} ms, max "
        f"{decision_ms[-1]:.2f} ms over {len(decision_ms)} decisions (target <= 100 at p95)"
    )


def against(commit: str, games: int, rounds: int) -> None:
    """Games/s of `commit`'s engine and this tree's, same seeds, after checking every replay."""
    trees = {"old": tree_at(commit), "new": ROOT}
    runs = interleaved(WORKER, [str(games)], trees, rounds)
    # An installed copy of the engine must not stand in for a tree's (both would then agree).
    assert all(run["tree"] == str(trees[name]) for name in runs for run in runs[name])
    digests = {tuple(run["digests"]) for results in runs.values() for run in results}
    assert len(digests) == 1, "the replays differ between the trees (or between runs)"
    rates = {
        name: [1000 * len(run["ms"]) / sum(run["ms"]) for run in results]
        for name, results in runs.items()
    }
    print(f"{games} seeded games per run, replays identical in every run (old = {commit})")
    print(comparison("random 5-player Germany games", rates["old"], rates["new"], "games/s"))
    # On a shared machine a run is often slowed; each seed's fastest game filters that out.
    best = {
        name: 1000 * games / sum(min(run["ms"][i] for run in results) for i in range(games))
        for name, results in runs.items()
    }
    print(
        f"fastest game per seed over the runs: old {best['old']:.1f} games/s, new "
        f"{best['new']:.1f} games/s, new/old {best['new'] / best['old']:.2f}x"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", type=int, nargs="?", default=40)
    parser.add_argument("--against", metavar="COMMIT", help="compare with this commit's engine")
    parser.add_argument("--rounds", type=int, default=9, help="interleaved runs per side")
    args = parser.parse_args()
    if args.against:
        against(args.against, args.games, args.rounds)
    else:
        main(args.games)
