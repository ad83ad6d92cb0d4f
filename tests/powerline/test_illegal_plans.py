"""Every kind of illegal action is refused with a specific reason and leaves the state unchanged.

Dice ROLL = (1, 5, 3, 4, 2, 6) on board 1: red→L1/0, yellow→L2/0, blue→L3/0, green→L4/0.
"""

import json

import pytest

from engine.core import CHANCE, IllegalAction
from engine.powerline.actions import Placement, Plan
from tests.powerline.helpers import (
    G,
    dice,
    do,
    isl,
    island_plan,
    new_game,
    plan,
    play_round,
    refused,
    roll,
    rolled,
    seg,
)

ROLL = dice(1, 5, 3, 4, 2, 6)
ALL = ["red", "yellow", "blue", "green", "white", "black"]


@pytest.fixture
def state():
    """Solo game, round 1, dice ROLL rolled."""
    return rolled(new_game(), ROLL)


def with_joker(extra_roll=ROLL):
    """Solo game after a one-worker round (1 joker), with `extra_roll` rolled."""
    s = play_round(new_game(), dice(3, 1, 1, 1, 1, 1), plan(seg("red", "L9", 0)))
    assert s.players[0].jokers == 1
    return rolled(s, extra_roll)


# --------------------------------------------------------------------------- colour order


@pytest.mark.parametrize("first", ["yellow", "blue", "green", "white"])
def test_wrong_first_colour(state, first):
    reason = refused(state, 0, plan(isl(first)))
    assert "Start with the red or the black worker" in reason
    assert first in reason


def test_skipped_colour_from_red(state):
    reason = refused(state, 0, plan(seg("red", "L1", 0), seg("blue", "L3", 0)))
    assert "After the red worker comes the yellow one, not the blue one" in reason


def test_skipped_colour_from_black(state):
    reason = refused(state, 0, plan(isl("black"), isl("green")))
    assert "After the black worker comes the white one, not the green one" in reason


def test_colour_repeated(state):
    reason = refused(state, 0, plan(isl("red"), isl("red")))
    assert "comes the yellow one, not the red one" in reason


def test_reverse_direction_change(state):
    reason = refused(state, 0, plan(isl("red"), isl("yellow"), isl("red")))
    assert "After the yellow worker comes the blue one, not the red one" in reason


# --------------------------------------------------------------------------- dice and jokers


def test_wrong_die_value(state):
    reason = refused(state, 0, plan(seg("red", "L2", 0)))
    assert "The red die shows 1, segment 0 of L2 needs a 5" in reason


def test_wrong_die_value_at_far_end(state):
    # L1's last segment needs a 2; the red die shows 1.
    reason = refused(state, 0, plan(seg("red", "L1", 4)))
    assert "needs a 2" in reason


def test_joker_without_jokers(state):
    reason = refused(state, 0, plan(seg("red", "L2", 0, joker=True)))
    assert "no joker" in reason


def test_more_jokers_than_on_the_sun_space():
    s = with_joker()
    action = plan(seg("red", "L2", 0, joker=True), seg("yellow", "L2", 1, joker=True))
    reason = refused(s, 0, action)
    assert "only 1 joker" in reason
    # One joker is fine.
    after = do(s, 0, plan(seg("red", "L2", 0, joker=True), isl("yellow")))
    assert after.players[0].jokers == 0


def test_joker_where_the_die_already_fits():
    s = with_joker()
    reason = refused(s, 0, plan(seg("red", "L1", 0, joker=True)))
    assert "keep your joker" in reason


def test_joker_on_the_island():
    s = with_joker()
    reason = refused(s, 0, plan({"color": "red", "island": True, "joker": True}))
    assert "island needs no joker" in reason


# --------------------------------------------------------------------------- lines and segments


@pytest.mark.parametrize("line", ["L11", "L0", "l1", "X", ""])
def test_unknown_line(state, line):
    reason = refused(state, 0, plan(seg("red", line, 0)))
    assert f"There is no line {line}" in reason
    assert "L1 to L10" in reason


@pytest.mark.parametrize(("line", "segment", "last"), [("L1", 5, 4), ("L1", -1, 4), ("L5", 12, 11)])
def test_segment_out_of_range(state, line, segment, last):
    reason = refused(state, 0, plan(seg("red", line, segment)))
    assert f"{line} has segments 0 to {last}; there is no segment {segment}" in reason


