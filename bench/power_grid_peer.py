"""Random 5-player Germany games of Power Grid: our engine against boardgamers/powergrid's.

Run: .venv/bin/python -m bench.power_grid_peer --peer PATH [--mode uniform|heuristic]
         [--games 40] [--rounds 9] [--warmup 10]
PATH is a checkout of https://github.com/boardgamers/powergrid whose engine is built
(PATH/engine/dist/index.js); bench/peers/powergrid_random.mjs loads it from there at run time.
Without --peer this says how to get it. A benchmark, not a test.

uniform (the default): both engines pick uniformly at random over their own legal-move lists at
each seat step. It compares (a) seat moves per second of play (list, pick, apply) and (b) apply
plus legal-move generation per seat move, timing replays of games recorded untimed.
heuristic: ours plays bench.workers.power_grid_games.random_game (the random baseline, which
builds whenever it can), the peer stays uniform; games per second.
Each round runs each side in fresh processes (Node for the peer; ours through --worker, an
internal option) that warm up on other seeds, so that no side meets games it has cached.
"""

import argparse
import gc
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

from bench.workers.power_grid_games import random_game
from engine.core import CHANCE
from engine.power_grid import GAME

ROOT = Path(__file__).resolve().parents[1]
HARNESS = ROOT / "bench" / "peers" / "powergrid_random.mjs"
PEER_URL = "https://github.com/boardgamers/powergrid"
PLAYERS = 5
WARMUP_SEED = 1_000_000
"""Warm-up games use seeds from here on, away from the timed ones."""
MAX_MOVES = 100_000
"""A uniform game that runs longer means the engine no longer ends games: fail, not hang."""

Replay = list[tuple[int, Any]]


def uniform_game(seed: int, replay: Replay | None = None) -> tuple[int, int]:
    """A seeded game where each seat step plays a uniformly random entry of our legal-move
    list (chance as sampled): its seat moves and final round, each (seat, action) appended to
    `replay` if given."""
    rng = Random(seed)
    state = GAME.new(GAME.Config(players=PLAYERS), seed)
    moves = 0
    while not GAME.is_over(state):
        seat = min(GAME.to_act(state))
        action: Any
        if seat == CHANCE:
            action = GAME.sample_chance(state, rng)
        else:
            if moves == MAX_MOVES:
                raise RuntimeError(f"seed {seed}: no end after {MAX_MOVES} moves")
            action = rng.choice(GAME.legal_actions(state, seat))
            moves += 1
        if replay is not None:
            replay.append((seat, action))
        state = GAME.apply(state, seat, action)
    return moves, state.round


def uniform_ms(seeds: list[int]) -> list[float]:
    """Each seed's wall time (ms) for `uniform_game`, setup included."""
    ms = []
    for seed in seeds:
        t = time.perf_counter()
        uniform_game(seed)
        ms.append((time.perf_counter() - t) * 1000)
    return ms


def replay_ms(replays: list[Replay]) -> list[float]:
    """Each replay's wall time (ms) from the new table: at each seat step the mover's legal-move
    list, then apply (chance steps: apply alone, as the peer deals inside its moves)."""
    legal, apply = GAME.legal_actions, GAME.apply
    ms = []
    for steps in replays:
        state = GAME.new(GAME.Config(players=PLAYERS), 0)
        t = time.perf_counter()
        for seat, action in steps:
            if seat != CHANCE:
                legal(state, seat)
            state = apply(state, seat, action)
        ms.append((time.perf_counter() - t) * 1000)
        assert GAME.is_over(state), "a replay did not reach its recorded end"
    return ms


def heuristic_ms(seeds: list[int]) -> list[float]:
    """Each seed's wall time (ms) for bench.workers.power_grid_games.random_game, setup included."""
    ms = []
    for seed in seeds:
        t = time.perf_counter()
        random_game(seed, PLAYERS)
        ms.append((time.perf_counter() - t) * 1000)
    return ms


def heuristic_length(seed: int) -> tuple[int, int]:
    """The seat actions (chance steps left out: the peer draws inside its moves) and the round
    at the end of `random_game(seed)`, replayed untimed."""
    replay: list[tuple[int, object]] = []
    state = random_game(seed, PLAYERS, replay)
    return sum(seat != CHANCE for seat, _ in replay), state.round


