"""The coach weighs a seat's round plans against the autopilot's by the VP each leads to."""

from functools import cache
from random import Random
from time import perf_counter

from engine.coaching import Coaching, Step, highlights
from engine.core import CHANCE
from engine.powerline import autopilot
from engine.powerline.board import rules
from engine.powerline.coach import coach
from engine.powerline.state import State
from tests.powerline.helpers import G, random_plan

ROUNDS = rules().rounds


@cache
def _game(
    players: int, seed: int, variants: frozenset[str] = frozenset()
) -> tuple[tuple[Step, ...], State]:
    """A finished game, every step recorded: seat 0 plays random legal plans, the others the
    autopilot."""
    rng = Random(seed)
    state = G.new(G.Config(players=players, variants=variants), seed)
    steps = []
    while not G.is_over(state):
        for seat in sorted(G.to_act(state)):
            if seat == CHANCE:
                action = G.sample_chance(state, rng)
            elif seat > 0:
                action = autopilot.choose(G.view(state, seat), seat)
            else:
                action = random_plan(state, seat, rng)
            steps.append(Step(state, seat, action.model_dump(mode="json")))
            state = G.apply(state, seat, action)
    return tuple(steps), state


@cache
def _coached(players: int, seed: int, seat: int = 0) -> Coaching:
    steps, final = _game(players, seed)
    return coach(steps, final, seat)


def _branch(steps: tuple[Step, ...], at: int, plan: dict) -> State:
    """The game from `steps[at]` with `plan` there and the autopilot for seat 0 afterwards."""
    state = G.apply(steps[at].before, 0, G.parse_action(plan))
    for step in steps[at + 1 :]:
        action = autopilot.act(state, 0) if step.seat == 0 else G.parse_action(step.action)
        state = G.apply(state, step.seat, action)
    return state


def test_a_weak_seat_gets_advice_on_its_rounds():
    steps, _ = _game(2, 21)
    got = _coached(2, 21)
    assert got.seat == 0 and got.measure == "VP by the end"
    assert got.decisions == got.weighed == ROUNDS
    assert len(got.advice) >= 5
    for advice in got.advice:
        step = steps[advice.at]
        assert step.seat == 0
        assert advice.played == G.parse_action(step.action).model_dump(mode="json")
        assert advice.played != advice.suggested
        assert G.apply(step.before, 0, G.parse_action(advice.suggested))
        assert advice.round == G.progress(step.before).round
        assert advice.title == f"Round {advice.round}"
        for played, suggested in advice.detail.values():
            assert played != suggested
    assert [a.at for a in got.advice] == sorted(a.at for a in got.advice)


def test_highlights_are_the_largest_gains():
    got = _coached(2, 21)
    gains = [a.gain for a in got.advice]
    assert got.highlights == highlights(got.advice)
    assert 1 <= len(got.highlights) <= 3
    assert [gains[i] for i in got.highlights] == sorted((g for g in gains if g > 0), reverse=True)[
        : len(got.highlights)
    ]
    assert all(gains[i] > 0 for i in got.highlights)


def test_values_are_the_scores_of_the_two_playouts():
    steps, _ = _game(2, 21)
    for advice in _coached(2, 21).advice:
        played = G.outcome(_branch(steps, advice.at, advice.played))[0]
        suggested = G.outcome(_branch(steps, advice.at, advice.suggested))[0]
        assert (advice.played_value, advice.suggested_value) == (
            played["score"],
            suggested["score"],
        )
        if "cities" in advice.detail:
            cities = played["details"]["cities_supplied"], suggested["details"]["cities_supplied"]
            assert advice.detail["cities"] == cities


def test_a_seat_that_played_the_autopilot_gets_no_advice():
    got = _coached(2, 21, seat=1)
    assert got.advice == [] and got.highlights == []
    assert got.weighed == got.decisions == ROUNDS


def test_the_table_scores_every_seat_after_each_round():
    steps, final = _game(2, 21)
    table = _coached(2, 21).table["score"]
    assert len(table) == ROUNDS and all(len(row) == 2 for row in table)
    assert table[-1] == [p.vp for p in final.players]
    fifth = next(s.before for s in steps if s.seat == CHANCE and s.before.round == 6)
    assert table[4] == [p.vp for p in fifth.players]


def test_an_unfinished_game_is_coached_up_to_where_it_stopped():
    steps, _ = _game(2, 21)
    cut = next(k for k, s in enumerate(steps) if s.seat == CHANCE and s.before.round == 9) + 2
    got = coach(steps[:cut], steps[cut].before, 0)
    assert got.decisions == got.weighed == 9
    assert len(got.table["score"]) == 8


def test_a_spent_budget_stops_early_with_a_valid_coaching():
    steps, final = _game(2, 21)
    got = coach(steps, final, 0, budget=0.0)
    assert got.weighed < got.decisions == ROUNDS
    assert got.advice == [] and got.highlights == []
    assert got.table == _coached(2, 21).table


def test_a_partial_coaching_is_the_start_of_the_whole_one():
    steps, final = _game(2, 21)
    start = perf_counter()
    whole = coach(steps, final, 0)
    # Some of the rounds fit in that budget (the early ones cost most: more left to play).
    got = coach(steps, final, 0, budget=0.6 * (perf_counter() - start))
    mine = [k for k, s in enumerate(steps) if s.seat == 0]
    weighed = set(mine[: got.weighed])
    assert got.advice == [a for a in whole.advice if a.at in weighed]


def test_the_same_game_gets_the_same_coaching():
    steps, final = _game(3, 22, frozenset({"adventure_island", "contracts"}))
    first = coach(steps, final, 0)
    assert first.advice
    assert coach(list(steps), final, 0) == first
