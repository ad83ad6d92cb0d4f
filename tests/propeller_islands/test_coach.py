"""The coach: a seat's choices against the autopilot's, weighed by the VP at the end of the turn,
and every seat's VP round by round."""

from functools import cache
from itertools import pairwise
from random import Random

import pytest

import engine.coaching as contract
from engine.coaching import Coaching, Step
from engine.core import CHANCE
from engine.propeller_islands import autopilot
from engine.propeller_islands import coach as coaching
from engine.propeller_islands.scoring import breakdown
from engine.propeller_islands.state import State

from .helpers import G

SLIPS = 1
"""The coached seat: the autopilot, but a random legal move every third decision or so; the
other seats are the autopilot."""


@cache
def game(seed: int) -> tuple[tuple[Step, ...], State]:
    """A finished 4-seat game with its steps."""
    rng = Random(seed)
    state = G.new(G.Config(players=4), seed)
    steps = []
    while not G.is_over(state):
        (seat,) = G.to_act(state)
        if seat == CHANCE:
            action = G.sample_chance(state, rng)
        elif seat == SLIPS and rng.random() < 0.3:
            action = autopilot.random_action(G.legal_actions(state, seat), rng)
        else:
            action = autopilot.act(state, seat)
        steps.append(Step(state, seat, action.model_dump(mode="json")))
        state = G.apply(state, seat, action)
    return tuple(steps), state


@cache
def coached(seed: int, seat: int = SLIPS) -> Coaching:
    return coaching.coach(*game(seed), seat)


def _turn(state: State) -> tuple[int, str, int]:
    return state.round, state.phase, state.order_index


def _mine(step: Step, round_: int) -> bool:
    """Whether `step` is in a draft turn of the coached seat in that round."""
    s = step.before
    return s.round == round_ and s.phase == "turns" and s.turn is not None and s.turn.seat == SLIPS


def test_advice_is_where_the_autopilot_would_have_chosen_otherwise() -> None:
    steps, _ = game(1)
    report = coached(1)
    assert len(report.advice) >= 10
    assert report.weighed == report.decisions >= len(report.advice)
    for a in report.advice:
        before = steps[a.at].before
        assert steps[a.at].seat == SLIPS
        assert a.played == steps[a.at].action
        assert a.suggested == autopilot.act(before, SLIPS).model_dump(mode="json")
        assert a.played != a.suggested
        if before.phase == "start_tiles":
            assert (a.round, a.title) == (0, "Setup · starting tile")
        elif before.phase == "bonus":
            assert (a.round, a.title) == (before.round, f"Round {before.round} · bonus die")
        else:
            assert before.turn is not None and before.turn.seat == SLIPS
            earlier = {s.before.order_index for s in steps[: a.at] if _mine(s, before.round)}
            earlier.discard(before.order_index)
            assert a.title == f"Round {before.round} · turn {len(earlier) + 1}"
        for value, side in ((a.played_value, 0), (a.suggested_value, 1)):
            assert value == sum(figures[side] for figures in a.detail.values())
    kinds = {a.title.split(" · ")[1].split()[0] for a in report.advice}
    assert {"turn", "bonus"} <= kinds


def test_highlights_are_the_largest_gains() -> None:
    report = coached(1)
    gains = sorted((a.gain for a in report.advice if a.gain > 0), reverse=True)
    assert [report.advice[i].gain for i in report.highlights] == gains[:3]
    assert len(report.highlights) == 3


def test_an_advice_weighed_by_hand() -> None:
    # Each branch: the choice, then the seat's autopilot until the game moves to another turn.
    steps, _ = game(1)
    advice = coached(1).advice[coached(1).highlights[0]]
    before = steps[advice.at].before
    values = []
    for action in (advice.played, advice.suggested):
        state = G.apply(before, SLIPS, action)
        while _turn(state) == _turn(before):
            state = G.apply(state, SLIPS, autopilot.act(state, SLIPS))
        values.append(G.outcome(state)[SLIPS]["score"])
    assert values == [advice.played_value, advice.suggested_value]
    assert advice.gain > 0


def test_the_move_played_then_the_autopilot_is_the_game_where_the_turn_agreed() -> None:
    # Where the seat's later choices in the turn were the autopilot's, the played branch is the
    # game itself: its value is the VP the seat had once the turn was over.
    steps, final = game(1)
    states = [*(s.before for s in steps), final]
    checked = 0
    for a in coached(1).advice:
        turn = _turn(steps[a.at].before)
        end = next(k for k in range(a.at + 1, len(states)) if _turn(states[k]) != turn)
        later = steps[a.at + 1 : end]
        if all(s.action == autopilot.act(s.before, SLIPS).model_dump(mode="json") for s in later):
            assert a.played_value == breakdown(states[end].players[SLIPS])["total"]
            checked += 1
    assert checked >= 5


def test_a_seat_of_the_autopilot_gets_no_advice() -> None:
    # The coach asks the same autopilot, without a budget: it makes the same choices.
    report = coached(1, 2)
    assert report.advice == [] and report.highlights == []
    assert report.weighed == report.decisions > 50


def test_the_table_is_every_seats_vp_round_by_round() -> None:
    steps, final = game(1)
    table = coached(1).table
    ends = [b.before for a, b in pairwise(steps) if b.before.round > a.before.round]
    ends.append(final)
    assert len(table["vp"]) == final.round == len(ends)
    assert all(len(row) == 4 for row in table["vp"])
    assert table["vp"] == [[breakdown(p)["total"] for p in s.players] for s in ends]
    assert table["vp"][-1] == [row["score"] for row in G.outcome(final)]


def test_a_tiny_budget_weighs_fewer_decisions() -> None:
    short = coaching.coach(*game(1), SLIPS, budget=1e-9)
    assert short.weighed < short.decisions == coached(1).decisions


def test_a_budget_spent_midway_keeps_the_advice_weighed_so_far(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A clock that runs out after 20 decisions: the cut comes at the same place every run.
    checks = iter(range(10**6))
    monkeypatch.setattr(contract, "spent", lambda budget: lambda: next(checks) >= 20)
    full, short = coached(1), coaching.coach(*game(1), SLIPS, budget=1.0)
    assert short.weighed == 20 < short.decisions == full.decisions
    assert 0 < len(short.advice) < len(full.advice)
    assert short.advice == full.advice[: len(short.advice)]


def test_coaching_is_deterministic() -> None:
    assert coaching.coach(*game(1), SLIPS) == coached(1)
