"""The autopilot plays legal, sensible plans from a view alone, in every variant."""

import dataclasses
import statistics
from random import Random

import pytest

from engine.core import play_out
from engine.powerline import autopilot
from tests.powerline.helpers import (
    ALL_VARIANTS,
    G,
    dice,
    edit_player,
    new_game,
    random_plan,
    rolled,
)


def _play(config, seed: int, policy) -> list[int]:
    rng = Random(seed)
    state = play_out(G, G.new(config, seed), rng, lambda s, seat: policy(s, seat, rng))
    return [p.vp for p in state.players]


def _auto(state, seat, rng):
    return autopilot.act(state, seat)


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_plays_whole_games_legally_in_every_variant(variant):
    scores = _play(G.Config(players=3, variants=frozenset({variant})), 11, _auto)
    assert len(scores) == 3 and all(s >= 0 for s in scores)


def test_plays_all_variants_together_with_six_seats():
    config = G.Config(players=6, variants=frozenset(ALL_VARIANTS))
    assert len(_play(config, 5, _auto)) == 6


def test_solo_scores_well_above_random_play():
    config = G.Config(players=1)
    auto = [_play(config, seed, _auto)[0] for seed in range(500, 510)]
    rand = [_play(config, seed, random_plan)[0] for seed in range(500, 510)]
    assert statistics.mean(auto) >= 80
    assert statistics.mean(auto) >= statistics.mean(rand) + 40


def test_finishes_a_line_in_the_last_round_rather_than_idling():
    # Board 1, L4 pips 4 1 6 with two tokens; one tile left, in the 1-worker column; red shows 6.
    state = edit_player(new_game(1), 0, built={"L4": 2}, chart=[1, 0, 0, 0, 0, 0])
    state = rolled(dataclasses.replace(state, round=15), dice(6, 1, 1, 1, 1, 1))
    plan = autopilot.choose(G.view(state, 0), 0)
    assert [(p.color, p.line, p.segment) for p in plan.placements] == [("red", "L4", 2)]
    assert G.apply(state, 0, plan).last_round.seats[0].cities == ["L4"]


def test_sees_only_the_view():
    state = rolled(new_game(2), dice(1, 2, 3, 4, 5, 6))
    state = G.apply(state, 1, random_plan(state, 1, Random(3)))
    view = G.view(state, 0)
    assert view["seats"][1]["plan"] is None
    assert G.apply(state, 0, autopilot.choose(view, 0)).phase == "roll"
