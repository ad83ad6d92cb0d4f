"""A game played by autopilot seats in the terminal, printed round by round (Powerline in full
detail; the other games as standings after each round)."""

import argparse
from collections.abc import Callable, Sequence
from importlib import import_module
from random import Random
from typing import Any

from pydantic import ValidationError

from engine import registry
from engine.core import Game, step
from engine.powerline import autopilot

GAME = registry.get("powerline")
VARIANTS = ("construction_limits", "adventure_island", "contracts", "special_contracts")
EXPANSIONS = ("street_lamps", "power_grid")


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


def _autopilot(name: str) -> Callable[[Any, int], Any]:
    """The game's autopilot as a policy over states; it decides from the seat's view alone."""
    game = registry.get(name)
    choose = import_module(f"engine.{name}.autopilot").choose
    return lambda state, seat: choose(game.view(state, seat), seat)


def _standings(game: Game, state: Any) -> str:
    rows = sorted(game.outcome(state), key=lambda r: (r["rank"], r["seat"]))
    return ", ".join(f"{r['rank']}. seat {r['seat'] + 1}: {r['score']}" for r in rows)


def play_any(name: str, config: Any, seed: int, out=print) -> list[dict[str, Any]]:
    """Play one game of `name` with autopilots in every seat, printing the standings after each
    round; return the outcome."""
    game = registry.get(name)
    state = game.new(config, seed)
    rng, policy = Random(seed), _autopilot(name)
    out(f"{game.title}, {config.players} autopilot seat(s), seed {seed}")
    last = game.view(state, None)["round"]
    while not game.is_over(state):
        state = step(game, state, rng, policy)
        now = game.view(state, None)["round"]
        if now != last and last:
            out(f"Round {last:2d}  {_standings(game, state)}")
        last = now
    result = game.outcome(state)
    out(f"Final standings: {_standings(game, state)}")
    return result


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", default="powerline", choices=registry.names())
    parser.add_argument("--players", type=int, default=None, help="default: 1 (Power Grid 3)")
    parser.add_argument("--seed", type=int, default=None, help="default: a random seed")
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        choices=VARIANTS + EXPANSIONS,
        help="Powerline variants; Railroad Ink expansions",
    )


def config_of(args: argparse.Namespace) -> Any:
    """The game's table config from the options, or SystemExit with what is wrong."""
    game = registry.get(args.game)
    allowed = {"powerline": VARIANTS, "railroad_ink": EXPANSIONS}.get(args.game, ())
    wrong = [v for v in args.variant if v not in allowed]
    if wrong:
        raise SystemExit(f"{game.title} has no variant {', '.join(wrong)}.")
    players = args.players or {"powerline": 1, "railroad_ink": 1}.get(args.game, 3)
    fields: dict[str, Any] = {"players": players}
    if args.game == "powerline":
        fields["variants"] = frozenset(args.variant)
    elif args.game == "railroad_ink":
        fields["expansions"] = frozenset(args.variant)
    try:
        return game.Config(**fields)
    except ValidationError as exc:
        raise SystemExit(f"{game.title}: {exc.errors()[0]['msg']} (players: {players}).") from None


def main(args: argparse.Namespace) -> None:
    seed = args.seed if args.seed is not None else Random().randrange(1_000_000)
    config = config_of(args)
    if args.game == "powerline":
        play(config.players, seed, args.variant)
    else:
        play_any(args.game, config, seed)
