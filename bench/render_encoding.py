"""Render time against compressing alone, per kind of image (each game's boards, cards and maps
from the golden views, and a leaderboard): this tree against a baseline commit, interleaved.

A render is drawing and encoding; zlib-only is compressing that render's own PNG pixels again
at the level `png` uses, nothing else (bench/workers/render_encoding.py).

Run: .venv/bin/python -m bench.render_encoding [--against COMMIT] [--rounds N] [--repeats N]
Target (issue 30): every render <= 1.5x the zlib-only time of its image; no PNG bigger.
"""

import argparse
import statistics
from pathlib import Path

from bench.baseline import ROOT, interleaved, tree_at

WORKER = Path(__file__).parent / "workers" / "render_encoding.py"
TARGET = 1.5


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default="4a12e8d")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    trees = {"old": tree_at(args.against), "new": ROOT}
    runs = interleaved(WORKER, [str(args.repeats)], trees, args.rounds)

    def median(tree: str, image: str, field: str) -> float:
        return statistics.median(run["images"][image][field] for run in runs[tree])

    print(
        f"median ms over {args.rounds} interleaved rounds of {args.repeats} renders each "
        f"(old = {args.against}); ratio = render / zlib-only of the same image"
    )
    print(
        f"{'image':32s} {'render old':>10s} {'new':>6s} {'new/old':>7s}  {'zlib-only old':>13s} "
        f"{'new':>5s}  {'ratio old':>9s} {'new':>5s}  {'KB old':>6s} {'new':>5s}"
    )
    worst, bigger = 0.0, []
    totals = {"old": 0.0, "new": 0.0}
    for image in runs["new"][0]["images"]:
        render = {tree: median(tree, image, "render") for tree in trees}
        zlib = {tree: median(tree, image, "zlib") for tree in trees}
        size = {tree: runs[tree][0]["images"][image]["bytes"] / 1024 for tree in trees}
        ratio = {tree: render[tree] / zlib[tree] for tree in trees}
        worst = max(worst, ratio["new"])
        if size["new"] > size["old"]:
            bigger.append(image)
        for tree in trees:
            totals[tree] += render[tree]
        print(
            f"{image:32s} {render['old']:10.1f} {render['new']:6.1f} "
            f"{render['new'] / render['old']:7.2f}  {zlib['old']:13.1f} {zlib['new']:5.1f}  "
            f"{ratio['old']:9.2f} {ratio['new']:5.2f}  {size['old']:6.1f} {size['new']:5.1f}"
        )
    print(
        f"all images: old {totals['old']:.1f} ms, new {totals['new']:.1f} ms, "
        f"new/old {totals['new'] / totals['old']:.2f}"
    )
    print(f"worst render / zlib-only: {worst:.2f} (target <= {TARGET})")
    print(f"PNGs bigger than before: {', '.join(bigger) or 'none'}")


if __name__ == "__main__":
    main()
