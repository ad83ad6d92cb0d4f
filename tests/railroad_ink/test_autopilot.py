"""The autopilot (standard level) plays legal games from a view alone, far above random play."""

import statistics
from random import Random

from engine.core import play_out
from engine.railroad_ink import autopilot
from tests.railroad_ink.helpers import EXPANSION_SETS, G, new_game, random_plan, roll, rolled


def _play(config, seed: int, policy) -> list[int]:
    rng = Random(seed)
    state = play_out(G, G.new(config, seed), rng, lambda s, seat: policy(s, seat, rng))
    return [o["score"] for o in G.outcome(state)]


def _auto(state, seat, rng):
    return autopilot.act(state, seat)


def test_solo_scores_far_above_random_play():
    config = G.Config(players=1)
    auto = [_play(config, seed, _auto)[0] for seed in range(500, 530)]
    rand = [_play(config, seed, random_plan)[0] for seed in range(500, 530)]
    assert statistics.mean(auto) >= statistics.mean(rand) + 15
    assert statistics.mean(auto) >= 12


def test_plays_every_expansion_combination_with_several_seats():
    for k, expansions in enumerate(EXPANSION_SETS):
        scores = _play(G.Config(players=2, expansions=expansions), 40 + k, _auto)
        assert len(scores) == 2


def test_uses_the_expansions():
    both = G.Config(players=1, expansions=frozenset({"street_lamps", "power_grid"}))
    rng = Random(9)
    state = play_out(G, G.new(both, 9), rng, lambda s, seat: _auto(s, seat, rng))
    p = state.players[0]
    assert p.charges > 0 or any(c and c.electrified for c in p.cells)
    assert len(p.specials) == 3


def test_sees_only_the_view():
    state = rolled(new_game(2), roll("highway_straight", "highway_curve", "railway_t", "overpass"))
    state = G.apply(state, 1, random_plan(state, 1, Random(3)))
    view = G.view(state, 0)
    assert view["seats"][1]["plan"] is None
    assert G.apply(state, 0, autopilot.choose(view, 0)).phase == "roll"
