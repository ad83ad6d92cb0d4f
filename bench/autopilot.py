"""Powerline autopilot strength and speed: this tree against a baseline commit, on the same games.

Run: .venv/bin/python -m bench.autopilot [games] [--against COMMIT] [--rounds N] [--budget MS]

Both sides play seeded solo games (seeds 0..games-1, default 200, default config) with their own
autopilot; `bench/workers/powerline_autopilot.py` runs in a git worktree of COMMIT (default
4a12e8d, the full depth-first search of issue 30) and in this tree, alternating chunks of seeds
so both see the same machine noise. Per side: each decision's time (its median over the rounds)
as median, p95 and max; the final VP as mean, quartiles, min, max and solo titles; and how many
games played the very same plans. --budget adds this tree with `choose(..., budget=MS / 1000)`;
--against none runs this tree alone. Bars: mean >= 80 VP, decision median <= 5 ms (issue 30).
"""

import argparse
import statistics
from collections import Counter
from pathlib import Path

from bench.baseline import ROOT, run_worker, tree_at
from engine.powerline import scoring
from engine.powerline.board import rules

WORKER = ROOT / "bench" / "workers" / "powerline_autopilot.py"
BASELINE = "4a12e8d"
CHUNK = 25


def run(
    sides: dict[str, tuple[Path, list[str]]], games: int, rounds: int
) -> dict[str, dict[str, list]]:
    """Every side's VP and plan digests per game (first round) and decision times (per
    decision, a list a round); a side without a budget must play the same plans every round."""
    out: dict[str, dict[str, list]] = {
        name: {"vp": [], "digests": [], "ms": [[] for _ in range(rounds)]} for name in sides
    }
    for r in range(rounds):
        for first in range(0, games, CHUNK):
            chunk = [str(min(CHUNK, games - first)), str(first)]
            for name, (tree, extra) in sides.items():
                result = run_worker(WORKER, chunk + extra, tree)
                assert Path(result["tree"]) == tree, f"{name} ran the engine of {result['tree']}"
                out[name]["ms"][r] += result["ms"]
                if r == 0:
                    out[name]["vp"] += result["vp"]
                    out[name]["digests"] += result["digests"]
                elif not extra:
                    seeds = slice(first, first + len(result["vp"]))
                    assert out[name]["digests"][seeds] == result["digests"], f"{name} varies"
    return out


def timing(ms: list[list[float]]) -> tuple[float, float, float]:
    """Median, p95 and max over the decisions of each decision's median over the rounds."""
    per = sorted(statistics.median(samples) for samples in zip(*ms, strict=True))
    return statistics.median(per), per[int(0.95 * len(per))], per[-1]


def spread(vp: list[int]) -> tuple[float, ...]:
    """Mean and quartiles: the VP figures that must not drop."""
    return statistics.mean(vp), *statistics.quantiles(vp, n=4)


def report(results: dict[str, dict[str, list]], labels: dict[str, str], rounds: int) -> None:
    """Print the table, each side against the old one, and the solo titles."""
    games = len(next(iter(results.values()))["vp"])
    decisions = len(next(iter(results.values()))["ms"][0])
    print(
        f"solo autopilot, seeds 0-{games - 1} ({decisions} decisions a side); chunks of "
        f"{CHUNK} seeds alternate between sides, {rounds} round(s); a decision's time is its "
        "median over the rounds"
    )
    print(
        f"{'':24} {'decision ms: median':>19} {'p95':>6} {'max':>6} | "
        f"{'VP: mean':>8} {'Q1':>5} {'median':>6} {'Q3':>5} {'min':>4} {'max':>4}"
    )
    times = {}
    for name, res in results.items():
        times[name] = timing(res["ms"])
        vp = res["vp"]
        mean, q1, q2, q3 = spread(vp)
        print(
            f"{labels[name]:24} {times[name][0]:19.2f} {times[name][1]:6.2f} "
            f"{times[name][2]:6.1f} | {mean:8.2f} {q1:5.1f} {q2:6.1f} "
            f"{q3:5.1f} {min(vp):4d} {max(vp):4d}"
        )
    if "old" in results:
        old = results["old"]
        for name, res in results.items():
            if name == "old":
                continue
            speed = "   ".join(
                f"{what} {new / base:.2f}x"
                for what, new, base in zip(
                    ("median", "p95", "max"), times[name], times["old"], strict=True
                )
            )
            same = sum(a == b for a, b in zip(res["digests"], old["digests"], strict=True))
            better = sum(a > b for a, b in zip(res["vp"], old["vp"], strict=True))
            worse = sum(a < b for a, b in zip(res["vp"], old["vp"], strict=True))
            kept = all(a >= b for a, b in zip(spread(res["vp"]), spread(old["vp"]), strict=True))
            fast = times[name][0] <= 5
            print(
                f"{labels[name]} / old: time {speed}; identical plans in {same}/{games} games, "
                f"VP higher in {better}, lower in {worse}; mean and quartiles no lower: "
                f"{'yes' if kept else 'NO'}; median <= 5 ms: {'yes' if fast else 'NO'}"
            )
    print("solo titles (columns: " + ", ".join(labels[name] for name in results) + "):")
    counts = {
        name: Counter(scoring.solo_title(v) for v in res["vp"]) for name, res in results.items()
    }
    for t in reversed(rules().solo_titles):
        if any(c[t.title] for c in counts.values()):
            print("  " + "  ".join(f"{counts[name][t.title]:4d}" for name in results), t.title)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default=BASELINE, help="baseline commit, or none")
    parser.add_argument("games", type=int, nargs="?", default=200, help="seeds 0..games-1")
    parser.add_argument("--rounds", type=int, default=3, help="timed runs of every decision")
    parser.add_argument("--budget", type=float, help="also this tree with this budget (ms)")
    args = parser.parse_args()
    sides: dict[str, tuple[Path, list[str]]] = {}
    labels: dict[str, str] = {}
    if args.against != "none":
        sides["old"] = (tree_at(args.against), [])
        labels["old"] = f"old ({args.against})"
    sides["new"] = (ROOT, [])
    labels["new"] = "new (this tree)"
    if args.budget is not None:
        sides["budget"] = (ROOT, [str(args.budget / 1000)])
        labels["budget"] = f"new, budget {args.budget:g} ms"
    report(run(sides, args.games, args.rounds), labels, args.rounds)


if __name__ == "__main__":
    main()
