"""Every spec ambiguity (A1…A18) as a Config option: each non-default value changes the game."""

import dataclasses
from random import Random

import pytest

from engine.core import CHANCE, IllegalAction, play_out
from engine.railroad_ink import autopilot
from engine.railroad_ink.actions import Electrify
from engine.railroad_ink.board import ACC, tile
from engine.railroad_ink.game import score_of
from engine.railroad_ink.scoring import score
from tests.railroad_ink.helpers import (
    G,
    cells,
    draw,
    filled,
    light,
    new_game,
    plan,
    power,
    random_plan,
    refused,
    roll,
    rolled,
    seat_score,
    with_board,
)

LAMPS = frozenset({"street_lamps"})
POWER = frozenset({"power_grid"})
BASIC = ("highway_straight", "highway_straight", "railway_straight", "overpass")
FULL = filled("railway_cross", power=True)


def _score(spec, power: bool = False, charges: int = 0, **options):
    config = G.Config(expansions=POWER if power else frozenset(), **options)
    return score(cells(spec), charges, ACC if power else -1, config=config)


def test_defaults_are_the_spec_recommendations():
    c = G.Config()
    assert (c.mixed_contact, c.undrawn_route_die, c.one_exit_network_points) == (
        "illegal", "final_board", None
    )  # fmt: skip
    assert (c.centre_counts, c.lit_lamp_in_line, c.accumulator_excuses_ends) == (
        "space", True, True
    )  # fmt: skip
    assert (c.exit_line_needs_link, c.power_dice_optional) == (False, True)
    assert (c.power_exit_rule, c.full_charge) == ("accumulator", "illegal")
    assert not c.accumulator_joins_networks and not c.accumulator_is_centre
    assert c.wild_power_needs_route


# --------------------------------------------------------------------------- A1


# B1 holds a highway; A2 a railway from the west railway exit. A railway curve at B2 joining A2
# touches B1's highway end.
A1_BOARD = {"B1": ("highway_straight", 0), "A2": ("railway_straight", 1)}
A1_ROLL = roll("highway_straight", "highway_straight", "railway_curve", "overpass")


def _curve_up_at_b2(state) -> bool:
    """Whether the menu offers the railway curve at B2 with an end facing B1."""
    return any(
        s.die == "route3" and s.cell == "B2" and tile("railway_curve", s.orientation).sides[0]
        for s in G.legal_next(state, 0, [])
    )


def test_a1_highway_railway_contact_is_illegal_by_default():
    state = rolled(with_board(new_game(), A1_BOARD), A1_ROLL)
    with pytest.raises(IllegalAction, match="would touch the highway at B1 without a station"):
        G.legal_next(state, 0, [draw("route3", "B2", 3)])
    assert not _curve_up_at_b2(state)


def test_a1_contact_allowed_if_joined_elsewhere_and_scored_as_unjoined():
    state = rolled(with_board(new_game(mixed_contact="if_joined"), A1_BOARD), A1_ROLL)
    G.legal_next(state, 0, [draw("route3", "B2", 3)])
    assert _curve_up_at_b2(state)
    # Still no join: a curve touching only the highway at B1 does not fit.
    with pytest.raises(IllegalAction, match="would not join any exit or route"):
        G.legal_next(state, 0, [draw("route3", "C2", 3)])
    spec = {**A1_BOARD, "B2": ("railway_curve", 3)}
    mixed = _score(spec, mixed_contact="if_joined")
    # B1–N:B1 and A2/B2–W:A2 stay apart; B1's south end and B2's north end are open.
    assert (mixed.networks, mixed.errors) == ([], 2)
    assert (_score(spec).networks, _score(spec).errors) == ([2], 0)


# --------------------------------------------------------------------------- A2


