"""The autopilot plays legal, sensible plans from a view alone, in every variant."""

import dataclasses
import math
import statistics
from random import Random

import pytest

from engine.core import play_out
from engine.powerline import autopilot
from engine.powerline.planning import ISLAND, Draft, can_submit, candidates
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


def _positions(variants: frozenset[str], seed: int, players: int = 2) -> list[tuple[object, int]]:
    """(state, seat) at every plan of a game the autopilot plays with random seats."""
    seen = []

    def policy(state, seat, rng):
        seen.append((state, seat))
        return autopilot.act(state, seat) if seat == 0 else random_plan(state, seat, rng)

    _play(G.Config(players=players, variants=variants), seed, policy)
    return seen


def _exhaustive(ctx) -> tuple[float, list[tuple[int, int, int, bool]]]:
    """Every plan, depth-first in candidates order; the first of the best (the search's spec)."""
    seat = ctx.seat
    stacks = None if ctx.island_stacks is None else list(ctx.island_stacks)
    best: list = [-math.inf, []]
    path: list[tuple[int, int, int, bool]] = []

    def visit(draft: Draft, cost: int) -> None:
        if can_submit(seat, draft):
            value = autopilot._value(ctx, draft, cost)
            if value > best[0]:
                best[:] = [value, path.copy()]
        for move in candidates(seat, draft):
            color, line, _, joker = move
            if joker and not autopilot._worth_joker(ctx, draft, line):
                continue
            extra = 0
            if line == ISLAND:
                extra = autopilot._island_cost(seat.dice[color], stacks)
                if stacks is not None:
                    stacks[seat.dice[color] - 1] += 1
            nxt = draft.copy()
            nxt.add(*move)
            path.append(move)
            visit(nxt, cost + extra)
            path.pop()
            if line == ISLAND and stacks is not None:
                stacks[seat.dice[color] - 1] -= 1

    visit(Draft(), 0)
    return best[0], best[1]


@pytest.mark.parametrize("variants", [frozenset(), frozenset(ALL_VARIANTS)], ids=["plain", "all"])
def test_search_picks_what_an_exhaustive_search_picks(variants):
    # Transpositions, pruning and search order must not change the plan, ties included.
    for state, seat in _positions(variants, 3)[::2]:
        ctx = autopilot._context(G.view(state, seat), seat, autopilot.Weights())
        found = autopilot._search(ctx, None)
        assert (found.value, found.path) == _exhaustive(ctx)


@pytest.mark.parametrize("budget", [0.0, 1e-4])
def test_a_tiny_budget_still_plays_a_legal_plan(budget):
    for state, seat in _positions(frozenset(ALL_VARIANTS), 4)[::3]:
        plan = autopilot.choose(G.view(state, seat), seat, budget=budget)
        assert plan.placements
        G.apply(state, seat, plan)


def test_an_ample_budget_plays_the_full_search_plan():
    for state, seat in _positions(frozenset({"adventure_island"}), 5)[::3]:
        view = G.view(state, seat)
        assert autopilot.choose(view, seat, budget=60.0) == autopilot.choose(view, seat)
