"""Worker for bench.railroad_ink_peer --against: the tree's Railroad Ink scoring of the boards
in a JSON file, under every variant of options; prints {"tree", "lines", "seconds"}: each
board's lines per variant, and per variant the best of REPS scorings of all boards.

Run: PYTHONPATH=<tree> python bench/workers/railroad_ink_scoring.py BOARDS_JSON REPS
A board is {"expansions", "cells", "charges", "powered"}, a cell null or [face, orientation,
lamp_on, electrified].
"""

import json
import sys
import time
from pathlib import Path
from typing import Any

from engine.railroad_ink import scoring
from engine.railroad_ink.board import ACC
from engine.railroad_ink.config import Config
from engine.railroad_ink.state import Cell

VARIANTS: dict[str, dict[str, Any]] = {
    "default options": {},
    'longest_route="trail"': {"longest_route": "trail"},
    "other options": {
        "mixed_contact": "if_joined",
        "accumulator_joins_networks": True,
        "accumulator_excuses_ends": False,
        "accumulator_is_centre": True,
        "centre_counts": "segment",
        "one_exit_network_points": 1,
        "power_exit_rule": "electrified",
    },
}


def main(boards_file: Path, reps: int) -> None:
    data = json.loads(boards_file.read_text())
    boards = []
    for b in data:
        cells = [None if c is None else Cell(c[0], c[1], 1, c[2], c[3]) for c in b["cells"]]
        boards.append((cells, b["charges"], ACC if "power_grid" in b["expansions"] else -1))
    powered = [b["powered"] for b in data]
    lines: dict[str, list[list[Any]]] = {}
    seconds: dict[str, float] = {}
    for name, options in VARIANTS.items():
        configs = [
            Config(players=1, expansions=frozenset(b["expansions"]), **options) for b in data
        ]
        jobs = list(zip(boards, configs, powered, strict=True))
        lines[name] = [
            list(scoring.score(c, ch, acc, config=cfg, powered=pw).lines().values())
            for (c, ch, acc), cfg, pw in jobs
        ]
        best = float("inf")
        for _ in range(reps):
            t = time.perf_counter()
            for (c, ch, acc), cfg, pw in jobs:
                scoring.score(c, ch, acc, config=cfg, powered=pw)
            best = min(best, time.perf_counter() - t)
        seconds[name] = best
    tree = str(Path(scoring.__file__).resolve().parents[2])
    print(json.dumps({"tree": tree, "lines": lines, "seconds": seconds}))


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[2]))
