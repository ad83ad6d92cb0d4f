"""The coach's contract: after a game, the decisions where a seat's AI would have chosen
otherwise, weighed by what each choice led to. Each game's `coach` module fills it in."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from time import perf_counter
from typing import Any, NamedTuple, Protocol

from engine.core import CHANCE, IllegalAction, Outcome, spent

DECISION_SECONDS = 2.0
"""The most one autopilot decision may think while the coach runs on a budget."""


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


Weigh = Callable[[int, dict[str, Any], dict[str, Any]], Advice | None]
"""The advice on the move at a step, from what was played and what the AI suggests (None:
both lead to the same)."""


def weigh_moves(
    game: Any,
    steps: Sequence[Step],
    seat: int,
    budget: float | None,
    suggest: Callable[[Any, int], dict[str, Any]],
    weigh: Weigh,
) -> tuple[list[Advice], int, int]:
    """A turn-based seat's moves, each weighed where the AI suggests another, until `budget`
    seconds are spent: the advice, the moves weighed and the decisions in all."""
    over = spent(budget)
    advice: list[Advice] = []
    decisions = weighed = 0
    stopped = False
    for at, step in enumerate(steps):
        # A move that was the only legal one is no decision.
        if step.seat != seat or len(game.legal_actions(step.before, seat)) < 2:
            continue
        decisions += 1
        stopped = stopped or over()
        if stopped:
            continue
        weighed += 1
        played = game.parse_action(step.action).model_dump(mode="json")
        suggested = suggest(step.before, seat)
        if suggested != played:
            found = weigh(at, played, suggested)
            if found is not None:
                advice.append(found)
    return advice, weighed, decisions


Think = Callable[[], float | None]
"""The budget of the next autopilot decision (None: unbounded)."""
Figures = Callable[[Outcome, Outcome], dict[str, tuple[float, float]]]
"""The detail of an advice from the seat's outcomes at the two ends (played, suggested)."""


@dataclass(frozen=True)
class RoundCoach:
    """The coach of a game planned a round at a time on shared dice: each round's plan against
    the autopilot's, weighed by the score each leads to once the autopilot plays the seat's
    later rounds the same way after both (the same dice, the others' logged plans)."""

    game: Any
    choose: Callable[..., Any]
    measure: str
    figures: Figures

    def __call__(
        self, steps: Sequence[Step], final: Any, seat: int, *, budget: float | None = None
    ) -> Coaching:
        over = spent(budget)
        end = None if budget is None else perf_counter() + budget

        def think() -> float | None:
            return None if end is None else min(DECISION_SECONDS, max(0.0, end - perf_counter()))

        actions = [self.game.parse_action(step.action) for step in steps]
        decisions = [at for at, step in enumerate(steps) if step.seat == seat]
        advice: list[Advice] = []
        weighed = 0
        for at in decisions:
            if over():
                break
            found = self._weigh(steps, actions, at, seat, think)
            # Past the deadline the round's searches were cut short: its figures are not kept.
            if over():
                break
            weighed += 1
            if found is not None:
                advice.append(found)
        return Coaching(
            seat=seat,
            measure=self.measure,
            advice=advice,
            highlights=highlights(advice),
            weighed=weighed,
            decisions=len(decisions),
            table={"score": self._scores(steps, final)},
        )

    def _weigh(
        self, steps: Sequence[Step], actions: list[Any], at: int, seat: int, think: Think
    ) -> Advice | None:
        """The advice on the plan at `at`, or None where the autopilot would plan the same."""
        game, before, played = self.game, steps[at].before, actions[at]
        suggested = self.choose(game.view(before, seat), seat, budget=think())
        played_json = played.model_dump(mode="json")
        suggested_json = suggested.model_dump(mode="json")
        if played_json == suggested_json:
            return None
        # The round resolves by the next roll; the same board then (the same placements in
        # another order) makes the same rest of the game.
        nxt = next((k for k in range(at + 1, len(steps)) if steps[k].seat == CHANCE), len(steps))
        rest = range(at + 1, nxt)
        resolved = [
            self._replay(game.apply(before, seat, plan), steps, actions, rest, seat, think)
            for plan in (played, suggested)
        ]
        if resolved[0].players[seat] == resolved[1].players[seat]:
            return None
        later = range(nxt, len(steps))
        mine, ai = (
            game.outcome(self._replay(state, steps, actions, later, seat, think))[seat]
            for state in resolved
        )
        round_ = game.progress(before).round
        return Advice(
            at=at,
            round=round_,
            title=f"Round {round_}",
            played=played_json,
            suggested=suggested_json,
            played_value=mine["score"],
            suggested_value=ai["score"],
            detail=self.figures(mine, ai),
        )

    def _replay(
        self,
        state: Any,
        steps: Sequence[Step],
        actions: list[Any],
        at: range,
        seat: int,
        think: Think,
    ) -> Any:
        """`state` carried through the logged steps `at`: the same dice, the other seats' plans
        where they still apply, and the autopilot for `seat`."""
        game = self.game
        for k in at:
            mover = steps[k].seat
            if mover != seat:
                try:
                    state = game.apply(state, mover, actions[k])
                    continue
                except IllegalAction:
                    if mover == CHANCE:
                        raise
            state = game.apply(
                state, mover, self.choose(game.view(state, mover), mover, budget=think())
            )
        return state

    def _scores(self, steps: Sequence[Step], final: Any) -> list[list[float]]:
        """Every seat's score at the end of each round played (a roll follows every round's
        end)."""
        ends = [step.before for at, step in enumerate(steps) if at and step.seat == CHANCE]
        if self.game.is_over(final):
            ends.append(final)
        return [[row["score"] for row in self.game.outcome(state)] for state in ends]
