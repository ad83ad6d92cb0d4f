"""The games this bot hosts on Discord: one package per game under `bot.games`, found by walking
it. This is the only list of hosted games; nothing else in the platform names one.

A game's package holds a `plugin` module (this half, no Discord: what the service needs) and its
Discord half (`presenter`, `cog`, optional `controls`), see docs/architecture.md.
"""

import importlib
import pkgutil
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, ClassVar, Protocol, TypeVar

from bot.service.challenges import Daily
from bot.service.errors import UserError
from engine import registry
from engine.coaching import Coach
from engine.core import Game, Level, Outcome, player_counts


class Planner(Protocol):
    """A simultaneous game's secret plan, built step by step in a draft. The engine judges every
    step (`legal_next`, `can_submit`); a planner only gives steps their words and keys."""

    def normalise(self, data: dict[str, Any]) -> dict[str, Any]:
        """A step as stored: its shape validated, defaults filled in."""
        ...

    def describe(self, state: Any, seat: int, step: dict[str, Any]) -> str:
        """A next step, as a choice in words."""
        ...

    def lines(self, state: Any, seat: int, steps: list[dict[str, Any]]) -> list[str]:
        """A draft in words, a line per step, as the board's preview names them."""
        ...

    def key(self, step: dict[str, Any]) -> str: ...
    def parse_key(self, key: str) -> dict[str, Any]: ...
    def plan(self, steps: list[dict[str, Any]], vacation: bool) -> dict[str, Any]: ...
    def unplan(self, plan: dict[str, Any]) -> tuple[list[dict[str, Any]], bool]:
        """A plan action's steps and its flag (`plan`'s inverse), for the coach's words."""
        ...

    def flag_refusal(self, state: Any, seat: int) -> str | None:
        """Why the plan's one on/off choice (such as a vacation tile) can't be on; None if it
        can. Drafts keep that flag beside their steps."""
        ...


class Turns(Protocol):
    """A turn-based game's moves in words. Exactly the seats in `to_act` owe a move, chosen from
    the engine's `legal_actions`; the words name other seats as "{seat N}" (see `fill`)."""

    def describe(self, before: Any, seat: int, action: dict[str, Any], after: Any) -> str:
        """The move of `seat` in words, past tense, without the mover's name."""
        ...

    @property
    def premoves(self) -> dict[str, str]:
        """Moves a seat may decide before its turn without leaking anything: key → words."""
        ...

    def premove_scope(self, key: str, state: Any) -> Any:
        """The [round, phase] a pre-move set now covers (the next phase of its kind); it lapses
        when that phase ends."""
        ...

    @property
    def paced(self) -> frozenset[str]:
        """Pre-moves made at a person's pace, not at once: an instant answer would tell the
        others it was automatic (a maximum bid)."""
        ...

    def premove_action(
        self, key: str, scope: Any, state: Any, seat: int, amount: int | None
    ) -> dict[str, Any] | None:
        """The move a pre-move (with its `amount`, if it takes one) makes for `seat` now, or
        None if it does not apply here."""
        ...

    def premove_refusal(self, key: str, state: Any, seat: int, amount: int | None) -> str | None:
        """Why the pre-move `key` (with `amount`), set now, could never be made (passing where
        the rules forbid it, a maximum bid below the bid); None if it may."""
        ...


class NoPremoves:
    """For a turn-based game where nothing is decided ahead: its `Turns` inherits this."""

    premoves: ClassVar[dict[str, str]] = {}
    paced: ClassVar[frozenset[str]] = frozenset()

    def premove_scope(self, key: str, state: Any) -> Any:
        raise KeyError(key)

    def premove_action(
        self, key: str, scope: Any, state: Any, seat: int, amount: int | None
    ) -> dict[str, Any] | None:
        return None

    def premove_refusal(self, key: str, state: Any, seat: int, amount: int | None) -> str | None:
        return None


P = TypeVar("P")


def needed(part: P | None, what: str) -> P:
    """A part that games of this kind must have (a simultaneous game's round words or roll
    image); a plug-in without it fails here, by name, not as a call of None."""
    if part is None:
        raise TypeError(f"this game's plug-in has no {what}")
    return part


SEAT = re.compile(r"\{seat (\d+)\}")


def fill(text: str, names: list[str]) -> str:
    """Words with "{seat N}" placeholders, the seats named."""
    return SEAT.sub(lambda m: names[int(m.group(1))], text)


def seat_ref(seat: int) -> str:
    """The placeholder for another seat's name in a move's words (`fill` names it)."""
    return f"{{seat {seat}}}"


