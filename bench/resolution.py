"""A 6-player Powerline round resolution with every image and DM, through the loopback stand-in:
this tree against a baseline commit, interleaved in one run.

Run: .venv/bin/python -m bench.resolution [--against COMMIT] [--rounds N]
Target: resolution <= 0.5x of 3b7a7dc's (the commit before the speed work).
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
    old = [statistics.median(r["seconds"]) * 1000 for r in runs["old"]]
    new = [statistics.median(r["seconds"]) * 1000 for r in runs["new"]]
    print(f"{args.resolutions} resolutions a run, after one warm-up (old = {args.against})")
    print(comparison("6-player resolution with every image and DM", old, new, "ms"))
    print(f"new/old time: {statistics.median(new) / statistics.median(old):.2f} (target <= 0.5)")


if __name__ == "__main__":
    main()
