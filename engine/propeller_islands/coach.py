"""The coach for Propeller Islands: each choice of a seat's that the autopilot would have made
otherwise, weighed by the VP both leave the seat with at the end of that turn; and every seat's
VP round by round."""

from collections.abc import Sequence
from itertools import pairwise
from typing import Any

from engine.coaching import Advice, Coaching, Step, highlights, weigh_moves
from engine.propeller_islands import autopilot
from engine.propeller_islands.game import GAME
from engine.propeller_islands.scoring import breakdown
from engine.propeller_islands.state import State

MEASURE = "VP at the end of the turn"
"""VP as the game's end would count them (fame, resources, landmarks, blueprints)."""

Turn = tuple[int, str, int]
"""A turn of the game: its round, phase and place in the phase's order."""


def coach(steps: Sequence[Step], final: Any, seat: int, *, budget: float | None = None) -> Coaching:
    """`seat`'s choices in the game of `steps` against the autopilot's, each that differs
    weighed to the end of its turn, until `budget` seconds are spent."""
    advice, weighed, decisions = weigh_moves(
        GAME,
        steps,
        seat,
        budget,
        _suggest,
        lambda at, played, suggested: _weigh(steps[at].before, at, seat, played, suggested),
    )
    return Coaching(
        seat=seat,
        measure=MEASURE,
        advice=advice,
        highlights=highlights(advice),
        weighed=weighed,
        decisions=decisions,
        table={"vp": _vp(steps, final)},
    )


def _suggest(state: State, seat: int) -> dict[str, Any]:
    # No budget: a choice takes milliseconds, and a search cut short by the clock would make
    # the advice differ from one run to the next.
    return autopilot.choose(GAME.view(state, seat), seat).model_dump(mode="json")


def _turn(state: State) -> Turn:
    return state.round, state.phase, state.order_index


def _weigh(
    before: State, at: int, seat: int, played: dict[str, Any], suggested: dict[str, Any]
) -> Advice | None:
    """Both choices at `at` played on to the turn's end; None where they end in the same
    position."""
    mine, ai = (_finish(before, seat, action) for action in (played, suggested))
    if mine == ai:
        return None
    figures = [_figures(state, seat) for state in (mine, ai)]
    # Characters and starting tiles are chosen before round 1.
    setup = before.phase in ("keep_character", "start_tiles")
    return Advice(
        at=at,
        round=0 if setup else before.round,
        title=_title(before),
        played=played,
        suggested=suggested,
        played_value=figures[0]["vp"],
        suggested_value=figures[1]["vp"],
        detail={name: (a, figures[1][name]) for name, a in figures[0].items() if name != "vp"},
    )


def _finish(before: State, seat: int, action: dict[str, Any]) -> State:
    """`action` of `seat`'s, then its autopilot's choices until its turn ends (the choices a
    move raises, such as deploys and dock rewards, are the mover's own)."""
    turn = _turn(before)
    state = GAME.apply(before, seat, action)
    while _turn(state) == turn and GAME.to_act(state) == {seat}:
        state = GAME.apply(state, seat, _suggest(state, seat))
    return state


def _figures(state: State, seat: int) -> dict[str, float]:
    score = breakdown(state.players[seat])
    return {
        "vp": score["total"],
        "fame": score["fame"],
        "resources": score["resources"],
        "landmarks": sum(score["landmarks"].values()),
        "blueprints": score["blueprints"],
    }


def _title(state: State) -> str:
    if state.phase == "keep_character":
        return "Setup · character"
    if state.phase == "start_tiles":
        return "Setup · starting tile"
    if state.phase == "bonus":
        return f"Round {state.round} · bonus die"
    # Each seat has two draft turns a round, the first of every seat's before the second.
    return f"Round {state.round} · turn {state.order_index // state.config.players + 1}"


def _vp(steps: Sequence[Step], final: State) -> list[list[float]]:
    """Every seat's VP at the end of each round played."""
    states = [*(step.before for step in steps), final]
    ends = [after for before, after in pairwise(states) if after.round > before.round]
    if GAME.is_over(final):
        ends.append(final)
    return [[breakdown(p)["total"] for p in state.players] for state in ends]