def join(items: list[str]) -> str:
    """Items as a person lists them: a; a and b; a, b and c."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


class Choose(Protocol):
    """An autopilot: an action for a seat from that seat's view alone, at an AI level, searching
    no longer than `budget` seconds when given one."""

    def __call__(
        self,
        view: dict[str, Any],
        seat: int,
        *,
        budget: float | None = None,
        level: Level = "standard",
    ) -> Any: ...


@dataclass(frozen=True)
class Hosted:
    """What the service knows of a hosted game beyond its engine."""

    name: str
    """The engine's registry name."""
    command: str
    """The slash-command group of the game's own moves (`/<command> open` and the rest)."""
    measure: str
    """The unit of the outcome's score, as players say it ("VP", "points", "cities powered")."""
    choose: Choose
    """The autopilot (timeouts and AI seats); a module-level function, so it runs in workers."""
    options_in_words: Callable[[dict[str, Any]], list[str]]
    """The table's rules options (its engine config) in words, one line each, for the lobby."""
    rules: Callable[[], str]
    """The rules in a minute (Markdown), for `/game rules`."""
    planner: Planner | None = None
    """Simultaneous games plan in secret drafts (and have no `turns`)."""
    turns: Turns | None = None
    """Turn-based games act on `legal_actions`, one move at a time (and have no `planner`)."""
    standings: Callable[[list[Outcome], list[str]], list[str]] | None = None
    """The final standings in words with the tiebreaks that decided (default: rank and score)."""
    round_lines: Callable[[dict[str, Any], list[str]], list[str]] | None = None
    """The last round in words, from a public view and the seats' names (summaries, autoplay)."""
    measure_one: str | None = None
    """The unit for a score of exactly 1 ("point", "city powered"), where it differs."""
    coach: Coach | None = None
    """After the game: the seat's decisions weighed against the AI's (engine.coaching)."""
    levels: Mapping[Level, str] = field(default_factory=dict)
    """Each AI level's strength as measured (bench/ai_<game>.py), in a line for `/game rules`
    and the lobby's AI choice."""
    dailies: tuple[Daily, ...] = ()
    """The game's daily challenges (a solo game on everyone's same dice), if it has any."""
    tournament_config: dict[str, Any] = field(default_factory=dict)
    """The engine config (without `players`) a tournament's tables use unless the organiser
    says otherwise, such as the house rules of the seed's tournament; never changed in place."""

    @property
    def engine(self) -> Game:
        return registry.get(self.name)

    @property
    def title(self) -> str:
        return self.engine.title

    @property
    def max_players(self) -> int:
        """The most seats a table has: the engine's bound on `Config.players`."""
        return player_counts(self.engine).stop - 1

    def plans(self) -> Planner:
        """The planner of a simultaneous game; for a turn-based one, a refusal in words."""
        if self.planner is None:
            raise UserError(f"{self.title} has no plans to draft: it is played turn by turn.")
        return self.planner

    def moves(self) -> Turns:
        """The moves in words of a turn-based game; for a simultaneous one, a refusal in words."""
        if self.turns is None:
            raise UserError(f"{self.title} is planned in secret, not played turn by turn.")
        return self.turns

    def score(self, value: float | None) -> str:
        """A score with its unit: "92 VP", "1 city powered"."""
        if value is None:
            return "—"
        unit = self.measure_one if value == 1 and self.measure_one else self.measure
        return f"{value:g} {unit}"


@cache
def hosted() -> dict[str, Hosted]:
    """Every hosted game by engine name, sorted; found by walking `bot.games`."""
    import bot.games as package

    found: dict[str, Hosted] = {}
    for info in pkgutil.iter_modules(package.__path__):
        if info.ispkg:
            plugin = importlib.import_module(f"{package.__name__}.{info.name}.plugin").PLUGIN
            if plugin.name != info.name:
                raise RuntimeError(f"bot.games.{info.name} must be named for its engine")
            found[plugin.name] = plugin
    return dict(sorted(found.items()))


def hosting(name: str) -> Hosted:
    """The hosted game `name`; a clear refusal for an engine that is not hosted on Discord."""
    try:
        return hosted()[name]
    except KeyError:
        raise UserError(f"There is no game “{name}” on this bot.") from None


def by_title(text: str) -> str | None:
    """The engine name of a hosted game given by name or title, in any case."""
    wanted = text.strip().lower().replace(" ", "_")
    for name, game in hosted().items():
        if wanted in (name, game.title.lower().replace(" ", "_"), game.command):
            return name
    return None
