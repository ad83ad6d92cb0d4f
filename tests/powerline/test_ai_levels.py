"""The AI levels: legal at once, repeatable, ordered in strength, and aware of the contracts."""

import dataclasses
import statistics
from random import Random

import pytest

from engine.core import LEVELS, play_out
from engine.powerline import autopilot
from engine.powerline.board import layout
from engine.powerline.lookahead import next_view
from tests.powerline.helpers import ALL_VARIANTS, G, dice, edit_player, full, new_game, rolled


def _positions(variants: frozenset[str], seed: int) -> list[tuple[object, int]]:
    """(state, seat) at every plan of a two-seat game the standard level plays."""
    seen = []

    def policy(state, seat):
        seen.append((state, seat))
        return autopilot.act(state, seat)

    play_out(G, G.new(G.Config(players=2, variants=variants), seed), Random(seed), policy)
    return seen


def _solo(seed: int, level: str, variants: frozenset[str] = frozenset()) -> int:
    def policy(state, seat):
        return autopilot.choose(G.view(state, seat), seat, level=level)

    state = G.new(G.Config(players=1, variants=variants), seed)
    return play_out(G, state, Random(seed), policy).players[0].vp


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_legally_with_no_budget_at_all(level):
    for state, seat in _positions(frozenset(ALL_VARIANTS), 7)[::5]:
        plan = autopilot.choose(G.view(state, seat), seat, budget=0.0, level=level)
        assert plan.placements
        G.apply(state, seat, plan)


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_repeats_its_plan_for_the_same_view(level):
    for state, seat in _positions(frozenset({"contracts"}), 8)[::6]:
        view = G.view(state, seat)
        first = autopilot.choose(view, seat, level=level)
        assert autopilot.choose(G.view(state, seat), seat, level=level) == first


def test_strong_and_standard_outscore_casual():
    seeds = range(900, 904)
    casual = statistics.mean(_solo(s, "casual") for s in seeds)
    assert statistics.mean(_solo(s, "standard") for s in seeds) >= casual + 5
    assert statistics.mean(_solo(s, "strong") for s in seeds[:2]) >= casual


def test_empties_column_3_in_time_for_the_contract_that_pays_for_it():
    # Tile I pays 5 VP at the first scoring, after round 5, once column 3 is empty: its last
    # tile is worth spending now even on dice that would build more with four workers.
    state = new_game(1, scoring_tiles=("A", "D", "I"), variants=frozenset({"contracts"}))
    state = edit_player(state, 0, chart=[0, 0, 1, 1, 0, 0])
    state = rolled(dataclasses.replace(state, round=5), dice(1, 2, 3, 4, 5, 6))
    plan = autopilot.choose(G.view(state, 0), 0, level="standard")
    assert len(plan.placements) == 3
    assert G.apply(state, 0, plan).last_round.seats[0].scoring["I"] == 5


def test_slower_building_is_expected_under_the_construction_limits():
    view = G.view(new_game(1, variants=frozenset({"construction_limits"})), 0)
    assert autopilot.weights_for(view).rate < autopilot.Weights().rate


@pytest.mark.parametrize("variants", [frozenset(), frozenset(ALL_VARIANTS)], ids=["plain", "all"])
def test_the_look_ahead_predicts_the_board_the_engine_builds(variants):
    for state, seat in _positions(variants, 9)[::3]:
        view = G.view(state, seat)
        ctx = autopilot._context(view, seat, autopilot.weights_for(view))
        path = autopilot._search(ctx, None).path
        plan = autopilot._plan(ctx, autopilot._Found(path=path))
        if plan.vacation or state.round == 15:
            continue
        for other in range(len(state.players)):
            if other != seat and state.plans[other] is None:
                state = G.apply(state, other, autopilot.act(state, other))
        built = G.view(G.apply(state, seat, plan), seat)["seats"][seat]
        predicted = next_view(view, seat, path)
        mine = predicted["seats"][seat]
        assert predicted["round"] == state.round + 1
        assert [(x["built"], x["direction"]) for x in mine["lines"]] == [
            (x["built"], x["direction"]) for x in built["lines"]
        ]
        for key in ("chart", "jokers", "island_stacks"):
            assert mine[key] == built[key], key


def test_strong_keeps_the_vacation_tile_for_the_bigger_last_round():
    # Every line is complete, so all workers go to the island: 2 this round, then 6 in the last
    # one (or the other way round). Spending the tile on the six loses 2 VP, not 6.
    state = new_game(1, variants=frozenset())
    lay = layout(state.players[0].board)
    state = edit_player(
        state, 0, built=full(*lay.line_ids), chart=[0, 1, 0, 0, 0, 1], vp=50, jokers=0
    )
    state = rolled(dataclasses.replace(state, round=14), dice(1, 2, 3, 4, 5, 6))
    state = G.apply(state, 0, autopilot.choose(G.view(state, 0), 0, level="strong"))
    state = rolled(state, dice(6, 5, 4, 3, 2, 1))
    state = G.apply(state, 0, autopilot.choose(G.view(state, 0), 0, level="strong"))
    assert G.is_over(state)
    assert state.players[0].ledger["island"] == -2
