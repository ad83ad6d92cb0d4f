"""The coach for Powerline: each round's plan of a seat against the autopilot's, weighed by the VP
each leads to once the autopilot plays the seat's later rounds the same way after both."""

from collections.abc import Callable, Sequence
from time import perf_counter
from typing import Any

from engine.coaching import Advice, Coaching, Step, highlights
from engine.core import CHANCE, IllegalAction, Outcome, spent
from engine.powerline import autopilot
from engine.powerline.actions import Plan, Roll
from engine.powerline.game import GAME
from engine.powerline.state import State

DECISION_SECONDS = 2.0
"""The most one autopilot decision may think while the coach runs on a budget."""

Think = Callable[[], float | None]
"""The budget of the next autopilot decision (None: unbounded)."""


def coach(steps: Sequence[Step], final: Any, seat: int, *, budget: float | None = None) -> Coaching:
    """`seat`'s plans in the game of `steps` weighed against the autopilot's, round by round,
    until `budget` seconds are spent."""
    over = spent(budget)
    end = None if budget is None else perf_counter() + budget

    def think() -> float | None:
        return None if end is None else min(DECISION_SECONDS, max(0.0, end - perf_counter()))

    actions = [GAME.parse_action(step.action) for step in steps]
    decisions = [at for at, step in enumerate(steps) if step.seat == seat]
    advice: list[Advice] = []
    weighed = 0
    for at in decisions:
        if over():
            break
        found = _weigh(steps, actions, at, seat, think)
        # Past the deadline the round's searches were cut short: its figures are not kept.
        if over():
            break
        weighed += 1
        if found is not None:
            advice.append(found)
    return Coaching(
        seat=seat,
        measure="VP by the end",
        advice=advice,
        highlights=highlights(advice),
        weighed=weighed,
        decisions=len(decisions),
        table={"score": _scores(steps, final)},
    )


def _weigh(
    steps: Sequence[Step], actions: list[Roll | Plan], at: int, seat: int, think: Think
) -> Advice | None:
    """The advice on the plan at `at`, or None where the autopilot would build the same."""
    before: State = steps[at].before
    played = actions[at]
    suggested = autopilot.choose(GAME.view(before, seat), seat, budget=think())
    played_json, suggested_json = played.model_dump(mode="json"), suggested.model_dump(mode="json")
    if played_json == suggested_json:
        return None
    # The round resolves before the next roll; the same board after it (the same workers in
    # another order) makes the same rest of the game.
    nxt = next((k for k in range(at + 1, len(steps)) if steps[k].seat == CHANCE), len(steps))
    rest = range(at + 1, nxt)
    resolved = [
        _replay(GAME.apply(before, seat, plan), steps, actions, rest, seat, think)
        for plan in (played, suggested)
    ]
    if resolved[0].players[seat] == resolved[1].players[seat]:
        return None
    later = range(nxt, len(steps))
    mine, ai = (
        GAME.outcome(_replay(state, steps, actions, later, seat, think))[seat] for state in resolved
    )
    round_ = GAME.progress(before).round
    return Advice(
        at=at,
        round=round_,
        title=f"Round {round_}",
        played=played_json,
        suggested=suggested_json,
        played_value=mine["score"],
        suggested_value=ai["score"],
        detail=_detail(mine, ai),
    )


def _replay(
    state: State,
    steps: Sequence[Step],
    actions: list[Roll | Plan],
    at: range,
    seat: int,
    think: Think,
) -> State:
    """`state` carried through the logged steps `at`: the same dice, the other seats' plans
    where they still apply, and the autopilot for `seat`."""
    for k in at:
        mover = steps[k].seat
        if mover == seat:
            state = GAME.apply(state, mover, _auto(state, mover, think))
            continue
        try:
            state = GAME.apply(state, mover, actions[k])
        except IllegalAction:
            if mover == CHANCE:
                raise
            state = GAME.apply(state, mover, _auto(state, mover, think))
    return state


def _auto(state: State, seat: int, think: Think) -> Plan:
    return autopilot.choose(GAME.view(state, seat), seat, budget=think())


def _detail(mine: Outcome, ai: Outcome) -> dict[str, tuple[float, float]]:
    """The figures where the two ends differ: cities supplied, station tiles, VP from the
    scoring tiles and lost to the island, lines left unfinished."""
    figures = [_figures(row) for row in (mine, ai)]
    return {name: (a, figures[1][name]) for name, a in figures[0].items() if a != figures[1][name]}


def _figures(row: Outcome) -> dict[str, float]:
    details = row["details"]
    ledger = details["breakdown"]
    return {
        "cities": details["cities_supplied"],
        "stations": details["station_tiles"],
        "scoring": sum(ledger[f"scoring_{k}"] for k in (1, 2, 3)),
        "island": ledger["island"],
        "unfinished lines": details["unfinished_lines"],
    }


def _scores(steps: Sequence[Step], final: State) -> list[list[float]]:
    """Every seat's score at the end of each round played (a roll follows every round's end)."""
    ends = [step.before for at, step in enumerate(steps) if at and step.seat == CHANCE]
    if GAME.is_over(final):
        ends.append(final)
    return [[row["score"] for row in GAME.outcome(state)] for state in ends]
