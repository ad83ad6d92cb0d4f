"""Railroad Ink AI strength by level, on the dice of davidxmoody/railroad-ink-ai's published games.

Run: .venv/bin/python -m bench.ai_railroad_ink --peer PATH [--games 100] [--cheap 300] [--elec 20]
     [--jobs N]
- PATH: a checkout of https://github.com/davidxmoody/railroad-ink-ai. Its dice code (src/logic/
  dice.ts, seeded "final-0".."final-999" as its src/ai/run.ts does) is bundled at run time with
  esbuild into a temp dir, with seedrandom installed there by npm; nothing of it is kept.
- Base game, solo, our engine's default scoring: strong on the first --games sequences; standard,
  casual, today's AI frozen at bench.strength.FROZEN and random play on the first --cheap; the
  anchor's own mean on the same sequences from its src/data/results.txt.
- Electricity: strong with the Power Grid dice and with Street Lamps, our seeds 0..--elec-1.
- The levels' games run in --jobs processes (default: one per core), each game and its decision
  times on one core; a game's plans don't depend on the clock, so the scores are the same.
- Per level: mean with its 95 % interval, decision times a round, and the lines that explain the
  score (exits in scoring networks, open ends at the end, specials used).
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from random import Random

from bench.strength import FROZEN, Frozen, mean_ci, times_line
from engine.core import CHANCE, Level
from engine.railroad_ink import autopilot
from engine.railroad_ink.actions import Plan, Roll
from engine.railroad_ink.board import rules, tile
from engine.railroad_ink.config import Config, Expansion
from engine.railroad_ink.game import GAME, seat_context
from engine.railroad_ink.state import State

ESBUILD = "esbuild@0.24.2"
SEEDRANDOM = "seedrandom@3.0.5"
Policy = Callable[[State], Plan]


def peer_dice(peer: Path, games: int) -> list[list[list[str]]]:
    """The peer's dice for seeds final-0..final-(games-1): per game, per round, four tiles."""
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        npm = ["npm", "install", "--prefix", str(tmp), "--no-save", "--no-audit", "--no-fund"]
        subprocess.run([*npm, SEEDRANDOM], check=True, capture_output=True)
        entry = tmp / "entry.ts"
        entry.write_text(
            f'export {{rollGameDice}} from "{(peer / "src/logic/dice.ts").resolve()}"\n'
        )
        out = tmp / "dice.mjs"
        esbuild = ["npx", "--yes", ESBUILD, str(entry), "--bundle", "--format=esm"]
        # seedrandom resolves from the temp dir's node_modules when the bundle runs.
        options = ["--platform=node", "--external:seedrandom", "--tsconfig-raw={}"]
        subprocess.run([*esbuild, *options, f"--outfile={out}", "--log-level=warning"], check=True)
        gen = tmp / "gen.mjs"
        gen.write_text(
            'import {rollGameDice} from "./dice.mjs"\n'
            "const n = Number(process.argv[2])\n"
            "console.log(JSON.stringify(Array.from({length: n}, (_, i) => "
            "rollGameDice(`final-${i}`))))\n"
        )
        run = subprocess.run(
            ["node", str(gen), str(games)], check=True, capture_output=True, text=True
        )
        return json.loads(run.stdout)


def face_map(peer_faces: set[str]) -> dict[str, str]:
    """Their tile strings (sides N E S W: D road, L rail, _ none; "o" an overpass) to our
    route-die faces of the same shape under some turn."""
    ours = {*rules().dice["standard"].faces, *rules().dice["junction"].faces}
    kind = {"H": "D", "R": "L", None: "_"}
    shapes: dict[str, str] = {}
    for face in ours:
        for o in range(8):
            t = tile(face, o)
            shape = "".join(kind[s] for s in t.sides) + ("o" if t.segments == 2 else "")
            if shapes.setdefault(shape, face) != face:
                raise ValueError(f"{shape} is two of our faces")
    missing = peer_faces - set(shapes)
    if missing:
        raise ValueError(f"their faces {missing} match none of ours")
    return {f: shapes[f] for f in peer_faces}


def anchor_scores(peer: Path, games: int) -> list[int]:
    """The peer AI's published scores for final-0..final-(games-1), in seed order."""
    found: dict[int, int] = {}
    text = (peer / "src/data/results.txt").read_text()
    for m in re.finditer(r"Score: (\d+), seed: final-(\d+)", text):
        found[int(m.group(2))] = int(m.group(1))
    return [found[k] for k in range(games)]


def play(config: Config, rolls: list[Roll] | None, seed: int, policy: Policy) -> tuple[dict, list]:
    """A solo game: the given rolls (or seeded ones); the breakdown, and each plan's seconds."""
    rng = Random(seed)
    state = GAME.new(config, seed)
    seconds = []
    while not GAME.is_over(state):
        if CHANCE in GAME.to_act(state):
            roll = rolls[state.round - 1] if rolls else GAME.sample_chance(state, rng)
            state = GAME.apply(state, CHANCE, roll)
        else:
            t = time.perf_counter()
            plan = policy(state)
            seconds.append(time.perf_counter() - t)
            state = GAME.apply(state, 0, plan)
    out = GAME.outcome(state)[0]
    lines = dict(out["details"]["breakdown"])
    lines["specials_used"] = len(state.players[0].specials)
    return lines, seconds


