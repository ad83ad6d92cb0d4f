"""Street Lamps and Power Grid rounds: optional lamp dice, lighting, electrifying, charging."""

from tests.railroad_ink.helpers import (
    G,
    draw,
    filled,
    light,
    new_game,
    plan,
    power,
    refused,
    roll,
    rolled,
    seat_score,
    with_board,
)

LAMPS = frozenset({"street_lamps"})
POWER = frozenset({"power_grid"})
BASIC = ("highway_straight", "highway_straight", "railway_straight", "overpass")
OPENING = (draw("route1", "B1"), draw("route2", "F1"), draw("route3", "D1"), draw("route4", "B7"))
LAMP_ROLL = roll(*BASIC, lamps=("lamp_straight", "lamp_curve"))


def test_lamp_dice_are_optional_and_follow_placement_rules():
    state = rolled(new_game(expansions=LAMPS), LAMP_ROLL)
    assert G.apply(state, 0, G.parse_action(plan(*OPENING))).round == 2
    assert refused(state, 0, plan(*OPENING, draw("lamp1", "D4"))) == (
        "Lamp die 1 (lamp highway straight) at D4 would not join any exit or route of its kind."
    )
    done = G.apply(state, 0, G.parse_action(plan(*OPENING, draw("lamp1", "B2"))))
    assert seat_score(done).longest_highway == 2
    assert seat_score(done).lamps == 0


def test_a_special_route_lights_one_row_or_column_right_away():
    state = rolled(new_game(expansions=LAMPS), LAMP_ROLL)
    steps = (*OPENING, draw("lamp1", "B2"), draw("lamp2", "F2", 3))
    # F2 lamp curve turned to N and W: its west end faces E2, still empty.
    special = draw("special", "B3", face="highway_cross")
    assert refused(state, 0, plan(*steps, special, draw("route1", "A1"))) == (
        "Choose the row or column to light before drawing anything else."
    )
    assert refused(state, 0, plan(*steps, special)) == (
        "Choose a row or column to light for the special route you drew."
    )
    assert refused(state, 0, plan(*steps, light("row 2"))) == (
        "Lamps are lit only when a special route is used."
    )
    assert refused(state, 0, plan(*steps, special, light("diagonal"))) == (
        "'diagonal' is not a row or column; say e.g. 'row 3' or 'col C'."
    )
    done = G.apply(state, 0, G.parse_action(plan(*steps, special, light("row 2"))))
    assert seat_score(done).lamps == 2
    # A line may be chosen even with no lamp in it (A7).
    none = G.apply(state, 0, G.parse_action(plan(*steps, special, light("col G"))))
    assert seat_score(none).lamps == 0


def test_each_lamp_lights_once_and_only_in_the_chosen_line():
    spec = {
        "B1": ("lamp_straight", 0, {"lamp_on": True}),
        "B2": ("lamp_straight", 0),
        "C2": ("lamp_straight", 1),
        "B5": ("lamp_straight", 0),
    }
    state = rolled(with_board(new_game(expansions=LAMPS), spec), LAMP_ROLL)
    special = draw("special", "F1", 0, face="highway_cross")
    steps = (draw("route1", "B3"), draw("route2", "F7"), draw("route3", "D1"), draw("route4", "B7"))
    done = G.apply(state, 0, G.parse_action(plan(*steps, special, light("col B"))))
    assert seat_score(done).lamps == 3
    assert [c.lamp_on for c in done.players[0].cells if c and c.face == "lamp_straight"] == [
        True, True, False, True
    ]  # fmt: skip


def test_lighting_at_round_end_option():
    state = rolled(new_game(expansions=LAMPS, lamp_activation="round_end"), LAMP_ROLL)
    steps = (*OPENING, draw("special", "B2", face="highway_cross"), draw("lamp1", "B3"))
    done = G.apply(state, 0, G.parse_action(plan(*steps, light("col B"))))
    assert seat_score(done).lamps == 1
    assert refused(state, 0, plan(*steps, light("col B"), draw("lamp2", "C2", 1))) == (
        "Lamps are lit after all drawing; nothing more can be drawn."
    )


# A board full of railway crossroads: no route die fits, so a plan may be only power steps.
FULL = filled("railway_cross", power=True)


def _power_state(*faces: str, **kw):
    state = with_board(new_game(expansions=POWER, **kw), FULL)
    return rolled(state, roll(*BASIC, power=faces))


