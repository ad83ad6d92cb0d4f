"""Placement legality, the round's drawing duties, special routes and the turn structure."""

import pytest

from engine.core import CHANCE
from tests.railroad_ink.helpers import (
    G,
    draw,
    filled,
    new_game,
    plan,
    refused,
    roll,
    rolled,
    seat_score,
    with_board,
)

BASIC = roll("highway_straight", "highway_straight", "railway_straight", "overpass")
# A legal way to draw BASIC on an empty board.
OPENING = (
    draw("route1", "B1"),
    draw("route2", "F1"),
    draw("route3", "D1"),
    draw("route4", "B7"),
)


def test_a_legal_round_draws_all_four_dice():
    state = rolled(new_game(), BASIC)
    state = G.apply(state, 0, G.parse_action(plan(*OPENING)))
    assert (state.round, state.phase) == (2, "roll")
    s = seat_score(state)
    assert (s.longest_highway, s.longest_railway, s.errors) == (1, 1, 6)


def test_railway_may_not_touch_a_highway_without_a_station():
    state = with_board(new_game(), {"B1": ("highway_straight", 0)})
    state = rolled(state, roll("highway_straight", "highway_straight", "railway_curve", "overpass"))
    assert refused(state, 0, plan(draw("route3", "B2"))) == (
        "Route die 3 (railway curve) at B2 would touch the highway at B1 without a station."
    )


def test_railway_may_not_run_into_a_highway_exit():
    state = rolled(new_game(), BASIC)
    assert refused(state, 0, plan(draw("route3", "B1"))) == (
        "Route die 3 (railway straight) at B1 would run its railway into the highway exit at "
        "the top edge."
    )


def test_a_route_must_join_an_exit_or_a_route():
    state = rolled(new_game(), BASIC)
    assert refused(state, 0, plan(draw("route1", "D4"))) == (
        "Route die 1 (highway straight) at D4 would not join any exit or route of its kind."
    )


def test_occupied_spaces_and_unknown_cells_are_refused():
    state = rolled(with_board(new_game(), {"B1": ("highway_straight", 0)}), BASIC)
    assert refused(state, 0, plan(draw("route1", "B1"))) == (
        "Route die 1 (highway straight) cannot go on B1: that space already holds a route."
    )
    assert refused(state, 0, plan(draw("route1", "H9"))) == (
        "There is no space H9 (columns A–G, rows 1–7)."
    )


def test_a_station_joins_highway_to_railway():
    state = with_board(new_game(), {"B1": ("highway_straight", 0)})
    state = rolled(
        state, roll("highway_straight", "railway_straight", "railway_straight", "station_straight")
    )
    state = G.apply(
        state,
        0,
        G.parse_action(
            plan(
                draw("route4", "B2"),
                draw("route2", "B3"),
                draw("route3", "D1"),
                draw("route1", "F1"),
            )
        ),
    )
    s = seat_score(state)
    assert (s.longest_highway, s.longest_railway, s.errors) == (2, 2, 3)


def test_touching_a_blank_side_is_legal():
    state = with_board(new_game(), {"B2": ("highway_straight", 0)})
    state = rolled(state, BASIC)
    state = G.apply(
        state,
        0,
        G.parse_action(
            plan(
                draw("route3", "A2", 1),
                draw("route1", "B3"),
                draw("route2", "F1"),
                draw("route4", "B7"),
            )
        ),
    )
    assert seat_score(state).errors == 7  # A2 east; B2 north; B3 south; F1 south; B7 three


def test_every_route_die_must_be_drawn_if_it_can_be():
    state = rolled(new_game(), BASIC)
    reason = refused(state, 0, plan(*OPENING[:3]))
    assert reason.startswith("Route die 4 (overpass) can still be drawn (at ")
    assert reason.endswith("every route die must be drawn if it can be.")


def test_a_die_that_fits_nowhere_may_stay_undrawn():
    # Railway crossroads everywhere but D4: no highway or overpass fits there.
    spec = filled("railway_cross")
    del spec["D4"]
    state = with_board(new_game(), spec)
    state = rolled(state, roll("highway_straight", "highway_curve", "highway_t", "overpass"))
    assert G.apply(state, 0, G.parse_action(plan())).round == 2
    state = rolled(
        with_board(new_game(), spec), roll("railway_t", "highway_curve", "highway_t", "overpass")
    )
    assert "Route die 1 (railway T-junction) can still be drawn (at D4)" in refused(
        state, 0, plan()
    )


