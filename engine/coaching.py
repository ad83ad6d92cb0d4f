"""The coach's contract: after a game, the decisions where a seat's AI would have chosen
otherwise, weighed by what each choice led to. Each game's `coach` module fills it in."""

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol


class Step(NamedTuple):
    """One logged action with the state it was made in (chance included, seat -1)."""

    before: Any
    seat: int
    action: dict[str, Any]


@dataclass(frozen=True)
class Advice:
    """A decision of the seat's where the AI suggests another, and what each would have led to."""

    at: int
    """The decision's index in the game's steps (its state is `steps[at].before`)."""
    round: int
    title: str
    """Where it was, in words: "Round 3", "Round 5 · auction", "Turn 14"."""
    played: dict[str, Any]
    suggested: dict[str, Any]
    """The AI's choice, as an action of the same shape (for a plan, the whole round's plan)."""
    played_value: float
    suggested_value: float
    """The game's measure after each choice (`Coaching.measure`): e.g. the seat's final score
    with the AI playing the rest of the game the same way after either."""
    detail: dict[str, tuple[float, float]] = field(default_factory=dict)
    """Other figures, played then suggested (e.g. {"cities": (7, 8), "money": (12, 3)})."""

    @property
    def gain(self) -> float:
        """What the suggestion would have added (negative: the seat's choice was better)."""
        return self.suggested_value - self.played_value


@dataclass(frozen=True)
class Coaching:
    """A seat's game as the coach weighed it."""

    seat: int
    measure: str
    """What the values measure, in words ("points by the end", "VP after the turn")."""
    advice: list[Advice]
    """Every decision weighed where the AI would have chosen otherwise, in game order."""
    highlights: list[int]
    """Indexes into `advice` of the two or three that mattered most (largest gains first)."""
    weighed: int
    """Decisions of the seat's that were weighed (with or without advice)."""
    decisions: int
    """Decisions of the seat's in the game; fewer weighed means the budget ran out."""
    readable: bool = True
    """Whether the values read as they are ("32 points"); else only their order means something
    and `detail` gives the figures a person reads."""
    table: dict[str, list[list[float]]] = field(default_factory=dict)
    """Figures of every seat round by round, revealed now that the game is over (e.g. "money":
    one row per round, one column per seat)."""


class Coach(Protocol):
    """A game's coach: the seat's decisions in `steps` (the whole log, with `final` the state at
    the end) against its autopilot's, stopping with what it has once `budget` seconds are spent."""

    def __call__(
        self, steps: Sequence[Step], final: Any, seat: int, *, budget: float | None = None
    ) -> Coaching: ...


def highlights(advice: Sequence[Advice], most: int = 3) -> list[int]:
    """The advice that gained most (and gained something), largest first."""
    order = sorted(range(len(advice)), key=lambda i: -advice[i].gain)
    return [i for i in order[:most] if advice[i].gain > 0]
