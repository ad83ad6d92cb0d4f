"""A 6-player Powerline round resolution with every image and DM, through the loopback stand-in:
this tree against a baseline commit, interleaved in one run, and each against its render floor.

The render floor of a resolution: the total render time of the images it drew divided over the
drawing pool's workers (one per core), or its longest render if that is longer; each image drawn
again alone after the run (bench/workers/resolution.py).

Run: .venv/bin/python -m bench.resolution [--against COMMIT] [--rounds N] [--resolutions N]
Targets: resolution <= 0.5x of 3b7a7dc's (the commit before the speed work); resolution <= 1.3x
its render floor (issue 30).
"""

import argparse
import statistics
from pathlib import Path

from bench.baseline import ROOT, comparison, interleaved, tree_at

WORKER = Path(__file__).parent / "workers" / "resolution.py"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default="3b7a7dc")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--resolutions", type=int, default=3)
    args = parser.parse_args()
    trees = {"old": tree_at(args.against), "new": ROOT}
    runs = interleaved(WORKER, [str(args.resolutions)], trees, args.rounds)
    print(f"{args.resolutions} resolutions a run, after one warm-up (old = {args.against})")
    took = {tree: [statistics.median(r["seconds"]) * 1000 for r in runs[tree]] for tree in trees}
    print(comparison("6-player resolution with every image and DM", took["old"], took["new"], "ms"))
    for tree in trees:
        floors = [f * 1000 for r in runs[tree] for f in r["floors"]]
        if not floors:
            print(f"{tree}: no drawing pool, so no render floor")
            continue
        over = [s / f for r in runs[tree] for s, f in zip(r["seconds"], r["floors"], strict=True)]
        renders = [x * 1000 for r in runs[tree] for rs in r["renders"] for x in rs]
        cpu = [c * 1000 for r in runs[tree] for c in r["bot_cpu"]]
        print(
            f"{tree}: render floor median {statistics.median(floors):.1f} ms "
            f"({len(renders) // len(floors)} images, median {statistics.median(renders):.1f} ms "
            f"each); resolution / floor median {statistics.median(over):.2f} "
            f"(range {min(over):.2f}-{max(over):.2f}); bot process CPU "
            f"{statistics.median(cpu):.1f} ms a resolution"
        )
    ratio = statistics.median(took["new"]) / statistics.median(took["old"])
    print(f"new/old time: {ratio:.2f} (target <= 0.5 of 3b7a7dc's); new resolution / floor <= 1.3")


if __name__ == "__main__":
    main()