def test_the_same_die_cannot_be_drawn_twice():
    state = rolled(new_game(), BASIC)
    assert refused(state, 0, plan(draw("route1", "B1"), draw("route1", "F1"))) == (
        "Route die 1 has already been drawn this round."
    )


def test_special_routes_one_per_round_each_once_three_per_game():
    state = rolled(new_game(), BASIC)
    two = plan(
        *OPENING,
        draw("special", "D2", face="railway_cross"),
        draw("special", "F2", face="highway_cross"),
    )
    assert refused(state, 0, two) == "Only one special route may be drawn per round."
    used = with_board(new_game(), {}, specials=["railway_cross"])
    used = rolled(used, BASIC)
    again = plan(*OPENING, draw("special", "D2", face="railway_cross"))
    assert refused(used, 0, again) == "The railway crossroads has already been used this game."
    spent = rolled(
        with_board(new_game(), {}, specials=["station_3h1r", "station_1h3r", "station_adjacent"]),
        BASIC,
    )
    assert refused(spent, 0, plan(*OPENING, draw("special", "D2", face="railway_cross"))) == (
        "All three special routes of the game have been used."
    )
    ok = G.apply(
        state, 0, G.parse_action(plan(*OPENING, draw("special", "D2", face="railway_cross")))
    )
    assert ok.players[0].specials == ["railway_cross"]
    assert seat_score(ok).longest_railway == 2


def test_lamp_dice_exist_only_with_street_lamps():
    state = rolled(new_game(), BASIC)
    assert refused(state, 0, plan(*OPENING, draw("lamp1", "F2"))) == (
        "There are no street lamp dice in this game."
    )


def test_rolls_are_checked_against_the_dice():
    state = new_game(expansions=frozenset({"street_lamps"}))
    assert refused(state, CHANCE, roll("overpass", "highway_t", "railway_t", "overpass")) == (
        "Route die 1 (standard route die) has no face 'overpass'."
    )
    assert refused(state, CHANCE, BASIC) == "This game rolls 2 street lamp dice."


def test_turn_structure_and_hidden_plans():
    state = rolled(new_game(2), BASIC)
    assert G.to_act(state) == {0, 1}
    state = G.apply(state, 1, G.parse_action(plan(*OPENING)))
    assert G.to_act(state) == {0}
    assert G.view(state, 0)["seats"][1]["plan"] is None
    assert G.view(state, 1)["seats"][1]["plan"]["steps"][0]["cell"] == "B1"
    assert G.view(state, None)["seats"][1]["submitted"] is True
    assert refused(state, 1, plan(*OPENING)) == "Seat 1 has already planned round 1."
    state = G.apply(state, 0, G.parse_action(plan(*OPENING)))
    assert G.to_act(state) == {CHANCE}
    assert G.view(state, 0)["last_round"]["plans"][1]["steps"][0]["cell"] == "B1"
    assert refused(state, 0, plan()) == "The dice for round 2 are not rolled yet."


@pytest.mark.parametrize(
    ("expansions", "rounds"),
    [((), 7), (("street_lamps",), 6), (("power_grid",), 7), (("street_lamps", "power_grid"), 6)],
)
def test_round_counts(expansions, rounds):
    assert G.Config(expansions=frozenset(expansions)).round_count == rounds
    assert G.Config(expansions=frozenset(expansions), rounds=5).round_count == 5


def test_legal_next_offers_only_accepted_steps():
    state = rolled(new_game(), BASIC)
    steps = G.legal_next(state, 0, [])
    # Dice: 6 + 6 + 6 + 12 (overpass both ways); specials 6 + 6 + 24 + 24 + 24 + 12.
    assert len(steps) == 126
    for step in steps[:: max(1, len(steps) // 40)]:
        G.legal_next(state, 0, [step])
    assert not G.can_submit(state, 0, [])
    assert G.can_submit(state, 0, list(OPENING))


def test_chance_enumerates_every_distinct_roll():
    assert sum(1 for _ in G.legal_actions(new_game(), CHANCE)) == 6**3 * 3
