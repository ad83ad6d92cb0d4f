"""The contract every game engine implements, and what engines share."""

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from random import Random
from time import perf_counter
from typing import Any, Literal, Protocol, TypeVar, runtime_checkable

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError
from typing_extensions import TypedDict  # pydantic validates only this one before 3.12

CHANCE = -1
"""The seat that rolls dice and draws cards; its actions come from `Game.sample_chance`."""


HIDDEN = "hidden"
"""What a redacted action shows in place of something its reader may not know yet."""


class IllegalAction(Exception):
    """An action the rules refuse; the message is a sentence a player understands."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


T = TypeVar("T")


def validated(adapter: TypeAdapter[T], data: object) -> T:
    """`data` (a JSON object) validated by `adapter`; a malformed one raises IllegalAction that
    names the first problem."""
    if not isinstance(data, dict):
        raise IllegalAction("That action is malformed: an action is a JSON object with a type.")
    try:
        return adapter.validate_python(data)
    except ValidationError as exc:
        raise IllegalAction(f"That action is malformed: {plain(exc)}") from None


def plain(exc: ValidationError) -> str:
    """The first problem of a validation error as a sentence a player reads (never the
    validator's own wording)."""
    err = exc.errors()[0]
    loc = [str(p) for p in err["loc"] if not isinstance(p, int)]
    field = f"“{loc[-1]}”" if loc else "it"
    kind, ctx = err["type"], err.get("ctx") or {}
    if kind == "value_error":
        text = str(ctx.get("error") or err["msg"]).removeprefix("Value error, ")
        return text[:1].upper() + text[1:].rstrip(".") + "."
    sentences = {
        "missing": f"{field} is missing.",
        "extra_forbidden": f"{field} is not something it takes.",
        "greater_than_equal": f"{field} must be at least {ctx.get('ge')}.",
        "less_than_equal": f"{field} must be at most {ctx.get('le')}.",
        "greater_than": f"{field} must be more than {ctx.get('gt')}.",
        "less_than": f"{field} must be less than {ctx.get('lt')}.",
        "literal_error": f"{field} must be one of {ctx.get('expected')}.",
        "union_tag_not_found": "the kind of move (its “type”) is missing.",
        "union_tag_invalid": f"there is no kind of move called {ctx.get('tag')!r}.",
        "too_long": f"{field} has more than {ctx.get('max_length')} items.",
        "too_short": f"{field} has fewer than {ctx.get('min_length')} items.",
    }
    kinds = {
        "int": "a whole number",
        "bool": "true or false",
        "string": "text",
        "list": "a list",
        "tuple": "a list",
        "dict": "an object",
        "model": "an object",
        "float": "a number",
    }
    if kind in sentences:
        return sentences[kind]
    base = kind.removesuffix("_type").removesuffix("_parsing").removesuffix("_from_float")
    if base in kinds:
        return f"{field} must be {kinds[base]}."
    return f"{field} is not valid."


Dynamics = Literal["simultaneous", "sequential"]
"""A game's shape of play (OpenSpiel's `GameType.dynamics`): every seat plans a round in secret
at once, or the seats in `to_act` move one decision at a time."""


@dataclass(frozen=True, slots=True)
class Progress:
    """Where a game stands, as the platform may show and compare it."""

    round: int
    phase: str
    """The engine's name for the phase; a change of (round, phase) is a phase that ended."""
    words: str
    """Round and phase as a person reads them: "round 3, the auction"."""


class Outcome(TypedDict):
    """One seat's standing, as `Game.outcome` gives it: final once the game is over."""

    seat: int
    score: float
    rank: int
    """1 is best; seats level on every tiebreak share a rank."""
    tiebreak: list[Any]
    """The keys that ranked the seat, most important first (stored with the results)."""
    primary: float | None
    """The measure tournaments compare first (margins of victory)."""
    secondary: float | None
    details: dict[str, Any]
    """The game's own breakdown, read by its words and images only."""


class Standing(Outcome):
    """A seat's standing while the game runs, from what every player may know."""

    note: str | None
    """A hidden tiebreak in words, or None."""


class Event(BaseModel):
    """One thing a move did, as the engine reports it (ids and numbers, never words)."""

    model_config = ConfigDict(frozen=True, extra="forbid")


@dataclass(frozen=True, slots=True)
class Logged:
    """One logged action with the states around it, as a redaction reads it."""

    before: Any
    seat: int
    action: dict[str, Any]
    """The action as logged (JSON)."""
    after: Any


class Game(Protocol):
    """A game: pure functions over immutable-by-convention states. Its `Config` has a `players`
    field whose bounds (`ge`, `le`) are the game's player counts (`player_counts`)."""

    name: str
    title: str
    summary: str
    """One line for menus and /help: players and what the game is about."""
    dynamics: Dynamics
    Config: type[BaseModel]

    def new(self, config: Any, seed: int) -> Any: ...
    def to_act(self, state: Any) -> set[int]: ...
    def sample_chance(self, state: Any, rng: Random) -> Any: ...
    def legal_actions(self, state: Any, seat: int) -> Iterable[Any]: ...
    def apply(self, state: Any, seat: int, action: Any) -> Any: ...
    def happened(self, before: Any, seat: int, action: Any, after: Any) -> list[Event]:
        """What `action` of `seat` did, in order: structured events a game's words phrase."""
        ...

    def reversible(self, step: Logged) -> bool:
        """Whether its mover may take this move back while still on turn (Board Game Arena's
        rule): it showed nobody anything hidden, drew nothing by chance, and ended no turn."""
        ...

    def view(self, state: Any, seat: int | None) -> dict[str, Any]: ...
    def is_over(self, state: Any) -> bool: ...
    def progress(self, state: Any) -> Progress: ...
    def outcome(self, state: Any) -> list[Outcome]:
        """Per seat: its rank (ties shared) with the keys that decided it."""
        ...

    def standings(self, state: Any) -> list[Standing]:
        """Per seat while the game runs: ranked on what every player may know."""
        ...

    def redact(self, step: Logged, now: Any, viewer: int | None) -> dict[str, Any]:
        """What `viewer` (None: anyone) may know of a logged action while the game, now at `now`,
        runs: its JSON with secrets as HIDDEN, plus the chance outcomes it made public."""
        ...

    def hidden(self, config: Any) -> list[str]:
        """What a running game keeps from a reader of its log, in words."""
        ...

    def dump_state(self, state: Any) -> str: ...
    def load_state(self, text: str) -> Any: ...
    def parse_action(self, data: dict[str, Any]) -> Any: ...


@runtime_checkable
class Planning(Game, Protocol):
    """A simultaneous game: each seat builds its secret plan step by step; the engine judges
    every step and says when a partial plan may be submitted."""

    def legal_next(self, state: Any, seat: int, steps: Sequence[Any]) -> list[Any]: ...
    def can_submit(self, state: Any, seat: int, steps: Sequence[Any]) -> bool: ...


def planning(game: Game) -> Planning:
    """`game` as a simultaneous game; anything else is refused in words."""
    if game.dynamics != "simultaneous" or not isinstance(game, Planning):
        raise IllegalAction(f"{game.title} has no plans to draft: it is played turn by turn.")
    return game


@runtime_checkable
class Queued(Game, Protocol):
    """A turn-based game that can say who moves next, as far as its rules fix the order."""

    def queue(self, state: Any) -> list[int] | None:
        """Seats in the order they will next move, the one on turn first, as far as the rules
        fix it (a seat left out: not known yet; None: nothing known)."""
        ...


def queue(game: Game, state: Any) -> list[int] | None:
    """The seats in the order they will next move, if `game` can say (else None)."""
    return game.queue(state) if isinstance(game, Queued) else None


def player_counts(game: Game) -> range:
    """How many players the game seats, from its `Config.players` bounds."""
    low, high = 1, None
    for rule in game.Config.model_fields["players"].metadata:
        low = getattr(rule, "ge", None) or low
        high = getattr(rule, "le", None) or high
    if high is None:
        raise TypeError(f"{game.name}'s Config.players has no upper bound (le)")
    return range(low, high + 1)


def hide(action: dict[str, Any], keep: Iterable[str] = ()) -> dict[str, Any]:
    """`action` with every field but its type and `keep` shown as HIDDEN."""
    kept = {"type", *keep}
    return {k: v if k in kept else HIDDEN for k, v in action.items()}


def open_standings(rows: list[Outcome]) -> list[Standing]:
    """The standings of a game whose ranking keys are all public: its outcome rows."""
    return [Standing(**row, note=None) for row in rows]


def public_log(
    game: Game,
    config: Any,
    seed: int,
    log: Iterable[tuple[int, dict[str, Any]]],
    now: Any,
    viewer: int | None,
) -> list[dict[str, Any]]:
    """The log replayed from its start, each action as `viewer` may know it at `now`."""
    state = game.new(config, seed)
    out = []
    for seat, action in log:
        after = game.apply(state, seat, game.parse_action(action))
        out.append(game.redact(Logged(state, seat, action, after), now, viewer))
        state = after
    return out


def check_planner(state: Any, seat: int) -> None:
    """Refuse a plan from anyone but a seated player while the round's dice are out."""
    if seat == CHANCE:
        raise IllegalAction("The chance seat rolls dice; it does not plan.")
    if not 0 <= seat < len(state.players):
        raise IllegalAction(f"Seat {seat} is not at this table.")
    if state.phase == "over":
        raise IllegalAction("The game is over.")
    if state.phase != "plan":
        raise IllegalAction(f"The dice for round {state.round} are not rolled yet.")


Level = Literal["casual", "standard", "strong"]
"""How well an AI seat plays. Every autopilot's `choose(view, seat, budget=, level=)` takes one:
standard is the timeout autopilot's; strong may search longer; casual plays sensibly but loosely."""
LEVELS: tuple[Level, ...] = ("casual", "standard", "strong")


def spent(budget: float | None) -> Callable[[], bool]:
    """An autopilot search's test of whether its budget (seconds of computing, not game time:
    it bounds how long a table waits) is used up; never, without one."""
    if budget is None:
        return lambda: False
    end = perf_counter() + budget
    return lambda: perf_counter() >= end


def step(game: Game, state: Any, rng: Random, policy: Callable[[Any, int], Any]) -> Any:
    """Let everyone who owes an action act once: chance from `rng`, seats from `policy`."""
    for seat in sorted(game.to_act(state)):
        action = game.sample_chance(state, rng) if seat == CHANCE else policy(state, seat)
        state = game.apply(state, seat, action)
    return state


def play_out(game: Game, state: Any, rng: Random, policy: Callable[[Any, int], Any]) -> Any:
    """Step until the game is over."""
    while not game.is_over(state):
        state = step(game, state, rng, policy)
    return state


def shared_ranks(keys: Sequence[tuple[int, ...]]) -> list[int]:
    """Competition ranks (1 = best) for per-seat sort keys, higher is better; equal keys share."""
    return [1 + sum(other > key for other in keys) for key in keys]


def tiebreak_used(keys: Sequence[tuple[int, ...]], seat: int, names: tuple[str, ...]) -> str | None:
    """Name of the deepest sort key needed to separate `seat` from the seats level with it on the
    first key: None when none is, "shared" when one is equal on every key."""
    deepest = 0
    for other, key in enumerate(keys):
        if other == seat or key[0] != keys[seat][0]:
            continue
        if key == keys[seat]:
            return "shared"
        mine = keys[seat]
        deepest = max(deepest, next(i for i in range(len(key)) if key[i] != mine[i]))
    return names[deepest] if deepest else None


class SecretRounds:
    """What every game of secret simultaneous rounds shares (its state has `round` and `phase`,
    "plan" while a round is planned): its progress, open standings, and plans kept secret
    until their round resolves."""

    dynamics: Dynamics = "simultaneous"

    def outcome(self, state: Any) -> list[Outcome]:
        raise NotImplementedError

    def progress(self, state: Any) -> Progress:
        """The round while it is rolled and planned, in words "round 3"; "the end" once over."""
        words = "the end" if state.phase == "over" else f"round {state.round}"
        return Progress(state.round, state.phase, words)

    def standings(self, state: Any) -> list[Standing]:
        return open_standings(self.outcome(state))

    def redact(self, step: Logged, now: Any, viewer: int | None) -> dict[str, Any]:
        """A plan stays its planner's own while its round is planned (that it was made is
        public); rolls and resolved plans are public."""
        secret = step.seat not in (CHANCE, viewer) and now.phase == "plan"
        return hide(step.action) if secret and now.round == step.before.round else step.action

    def hidden(self, config: Any) -> list[str]:
        return ["each player's plan for the round being planned (each sees their own)"]

    def reversible(self, step: Logged) -> bool:
        """A plan is a draft until submitted, and a submitted plan is another seat's to wait for."""
        return False

    def happened(self, before: Any, seat: int, action: Any, after: Any) -> list[Event]:
        """None: a round's words come from the views."""
        return []