def _one_hole(round_: int = 2, **options):
    """Railway crossroads everywhere but C3, in round 2 (the board was drawn in round 1)."""
    spec = filled("railway_cross")
    del spec["C3"]
    state = with_board(new_game(**options), spec)
    state = dataclasses.replace(state, round=round_)
    return rolled(state, roll("railway_straight", "railway_curve", "highway_t", "overpass"))


def test_a2_undrawn_die_is_judged_on_the_final_board_by_default():
    state = _one_hole()
    assert G.apply(state, 0, G.parse_action(plan(draw("route1", "C3")))).round == 3
    assert "Route die 1 (railway straight) can still be drawn" in refused(state, 0, plan())


def test_a2_round_start_makes_a_die_that_fitted_then_compulsory():
    state = _one_hole(undrawn_route_die="round_start")
    assert refused(state, 0, plan(draw("route1", "C3"))) == (
        "Route die 2 (railway curve) fitted the board at the start of the round (at C3); every "
        "such route die must be drawn."
    )


def test_a2_optional_route_dice_may_be_skipped():
    state = _one_hole(undrawn_route_die="optional")
    assert G.apply(state, 0, G.parse_action(plan())).round == 3


# --------------------------------------------------------------------------- A4, A5, A10, A15


def test_a4_one_exit_network_points():
    spec = {"B1": ("highway_straight", 0)}
    assert (_score(spec).network_points, _score(spec).total) == (0, -1 + 1)
    # Only the exit a route reaches counts, not the eleven unused ones.
    assert _score(spec, one_exit_network_points=2).network_points == 2
    assert _score({}, one_exit_network_points=2).network_points == 0


def test_a5_centre_counts_a_space_once_or_each_segment():
    spec = {"C3": ("overpass", 0), "D3": ("highway_straight", 0)}
    assert _score(spec).centre == 2
    assert _score(spec, centre_counts="segment").centre == 3


def test_a10_route_end_into_the_accumulator():
    spec = {"D3": ("highway_straight", 0)}
    assert _score(spec, power=True).errors == 1
    assert _score(spec, power=True, accumulator_excuses_ends=False).errors == 2


def test_a10_the_accumulator_joins_no_networks_unless_configured():
    # Railways from the top and the bottom exits of column D run into the Accumulator at D4.
    spec = {c: ("railway_straight", 0) for c in ("D1", "D2", "D3", "D5", "D6", "D7")}
    assert _score(spec, power=True).networks == []
    joined = _score(spec, power=True, accumulator_joins_networks=True)
    assert joined.networks == [2] and joined.network_points == 4


def test_a15_which_exits_count_for_power():
    on = {"electrified": True}
    spec = {"D1": ("railway_straight", 0, on), "B7": ("highway_straight", 0, on)}
    assert _score(spec, power=True, charges=2).power == 0
    loose = _score(spec, power=True, charges=2, power_exit_rule="electrified")
    assert (loose.power_exits, loose.power) == (2, 4)


# --------------------------------------------------------------------------- A8

LAMP_SPEC = {
    "B1": ("lamp_straight", 0, {"lamp_on": True}),
    "B2": ("lamp_straight", 0),
    "C2": ("lamp_straight", 1),
    "B5": ("lamp_straight", 0),
}
LAMP_STEPS = (
    draw("route1", "B3"),
    draw("route2", "F7"),
    draw("route3", "D1"),
    draw("route4", "B7"),
    draw("special", "F1", 0, face="highway_cross"),
)


def _lamp_state(**options):
    state = with_board(new_game(expansions=LAMPS, **options), LAMP_SPEC)
    return rolled(state, roll(*BASIC, lamps=("lamp_straight", "lamp_curve")))


def test_a8_a_line_with_a_lit_lamp_may_be_chosen_by_default():
    done = G.apply(_lamp_state(), 0, G.parse_action(plan(*LAMP_STEPS, light("col B"))))
    assert seat_score(done).lamps == 3


