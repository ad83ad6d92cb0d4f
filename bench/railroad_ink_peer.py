"""Railroad Ink scoring speed against public TypeScript scorers, on the same boards.

Run: .venv/bin/python -m bench.railroad_ink_peer [--peer RRI] [--ai-peer AI] [--boards 500]
         [--reps 5] [--rounds 7]
Or:  .venv/bin/python -m bench.railroad_ink_peer --against COMMIT [--boards 1000] [--reps 3]
         [--rounds 5]
RRI is a checkout of https://github.com/ondras/rri built as its Makefile does (its TypeScript
compiled into RRI/.build/); bench/peers/rri_score.mjs loads it from there. AI is a checkout of
https://github.com/davidxmoody/railroad-ink-ai; its src/logic/ is bundled at run time with
esbuild (through npx) into a temp dir, which bench/peers/rink_ai_score.mjs loads. Give one or
both. A benchmark, not a test: every compared score must match ours, or it exits 1.

ondras/rri scores as our default options do: all lines are compared, ours under the defaults.
railroad-ink-ai reads the longest route as a walk that never reuses a join: ours is compared
under longest_route="trail", on the lines that mean the same (see AI_NOTE).

--against: COMMIT's scoring and this tree's on the final boards of random games of every
expansion set (--boards per set), each under the default options, longest_route="trail" and
a set of other options, through bench/workers/railroad_ink_scoring.py in a worktree of COMMIT
(bench.baseline), interleaved; every line of every board must be equal, or it exits 1.
"""

import argparse
import json
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from random import Random
from typing import Any

from bench.baseline import ROOT, interleaved, tree_at
from bench.workers.railroad_ink_scoring import VARIANTS
from engine.core import CHANCE
from engine.railroad_ink import bitboard, scoring
from engine.railroad_ink.autopilot import random_plan
from engine.railroad_ink.board import SIDES, SIZE, rules, tile
from engine.railroad_ink.config import Config
from engine.railroad_ink.game import GAME, seat_context
from engine.railroad_ink.state import Cell, PlayerState

PEERS = ROOT / "bench" / "peers"
WORKER = ROOT / "bench" / "workers" / "railroad_ink_scoring.py"
RRI_URL = "https://github.com/ondras/rri"
AI_URL = "https://github.com/davidxmoody/railroad-ink-ai"
ESBUILD = "esbuild@0.24.2"
LINES = ("networks", "network_points", "longest_highway", "longest_railway", "centre", "errors")
AI_LINES = ("network_points", "centre", "errors")
LONGEST = ("longest_highway", "longest_railway")
AI_NOTE = """\
  Rule differences read in its src/logic/calculateScore.ts, so only some lines are compared:
  - longest routes: its route is a walk over spaces that never reuses a join and may come
    back to any space it passed (a loop closed into its start or into a junction counts that
    space twice); ours (trail) enters again only a crossroads it crosses straight. Compared
    where the route has no loop; elsewhere only counted. (It also numbers joins in a 32-bit
    mask, so with more than 32 joins of one kind its search would mix them up.)
  - errors: it counts ends facing an empty space or a blank side, as ours does; a highway end
    facing a railway end would not count, but our default rules never allow that contact.
  - centre and network points: the same rules (the same exit table, no lone-exit points);
    it gives no per-network exit counts, and its total sums the longest routes, so networks
    and total are not compared."""
Board = list[Cell | None]
DEFAULT = Config(players=1)
TRAIL = Config(players=1, longest_route="trail")
SETS = ((), ("street_lamps",), ("power_grid",), ("power_grid", "street_lamps"))


def final_player(config: Config, seed: int) -> PlayerState:
    """The seat of a seeded solo game where every plan is a random walk of legal steps."""
    rng = Random(seed)
    state = GAME.new(config, seed)
    while not GAME.is_over(state):
        if CHANCE in GAME.to_act(state):
            state = GAME.apply(state, CHANCE, GAME.sample_chance(state, rng))
        else:
            state = GAME.apply(state, 0, random_plan(seat_context(state), state.players[0], rng))
    return state.players[0]


def final_board(config: Config, seed: int) -> Board:
    return final_player(config, seed).cells


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


def run_node(harness: str, first: Path, boards_file: Path, reps: int) -> dict[str, Any]:
    """A Node harness's answer: the peer's scoring lines per board and its times."""
    # rri's compiled files are ES modules under a package.json that does not say so.
    cmd = ["node", "--disable-warning=MODULE_TYPELESS_PACKAGE_JSON", str(PEERS / harness)]
    out = subprocess.run(
        [*cmd, str(first), str(boards_file), str(reps)], capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout)