def run_peer(peer: Path, seeds: list[int], warmup: int) -> dict:
    """The Node harness's answer: per timed game its play ms, replay ms, moves and final round."""
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


def spread(values: list[float], unit: str, digits: int = 0) -> str:
    """The median and range of per-round figures."""
    lo, mid, hi = min(values), statistics.median(values), max(values)
    return f"{mid:.{digits}f} {unit} (median round; {lo:.{digits}f}-{hi:.{digits}f})"


def ratio_line(ratios: list[float]) -> str:
    """The median of per-round ratios, and their range."""
    lo, hi = min(ratios), max(ratios)
    mid = statistics.median(ratios)
    return f"{mid:.2f}x (median of the rounds' ratios; {lo:.2f}x to {hi:.2f}x)"


def ours_worker(
    kind: str, seeds: list[int], warmup: int, replays: Path | None = None
) -> list[float]:
    """Our side of a round in a fresh process, as the peer's is (see `worker`): fresh, as a
    process that played the same games before would find the connection costs of every network
    they reach already cached."""
    seed_list = ",".join(map(str, seeds))
    cmd = [sys.executable, "-m", "bench.power_grid_peer", "--worker", kind, "--seeds", seed_list]
    cmd += ["--warmup", str(warmup), *(["--replays", str(replays)] if replays else [])]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)["ms"]


def worker(kind: str, seeds: list[int], warmup: int, replays: Path | None) -> None:
    """Print per game the ms of playing `seeds` uniformly ("play") or with the random baseline
    ("heuristic"), or of replaying the games recorded in `replays` ("replay"), after `warmup`
    untimed games of other seeds played the same way (uniformly for "replay")."""
    play = heuristic_ms if kind == "heuristic" else uniform_ms
    play(list(range(WARMUP_SEED, WARMUP_SEED + warmup)))
    recorded = json.loads(replays.read_text()) if replays else []
    games = [[(seat, GAME.parse_action(action)) for seat, action in steps] for steps in recorded]
    # The recorded games are the harness's, not the engine's: frozen, the full collections that
    # the timed moves set off do not walk their tens of thousands of objects.
    gc.collect()
    gc.freeze()
    print(json.dumps({"ms": replay_ms(games) if kind == "replay" else play(seeds)}))


def uniform(args: argparse.Namespace, seeds: list[int]) -> None:
    """Both sides uniform over their own lists: (a) play rate, (b) replayed apply + list."""
    replays: list[Replay] = []
    lengths = []
    for seed in seeds:
        replays.append([])
        lengths.append(uniform_game(seed, replays[-1]))
    moves = sum(m for m, _ in lengths)
    play: dict[str, list[float]] = {"ours": [], "peer": []}
    per_move: dict[str, list[float]] = {"ours": [], "peer": []}
    out: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        recorded = Path(tmp) / "replays.json"
        dumped = [
            [(seat, action.model_dump(mode="json")) for seat, action in steps] for steps in replays
        ]
        recorded.write_text(json.dumps(dumped))
        for r in range(args.rounds):
            # Turn about, and who goes first alternates, so a busy spell slows both sides alike.
            for side in ("peer", "ours") if r % 2 else ("ours", "peer"):
                if side == "ours":
                    ms = ours_worker("play", seeds, args.warmup)
                    play["ours"].append(1000 * moves / sum(ms))
                    ms = ours_worker("replay", seeds, args.warmup, recorded)
                    per_move["ours"].append(1000 * sum(ms) / moves)
                else:
                    out = run_peer(args.peer, seeds, args.warmup)
                    peer_moves = sum(out["moves"])
                    play["peer"].append(1000 * peer_moves / sum(out["ms"]))
                    per_move["peer"].append(1000 * sum(out["replay_ms"]) / peer_moves)

    print(
        f"Uniform random play on both sides: {args.games} {PLAYERS}-player Germany games a side "
        f"(seeds 0-{args.games - 1}), {args.rounds} interleaved rounds, each side's in a fresh "
        f"process after {args.warmup} warm-up games; a seat move is one entry of the mover's "
        "legal-move list (chance apart)"
    )
    print(
        f"  ours  Python {platform.python_version()}: {moves / len(seeds):.0f} seat moves/game, "
        f"{statistics.mean(r for _, r in lengths):.1f} rounds/game"
    )
    print(
        f"  peer  boardgamers/powergrid {peer_commit(args.peer)} on Node {out['node']}: "
        f"{statistics.mean(out['moves']):.0f} seat moves/game, "
        f"{statistics.mean(out['rounds']):.1f} rounds/game"
    )
    print("(a) seat moves per second of play (legal-move list, uniform pick, apply; setup in):")
    print(f"  ours {spread(play['ours'], 'moves/s')}")
    print(f"  peer {spread(play['peer'], 'moves/s')}")
    speed = [o / p for o, p in zip(play["ours"], play["peer"], strict=True)]
    print(f"  ours/peer: {ratio_line(speed)}")
    print(
        "(b) apply + legal-move generation per seat move, replaying each side's recorded games "
        "(ours: list then apply; peer: move, which checks it and lists the next moves):"
    )
    print(f"  ours {spread(per_move['ours'], 'us/move', 2)}")
    print(f"  peer {spread(per_move['peer'], 'us/move', 2)}")
    speed = [p / o for o, p in zip(per_move["ours"], per_move["peer"], strict=True)]
    print(f"  ours/peer speed (peer time over ours): {ratio_line(speed)}")


