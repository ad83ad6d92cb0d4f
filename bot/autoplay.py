"""A game played by autopilot seats in the terminal, printed round by round: what each seat did
in the words of the game's channel summaries where it is hosted, else the standings."""

import argparse
import typing
from collections.abc import Callable
from importlib import import_module
from random import Random
from typing import Any

from pydantic import ValidationError

from bot.service.hosting import hosted
from engine import registry
from engine.core import Game, Outcome, step

NAMES = ("Ada", "Ben", "Chloé", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim", "Lou")


def set_options(game: Game) -> tuple[str | None, tuple[str, ...]]:
    """The config field that takes a set of named options (variants, expansions) and its names."""
    for name, field in game.Config.model_fields.items():
        if typing.get_origin(field.annotation) is frozenset:
            (literal,) = typing.get_args(field.annotation)
            return name, typing.get_args(literal)
    return None, ()


def all_variants() -> tuple[str, ...]:
    return tuple(sorted({v for n in registry.names() for v in set_options(registry.get(n))[1]}))


def _autopilot(name: str) -> Callable[[Any, int], Any]:
    """The game's autopilot as a policy over states; it decides from the seat's view alone."""
    game = registry.get(name)
    choose = import_module(f"engine.{name}.autopilot").choose
    return lambda state, seat: choose(game.view(state, seat), seat)


def _score(name: str, value: Any) -> str:
    plugin = hosted().get(name)
    return plugin.score(value) if plugin else f"{value:g}"


def _standings(name: str, game: Game, state: Any, names: list[str]) -> str:
    rows = sorted(game.outcome(state), key=lambda r: (r["rank"], r["seat"]))
    return ", ".join(f"{r['rank']}. {names[r['seat']]} {_score(name, r['score'])}" for r in rows)


def play_any(
    name: str, config: Any, seed: int, out: Callable[[str], object] = print
) -> list[Outcome]:
    """Play one game of `name` with autopilots in every seat, printing each round; return the
    outcome."""
    game = registry.get(name)
    names = list(NAMES[: config.players])
    lines = hosted()[name].round_lines if name in hosted() else None
    state = game.new(config, seed)
    rng, policy = Random(seed), _autopilot(name)
    out(f"{game.title}, {config.players} autopilot seat(s), seed {seed}: {', '.join(names)}")
    last = game.view(state, None)["round"]
    while not game.is_over(state):
        state = step(game, state, rng, policy)
        now = game.view(state, None)["round"]
        if (now != last or game.is_over(state)) and last:
            if lines:
                out(f"Round {last}")
                for line in lines(game.view(state, None), names):
                    out(f"  {line}")
            else:
                out(f"Round {last} · {_standings(name, game, state, names)}")
        last = now
    result = game.outcome(state)
    out(f"Final standings: {_standings(name, game, state, names)}")
    return result


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--game", choices=registry.names(), help="default: the game the variants belong to"
    )
    parser.add_argument("--players", type=int, default=None, help="default: the fewest allowed")
    parser.add_argument("--seed", type=int, default=None, help="default: a random seed")
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        choices=all_variants(),
        help="a variant or expansion of the game (repeat for several)",
    )


def config_of(args: argparse.Namespace) -> Any:
    """The game's table config from the options, or SystemExit with what is wrong."""
    args.game = args.game or _game_of(args.variant)
    game = registry.get(args.game)
    field, allowed = set_options(game)
    wrong = [v for v in args.variant if v not in allowed]
    if wrong:
        raise SystemExit(f"{game.title} has no variant {', '.join(wrong)}.")
    players = args.players or _fewest_players(game)
    fields: dict[str, Any] = {"players": players}
    if field:
        fields[field] = frozenset(args.variant)
    try:
        return game.Config(**fields)
    except ValidationError as exc:
        raise SystemExit(f"{game.title}: {exc.errors()[0]['msg']} (players: {players}).") from None


def _game_of(variants: list[str]) -> str:
    """The one game whose options include every variant named."""
    found = [n for n in registry.names() if set(variants) <= set(set_options(registry.get(n))[1])]
    if not variants or len(found) != 1:
        raise SystemExit(f"Choose a game with --game ({', '.join(registry.names())}).")
    return found[0]


def _fewest_players(game: Game) -> int:
    for rule in game.Config.model_fields["players"].metadata:
        if hasattr(rule, "ge"):
            return int(rule.ge)
    return 1


def main(args: argparse.Namespace) -> None:
    seed = args.seed if args.seed is not None else Random().randrange(1_000_000)
    play_any(args.game, config_of(args), seed)