def test_a8_option_forbids_a_line_holding_a_lit_lamp():
    state = _lamp_state(lit_lamp_in_line=False)
    assert refused(state, 0, plan(*LAMP_STEPS, light("col B"))) == (
        "col B holds a lamp already lit; choose a line without one."
    )
    offered = {s.line for s in G.legal_next(state, 0, list(LAMP_STEPS))}
    assert "col B" not in offered and "row 1" not in offered and "row 2" in offered
    done = G.apply(state, 0, G.parse_action(plan(*LAMP_STEPS, light("row 2"))))
    assert seat_score(done).lamps == 3


# --------------------------------------------------------------------------- A11, A13, A16


def _power_state(*faces: str, charges: int = 0, spec=FULL, **options):
    state = with_board(new_game(expansions=POWER, **options), spec, charges=charges)
    return rolled(state, roll(*BASIC, power=faces))


def test_a11_a_line_from_an_exit_needs_no_route_link_by_default():
    # B1 holds a railway crossroads under the highway exit N:B1.
    done = G.apply(_power_state("S", "S"), 0, G.parse_action(plan(power(1, exit="N:B1", length=1))))
    assert done.players[0].cells[1].electrified


def test_a11_option_requires_the_first_space_to_join_the_exit():
    state = _power_state("S", "S", exit_line_needs_link=True)
    assert refused(state, 0, plan(power(1, exit="N:B1", length=1))) == (
        "Power die 1 (down): B1 has no route joining exit N:B1, so power cannot enter there."
    )
    offered = G.legal_next(state, 0, [])
    assert {s.exit for s in offered if s.exit} == {"N:D1"}
    G.apply(state, 0, G.parse_action(plan(power(1, exit="N:D1", length=1))))


def test_a13_power_dice_are_optional_by_default():
    assert G.apply(_power_state("S", "?"), 0, G.parse_action(plan())).round == 2


def test_a13_option_makes_a_usable_power_die_compulsory():
    state = _power_state("S", "?", power_dice_optional=False)
    assert refused(state, 0, plan()) == (
        "Power die 1 can still be used; every power die must be used if it can."
    )
    assert refused(state, 0, plan(power(1, exit="N:D1", length=3))) == (
        "Power die 2 can still be used; every power die must be used if it can."
    )
    assert not G.can_submit(state, 0, [])
    done = G.apply(
        state, 0, G.parse_action(plan(power(1, exit="N:D1", length=3), power(2, charge=True)))
    )
    assert done.round == 2
    # The autopilot knows it must spend both dice.
    assert len(autopilot.act(state, 0).steps) == 2


def test_a16_charging_a_full_accumulator_is_illegal_by_default():
    state = _power_state("?", "?", charges=3)
    assert refused(state, 0, plan(power(1, charge=True))) == (
        "Power die 1 (?): the Accumulator is already fully charged."
    )


def test_a16_option_lets_the_charge_go_to_waste():
    state = _power_state("?", "?", charges=3, full_charge="wasted")
    assert any(s.charge for s in G.legal_next(state, 0, []))
    done = G.apply(state, 0, G.parse_action(plan(power(1, charge=True))))
    assert done.players[0].charges == 3


# --------------------------------------------------------------------------- A14

A14_DICE = ("railway_straight", "railway_straight", "railway_straight", "overpass")
A14_SPEC = {"D1": ("railway_straight", 0), "D2": ("railway_straight", 0)}
A14_STEPS = (
    draw("route1", "D3"),
    draw("route2", "A2", 1),
    draw("route3", "G2", 1),
    draw("route4", "D7", 1),
)


def _a14_state(**options):
    state = with_board(new_game(expansions=POWER, **options), A14_SPEC)
    return rolled(state, roll(*A14_DICE, power=("?", "?")))