def level_policy(level: Level) -> Policy:
    return lambda state: autopilot.choose(GAME.view(state, 0), 0, level=level)


def _level_game(job: tuple[Config, list[Roll] | None, int, Level]) -> tuple[dict, list]:
    config, rolls, seed, level = job
    return play(config, rolls, seed, level_policy(level))


def at_level(
    level: Level, config: Config, games: Sequence[tuple[list[Roll] | None, int]], jobs: int
) -> list[tuple[dict, list]]:
    """`play` at `level` on each (rolls, seed), in `jobs` processes, in order."""
    with ProcessPoolExecutor(jobs) as pool:
        return list(pool.map(_level_game, [(config, r, s, level) for r, s in games]))


def random_policy(seed: int) -> Policy:
    rng = Random(seed)
    return lambda state: autopilot.random_plan(seat_context(state), state.players[0], rng)


def report(label: str, games: list[tuple[dict, list]], against: str) -> None:
    scores = [g["total"] for g, _ in games]
    print(f"  {label:28s} {mean_ci(scores)}  {against}")
    exits = statistics.fmean(sum(g["networks"]) for g, _ in games)
    errors = statistics.fmean(g["errors"] for g, _ in games)
    specials = statistics.fmean(g["specials_used"] for g, _ in games)
    print(
        f"  {'':28s} exits in scoring networks {exits:.1f}, open ends {errors:.1f}, "
        f"specials {specials:.1f} of 3"
    )
    seconds = [s for _, times in games for s in times]
    if seconds:
        print(f"  {'':28s} plan a round: {times_line(seconds)}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--peer", type=Path, required=True, help="a railroad-ink-ai checkout")
    ap.add_argument("--games", type=int, default=100, help="anchor sequences for strong")
    ap.add_argument("--cheap", type=int, default=300, help="anchor sequences for the others")
    ap.add_argument("--elec", type=int, default=20, help="seeds per Electricity dice set")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes for levels")
    args = ap.parse_args()
    if not (args.peer / "src/logic/dice.ts").is_file():
        print("--peer must be a checkout of https://github.com/davidxmoody/railroad-ink-ai")
        return 2
    n = max(args.games, args.cheap)
    dice = peer_dice(args.peer, n)
    faces = face_map({f for game in dice for round_ in game for f in round_})
    rolls = [[Roll(route=tuple(faces[f] for f in r)) for r in game] for game in dice]
    base = Config(players=1)
    print(f"Base game, solo, scored by our engine (default options); their faces as ours: {faces}")
    print(f"  first game's dice: {[r.route for r in rolls[0]]}")

    def on(k: int, level: Level) -> list[tuple[dict, list]]:
        return at_level(level, base, [(rolls[g], g) for g in range(k)], args.jobs)

    anchor = anchor_scores(args.peer, args.games)
    print(f"Anchor sequences final-0..final-{args.games - 1}:")
    print(f"  {'railroad-ink-ai (published)':28s} {mean_ci(anchor)}  its results.txt")
    report("strong", on(args.games, "strong"), "ours on the same dice")
    cheap = anchor_scores(args.peer, args.cheap)
    print(f"Anchor sequences final-0..final-{args.cheap - 1}:")
    print(f"  {'railroad-ink-ai (published)':28s} {mean_ci(cheap)}  its results.txt")
    report("standard", on(args.cheap, "standard"), "ours on the same dice")
    report("casual", on(args.cheap, "casual"), "ours on the same dice")
    with Frozen(FROZEN, "engine.railroad_ink.autopilot") as old:

        def frozen_plan(state: State) -> Plan:
            return GAME.parse_action(old(GAME.view(state, 0), 0))  # type: ignore[return-value]

        frozen = [play(base, rolls[g], g, frozen_plan) for g in range(args.cheap)]
    report(f"today's AI (frozen {FROZEN})", frozen, "baseline on the same dice")
    report(
        "random legal plans",
        [play(base, rolls[g], g, random_policy(g)) for g in range(args.cheap)],
        "baseline on the same dice",
    )
    sets: tuple[tuple[str, Expansion], ...] = (
        ("Power Grid", "power_grid"),
        ("Street Lamps", "street_lamps"),
    )
    for name, expansion in sets:
        config = Config(players=1, expansions=frozenset({expansion}))
        print(f"Electricity, {name} dice, solo, our seeds 0..{args.elec - 1}:")
        seeds = [(None, g) for g in range(args.elec)]
        strong = at_level("strong", config, seeds, args.jobs)
        report("strong", strong, "bar: 50" if expansion == "power_grid" else "bar: 45")
        std = at_level("standard", config, seeds, args.jobs)
        report("standard", std, "same seeds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
