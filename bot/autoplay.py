"""A game of Powerline played by autopilot seats in the terminal, printed round by round."""

import argparse
from collections.abc import Sequence
from random import Random
from typing import Any

from engine import registry
from engine.core import step
from engine.powerline import autopilot

GAME = registry.get("powerline")
VARIANTS = ("construction_limits", "adventure_island", "contracts", "special_contracts")


def _plan_text(plan: dict[str, Any]) -> str:
    parts = []
    for p in plan["placements"]:
        where = "island" if p["island"] else f"{p['line']}·{p['segment']}"
        parts.append(f"{p['color']}→{where}" + ("*" if p["joker"] else ""))
    return ", ".join(parts) + (" +vacation" if plan["vacation"] else "")


def _round_lines(view: dict[str, Any]) -> list[str]:
    report = view["last_round"]
    pairs = zip(view["colors"], view["color_initials"], strict=True)
    dice = " ".join(f"{i}{report['dice'][c]}" for c, i in pairs)
    lines = [f"Round {report['round']:2d}  dice {dice}"]
    for seat, r in enumerate(report["seats"]):
        gains = [f"city {c}" for c in r["cities"]] + [f"station {s}" for s in r["stations"]]
        if r["island_loss"]:
            gains.append(f"island -{r['island_loss']}")
        if r["jokers_gained"]:
            gains.append(f"+{r['jokers_gained']} joker")
        extra = f" [{', '.join(gains)}]" if gains else ""
        lines.append(f"  seat {seat + 1}: {_plan_text(r['plan'])}{extra} → {r['vp_after']} VP")
    if report["scoring"]:
        lines.append(f"  Scoring {report['scoring']}:")
        for seat, r in enumerate(report["seats"]):
            paid = ", ".join(f"{t} +{vp}" for t, vp in r["scoring"].items())
            lines.append(f"    seat {seat + 1}: {paid}")
    for seat, r in enumerate(report["seats"]):
        if r["end_penalty"]:
            lines.append(f"  End: seat {seat + 1} loses {r['end_penalty']} VP for unfinished lines")
    return lines


def play(players: int, seed: int, variants: Sequence[str], out=print) -> list[dict[str, Any]]:
    """Play one game with autopilots in every seat, printing the log; return the outcome."""
    state = GAME.new(GAME.Config(players=players, variants=frozenset(variants)), seed)
    rng = Random(seed)
    view = GAME.view(state, None)
    out(f"Powerline, {players} autopilot seat(s), seed {seed}")
    boards = ", ".join(str(s["board"]) for s in view["seats"])
    out(
        f"  board(s) {boards}, scoring tiles {' '.join(t['letter'] for t in view['scoring_tiles'])}"
        f", variants: {', '.join(view['variants']) or 'none'}"
    )
    while not GAME.is_over(state):
        state = step(GAME, state, rng, autopilot.act)
        if state.phase != "plan":
            for line in _round_lines(GAME.view(state, None)):
                out(line)
    result = GAME.outcome(state)
    out("Final standings:")
    for r in sorted(result, key=lambda r: r["rank"]):
        b = r["details"]["breakdown"]
        out(
            f"  {r['rank']}. seat {r['seat'] + 1}: {r['score']} VP "
            f"({r['details']['station_tiles']} station tiles) — start {b['start']}, cities "
            f"{b['cities']}, stations {b['stations']}, scorings "
            f"{b['scoring_1']}+{b['scoring_2']}+{b['scoring_3']}, island {b['island']}, "
            f"end {b['end_penalty']}"
        )
        if "title" in r["details"]:
            out(f"     “{r['details']['title']}”")
    return result


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, default=1, choices=range(1, 7))
    parser.add_argument("--seed", type=int, default=None, help="default: a random seed")
    parser.add_argument("--variant", action="append", default=[], choices=VARIANTS)


def main(args: argparse.Namespace) -> None:
    seed = args.seed if args.seed is not None else Random().randrange(1_000_000)
    play(args.players, seed, args.variant)