def bundle_ai(peer: Path, tmp: Path) -> Path:
    """railroad-ink-ai's scoring TypeScript bundled into one ES module in `tmp`."""
    logic = (peer / "src" / "logic").resolve()
    entry = tmp / "rink_ai_entry.ts"
    entry.write_text(
        f'export {{default as calculateScore}} from "{logic / "calculateScore.ts"}"\n'
        f'export {{Board}} from "{logic / "Board.ts"}"\n'
        f'export {{Grid}} from "{logic / "Grid.ts"}"\n'
    )
    out = tmp / "rink_ai.mjs"
    esbuild = ["npx", "--yes", ESBUILD, str(entry), "--bundle", "--format=esm", "--platform=node"]
    # The checkout's tsconfig extends a generated one it lacks: none is needed to bundle.
    options = ["--tsconfig-raw={}", f"--outfile={out}", "--log-level=warning"]
    subprocess.run([*esbuild, *options], check=True)
    return out


def peer_commit(peer: Path) -> str:
    """The peer checkout's commit, so that the printed figures say which version ran."""
    out = subprocess.run(
        ["git", "-C", str(peer), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    )
    return out.stdout.strip() or "unknown commit"


def loops(cells: Board) -> tuple[bool, bool]:
    """Whether the highway, the railway, closes a loop somewhere on the board."""
    p = bitboard.pack(cells)
    _, looped = bitboard.longest(p, bitboard.nodes(p), *bitboard.joins(p))
    return bool(looped & bitboard.M1), bool(looped >> bitboard.W)


@dataclass
class Side:
    """One engine of the comparison: how to score every board once per round, its label."""

    label: str
    run: Callable[[], tuple[list[dict], list[float]]]
    best: list[float] = field(default_factory=list)
    lines: list[dict] = field(default_factory=list)


Compare = Callable[[list[dict], list[dict], list[Board]], bool]


def compare_rri(ours: list[dict], peer: list[dict], boards: list[Board]) -> bool:
    """Every line of every board equal (rri scores as our default options do)."""
    bad = [(seed, o, p) for seed, (o, p) in enumerate(zip(ours, peer, strict=True)) if o != p]
    print(f"  scores: {len(ours) - len(bad)} of {len(ours)} boards equal on every line")
    for seed, o, p in bad:
        diff = {k: (o[k], p[k]) for k in o if o[k] != p[k]}
        print(f"    seed {seed}: (ours, peer) {diff}")
    return not bad


def compare_ai(ours: list[dict], peer: list[dict], boards: list[Board]) -> bool:
    """The lines that mean the same equal on every board (see AI_NOTE)."""
    print(AI_NOTE)
    bad = []
    same_longest = looped = 0
    for seed, (o, p, cells) in enumerate(zip(ours, peer, boards, strict=True)):
        diff = {k: (o[k], p[k]) for k in AI_LINES if o[k] != p[k]}
        for k, has_loop in zip(LONGEST, loops(cells), strict=True):
            if o[k] != p[k] and not has_loop:
                diff[k] = (o[k], p[k])
        if all(o[k] == p[k] for k in LONGEST):
            same_longest += 1
        elif not diff:
            looped += 1
        if diff:
            bad.append((seed, diff))
    n = len(ours)
    print(
        f"  scores: {n - len(bad)} of {n} boards equal on {', '.join(AI_LINES)} and on the\n"
        f"  longest routes without a loop; both longest routes equal on {same_longest} boards,\n"
        f"  {looped} differ only on a route with a loop (the rule difference)"
    )
    for seed, diff in bad:
        print(f"    seed {seed}: (ours, peer) {diff}")
    return not bad


def against(commit: str, per_set: int, reps: int, rounds: int) -> int:
    """COMMIT's scoring against this tree's on the same boards: equal lines, and speed."""
    t = time.perf_counter()
    data: list[dict[str, Any]] = []
    for expansions in SETS:
        config = Config(players=1, expansions=frozenset(expansions))
        for seed in range(per_set):
            p = final_player(config, seed)
            cells = [
                None if c is None else [c.face, c.orientation, c.lamp_on, c.electrified]
                for c in p.cells
            ]
            board = {"expansions": expansions, "cells": cells, "charges": p.charges}
            data.append(board | {"powered": p.powered})
    print(
        f"{len(data)} boards: the final boards of random legal games, seeds 0-{per_set - 1} of "
        f"each expansion set ({time.perf_counter() - t:.1f} s to play)"
    )
    trees = {"old": tree_at(commit), "new": ROOT}
    with tempfile.TemporaryDirectory() as tmp:
        boards_file = Path(tmp) / "boards.json"
        boards_file.write_text(json.dumps(data))
        runs = interleaved(WORKER, [str(boards_file), str(reps)], trees, rounds)
    # An installed copy of the engine must not stand in for a tree's (both would then agree).
    assert all(run["tree"] == str(trees[name]) for name in runs for run in runs[name])
    first = runs["old"][0]["lines"]
    ok = True
    for name in VARIANTS:
        bad = [
            k
            for k in range(len(data))
            if any(run["lines"][name][k] != first[name][k] for r in runs.values() for run in r)
        ]
        print(f"{name}: {len(data) - len(bad)} of {len(data)} boards equal on every line")
        for k in bad[:10]:
            old, new = first[name][k], runs["new"][0]["lines"][name][k]
            label = "+".join(SETS[k // per_set]) or "base"
            print(f"  {label} seed {k % per_set}: {old} -> {new}")
        ok &= not bad
    old_commit = f"{commit} ({trees['old'].name})"
    print(
        f"{rounds} rounds, old = {old_commit}; each side's best of {reps} scorings of all boards:"
    )
    n = len(data)
    for name in VARIANTS:
        old = [run["seconds"][name] for run in runs["old"]]
        new = [run["seconds"][name] for run in runs["new"]]
        ratios = sorted(o / w for o, w in zip(old, new, strict=True))
        print(
            f"  {name:22s} old {statistics.median(old) / n * 1e6:6.1f} µs a board, new "
            f"{statistics.median(new) / n * 1e6:5.1f} µs; new/old speed "
            f"{statistics.median(ratios):.2f}x (rounds {ratios[0]:.2f}x to {ratios[-1]:.2f}x)"
        )
    return 0 if ok else 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--peer", type=Path, help="a built checkout of ondras/rri")
    ap.add_argument("--ai-peer", type=Path, help="a checkout of davidxmoody/railroad-ink-ai")
    ap.add_argument("--against", metavar="COMMIT", help="compare with this commit's scoring")
    ap.add_argument("--boards", type=int, help="boards (seeds 0..N-1; per set with --against)")
    ap.add_argument("--reps", type=int, default=5, help="scorings of every board per round")
    ap.add_argument("--rounds", type=int, default=7, help="rounds, each engine in turn")
    args = ap.parse_args()
    if args.against:
        return against(args.against, args.boards or 1000, args.reps, args.rounds)
    args.boards = args.boards or 500
    rri_ok = args.peer is not None and (args.peer / ".build" / "score.js").is_file()
    ai_ok = args.ai_peer is not None and (args.ai_peer / "src/logic/calculateScore.ts").is_file()
    if not (rri_ok or ai_ok) or (args.peer and not rri_ok) or (args.ai_peer and not ai_ok):
        print(
            f"Needs --peer RRI, a checkout of {RRI_URL} whose TypeScript is compiled into\n"
            f"RRI/.build/ as its own Makefile does, and/or --ai-peer AI, a checkout of\n{AI_URL}."
        )
        return 2

    t = time.perf_counter()
    boards = [final_board(DEFAULT, seed) for seed in range(args.boards)]
    print(
        f"{args.boards} boards: base game, seeds 0-{args.boards - 1}, random legal plays "
        f"({time.perf_counter() - t:.1f} s to play)"
    )
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        boards_file = tmp / "boards.json"
        boards_file.write_text(json.dumps(neutral(boards)))
        sides: list[Side] = []
        pairs: list[tuple[Side, Side, Compare]] = []

        def peer_side(label: str, harness: str, first: Path) -> Side:
            def run() -> tuple[list[dict], list[float]]:
                out = run_node(harness, first, boards_file, args.reps)
                return out["lines"], out["seconds"]

            return Side(label, run)

        if rri_ok:
            ours = Side("ours, default options", lambda: score_ours(boards, DEFAULT, args.reps))
            peer = peer_side(f"ondras/rri {peer_commit(args.peer)}", "rri_score.mjs", args.peer)
            sides += [ours, peer]
            pairs.append((ours, peer, compare_rri))
        if ai_ok:
            ours = Side('ours, longest_route="trail"', lambda: score_ours(boards, TRAIL, args.reps))
            first = bundle_ai(args.ai_peer, tmp)
            label = f"davidxmoody/railroad-ink-ai {peer_commit(args.ai_peer)}"
            peer = peer_side(label, "rink_ai_score.mjs", first)
            sides += [ours, peer]
            pairs.append((ours, peer, compare_ai))
        # Turn about, so that a busy spell on a shared machine slows every engine of a round.
        for _ in range(args.rounds):
            for side in sides:
                side.lines, seconds = side.run()
                # The first scorings run before a JIT has compiled the code: the best counts.
                side.best.append(min(seconds))

    node = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
    ok = True
    for ours, peer, compare in pairs:
        print(f"{peer.label} against {ours.label}:")
        ok &= compare(ours.lines, peer.lines, boards)

    n = args.boards
    print(
        f"{args.rounds} rounds; each engine's best of {args.reps} scorings of all boards a round "
        f"(ours on Python {platform.python_version()}, peers on Node {node}):"
    )
    for side in sides:
        med = statistics.median(side.best)
        print(
            f"  {side.label:38s} {med / n * 1e6:6.1f} µs a board, {n / med:6.0f} boards/s "
            f"(median round; best {n / min(side.best):.0f})"
        )
    for ours, peer, _ in pairs:
        ratios = sorted(p / o for o, p in zip(ours.best, peer.best, strict=True))
        print(
            f"  speed of {ours.label} / {peer.label}: {statistics.median(ratios):.2f}x "
            f"(median of the rounds' ratios; {ratios[0]:.2f}x to {ratios[-1]:.2f}x)"
        )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
