"""A tournament's table config: the hosted game's tournament house rules under the organiser's
options ("hidden_money=false, map=usa"), checked by the engine's `Config` at every table size
a tournament seats, and refused in one sentence that names the option."""

import re
import types
from collections.abc import Iterable
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import ValidationError

from bot.service.errors import UserError
from bot.service.hosting import Hosted, hosting
from engine.core import player_counts

TABLE_SIZES = range(3, 7)
"""Every table size `form_tables` and the semifinal can seat (3 to 6 players)."""

EXAMPLE = "hidden_money=false, map=usa"
_TRUE, _FALSE = ("true", "yes"), ("false", "no")
_WHOLE = re.compile(r"[+-]?\d+")


def parse_options(text: str | None) -> dict[str, Any]:
    """ "name=value, name=value" as config keys: true/false/yes/no are booleans, whole numbers
    are integers, anything else is the text as written."""
    out: dict[str, Any] = {}
    for part in (text or "").split(","):
        part = part.strip()
        if not part:
            continue
        name, equals, value = (s.strip() for s in part.partition("="))
        if not equals or not name or not value:
            raise UserError(
                f"Write each option as name=value, separated by commas (like “{EXAMPLE}”); "
                f"“{part}” is not."
            )
        if name in out:
            raise UserError(f"The option “{name}” is given twice.")
        out[name] = _value(value.strip("\"'"))
    return out


def _value(text: str) -> Any:
    if text.lower() in _TRUE:
        return True
    if text.lower() in _FALSE:
        return False
    if _WHOLE.fullmatch(text):
        return int(text)
    return text


def _choices(annotation: Any) -> list[Any]:
    """The values a Literal field (or an optional Literal) takes; [] for any other field."""
    if get_origin(annotation) is Literal:
        return list(get_args(annotation))
    if get_origin(annotation) in (Union, types.UnionType):
        return [c for arg in get_args(annotation) for c in _choices(arg)]
    return []


def _shown(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _listed(values: Iterable[Any]) -> str:
    words = [_shown(v) for v in values]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def table_sizes(plugin: Hosted) -> list[int]:
    """The table sizes a tournament of this game may seat."""
    return [n for n in TABLE_SIZES if n <= plugin.max_players]


def check_config(plugin: Hosted, config: dict[str, Any]) -> None:
    """Refuse (UserError, one sentence) a config the engine would refuse at some table size."""
    fields = plugin.engine.Config.model_fields
    if "players" in config:
        raise UserError(
            "“players” is not an option: each table seats the players the heat gives it."
        )
    for players in table_sizes(plugin):
        try:
            plugin.engine.Config(**{**config, "players": players})
        except ValidationError as exc:
            raise UserError(_refusal(plugin, fields, config, exc.errors()[0], players)) from None
        except (TypeError, ValueError) as exc:
            raise UserError(f"Those options don't work together: {exc}.") from None


def _refusal(
    plugin: Hosted, fields: dict[str, Any], config: dict[str, Any], error: Any, players: int
) -> str:
    """One sentence for the engine's first objection, naming the option and why."""
    kind, loc, ctx = error["type"], error.get("loc", ()), error.get("ctx") or {}
    reason = str(ctx.get("error", "")).rstrip(".")
    if not loc or loc[0] not in config:
        # A rule between options (or one that depends on the table size).
        why = reason or "the game's rules refuse them"
        return f"Those options don't work together at a table of {players}: {why}."
    name = str(loc[0])
    if kind == "extra_forbidden" or name not in fields:
        names = [f for f in fields if f != "players"]
        return f"“{name}” is not an option of {plugin.title}; its options are {', '.join(names)}."
    given = f"{name}={_shown(config[name])}"
    choices = _choices(fields[name].annotation)
    choices = [c for c in choices if c is not None]
    if choices:
        why = f"it is one of {_listed(choices)}"
    elif kind.startswith("bool"):
        why = "it is true or false"
    elif kind.startswith("int"):
        why = "it is a whole number"
    elif kind in ("greater_than_equal", "greater_than"):
        why = f"it is at least {ctx['ge']}" if "ge" in ctx else f"it is more than {ctx['gt']}"
    elif kind in ("less_than_equal", "less_than"):
        why = f"it is at most {ctx['le']}" if "le" in ctx else f"it is less than {ctx['lt']}"
    elif reason:
        why = reason
    else:
        why = "it takes a list or another kind of value, which these options can't give"
    return f"{given} is not an option: {why}."


def tournament_config(game: str, options: str | None) -> dict[str, Any]:
    """The engine config of every table: the game's tournament house rules, then the
    organiser's options over them; refused at once if the engine would refuse it."""
    plugin = hosting(game)
    config = {**plugin.tournament_config, **parse_options(options)}
    # A choice written in another case ("map=USA") is the choice.
    fields = plugin.engine.Config.model_fields
    for name, value in config.items():
        if isinstance(value, str) and name in fields:
            for choice in _choices(fields[name].annotation):
                if isinstance(choice, str) and choice.lower() == value.lower():
                    config[name] = choice
    check_config(plugin, config)
    return config


FORMAT_NAMES = {
    "wbc": "WBC heats, semifinal and final",
    "swiss": "Swiss in pods",
    "round_robin": "round robin in pods",
}


def pod_sizes(text: str | None, plugin: Hosted) -> list[int]:
    """The table sizes a Swiss or round-robin round may use ("4,5", the first preferred); by
    default 4 and 5 where the game seats them, else its largest table."""
    allowed = player_counts(plugin.engine)
    if text is None:
        return [n for n in (4, 5) if n in allowed] or [allowed.stop - 1]
    try:
        sizes = list(dict.fromkeys(int(part) for part in text.replace(" ", "").split(",") if part))
    except ValueError:
        raise UserError(f"“{text}” is not a list of table sizes: write it like 4,5.") from None
    check_pods(sizes, plugin)
    return sizes


def check_pods(sizes: list[int], plugin: Hosted) -> None:
    """Refuse pod sizes the game can't seat (or a table of one)."""
    allowed = player_counts(plugin.engine)
    if not sizes or any(n not in allowed or n < 2 for n in sizes):
        low = max(2, allowed.start)
        raise UserError(f"{plugin.title} tables seat {low} to {allowed.stop - 1} players.")