def test_middle_segment_of_an_empty_line(state):
    # L1 segment 2 shows a 1 like the red die, but L1 is not started.
    reason = refused(state, 0, plan(seg("red", "L1", 2)))
    assert "L1 is not started" in reason
    assert "segment 0 (by A1) or 4 (by B1)" in reason


def test_not_next_segment_after_earlier_round():
    s = play_round(new_game(), ROLL, plan(seg("red", "L1", 0)))
    s = rolled(s, dice(1, 1, 1, 1, 1, 1))
    reason = refused(s, 0, plan(seg("red", "L1", 2)))
    assert "The next segment of L1 is 1 (built from A1), not 2" in reason
    # The other end is closed once the direction is set.
    reason = refused(s, 0, plan(isl("red"), seg("yellow", "L1", 4)))
    assert "The next segment of L1 is 1" in reason


def test_not_next_segment_within_a_plan(state):
    reason = refused(state, 0, plan(seg("red", "L1", 0), seg("yellow", "L1", 2)))
    assert "The next segment of L1 is 1 (built from A1), not 2" in reason


def test_other_end_within_a_plan():
    s = rolled(new_game(), dice(1, 2, 1, 1, 1, 1))
    reason = refused(s, 0, plan(seg("red", "L1", 0), seg("yellow", "L1", 4)))
    assert "The next segment of L1 is 1" in reason


def test_completed_line():
    s = play_round(
        new_game(),
        dice(4, 1, 6, 1, 1, 1),
        plan(seg("red", "L4", 0), seg("yellow", "L4", 1), seg("blue", "L4", 2)),
    )
    s = rolled(s, dice(4, 1, 6, 1, 1, 1))
    for segment in (0, 2):
        reason = refused(s, 0, plan(seg("red", "L4", segment)))
        assert "L4 is already complete" in reason


def test_completed_within_the_same_plan():
    s = rolled(new_game(), dice(4, 1, 6, 4, 1, 1))
    action = plan(
        seg("red", "L4", 0), seg("yellow", "L4", 1), seg("blue", "L4", 2), seg("green", "L4", 0)
    )
    assert "L4 is already complete" in refused(s, 0, action)


def test_four_lines(state):
    action = plan(
        seg("red", "L1", 0), seg("yellow", "L2", 0), seg("blue", "L3", 0), seg("green", "L4", 0)
    )
    reason = refused(state, 0, action)
    assert "at most 3 lines" in reason


def test_three_lines_and_island_is_fine(state):
    action = plan(seg("red", "L1", 0), seg("yellow", "L2", 0), seg("blue", "L3", 0), isl("green"))
    assert do(state, 0, action).players[0].built[:4] == [1, 1, 1, 0]


# --------------------------------------------------------------------------- worker count


def test_empty_plan(state):
    assert "Place at least one worker" in refused(state, 0, plan())


def test_seven_workers_malformed(state):
    action = plan(*(isl(c) for c in ALL), isl("red"))
    with pytest.raises(IllegalAction) as exc:
        G.parse_action(action)
    assert "malformed" in exc.value.reason
    assert "6" in exc.value.reason


def test_seven_workers_bypassing_validation(state):
    placements = tuple(Placement(color=c, island=True) for c in [*ALL, "red"])
    action = Plan.model_construct(placements=placements, vacation=False, type="plan")
    assert "All six workers are already planned" in refused(state, 0, action)


def test_empty_chart_column():
    s = new_game()
    for _ in range(3):
        s = play_round(s, ROLL, island_plan(2))
    s = rolled(s, ROLL)
    reason = refused(s, 0, island_plan(2))
    assert "no tiles left in the 2-worker column" in reason


def test_construction_limits_line_count():
    s = rolled(new_game(variants={"construction_limits"}), ROLL)
    reason = refused(s, 0, plan(seg("red", "L1", 0), seg("yellow", "L2", 0)))
    assert "With 2 worker(s) you may build on 1 line(s) under the construction limits" in reason
    assert "this plan uses 2" in reason
    reason = refused(
        s,
        0,
        plan(seg("red", "L1", 0), seg("yellow", "L2", 0), seg("blue", "L3", 0), isl("green")),
    )
    assert "With 4 worker(s) you may build on 2 line(s)" in reason


