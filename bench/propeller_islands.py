"""Propeller Islands: engine speed, autopilot strength and autopilot decision time.

Run: .venv/bin/python -m bench.propeller_islands [duels]
(targets: full random 4-player game <= 50 ms median; autopilot decision <= 50 ms at p95;
autopilot well above random seats over 200 seeded 3-player games)

Or: .venv/bin/python -m bench.propeller_islands --against COMMIT [--games N] [--rounds N]
random 4-player games with COMMIT's engine and this tree's, interleaved; the replays must be
identical.
"""

import argparse
import statistics
import time
from random import Random

from bench.baseline import ROOT, comparison, interleaved, tree_at
from bench.workers.propeller_islands_games import random_game
from engine import registry
from engine.core import CHANCE
from engine.propeller_islands import autopilot

GAME = registry.get("propeller_islands")
WORKER = ROOT / "bench" / "workers" / "propeller_islands_games.py"


def duel(seed: int, decision_ms: list[float]) -> tuple[int, list[int]]:
    """A 3-player game with the autopilot in seat seed % 3; its score and the random seats'."""
    rng = Random(seed)
    ai = seed % 3
    state = GAME.new(GAME.Config(players=3), seed)
    while not GAME.is_over(state):
        (seat,) = GAME.to_act(state)
        if seat == CHANCE:
            action = GAME.sample_chance(state, rng)
        elif seat == ai:
            view = GAME.view(state, seat)
            t = time.perf_counter()
            action = autopilot.choose(view, seat)
            decision_ms.append((time.perf_counter() - t) * 1000)
        else:
            action = autopilot.random_action(GAME.legal_actions(state, seat), rng)
        state = GAME.apply(state, seat, action)
    totals = [e["total"] for e in GAME.result(state)["seats"]]
    return totals[ai], [x for i, x in enumerate(totals) if i != ai]


def main(games: int = 200) -> None:
    game_ms = []
    for seed in range(100):
        t = time.perf_counter()
        random_game(seed)
        game_ms.append((time.perf_counter() - t) * 1000)
    print(
        f"full random 4-player game: median {statistics.median(game_ms):.1f} ms over 100 games "
        f"(p95 {sorted(game_ms)[95]:.1f} ms; target <= 50)"
    )
    decision_ms: list[float] = []
    ai_scores, random_scores = [], []
    wins = 0
    for seed in range(games):
        ai, others = duel(seed, decision_ms)
        ai_scores.append(ai)
        random_scores += others
        wins += ai > max(others)
    decision_ms.sort()
    print(
        f"autopilot vs random, {games} seeded 3-player games: autopilot mean "
        f"{statistics.mean(ai_scores):.1f} VP, random seats mean "
        f"{statistics.mean(random_scores):.1f} VP (autopilot won {wins}/{games})"
    )
    print(
        f"autopilot decision: p95 {decision_ms[int(0.95 * len(decision_ms))]:.1f} ms, max "
        f"{decision_ms[-1]:.1f} ms over {len(decision_ms)} decisions (target <= 50 ms at p95)"
    )


def against(commit: str, games: int, rounds: int) -> None:
    """Median ms per game of `commit`'s engine and this tree's, same seeds, after checking that
    every replay is identical."""
    runs = interleaved(WORKER, [str(games)], {"old": tree_at(commit), "new": ROOT}, rounds)
    digests = {tuple(run["digests"]) for results in runs.values() for run in results}
    assert len(digests) == 1, "the replays differ between the trees (or between runs)"
    medians = {
        name: [statistics.median(run["ms"]) for run in results] for name, results in runs.items()
    }
    print(f"{games} seeded games per run, replays identical in every run (old = {commit})")
    print(comparison("random 4-player game", medians["old"], medians["new"], "ms"))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("duels", type=int, nargs="?", default=200, help="autopilot duels")
    parser.add_argument("--against", metavar="COMMIT", help="compare with this commit's engine")
    parser.add_argument("--games", type=int, default=40, help="random games per run (--against)")
    parser.add_argument("--rounds", type=int, default=7, help="interleaved runs per side")
    args = parser.parse_args()
    if args.against:
        against(args.against, args.games, args.rounds)
    else:
        main(args.duels)
