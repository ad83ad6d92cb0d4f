"""Railroad Ink scoring speed against a public TypeScript engine, ondras/rri, on the same boards.

Run: .venv/bin/python -m bench.railroad_ink_peer --peer PATH [--boards 500] [--reps 5] [--rounds 7]
PATH is a checkout of https://github.com/ondras/rri built as its Makefile does (its TypeScript
compiled into PATH/.build/); bench/peers/rri_score.mjs loads it from there at run time. Without
--peer this prints that. A benchmark, not a test: every score must match, or it exits 1.
"""

import argparse
import json
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from random import Random
from typing import Any

from engine.core import CHANCE
from engine.railroad_ink import scoring
from engine.railroad_ink.autopilot import random_plan
from engine.railroad_ink.board import SIDES, SIZE, rules, tile
from engine.railroad_ink.config import Config
from engine.railroad_ink.game import GAME, seat_context
from engine.railroad_ink.state import Cell

ROOT = Path(__file__).resolve().parents[1]
HARNESS = ROOT / "bench" / "peers" / "rri_score.mjs"
PEER_URL = "https://github.com/ondras/rri"
LINES = ("networks", "network_points", "longest_highway", "longest_railway", "centre", "errors")
Board = list[Cell | None]


def final_board(config: Config, seed: int) -> Board:
    """The board of a seeded solo game where every plan is a random walk of legal steps."""
    rng = Random(seed)
    state = GAME.new(config, seed)
    while not GAME.is_over(state):
        if CHANCE in GAME.to_act(state):
            state = GAME.apply(state, CHANCE, GAME.sample_chance(state, rng))
        else:
            state = GAME.apply(state, 0, random_plan(seat_context(state), state.players[0], rng))
    return state.players[0].cells


def neutral(boards: list[Board]) -> dict[str, Any]:
    """The boards without our face names: per cell (row by row, N up) the route kind leaving
    each side N E S W ("H", "R", "." none) and the sides each inner segment joins."""

    def cell(c: Cell | None) -> dict[str, Any] | None:
        if c is None:
            return None
        t = tile(c.face, c.orientation)
        segments = [
            "".join(SIDES[d] for d in range(4) if t.seg_of[d] == k) for k in range(t.segments)
        ]
        return {"sides": "".join(s or "." for s in t.sides), "segments": segments}

    exits = [e.model_dump() for e in rules().exits]
    return {
        "size": SIZE,
        "exits": exits,
        "boards": [{"cells": [cell(c) for c in b]} for b in boards],
    }


def score_ours(boards: list[Board], config: Config, reps: int) -> tuple[list[dict], list[float]]:
    """Each board's scoring lines, and each repetition's time for scoring every board."""
    lines = []
    for cells in boards:
        s = scoring.score(cells, 0, -1, config=config)
        lines.append({k: getattr(s, k) for k in LINES} | {"total": s.total})
    seconds = []
    for _ in range(reps):
        t = time.perf_counter()
        for cells in boards:
            scoring.score(cells, 0, -1, config=config)
        seconds.append(time.perf_counter() - t)
    return lines, seconds


def score_peer(peer: Path, boards_file: Path, reps: int) -> dict[str, Any]:
    """The Node harness's answer: the peer's scoring lines per board and its times."""
    # The peer's compiled files are ES modules under a package.json that does not say so.
    cmd = ["node", "--disable-warning=MODULE_TYPELESS_PACKAGE_JSON", str(HARNESS)]
    out = subprocess.run(
        [*cmd, str(peer), str(boards_file), str(reps)], capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout)


def peer_commit(peer: Path) -> str:
    """The peer checkout's commit, so that the printed figures say which version ran."""
    out = subprocess.run(
        ["git", "-C", str(peer), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    )
    return out.stdout.strip() or "unknown commit"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--peer", type=Path, help="a built checkout of ondras/rri")
    ap.add_argument("--boards", type=int, default=500, help="boards (seeds 0..N-1)")
    ap.add_argument("--reps", type=int, default=5, help="scorings of every board per round")
    ap.add_argument("--rounds", type=int, default=7, help="rounds, ours and the peer's in turn")
    args = ap.parse_args()
    if args.peer is None or not (args.peer / ".build" / "score.js").is_file():
        print(
            f"Needs --peer PATH: a checkout of {PEER_URL} whose TypeScript is compiled into\n"
            "PATH/.build/ as its own Makefile does; bench/peers/rri_score.mjs loads it from there."
        )
        return 2

    config = Config(players=1)
    t = time.perf_counter()
    boards = [final_board(config, seed) for seed in range(args.boards)]
    print(
        f"{args.boards} boards: base game, seeds 0-{args.boards - 1}, random legal plays "
        f"({time.perf_counter() - t:.1f} s to play)"
    )
    ours_s: list[float] = []
    peer_s: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        boards_file = Path(tmp) / "boards.json"
        boards_file.write_text(json.dumps(neutral(boards)))
        # Turn about, so that a busy spell on a shared machine slows both engines of a round.
        for _ in range(args.rounds):
            ours, seconds = score_ours(boards, config, args.reps)
            ours_s.append(min(seconds))
            peer = score_peer(args.peer, boards_file, args.reps)
            # The first scorings run before the JIT has compiled the peer: the best one counts.
            peer_s.append(min(peer["seconds"]))

    bad = [
        (seed, o, p) for seed, (o, p) in enumerate(zip(ours, peer["lines"], strict=True)) if o != p
    ]
    totals = [o["total"] for o in ours]
    print(
        f"scores: {len(totals) - len(bad)} of {len(totals)} boards equal on every line "
        f"(total mean {statistics.mean(totals):.1f}, min {min(totals)}, max {max(totals)})"
    )
    for seed, o, p in bad:
        diff = {k: (o[k], p[k]) for k in o if o[k] != p[k]}
        print(f"  seed {seed}: (ours, peer) {diff}")

    n = args.boards
    ratios = sorted(p / o for o, p in zip(ours_s, peer_s, strict=True))
    print(
        f"{args.rounds} rounds; each engine's best of {args.reps} scorings of all boards a round:"
    )
    print(
        f"  ours  Python {platform.python_version()} engine.railroad_ink.scoring.score: "
        f"{n / statistics.median(ours_s):6.0f} boards/s (median round; best {n / min(ours_s):.0f})"
    )
    print(
        f"  peer  ondras/rri {peer_commit(args.peer)} on Node {peer['node']}: "
        f"{n / statistics.median(peer_s):6.0f} boards/s (median round; best {n / min(peer_s):.0f})"
    )
    print(
        f"  ours/peer: {statistics.median(ratios):.2f}x "
        f"(median of the rounds' ratios; {ratios[0]:.2f}x to {ratios[-1]:.2f}x)"
    )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
