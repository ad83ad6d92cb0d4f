"""The coach for Power Grid: each bid, buy, build and power of a seat's that the autopilot would
have made otherwise, weighed by both choices played on to the end of that round; and every seat's
money, cities and cities powered round by round."""

from collections import deque
from collections.abc import Sequence
from random import Random
from typing import Any, NamedTuple

from engine.coaching import Advice, Coaching, Step, highlights, weigh_moves
from engine.core import CHANCE, IllegalAction
from engine.power_grid import autopilot
from engine.power_grid.events import CitiesPowered
from engine.power_grid.game import GAME
from engine.power_grid.state import State

MEASURE = (
    "cities powered that round, then Elektro at its end (1000 a city powered plus the Elektro)"
)
"""The final standings' order (cities powered, then money) at the round's end: a city powered
outweighs any money, and income is already in the money."""

CITY = 1000
"""A city powered in the measure: far more than a seat's money in any real game."""

_PHASES = ("setup", "regions", "auction", "resources", "build", "bureaucracy", "over")
_WORDS = {
    "regions": "regions",
    "auction": "auction",
    "resources": "buying",
    "build": "building",
    "bureaucracy": "powering",
}

When = tuple[int, int]
"""A moment of the game: its round and the phase's place in the round."""

Queue = deque[tuple[When, dict[str, Any]]]


class End(NamedTuple):
    """The seat at the end of a round in one branch."""

    cities: int
    money: int
    powered: int
    state: State


def coach(steps: Sequence[Step], final: Any, seat: int, *, budget: float | None = None) -> Coaching:
    """`seat`'s decisions in the game of `steps` against the autopilot's, each that differs
    weighed to the end of its round, until `budget` seconds are spent."""
    whens = [_when(step.before) for step in steps]
    advice, weighed, decisions = weigh_moves(
        GAME,
        steps,
        seat,
        budget,
        _suggest,
        lambda at, played, suggested: _weigh(steps, whens, at, seat, played, suggested),
    )
    return Coaching(
        seat=seat,
        measure=MEASURE,
        advice=advice,
        highlights=highlights(advice),
        weighed=weighed,
        decisions=decisions,
        readable=False,
        table=_table(steps, final),
    )


def _suggest(state: State, seat: int) -> dict[str, Any]:
    # No budget: the autopilot has no search to cut short, and its answer stays the same.
    return autopilot.choose(GAME.view(state, seat), seat).model_dump(mode="json")


def _when(state: State) -> When:
    return state.round, _PHASES.index(state.phase)


def _weigh(
    steps: Sequence[Step],
    whens: list[When],
    at: int,
    seat: int,
    played: dict[str, Any],
    suggested: dict[str, Any],
) -> Advice | None:
    """Both choices at `at` played on to the round's end; None where they end in the same
    position (the same buys made in two moves instead of one)."""
    before: State = steps[at].before
    # Regions are picked before round 1; what they change shows by its end.
    horizon = max(before.round, 1)
    rest: dict[int, list[tuple[When, dict[str, Any]]]] = {}
    for k in range(at + 1, len(steps)):
        if whens[k][0] > horizon:
            break
        if steps[k].seat != seat:
            rest.setdefault(steps[k].seat, []).append((whens[k], steps[k].action))
    mine, ai = (_branch(before, seat, action, at, rest, horizon) for action in (played, suggested))
    if mine.state == ai.state:
        return None
    return Advice(
        at=at,
        round=before.round,
        title=_title(before),
        played=played,
        suggested=suggested,
        played_value=_value(mine),
        suggested_value=_value(ai),
        detail={
            "cities": (mine.cities, ai.cities),
            "money": (mine.money, ai.money),
            "powered": (mine.powered, ai.powered),
        },
    )


def _title(state: State) -> str:
    if state.round == 0:
        return "Before round 1 · regions"
    return f"Round {state.round} · {_WORDS[state.phase]}"


def _value(end: End) -> float:
    return CITY * end.powered + end.money


def _branch(
    before: State,
    seat: int,
    action: dict[str, Any],
    at: int,
    rest: dict[int, list[tuple[When, dict[str, Any]]]],
    horizon: int,
) -> End:
    """`action` of `seat`'s, then the game on to the end of round `horizon`: the seat by its
    autopilot, chance and the other seats as logged where the rules accept it."""
    queues: dict[int, Queue] = {s: deque(moves) for s, moves in rest.items()}
    # The same draws in both branches of a decision, so only the choice differs.
    rng = Random(at)
    state = GAME.apply(before, seat, action)
    powered = _powered(before, seat, action, state) if action["type"] == "power" else 0
    while state.phase != "over" and state.round <= horizon:
        mover = min(GAME.to_act(state))
        if mover != seat:
            state = _replayed(state, mover, queues.setdefault(mover, deque()), rng)
            continue
        move = _suggest(state, seat)
        after = GAME.apply(state, seat, move)
        if move["type"] == "power":
            powered = _powered(state, seat, move, after)
        state = after
    p = state.players[seat]
    if state.phase == "over":
        # The last round ends after building: the final standings count what the seat can power.
        powered = GAME.outcome(state)[seat]["details"]["powered"]
    return End(len(p.cities), p.money, powered, state)


def _replayed(state: State, mover: int, queue: Queue, rng: Random) -> State:
    """`state` after `mover`'s next logged move of this moment if the rules accept it, else
    after a draw (chance) or its autopilot's move."""
    now = _when(state)
    # Moves logged for moments this branch has left behind no longer apply.
    while queue and queue[0][0] < now:
        queue.popleft()
    if queue and queue[0][0] == now:
        try:
            return GAME.apply(state, mover, queue.popleft()[1])
        except IllegalAction:
            pass
    if mover == CHANCE:
        return GAME.apply(state, mover, GAME.sample_chance(state, rng))
    return GAME.apply(state, mover, autopilot.choose(GAME.view(state, mover), mover))


def _powered(before: State, seat: int, action: dict[str, Any], after: State) -> int:
    """The cities a power lit (from its event: the round's last power clears the counts in
    `after`)."""
    events = GAME.happened(before, seat, action, after)
    return next(e.cities for e in events if isinstance(e, CitiesPowered))


def _table(steps: Sequence[Step], final: State) -> dict[str, list[list[float]]]:
    """Every seat's money and cities at the end of each round played and the cities it powered
    in it (in the last, what the final standings count)."""
    money: list[list[float]] = []
    cities: list[list[float]] = []
    powered: list[list[float]] = []
    count: list[float] = [0] * len(final.players)
    afters = [*(step.before for step in steps), final][1:]
    for step, after in zip(steps, afters, strict=True):
        if step.action["type"] == "power":
            count[step.seat] = _powered(step.before, step.seat, step.action, after)
        if after.round > step.before.round > 0:
            money.append([p.money for p in after.players])
            cities.append([len(p.cities) for p in after.players])
            powered.append(count)
            count = [0] * len(final.players)
    if final.phase == "over":
        money.append([p.money for p in final.players])
        cities.append([len(p.cities) for p in final.players])
        powered.append([row["details"]["powered"] for row in GAME.outcome(final)])
    return {"money": money, "cities": cities, "powered": powered}