def heuristic(args: argparse.Namespace, seeds: list[int]) -> None:
    """Ours on the random baseline against the peer uniform: games per second."""
    lengths = [heuristic_length(seed) for seed in seeds]
    ours: list[float] = []
    peer: list[float] = []
    out: dict = {}
    for r in range(args.rounds):
        if r % 2:
            out = run_peer(args.peer, seeds, args.warmup)
            ms = ours_worker("heuristic", seeds, args.warmup)
        else:
            ms = ours_worker("heuristic", seeds, args.warmup)
            out = run_peer(args.peer, seeds, args.warmup)
        ours.append(rate(ms))
        peer.append(rate(out["ms"]))

    ratios = [o / p for o, p in zip(ours, peer, strict=True)]
    moves, rounds = zip(*lengths, strict=True)
    print(
        f"Heuristic (ours: the random baseline; peer: uniform): {args.games} random "
        f"{PLAYERS}-player Germany games a side (seeds 0-{args.games - 1}), {args.rounds} "
        f"interleaved rounds, each side's in a fresh process after {args.warmup} warm-up games"
    )
    print(
        f"  ours  Python {platform.python_version()} bench.workers.power_grid_games.random_game: "
        f"{spread(ours, 'games/s', 1)}, "
        f"{statistics.mean(moves):.0f} moves/game, {statistics.mean(rounds):.1f} rounds/game"
    )
    print(
        f"  peer  boardgamers/powergrid {peer_commit(args.peer)} on Node {out['node']}, uniform "
        f"over its legal moves: {spread(peer, 'games/s', 1)}, "
        f"{statistics.mean(out['moves']):.0f} moves/game, "
        f"{statistics.mean(out['rounds']):.1f} rounds/game"
    )
    print(f"  ours/peer games/s: {ratio_line(ratios)}")
    # The two policies make games of different lengths; per move and per round played
    # (a rate times the mean length) the comparison does not hang on that.
    mid = statistics.median(ratios)
    per_move = statistics.mean(moves) / statistics.mean(out["moves"])
    per_round = statistics.mean(rounds) / statistics.mean(out["rounds"])
    print(
        f"  ours/peer per move applied: {mid * per_move:.2f}x; "
        f"per game round played: {mid * per_round:.2f}x"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--peer", type=Path, help="a checkout of boardgamers/powergrid, engine built")
    ap.add_argument(
        "--mode",
        choices=("uniform", "heuristic"),
        default="uniform",
        help="uniform: both sides uniform over their legal moves; heuristic: ours the baseline",
    )
    ap.add_argument("--games", type=int, default=40, help="timed games a round (seeds 0..N-1)")
    ap.add_argument("--rounds", type=int, default=9, help="rounds, ours and the peer's in turn")
    ap.add_argument("--warmup", type=int, default=10, help="untimed games before timing")
    ap.add_argument("--worker", choices=("play", "replay", "heuristic"), help=argparse.SUPPRESS)
    ap.add_argument("--seeds", help=argparse.SUPPRESS)
    ap.add_argument("--replays", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args.worker, [int(s) for s in args.seeds.split(",")], args.warmup, args.replays)
        return 0
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
    if args.mode == "uniform":
        uniform(args, seeds)
    else:
        heuristic(args, seeds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