def test_a14_a_wild_power_die_needs_a_route_by_default():
    state = _a14_state()
    assert refused(state, 0, plan(*A14_STEPS, power(1, cell="C3"))) == (
        "Power die 1 (?) would electrify C3, which holds no route."
    )
    draft = [G.parse_action(plan(*A14_STEPS)).steps[i] for i in range(4)]
    offered = {s.cell for s in G.legal_next(state, 0, draft) if isinstance(s, Electrify) and s.cell}
    assert offered == {"D1", "D2", "D3", "A2", "G2", "D7"}


def test_a14_option_powers_an_empty_space_and_the_route_drawn_there_later():
    # Optional route dice keep round 2 to the one drawing on the powered space.
    state = _a14_state(wild_power_needs_route=False, undrawn_route_die="optional")
    draft = [G.parse_action(plan(*A14_STEPS)).steps[i] for i in range(4)]
    offered = {s.cell for s in G.legal_next(state, 0, draft) if isinstance(s, Electrify) and s.cell}
    assert "B2" in offered and "D4" not in offered  # D4 is the Accumulator
    done = G.apply(state, 0, G.parse_action(plan(*A14_STEPS, power(1, cell="B2"))))
    p = done.players[0]
    assert p.powered == [8] and p.cells[8] is None and p.electrified(8)
    assert G.view(done, 0)["seats"][0]["board"][1][1] == {"cell": "B2", "electrified": True}
    assert G.dump_state(G.load_state(G.dump_state(done))) == G.dump_state(done)

    again = rolled(done, roll(*A14_DICE, power=("?", "S")))
    assert refused(again, 0, plan(power(1, cell="B2"))) == (
        "Power die 1 (?) would electrify B2, which already is."
    )
    later = G.apply(again, 0, G.parse_action(plan(draw("route1", "B2", 1))))
    assert later.players[0].powered == [] and later.players[0].cells[8].electrified


def test_a14_option_counts_an_empty_powered_inner_space_for_its_exit():
    on = {"electrified": True}
    spec = {"D2": ("railway_straight", 0, on), "D3": ("railway_straight", 0, on)}
    cells_ = cells(spec)
    config = G.Config(expansions=POWER, wild_power_needs_route=False)
    assert score(cells_, 2, ACC, config=config).power_exits == 0
    # D1, just inside exit N:D1, is empty but powered: D1-D2-D3 reach the Accumulator at D4.
    assert score(cells_, 2, ACC, config=config, powered=[3]).power == 2


# --------------------------------------------------------------------------- whole games


def _options(rng: Random) -> dict:
    return {
        "mixed_contact": rng.choice(("illegal", "if_joined")),
        "undrawn_route_die": rng.choice(("final_board", "optional")),
        "one_exit_network_points": rng.choice((None, 1)),
        "centre_counts": rng.choice(("space", "segment")),
        "lit_lamp_in_line": rng.random() < 0.5,
        "accumulator_excuses_ends": rng.random() < 0.5,
        "exit_line_needs_link": rng.random() < 0.5,
        "power_dice_optional": rng.random() < 0.5,
        "power_exit_rule": rng.choice(("accumulator", "electrified")),
        "full_charge": rng.choice(("illegal", "wasted")),
        "wild_power_needs_route": rng.random() < 0.5,
    }


@pytest.mark.parametrize("seed", range(8))
def test_random_and_autopilot_games_under_non_default_options(seed):
    rng = Random(seed)
    config = G.Config(
        players=2, expansions=frozenset({"street_lamps", "power_grid"}), **_options(rng)
    )
    text = G.dump_state(G.new(config, seed))
    assert G.dump_state(G.load_state(text)) == text

    def policy(state, seat):
        return autopilot.act(state, seat) if seat == 0 else random_plan(state, seat, rng)

    state = play_out(G, G.new(config, seed), rng, policy)
    assert G.is_over(state)
    for seat in range(2):
        s = score_of(state, seat)
        assert s.total == (
            s.network_points + s.longest_highway + s.longest_railway + s.centre - s.errors
            + s.lamps + s.power
        )  # fmt: skip
    assert CHANCE not in G.to_act(state)
