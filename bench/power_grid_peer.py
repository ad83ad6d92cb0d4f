"""Random 5-player Germany games of Power Grid: our engine against boardgamers/powergrid's.

Run: .venv/bin/python -m bench.power_grid_peer --peer PATH [--games 40] [--rounds 9] [--warmup 10]
PATH is a checkout of https://github.com/boardgamers/powergrid whose engine is built
(PATH/engine/dist/index.js); bench/peers/powergrid_random.mjs loads it from there at run time.
Without --peer this says how to get it. A benchmark, not a test.
"""

import argparse
import json
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench.workers.power_grid_games import random_game
from engine.core import CHANCE

ROOT = Path(__file__).resolve().parents[1]
HARNESS = ROOT / "bench" / "peers" / "powergrid_random.mjs"
PEER_URL = "https://github.com/boardgamers/powergrid"
PLAYERS = 5
WARMUP_SEED = 1_000_000
"""Warm-up games use seeds from here on, away from the timed ones."""


def game_length(seed: int) -> tuple[int, int]:
    """The seat actions (chance steps left out: the peer draws inside its moves) and the round
    at the end of `random_game(seed)`, replayed untimed."""
    replay: list[tuple[int, object]] = []
    state = random_game(seed, PLAYERS, replay)
    return sum(seat != CHANCE for seat, _ in replay), state.round


def ours_ms(seeds: list[int]) -> list[float]:
    """Each seed's wall time (ms) for bench.workers.power_grid_games.random_game, setup included."""
    ms = []
    for seed in seeds:
        t = time.perf_counter()
        random_game(seed, PLAYERS)
        ms.append((time.perf_counter() - t) * 1000)
    return ms


def run_peer(peer: Path, seeds: list[int], warmup: int) -> dict:
    """The Node harness's answer: per timed game its ms, moves and final round."""
    seed_list = ",".join(map(str, seeds))
    cmd = ["node", str(HARNESS), str(peer), seed_list, str(PLAYERS), str(warmup)]
    return json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)


def peer_commit(peer: Path) -> str:
    """The peer checkout's commit, so that the printed figures say which version ran."""
    out = subprocess.run(
        ["git", "-C", str(peer), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    )
    return out.stdout.strip() or "unknown commit"


def rate(ms: list[float]) -> float:
    return 1000 * len(ms) / sum(ms)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--peer", type=Path, help="a checkout of boardgamers/powergrid, engine built")
    ap.add_argument("--games", type=int, default=40, help="timed games a round (seeds 0..N-1)")
    ap.add_argument("--rounds", type=int, default=9, help="rounds, ours and the peer's in turn")
    ap.add_argument("--warmup", type=int, default=10, help="untimed games before timing")
    args = ap.parse_args()
    if args.peer is None or not (args.peer / "engine" / "dist" / "index.js").is_file():
        print(
            f"Needs --peer PATH: a clone of {PEER_URL} with its engine built:\n"
            "  cd PATH/engine && npx pnpm@7.33.7 install --frozen-lockfile --ignore-workspace"
            " && npm run build\n"
            "(its package-lock.json is stale; pnpm-lock.yaml is the one kept up to date).\n"
            "bench/peers/powergrid_random.mjs then loads PATH/engine/dist/ at run time."
        )
        return 2

    seeds = list(range(args.games))
    lengths = [game_length(seed) for seed in seeds]
    # Ours warms up once in this process; the peer's Node process does so every round.
    ours_ms(list(range(WARMUP_SEED, WARMUP_SEED + args.warmup)))
    ours: list[float] = []
    peer: list[float] = []
    for r in range(args.rounds):
        # Turn about, and who goes first alternates, so a busy spell slows both sides alike.
        if r % 2:
            out = run_peer(args.peer, seeds, args.warmup)
            ms = ours_ms(seeds)
        else:
            ms = ours_ms(seeds)
            out = run_peer(args.peer, seeds, args.warmup)
        ours.append(rate(ms))
        peer.append(rate(out["ms"]))

    ratios = sorted(o / p for o, p in zip(ours, peer, strict=True))
    moves, rounds = zip(*lengths, strict=True)
    print(
        f"{args.games} random {PLAYERS}-player Germany games a side (seeds 0-{args.games - 1}), "
        f"{args.rounds} interleaved rounds, {args.warmup} warm-up games first"
    )
    print(
        f"  ours  Python {platform.python_version()} bench.workers.power_grid_games.random_game: "
        f"{statistics.median(ours):5.1f} games/s (median round; {min(ours):.1f}-{max(ours):.1f}), "
        f"{statistics.mean(moves):.0f} moves/game, {statistics.mean(rounds):.1f} rounds/game"
    )
    print(
        f"  peer  boardgamers/powergrid {peer_commit(args.peer)} on Node {out['node']}, uniform "
        f"over its legal moves: {statistics.median(peer):5.1f} games/s "
        f"(median round; {min(peer):.1f}-{max(peer):.1f}), "
        f"{statistics.mean(out['moves']):.0f} moves/game, "
        f"{statistics.mean(out['rounds']):.1f} rounds/game"
    )
    print(
        f"  ours/peer: {statistics.median(ratios):.2f}x games/s "
        f"(median of the rounds' ratios; {ratios[0]:.2f}x to {ratios[-1]:.2f}x)"
    )
    # The two random policies make games of different lengths; per move and per round played
    # (a rate times the mean length) the comparison does not hang on that.
    per_move = statistics.mean(moves) / statistics.mean(out["moves"])
    per_round = statistics.mean(rounds) / statistics.mean(out["rounds"])
    print(
        f"  ours/peer per move applied: {statistics.median(ratios) * per_move:.2f}x; "
        f"per game round played: {statistics.median(ratios) * per_round:.2f}x"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