# --------------------------------------------------------------------------- vacation tile


def test_vacation_twice():
    s = play_round(new_game(), ROLL, island_plan(1, vacation=True))
    s = rolled(s, ROLL)
    assert "already used your vacation tile" in refused(s, 0, island_plan(2, vacation=True))


def test_vacation_not_in_play():
    s = rolled(new_game(vacation_tile=False), ROLL)
    assert "not in play" in refused(s, 0, island_plan(2, vacation=True))


def test_vacation_without_island_worker(state):
    reason = refused(state, 0, plan(seg("red", "L1", 0), vacation=True))
    assert "only helps when workers go to the island" in reason


# --------------------------------------------------------------------------- turn structure


def test_plan_before_the_roll():
    s = new_game()
    assert G.to_act(s) == {CHANCE}
    assert "not rolled yet" in refused(s, 0, island_plan(1))


def test_roll_by_a_player():
    s = new_game(2)
    assert "Players do not roll" in refused(s, 0, roll())
    assert "Players do not roll" in refused(s, 1, roll())


def test_roll_twice(state):
    assert "already rolled" in refused(state, CHANCE, roll())


def test_plan_by_chance(state):
    assert "does not plan" in refused(state, CHANCE, island_plan(1))


@pytest.mark.parametrize("seat", [1, 5, 6, -2])
def test_seat_out_of_range(state, seat):
    assert f"Seat {seat} is not at this table" in refused(state, seat, island_plan(1))


def test_seat_out_of_range_in_legal_next(state):
    with pytest.raises(IllegalAction, match="not at this table"):
        G.legal_next(state, 3, [])
    with pytest.raises(IllegalAction, match="does not plan"):
        G.legal_next(state, CHANCE, [])


def test_legal_next_rejects_an_illegal_prefix(state):
    with pytest.raises(IllegalAction, match="Start with the red or the black"):
        G.legal_next(state, 0, [Placement(color="blue", island=True)])


def _finished():
    s = new_game()
    for n in [1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 6, 6]:
        s = play_round(s, ROLL, island_plan(n))
    assert G.is_over(s)
    return s


def test_actions_after_game_over():
    s = _finished()
    assert G.to_act(s) == set()
    assert "game is over" in refused(s, 0, island_plan(1))
    assert "game is over" in refused(s, CHANCE, roll())
    with pytest.raises(IllegalAction, match="game is over"):
        G.legal_next(s, 0, [])
    assert list(G.legal_actions(s, 0)) == []
    assert list(G.legal_actions(s, CHANCE)) == []


def test_refused_plan_keeps_the_seat_to_act(state):
    refused(state, 0, plan(seg("red", "L2", 0)))
    assert G.to_act(state) == {0}


MALFORMED = [
    {},
    {"type": "pass"},
    {"type": "roll"},
    {"type": "roll", "dice": {"red": 1}},
    {"type": "roll", "dice": dict.fromkeys(ALL, 7)},
    {"type": "roll", "dice": dict.fromkeys(ALL, 0)},
    {"type": "roll", "dice": {**dict.fromkeys(ALL[:5], 1), "purple": 1}},
    {"type": "plan"},
    {"type": "plan", "placements": "red"},
    {"type": "plan", "placements": [{"color": "purple", "island": True}]},
    {"type": "plan", "placements": [{"color": "red"}]},
    {"type": "plan", "placements": [{"color": "red", "line": "L1"}]},
    {"type": "plan", "placements": [{"color": "red", "segment": 0}]},
    {"type": "plan", "placements": [{"color": "red", "line": "L1", "segment": 0, "island": True}]},
    {"type": "plan", "placements": [{"color": "red", "island": True, "extra": 1}]},
    {"type": "plan", "placements": [{"color": "red", "line": "L1", "segment": "zero"}]},
    {"type": "plan", "placements": [{"color": "red", "island": True}], "vacation": "maybe"},
    {"type": "plan", "placements": [{"color": "red", "island": True}], "bonus": True},
    {"type": "plan", "placements": [None]},
]