def test_electrify_a_line_from_an_exit_and_charge_with_the_question_mark():
    state = _power_state("S", "?")
    done = G.apply(
        state, 0, G.parse_action(plan(power(1, exit="N:D1", length=3), power(2, charge=True)))
    )
    s = seat_score(done)
    assert (s.charges, s.power_exits, s.power) == (1, 1, 1)
    assert refused(state, 0, plan(power(1, exit="N:D1", length=4))) == (
        "Power die 1 (down) cannot electrify the Accumulator; charge it instead."
    )
    assert refused(state, 0, plan(power(1, exit="N:B1", length=0))) == (
        "Power die 1 (down) must electrify at least one space or charge."
    )
    assert refused(state, 0, plan(power(1, exit="W:A2", length=2))) == (
        "Power die 1 (down) cannot enter the board from exit W:A2."
    )


def test_charging_is_a_move_of_its_own_unless_configured():
    on = {"electrified": True}
    spec = {**FULL, "D3": ("railway_cross", 0, on)}
    state = rolled(with_board(new_game(expansions=POWER), spec), roll(*BASIC, power=("S", "S")))
    done = G.apply(
        state,
        0,
        G.parse_action(plan(power(1, start="D3", charge=True), power(2, start="D3", charge=True))),
    )
    assert done.players[0].charges == 2
    line = plan(power(1, exit="N:D1", length=3, charge=True))
    assert refused(state, 0, line) == (
        "Power die 1 (down): charging is a move of its own from a space electrified before it."
    )
    lenient = rolled(
        with_board(new_game(expansions=POWER, charge_after_line=True), FULL),
        roll(*BASIC, power=("S", "E")),
    )
    done = G.apply(lenient, 0, G.parse_action(line))
    assert done.players[0].charges == 1
    assert seat_score(done).power_exits == 1


def test_question_mark_rules_and_the_charge_cap():
    on = {"electrified": True}
    spec = {**FULL, "A1": ("railway_cross", 0, on)}
    state = rolled(
        with_board(new_game(expansions=POWER), spec, charges=3), roll(*BASIC, power=("?", "N"))
    )
    assert refused(state, 0, plan(power(1, cell="A1"))) == (
        "Power die 1 (?) would electrify A1, which already is."
    )
    assert refused(state, 0, plan(power(1, cell="D4"))) == (
        "Power die 1 (?) cannot electrify the Accumulator; charge it instead."
    )
    assert refused(state, 0, plan(power(1, charge=True))) == (
        "Power die 1 (?): the Accumulator is already fully charged."
    )
    assert refused(state, 0, plan(power(2, start="B2", length=1))) == (
        "Power die 2 (up) must start from an exit or an electrified space."
    )
    done = G.apply(state, 0, G.parse_action(plan(power(1, cell="G7"))))
    assert sum(c.electrified for c in done.players[0].cells if c) == 2


def test_spaces_without_routes_stop_a_line():
    spec = {"D1": ("railway_straight", 0), "D2": ("railway_straight", 0)}
    state = rolled(
        with_board(new_game(expansions=POWER), spec),
        roll(
            "railway_straight", "railway_straight", "railway_straight", "overpass", power=("S", "?")
        ),
    )
    steps = (
        draw("route1", "D3"),
        draw("route2", "A2", 1),
        draw("route3", "G2", 1),
        draw("route4", "D7", 1),
    )
    assert refused(state, 0, plan(*steps, power(2, cell="C3"))) == (
        "Power die 2 (?) would electrify C3, which holds no route."
    )
    assert refused(state, 0, plan(*steps, power(1, exit="N:B1", length=1))) == (
        "Power die 1 (down) would electrify B1, which holds no route."
    )
    done = G.apply(state, 0, G.parse_action(plan(*steps, power(1, exit="N:D1", length=3))))
    assert seat_score(done).power_exits == 1
    assert refused(state, 0, plan(power(1, exit="N:D1", length=1))).startswith(
        "Route die 1 (railway straight) can still be drawn"
    )


def test_accumulator_blocks_routes():
    state = with_board(new_game(expansions=POWER), {"D3": ("highway_straight", 0)})
    state = rolled(state, roll(*BASIC, power=("?", "?")))
    assert refused(state, 0, plan(draw("route1", "D4"))) == (
        "Route die 1 (highway straight) cannot go on D4: the Accumulator fills that space."
    )
    assert G.view(state, 0)["seats"][0]["board"][3][3] == {"cell": "D4", "accumulator": True}
