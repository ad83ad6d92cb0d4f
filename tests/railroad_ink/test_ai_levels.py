"""The AI's levels: legal in no time, the same plan twice without a budget, strong above casual;
and the evaluation's parts on hand-built boards."""

import statistics
from random import Random

import pytest

from engine.core import CHANCE, LEVELS, Level, play_out
from engine.railroad_ink import autopilot
from engine.railroad_ink.bitboard import pack
from engine.railroad_ink.board import ACC, CELLS
from engine.railroad_ink.config import Config
from engine.railroad_ink.evaluation import Weights, board_value, open_ends
from engine.railroad_ink.joins import Joins, join_gain
from engine.railroad_ink.scoring import score
from engine.railroad_ink.state import Cell
from tests.railroad_ink.helpers import EXPANSION_SETS, G, cells, random_plan


def _play(config: Config, seed: int, level: Level, budget: float | None = None) -> int:
    state = G.new(config, seed)

    def policy(s: object, seat: int) -> object:
        return autopilot.choose(G.view(s, seat), seat, budget=budget, level=level)

    return G.outcome(play_out(G, state, Random(seed), policy))[0]["score"]


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_legally_out_of_time(level: Level) -> None:
    for k, expansions in enumerate(EXPANSION_SETS):
        # apply refuses an illegal plan, so a finished game is the check.
        _play(G.Config(players=1, expansions=expansions), 70 + k, level, budget=0.0)


def test_the_same_view_gives_the_same_plan() -> None:
    state = G.new(G.Config(players=1), 5)
    rng = Random(5)
    for _ in range(3):
        state = G.apply(state, CHANCE, G.sample_chance(state, rng))
        state = G.apply(state, 0, autopilot.choose(G.view(state, 0), 0, level="standard"))
    state = G.apply(state, CHANCE, G.sample_chance(state, rng))
    view = G.view(state, 0)
    for level in LEVELS:
        assert autopilot.choose(view, 0, level=level) == autopilot.choose(view, 0, level=level)


def test_strong_and_standard_score_well_above_casual() -> None:
    config = G.Config(players=1)
    seeds = range(810, 813)
    casual = statistics.mean(_play(config, s, "casual") for s in seeds)
    standard = statistics.mean(_play(config, s, "standard") for s in seeds)
    strong = statistics.mean(_play(config, s, "strong") for s in seeds)
    assert standard >= casual + 6
    assert strong >= casual + 12


def test_open_ends_are_those_facing_an_empty_space() -> None:
    # A straight at B1 facing down into B2 (open) and up into the exit (joined).
    board = cells({"B1": ("highway_straight", 0)})
    assert open_ends(pack(board), -1)[0] == 1
    # A curve beside it closes nothing: its ends face B1's blank side and C2 (open).
    board = cells({"B1": ("highway_straight", 0), "C1": ("highway_curve", 2)})
    assert open_ends(pack(board), -1)[0] == 2


def test_a_join_is_worth_the_network_points_it_would_add() -> None:
    # Two networks of one exit each (B1's highway, A2's railway) both face B2.
    board = cells({"B1": ("highway_straight", 0), "A2": ("railway_straight", 1)})
    assert open_ends(pack(board), -1) == (2, 1)  # two open ends, one space where they meet
    assert join_gain(board, -1) == 4.0
    # One network alone joins nothing.
    assert join_gain(cells({"B1": ("highway_straight", 0)}), -1) == 0.0


def test_closed_exits_are_those_of_networks_with_no_end_facing_an_empty_space() -> None:
    # A2's curve joins its exit to A1, still empty: the network may grow.
    board = cells({"A2": ("highway_curve", 3)})
    assert Joins.of(board, -1).closed_exits() == 0
    # A1's curve turns it into the board's edge: that exit's network can grow no more.
    board = cells({"A2": ("highway_curve", 3), "A1": ("highway_curve", 2)})
    assert Joins.of(board, -1).closed_exits() == 1
    # Another network still open beside it is not counted.
    board[1] = cells({"B1": ("highway_straight", 0)})[1]
    assert Joins.of(board, -1).closed_exits() == 1


def test_joins_grown_a_tile_at_a_time_match_the_board_built_whole() -> None:
    # The search grows each board's joins from its parent's, in any order of draws, and a
    # parent's children share its lists: growing one child must not change the parent.
    for k, expansions in enumerate((frozenset(), frozenset({"power_grid"}))):
        rng = Random(40 + k)
        state = G.new(G.Config(players=1, expansions=expansions), 40 + k)
        final = play_out(G, state, rng, lambda s, seat, r=rng: random_plan(s, seat, r))
        tiles = [(i, c) for i, c in enumerate(final.players[0].cells) if c is not None]
        rng.shuffle(tiles)
        acc = ACC if expansions else -1
        part: list[Cell | None] = [None] * CELLS
        grown = Joins.of(part, acc)
        gains, closed = set(), set()
        for n, (i, c) in enumerate(tiles):
            before = (
                grown.gain(),
                {s: list(p) for s, p in grown.facing.items()},
                dict(grown.exits),
                dict(grown.open),
            )
            for j, other in tiles[n + 1 : n + 3]:
                grown.grown(j, other.face, other.orientation)
            assert (grown.gain(), grown.facing, grown.exits, grown.open) == before
            part[i] = c
            grown = grown.grown(i, c.face, c.orientation)
            whole = Joins.of(part, acc)
            assert grown.gain() == whole.gain()
            # Closed: no piece of the network faces an empty space.
            growing = {whole._find(a) for pieces in whole.facing.values() for a in pieces}
            closed_now = sum(n for r, n in whole.exits.items() if r not in growing)
            assert grown.closed_exits() == whole.closed_exits() == closed_now
            gains.add(grown.gain())
            closed.add(grown.closed_exits())
        assert len(gains) > 2  # the boards met joins of different worth
        assert len(closed) > 1  # and networks that could grow no more


def test_the_joins_networks_score_as_the_rules_own_search() -> None:
    # The search hands scoring the joins' networks where only ends of one kind may meet.
    for k, expansions in enumerate((frozenset(), frozenset({"power_grid"}))):
        rng = Random(50 + k)
        # A network of one exit scores here too, so the lone ones count.
        config = G.Config(players=1, expansions=expansions, one_exit_network_points=1)
        state = G.new(config, 50 + k)
        final = play_out(G, state, rng, lambda s, seat: autopilot.choose(G.view(s, seat), seat))
        acc = ACC if expansions else -1
        part: list[Cell | None] = [None] * CELLS
        networks = set()
        for i, c in enumerate(final.players[0].cells):
            part[i] = c
            ours = score(part, 0, acc, config=config)
            given = Joins.of(part, acc).exit_counts()
            assert score(part, 0, acc, config=config, exits=given) == ours
            networks.add(tuple(ours.networks))
        assert len(networks) > 2  # the boards grew networks of several sizes


def test_the_value_is_the_score_once_no_round_remains() -> None:
    board = cells({"B1": ("highway_straight", 0), "B2": ("highway_t", 0)})
    cfg = Config(players=1)
    assert board_value(board, cfg, 0, Weights()) == score(board, 0, -1, config=cfg).total
    # With rounds to come, an open end costs less than the error it would be at the end.
    assert board_value(board, cfg, 3, Weights()) > score(board, 0, -1, config=cfg).total
