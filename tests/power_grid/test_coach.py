"""The coach: a seat's bids, buys, builds and powers against the autopilot's, weighed to the end of
the round, and every seat's money, cities and cities powered round by round."""

from functools import cache
from itertools import pairwise
from random import Random
from typing import Any

import pytest

import engine.coaching as contract
from engine.coaching import Coaching, Step
from engine.core import CHANCE
from engine.power_grid import autopilot
from engine.power_grid import coach as coaching
from engine.power_grid.baseline import random_action
from engine.power_grid.rules import plants
from engine.power_grid.state import State
from tests.power_grid.helpers import G

EVERY_PHASE = 4
"""A seed whose game has advice in all four phases (a power slip is rare: a third of the seat's
decisions are random, and a random power differs only a fifth of the time)."""
SLIPS = 1
"""The coached seat: the autopilot, but a random legal move every third decision or so."""
RANDOM = 3
"""A seat of random moves, so a branch that re-applies the log differs from the autopilot's."""

WORDS = {
    "auction": "auction",
    "resources": "buying",
    "build": "building",
    "bureaucracy": "powering",
}


@cache
def game(seed: int) -> tuple[tuple[Step, ...], State]:
    """A finished 4-seat game of Germany with its steps; seats 0 and 2 on autopilot."""
    rng = Random(seed)
    state = G.new(G.Config(players=4, map="germany"), seed)
    steps = []
    while not G.is_over(state):
        seat = min(G.to_act(state))
        if seat in (RANDOM, CHANCE) or (seat == SLIPS and rng.random() < 0.3):
            action = random_action(state, seat, rng)
        else:
            action = _auto(state, seat)
        steps.append(Step(state, seat, action))
        state = G.apply(state, seat, action)
    return tuple(steps), state


def _auto(state: State, seat: int) -> dict[str, Any]:
    return autopilot.choose(G.view(state, seat), seat).model_dump(mode="json")


@cache
def coached(seed: int, seat: int = SLIPS) -> Coaching:
    return coaching.coach(*game(seed), seat)


def test_advice_is_where_the_autopilot_would_have_chosen_otherwise() -> None:
    steps, _ = game(EVERY_PHASE)
    report = coached(EVERY_PHASE)
    assert len(report.advice) >= 10
    assert report.weighed == report.decisions >= len(report.advice)
    assert [a.at for a in report.advice] == sorted({a.at for a in report.advice})
    for a in report.advice:
        before = steps[a.at].before
        assert steps[a.at].seat == SLIPS
        assert a.played == _json(steps[a.at].action)
        assert a.suggested == _auto(before, SLIPS)
        assert a.played != a.suggested
        assert a.round == before.round
        if before.round == 0:
            assert a.title == "Before round 1 · regions"
        else:
            assert a.title == f"Round {before.round} · {WORDS[before.phase]}"
        for value, side in ((a.played_value, 0), (a.suggested_value, 1)):
            assert value == coaching.CITY * a.detail["powered"][side] + a.detail["money"][side]
    phases = {a.title.split(" · ")[1] for a in report.advice}
    assert {"auction", "buying", "building", "powering"} <= phases


def _json(action: dict[str, Any]) -> dict[str, Any]:
    return G.parse_action(action).model_dump(mode="json")


def test_highlights_are_the_largest_gains() -> None:
    for seed in (1, 2):
        report = coached(seed)
        gains = sorted((a.gain for a in report.advice if a.gain > 0), reverse=True)
        assert [report.advice[i].gain for i in report.highlights] == gains[:3]
        assert len(report.highlights) == 3


def test_a_power_weighed_by_hand() -> None:
    # Powering is the round's last phase: both branches end once the others' logged powers are
    # in, and those powers apply whatever the coached seat ran.
    steps, _ = game(EVERY_PHASE)
    advice = next(a for a in coached(EVERY_PHASE).advice if a.played["type"] == "power")
    before = steps[advice.at].before
    rest = [s for s in steps[advice.at + 1 :] if s.before.round == before.round]
    assert rest and all(s.seat not in (SLIPS, CHANCE) for s in rest)
    values = []
    for action in (advice.played, advice.suggested):
        state = G.apply(before, SLIPS, action)
        for s in rest:
            state = G.apply(state, s.seat, s.action)
        assert state.round == before.round + 1
        me = state.players[SLIPS]
        capacity = sum(plants()[n].cities for n in action["plants"])
        powered = min(capacity, len(me.cities))
        values.append((len(me.cities), me.money, powered, coaching.CITY * powered + me.money))
    (cities, money, powered, played), (cities2, money2, powered2, suggested) = values
    assert advice.detail == {
        "cities": (cities, cities2),
        "money": (money, money2),
        "powered": (powered, powered2),
    }
    assert (advice.played_value, advice.suggested_value) == (played, suggested)
    assert advice.gain > 0


def test_the_move_played_then_the_autopilot_replays_the_round_as_logged() -> None:
    # Where the seat's later moves in the round were the autopilot's, the played branch is the
    # game itself: the other seats' logged moves (the random seat's too) all apply again.
    for seed in (1, 2):
        steps, _ = game(seed)
        report = coached(seed)
        checked = 0
        for a in report.advice:
            end = max(steps[a.at].before.round, 1)
            later = [s for s in steps[a.at + 1 :] if s.seat == SLIPS and s.before.round <= end]
            if any(_json(s.action) != _auto(s.before, SLIPS) for s in later):
                continue
            for name in ("cities", "money", "powered"):
                assert a.detail[name][0] == report.table[name][end - 1][SLIPS]
            checked += 1
        assert checked >= 5


def test_a_seat_of_the_autopilot_gets_no_advice() -> None:
    # The coach asks the same autopilot, which takes no budget and draws nothing at random.
    report = coached(1, 2)
    assert report.advice == [] and report.highlights == []
    assert report.weighed == report.decisions > 50


def test_the_table_is_every_seat_round_by_round() -> None:
    steps, final = game(2)
    table = coached(2).table
    ends = [b.before for a, b in pairwise(steps) if b.before.round > a.before.round > 0]
    ends.append(final)
    assert len(ends) == final.round
    for name in ("money", "cities", "powered"):
        assert len(table[name]) == final.round
        assert all(len(row) == 4 for row in table[name])
    assert table["money"] == [[p.money for p in s.players] for s in ends]
    assert table["cities"] == [[len(p.cities) for p in s.players] for s in ends]
    for s in steps:
        if s.action["type"] == "power":
            p = s.before.players[s.seat]
            capacity = sum(plants()[n].cities for n in s.action["plants"])
            assert table["powered"][s.before.round - 1][s.seat] == min(capacity, len(p.cities))
    assert table["powered"][-1] == [row["details"]["powered"] for row in G.outcome(final)]


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