@pytest.mark.parametrize("data", MALFORMED)
def test_malformed_actions(data):
    with pytest.raises(IllegalAction) as exc:
        G.parse_action(data)
    assert exc.value.reason.startswith("That action is malformed")


def test_wellformed_actions_parse():
    assert G.parse_action(roll(1, 2, 3, 4, 5, 6)).dice["white"] == 5
    p = G.parse_action(plan(seg("red", "L1", 0), isl("yellow"), vacation=True))
    assert p.vacation is True
    assert p.placements[1].island is True
    assert p.placements[0].segment == 0


# ---------------------------------------------------------------------- secrecy and re-planning


def test_seat_may_replace_its_plan_before_the_round_resolves():
    s = rolled(new_game(2), ROLL)
    first = plan(seg("red", "L1", 0))
    second = plan(seg("red", "L1", 0), seg("yellow", "L2", 0))
    s = do(s, 0, first)
    assert G.to_act(s) == {1}
    s = do(s, 0, second)
    assert G.to_act(s) == {1}
    assert G.view(s, 0)["seats"][0]["plan"]["placements"][1]["line"] == "L2"
    s = do(s, 1, island_plan(1))
    assert s.round == 2
    p = s.players[0]
    assert p.built[:2] == [1, 1]
    assert p.chart == [2, 2, 3, 3, 2, 2]
    assert p.jokers == 0
    assert s.players[1].vp == 9


def test_view_hides_other_seats_plans():
    s = rolled(new_game(3), ROLL)
    s = do(s, 0, plan(seg("red", "L1", 0), seg("yellow", "L2", 0)))
    own = G.view(s, 0)["seats"][0]
    assert own["submitted"] is True
    assert own["plan"]["placements"][0] == {
        "color": "red",
        "line": "L1",
        "segment": 0,
        "joker": False,
        "island": False,
    }
    for viewer in (1, 2, None):
        v = G.view(s, viewer)
        assert v["seats"][0]["submitted"] is True
        assert v["seats"][0]["plan"] is None
        assert v["seats"][1]["submitted"] is False
        assert "placements" not in json.dumps(v)
    # Nothing about seat 0's plan leaks through the public seat state either.
    assert G.view(s, 1)["seats"][0]["lines"][0]["built"] == 0
    assert G.view(s, 1)["seats"][0]["chart"] == [2, 3, 3, 3, 2, 2]


def test_view_reveals_plans_after_the_round():
    s = rolled(new_game(2), ROLL)
    s = do(s, 0, plan(seg("red", "L1", 0)))
    s = do(s, 1, island_plan(2))
    v = G.view(s, 1)
    assert v["last_round"]["seats"][0]["plan"]["placements"][0]["line"] == "L1"
    assert all(seat["plan"] is None for seat in v["seats"])
    assert all(seat["submitted"] is False for seat in v["seats"])


# --------------------------------------------------------------------------- table options


@pytest.mark.parametrize(
    ("kw", "words"),
    [
        ({"players": 2, "boards": (1,)}, "2 players need 2 boards"),
        ({"players": 2, "boards": (3, 3)}, "different board"),
        ({"players": 1, "boards": (7,)}, "numbered 1 to 6"),
        ({"players": 1, "scoring_tiles": ("A", "A", "G")}, "three different letters"),
        ({"players": 1, "scoring_tiles": ("A", "D", "M")}, "three different letters"),
        ({"players": 0}, "greater than or equal to 1"),
        ({"players": 7}, "less than or equal to 6"),
        ({"players": 1, "variants": frozenset({"chaos"})}, "variants"),
    ],
)
def test_bad_table_options(kw, words):
    with pytest.raises(ValueError, match=words):
        G.Config(**kw)


def test_legal_next_takes_placement_dicts_and_refuses_bad_ones():
    state = rolled(new_game(1), dice(4, 1, 6, 2, 2, 2))
    after_red = G.legal_next(state, 0, [seg("red", "L4", 0)])
    assert Placement(color="yellow", line="L4", segment=1) in after_red
    assert all(p.color == "yellow" for p in after_red)
    with pytest.raises(IllegalAction, match="malformed"):
        G.legal_next(state, 0, [{"color": "purple", "island": True}])
    with pytest.raises(IllegalAction, match="needs a"):
        G.legal_next(state, 0, [seg("red", "L4", 2)])
