"""Every example of the spec's section 7 and of the rules text, played with scripted dice.

Board 1 pips (segment 0 first), for reading the scripts:
L1 1 2 1 4 2 | L2 5 4 3 6 | L3 3 5 2 6 4 6 | L4 4 1 6 | L5 4 4 5 4 2 6 2 5 3 1 3 2
L6 5 1 3 2 | L7 3 6 5 | L8 4 2 5 4 1 | L9 3 2 5 6 1 6 4 | L10 1 3 2 1 3 6 5 3
"""

import dataclasses
from collections import Counter

import pytest

from engine.powerline import scoring
from engine.powerline.board import layout
from tests.powerline.helpers import (
    G,
    dice,
    do,
    edit_player,
    full,
    isl,
    island_plan,
    new_game,
    plan,
    play_round,
    player,
    refused,
    rolled,
    seg,
)

FULL_CHART = [2, 3, 3, 3, 2, 2]


def covered(p) -> list[str]:
    lay = layout(p.board)
    return [lay.station_ids[s] for s in scoring.covered_stations(p, lay)]


def ledger_ok(p) -> None:
    assert sum(p.ledger.values()) == p.vp


def build_l1(state):
    """Round: five workers complete L1 (pips 1 2 1 4 2) from segment 0."""
    return play_round(
        state,
        dice(1, 2, 1, 4, 2, 6),
        plan(
            seg("red", "L1", 0),
            seg("yellow", "L1", 1),
            seg("blue", "L1", 2),
            seg("green", "L1", 3),
            seg("white", "L1", 4),
        ),
    )


def build_l2(state):
    """Round: four workers complete L2 (pips 5 4 3 6) from segment 0."""
    return play_round(
        state,
        dice(5, 4, 3, 6, 1, 1),
        plan(
            seg("red", "L2", 0),
            seg("yellow", "L2", 1),
            seg("blue", "L2", 2),
            seg("green", "L2", 3),
        ),
    )


def build_l4(state):
    """Round: three workers complete L4 (pips 4 1 6) from segment 0."""
    return play_round(
        state,
        dice(4, 1, 6, 1, 1, 1),
        plan(seg("red", "L4", 0), seg("yellow", "L4", 1), seg("blue", "L4", 2)),
    )


# --------------------------------------------------------------------------- worker chart


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6])
def test_column_n_tile_removed_for_n_workers(n):
    state = play_round(new_game(), dice(1, 1, 1, 1, 1, 1), island_plan(n))
    p = state.players[0]
    expected = FULL_CHART.copy()
    expected[n - 1] -= 1
    assert p.chart == expected
    assert p.energy == 4  # the removed worker tile becomes an energy tile
    assert p.jokers == (1 if n == 1 else 0)
    assert len(state.last_round.seats[0].plan.placements) == n


def test_nico_four_workers_remove_top_tile_of_column_4():
    # Rules p.4: 4 empty worker spaces → the first tile of the 4-worker column.
    state = play_round(
        new_game(),
        dice(1, 5, 3, 6, 1, 1),
        plan(seg("red", "L1", 0), seg("yellow", "L2", 0), seg("blue", "L3", 0), isl("green")),
    )
    p = state.players[0]
    assert p.chart == [2, 3, 3, 2, 2, 2]
    assert p.built[:3] == [1, 1, 1]
    assert p.vp == 9  # the green worker on the island


def test_one_worker_uncovers_a_sun_and_gains_a_joker():
    # Rules p.5, Luna: only one worker → a column-1 tile and a joker on the sun space.
    state = play_round(new_game(), dice(1, 1, 1, 1, 1, 1), plan(seg("red", "L1", 0)))
    p = state.players[0]
    assert p.chart == [1, 3, 3, 3, 2, 2]
    assert p.jokers == 1
    assert state.last_round.seats[0].jokers_gained == 1
    assert p.vp == 10
    state = play_round(state, dice(2, 1, 1, 1, 1, 1), plan(seg("red", "L1", 1)))
    assert state.players[0].chart == [0, 3, 3, 3, 2, 2]
    assert state.players[0].jokers == 2
    # Column 1 is now empty: a third one-worker plan is refused.
    state = rolled(state, dice(1, 1, 1, 1, 1, 1))
    reason = refused(state, 0, plan(seg("red", "L1", 2)))
    assert "1-worker column" in reason


def test_luna_two_workers_with_column_2_empty():
    # Rules p.4: Luna deployed two workers but the 2-worker column is empty.
    state = new_game()
    for _ in range(3):
        state = play_round(state, dice(1, 1, 1, 1, 1, 1), island_plan(2))
    assert state.players[0].chart == [2, 0, 3, 3, 2, 2]
    state = rolled(state, dice(1, 2, 1, 4, 2, 6))
    two = plan(seg("red", "L1", 0), seg("yellow", "L1", 1))
    reason = refused(state, 0, two)
    assert "no tiles left" in reason and "2-worker column" in reason
    # She may put the yellow worker back ...
    one = do(state, 0, plan(seg("red", "L1", 0)))
    assert one.players[0].chart == [1, 0, 3, 3, 2, 2]
    assert one.players[0].built[0] == 1
    # ... or send the blue worker to the island.
    three = do(state, 0, plan(seg("red", "L1", 0), seg("yellow", "L1", 1), isl("blue")))
    assert three.players[0].chart == [2, 0, 2, 3, 2, 2]
    assert three.players[0].built[0] == 2


# --------------------------------------------------------------------------- island


def test_two_island_workers_lose_2_vp():
    state = play_round(new_game(), dice(1, 1, 1, 1, 1, 1), island_plan(2))
    p = state.players[0]
    assert p.vp == 8
    assert p.ledger["island"] == -2
    assert state.last_round.seats[0].island_loss == 2
    ledger_ok(p)


def test_island_loss_never_below_zero():
    state = new_game()
    for n, vp in [(2, 8), (2, 6), (2, 4), (3, 1)]:
        state = play_round(state, dice(1, 1, 1, 1, 1, 1), island_plan(n))
        assert state.players[0].vp == vp
    state = play_round(state, dice(1, 1, 1, 1, 1, 1), island_plan(3))
    p = state.players[0]
    assert p.vp == 0
    assert state.last_round.seats[0].island_loss == 1
    assert p.ledger["island"] == -10
    ledger_ok(p)
    # And with 0 VP, two more island workers leave it at 0.
    state = play_round(state, dice(1, 1, 1, 1, 1, 1), island_plan(4))
    assert state.players[0].vp == 0
    assert state.last_round.seats[0].island_loss == 0


def test_island_loss_not_below_zero_from_edited_low_vp():
    state = edit_player(new_game(), vp=1, ledger={"start": 1})
    state = play_round(state, dice(1, 1, 1, 1, 1, 1), island_plan(2))
    assert state.players[0].vp == 0
    assert state.last_round.seats[0].island_loss == 1


def test_green_worker_to_island_lets_white_and_black_continue():
    # Rules p.4: "Sending this green worker to the island opens up new possibilities."
    state = rolled(new_game(), dice(1, 2, 1, 6, 4, 2))
    blocked = plan(
        seg("red", "L1", 0),
        seg("yellow", "L1", 1),
        seg("blue", "L1", 2),
        seg("green", "L1", 3),
    )
    assert "needs a 4" in refused(state, 0, blocked)
    state = do(
        state,
        0,
        plan(
            seg("red", "L1", 0),
            seg("yellow", "L1", 1),
            seg("blue", "L1", 2),
            isl("green"),
            seg("white", "L1", 3),
            seg("black", "L1", 4),
        ),
    )
    p = state.players[0]
    assert p.built[0] == 5
    assert p.vp == 10 - 1 + 6
    assert p.chart == [2, 3, 3, 3, 2, 1]


def test_vacation_tile_cancels_island_loss_once():
    state = play_round(new_game(), dice(1, 1, 1, 1, 1, 1), island_plan(2, vacation=True))
    p = state.players[0]
    assert p.vp == 10
    assert p.vacation is False
    assert p.ledger["island"] == 0
    assert state.last_round.seats[0].island_loss == 0
    state = rolled(state, dice(1, 1, 1, 1, 1, 1))
    assert "already used" in refused(state, 0, island_plan(2, vacation=True))
    state = do(state, 0, island_plan(2))
    assert state.players[0].vp == 8


# --------------------------------------------------------------------------- construction


def test_leon_tokens_where_workers_were_deployed():
    state = play_round(
        new_game(),
        dice(1, 5, 3, 4, 2, 6),
        plan(seg("red", "L1", 0), seg("yellow", "L2", 0), seg("blue", "L3", 0)),
    )
    p = state.players[0]
    assert p.built == [1, 1, 1, 0, 0, 0, 0, 0, 0, 0]
    assert p.direction == [1, 1, 1, 0, 0, 0, 0, 0, 0, 0]


def test_either_end_of_an_empty_line_sets_the_direction():
    # Rules p.4 (1)-(3): start at either end; afterwards only the next segment that way.
    state = play_round(new_game(), dice(2, 1, 1, 1, 1, 1), plan(seg("red", "L1", 4)))
    p = state.players[0]
    assert (p.built[0], p.direction[0]) == (1, -1)
    state = rolled(state, dice(1, 1, 1, 1, 1, 1))
    reason = refused(state, 0, plan(seg("red", "L1", 0)))
    assert "next segment of L1 is 3" in reason
    state = do(state, 0, plan(seg("red", "L1", 3, joker=True)))
    assert state.players[0].built[0] == 2
    # Had 1 joker from column 1 and spent it; this second 1-worker round uncovers the other sun.
    assert state.players[0].jokers == 1


def test_black_first_builds_in_reverse_colour_order_from_the_far_end():
    state = play_round(
        new_game(),
        dice(1, 1, 1, 4, 1, 6),
        plan(seg("black", "L4", 2), seg("white", "L4", 1), seg("green", "L4", 0)),
    )
    p = state.players[0]
    assert p.built[3] == 3
    assert p.direction[3] == -1
    assert p.vp == 13
    assert p.chart == [2, 3, 2, 3, 2, 2]


def test_completing_a_line_supplies_its_city():
    # Rules p.5, Nico completes the 3-VP powerline: an energy tile on the city, +3 VP.
    state = build_l4(new_game())
    p = state.players[0]
    assert p.vp == 13
    assert p.ledger["cities"] == 3
    assert p.energy == 3 + 1 - 1
    assert state.last_round.seats[0].cities == ["L4"]
    assert G.outcome(state)[0]["details"]["cities_supplied"] == 1
    ledger_ok(p)


def test_completing_a_line_over_two_rounds():
    state = play_round(new_game(), dice(3, 1, 1, 1, 1, 1), plan(seg("red", "L7", 0)))
    assert state.players[0].vp == 10
    assert state.last_round.seats[0].cities == []
    state = play_round(
        state, dice(6, 5, 1, 1, 1, 1), plan(seg("red", "L7", 1), seg("yellow", "L7", 2))
    )
    p = state.players[0]
    assert p.built[6] == 3
    assert p.vp == 13
    assert state.last_round.seats[0].cities == ["L7"]
    assert p.energy == 3 + 2 - 1


def test_completing_all_lines_of_a_station_covers_it_once():
    # Rules p.5, Nico's wind station: both of its lines complete → +5 once.
    state = build_l1(new_game())
    assert state.players[0].vp == 16
    assert covered(state.players[0]) == []
    state = build_l2(state)
    p = state.players[0]
    assert p.vp == 16 + 5 + 5
    assert state.last_round.seats[0].stations == ["A1"]
    assert covered(p) == ["A1"]
    assert p.ledger["stations"] == 5
    # L6 then L7 complete G1 (L2, L6, L7); A1 is not scored again.
    state = play_round(
        state,
        dice(5, 1, 3, 2, 1, 1),
        plan(
            seg("red", "L6", 0), seg("yellow", "L6", 1), seg("blue", "L6", 2), seg("green", "L6", 3)
        ),
    )
    assert state.last_round.seats[0].stations == []
    assert state.players[0].ledger["stations"] == 5
    state = play_round(
        state,
        dice(3, 6, 5, 1, 1, 1),
        plan(seg("red", "L7", 0), seg("yellow", "L7", 1), seg("blue", "L7", 2)),
    )
    p = state.players[0]
    assert state.last_round.seats[0].stations == ["G1"]
    assert state.last_round.seats[0].cities == ["L7"]
    assert p.ledger["stations"] == 5 + 6
    assert p.ledger["cities"] == 6 + 5 + 5 + 3
    assert p.vp == 10 + 19 + 11
    assert covered(p) == ["A1", "G1"]
    ledger_ok(p)


def test_joker_lets_the_white_worker_ignore_its_die():
    # Rules p.4: a joker places the white worker on a 3 although the die shows 2.
    state = play_round(new_game(), dice(3, 1, 1, 1, 1, 1), plan(seg("red", "L9", 0)))
    assert state.players[0].jokers == 1
    state = rolled(state, dice(1, 1, 1, 1, 2, 1))
    without = plan(seg("black", "L10", 0), seg("white", "L10", 1))
    assert "needs a 3" in refused(state, 0, without)
    state = do(state, 0, plan(seg("black", "L10", 0), seg("white", "L10", 1, joker=True)))
    p = state.players[0]
    assert p.built[9] == 2
    assert p.jokers == 0


# --------------------------------------------------------------------------- scoring


def test_first_scoring_example_three_cities_one_station_one_joker():
    # Rules p.6: A: 3 cities → 5, D: 1 station tile → 4, G: 1 joker → 1.
    state = new_game(scoring_tiles=("A", "D", "G"))
    state = build_l1(state)  # round 1: +6
    state = build_l2(state)  # round 2: +5 city, +5 A1
    state = build_l4(state)  # round 3: +3
    state = play_round(state, dice(3, 1, 1, 1, 1, 1), plan(seg("red", "L9", 0)))  # joker
    assert state.players[0].jokers == 1
    assert state.players[0].vp == 29
    state = play_round(
        state, dice(4, 4, 1, 1, 1, 1), plan(seg("red", "L5", 0), seg("yellow", "L5", 1))
    )
    p = state.players[0]
    report = state.last_round
    assert report.round == 5
    assert report.scoring == 1
    assert report.seats[0].scoring == {"A": 5, "D": 4, "G": 1}
    assert p.ledger["scoring_1"] == 10
    assert p.vp == 39
    assert p.jokers == 2  # the joker above scoring space 1, taken after scoring
    assert state.round == 6
    ledger_ok(p)


RICH = dict(
    built=full("L1", "L2", "L3", "L4") | {"L5": 6},
    jokers=2,
    chart=[0, 3, 0, 3, 0, 0],
    vp=50,
    ledger={"start": 50},
)
# 4 cities (1 opera L3, 1 church L2), stations A1 (wind) + B1 (hydro), 6 tokens on L5,
# 2 jokers, columns 3, 5 and 6 empty, no island tokens.
RICH_PAYS = {
    "A": (5, 3, 1),
    "B": (5, 3, 1),
    "C": (3, 2, 1),
    "D": (5, 3, 1),
    "E": (0, 0, 0),
    "F": (0, 0, 0),
    "G": (2, 4, 6),
    "H": (5, 3, 0),
    "I": (5, 3, 0),
    "J": (5, 3, 1),
    "K": (5, 4, 2),
    "L": (3, 5, 7),
}


@pytest.mark.parametrize(
    "tiles", [("A", "D", "G"), ("B", "E", "H"), ("C", "F", "I"), ("J", "K", "L")]
)
@pytest.mark.parametrize("number", [1, 2, 3])
def test_scoring_in_play(tiles, number):
    state = edit_player(new_game(scoring_tiles=tiles), **RICH)
    state = dataclasses.replace(state, round=5 * number)
    assert covered(state.players[0]) == ["A1", "B1"]
    state = play_round(state, dice(1, 1, 1, 1, 1, 1), island_plan(2, vacation=True))
    report = state.last_round
    assert report.scoring == number
    expected = {t: RICH_PAYS[t][number - 1] for t in tiles}
    assert report.seats[0].scoring == expected
    total = sum(expected.values())
    penalty = 1 if number == 3 else 0  # L5 is unfinished at the end
    assert state.players[0].vp == 50 + total - penalty
    assert state.players[0].jokers == 2 + (1 if number < 3 else 0)
    assert state.players[0].ledger[f"scoring_{number}"] == total
    assert G.is_over(state) == (number == 3)


def test_special_contracts_alone_first_scoring_by_play():
    state = new_game(variants={"special_contracts"}, special_contracts="alone")
    assert state.scoring_tiles == ("J", "K", "L")
    # Round 1: six workers put 6 tokens on L5 (4 4 5 4 2 6).
    state = play_round(
        state,
        dice(4, 4, 5, 4, 2, 6),
        plan(
            *(
                seg(c, "L5", i)
                for i, c in enumerate(["red", "yellow", "blue", "green", "white", "black"])
            )
        ),
    )
    state = build_l1(state)
    state = build_l2(state)  # A1 (wind) covered
    state = play_round(state, dice(4, 1, 1, 1, 1, 1), plan(seg("red", "L4", 0)))
    state = play_round(state, dice(1, 1, 1, 1, 1, 1), plan(seg("red", "L4", 1)))
    p = state.players[0]
    assert state.last_round.seats[0].scoring == {"J": 5, "K": 5, "L": 3}
    assert p.vp == 10 + 6 + 5 + 5 + 13
    assert p.jokers == 3


# --------------------------------------------------------------------------- scoring tiles


def _pays(letter, p):
    return tuple(scoring.tile_pays(letter, k, p) for k in (1, 2, 3))


TILE_CASES = [
    # A: supplied cities; 6+ pays the top bracket also at the first scoring.
    ("A", {}, (0, 0, 0)),
    ("A", {"built": full("L4")}, (2, 1, 0)),
    ("A", {"built": full("L4", "L7")}, (2, 1, 0)),
    ("A", {"built": full("L4", "L7", "L1")}, (5, 3, 1)),
    ("A", {"built": full("L1", "L2", "L4", "L6", "L7")}, (5, 3, 1)),
    ("A", {"built": full("L1", "L2", "L4", "L6", "L7", "L8")}, (5, 5, 3)),
    ("A", {"built": full(*(f"L{i}" for i in range(1, 11)))}, (5, 5, 3)),
    # B: opera cities (L3, L8).
    ("B", {"built": full("L1")}, (0, 0, 0)),
    ("B", {"built": full("L3")}, (5, 3, 1)),
    ("B", {"built": full("L3", "L8")}, (7, 5, 2)),
    # C: church cities (L2, L9).
    ("C", {"built": full("L8")}, (0, 0, 0)),
    ("C", {"built": full("L2")}, (3, 2, 1)),
    ("C", {"built": full("L2", "L9")}, (5, 3, 2)),
    # D: station tiles; 3 or more pay the top bracket.
    ("D", {"built": full("L1")}, (0, 0, 0)),
    ("D", {"built": full("L1", "L2")}, (4, 2, 0)),
    ("D", {"built": full("L1", "L2", "L7", "L9")}, (5, 3, 1)),
    ("D", {"built": full("L1", "L2", "L3", "L4", "L7", "L9")}, (7, 4, 2)),
    ("D", {"built": full(*(f"L{i}" for i in range(1, 11)))}, (7, 4, 2)),
    # E: solar stations (S1: L3 L5; S2: L8 L9 L10).
    ("E", {"built": full("L1", "L2")}, (0, 0, 0)),
    ("E", {"built": full("L3", "L5")}, (5, 3, 1)),
    ("E", {"built": full("L3", "L5", "L8", "L9", "L10")}, (7, 5, 2)),
    # F: biogas stations (G1: L2 L6 L7; G2: L5 L10).
    ("F", {"built": full("L1", "L2")}, (0, 0, 0)),
    ("F", {"built": full("L2", "L6", "L7")}, (3, 2, 1)),
    ("F", {"built": full("L2", "L6", "L7", "L5", "L10")}, (5, 3, 2)),
    # G: jokers on the sun space, per joker.
    ("G", {"jokers": 0}, (0, 0, 0)),
    ("G", {"jokers": 1}, (1, 2, 3)),
    ("G", {"jokers": 4}, (4, 8, 12)),
    # H: columns 5 AND 6 emptied.
    ("H", {"chart": [2, 3, 3, 3, 0, 0]}, (5, 3, 0)),
    ("H", {"chart": [2, 3, 3, 3, 0, 1]}, (0, 0, 0)),
    ("H", {"chart": [2, 3, 3, 3, 1, 0]}, (0, 0, 0)),
    # I: column 3 emptied.
    ("I", {"chart": [2, 3, 0, 3, 2, 2]}, (5, 3, 0)),
    ("I", {"chart": [0, 0, 1, 0, 0, 0]}, (0, 0, 0)),
    # J: at least 6 tokens on L5.
    ("J", {"built": {"L5": 5}}, (0, 0, 0)),
    ("J", {"built": {"L5": 6}}, (5, 3, 1)),
    ("J", {"built": full("L5")}, (5, 3, 1)),
    # K: wind (A1 A2) / hydro (B1 B2) stations.
    ("K", {"built": full("L3", "L5")}, (0, 0, 0)),
    ("K", {"built": full("L1", "L2")}, (5, 2, 0)),
    ("K", {"built": full("L7", "L9")}, (5, 2, 0)),
    ("K", {"built": full("L1", "L2", "L4", "L6", "L8")}, (5, 2, 0)),  # two wind, no hydro
    ("K", {"built": full("L1", "L2", "L7", "L9")}, (5, 4, 2)),
    ("K", {"built": full("L1", "L2", "L7", "L9", "L4", "L6", "L8")}, (5, 6, 4)),
    ("K", {"built": full(*(f"L{i}" for i in range(1, 11)))}, (5, 6, 4)),
    # L: tokens on the island; fewer is better and 6 or more pay nothing.
    ("L", {"island_tokens": 0}, (3, 5, 7)),
    ("L", {"island_tokens": 1}, (0, 3, 5)),
    ("L", {"island_tokens": 2}, (0, 3, 5)),
    ("L", {"island_tokens": 3}, (0, 0, 3)),
    ("L", {"island_tokens": 5}, (0, 0, 3)),
    ("L", {"island_tokens": 6}, (0, 0, 0)),
    ("L", {"island_tokens": 9}, (0, 0, 0)),
    ("L", {"island_stacks": [1, 0, 0, 2, 0, 0]}, (0, 0, 3)),
    ("L", {"island_stacks": [0, 0, 0, 0, 0, 1]}, (0, 3, 5)),
    ("L", {"island_stacks": [2, 2, 2, 0, 0, 0]}, (0, 0, 0)),
]


@pytest.mark.parametrize(("letter", "changes", "expected"), TILE_CASES)
def test_scoring_tile_pays(letter, changes, expected):
    assert _pays(letter, player(**changes)) == expected


def test_tile_premises():
    # The station sets the table above relies on.
    assert covered(player(built=full("L1", "L2", "L7", "L9"))) == ["A1", "B2"]
    assert covered(player(built=full("L1", "L2", "L3", "L4", "L7", "L9"))) == ["A1", "B1", "B2"]
    assert covered(player(built=full("L1", "L2", "L4", "L6", "L8"))) == ["A1", "A2"]
    assert covered(player(built=full("L1", "L2", "L7", "L9", "L4", "L6", "L8"))) == [
        "A1",
        "G1",
        "A2",
        "B2",
    ]
    assert covered(player(built=full("L3", "L5", "L8", "L9", "L10"))) == ["S1", "S2", "G2"]
    assert covered(player(built=full("L2", "L6", "L7", "L5", "L10"))) == ["G1", "G2"]
    assert covered(player(built=full("L3", "L5"))) == ["S1"]
    assert covered(player(built=full("L2", "L6", "L7"))) == ["G1"]


def test_tile_l_without_adventure_island_counts_island_workers():
    state = new_game(scoring_tiles=("A", "D", "L"))
    state = play_round(state, dice(1, 1, 1, 1, 1, 1), island_plan(2))
    assert state.players[0].island_tokens == 2
    state = play_round(state, dice(1, 1, 1, 1, 1, 1), island_plan(1, vacation=True))
    assert state.players[0].island_tokens == 2  # none placed when the vacation tile is spent
    state = dataclasses.replace(state, round=10)
    state = play_round(state, dice(1, 1, 1, 1, 1, 1), plan(seg("red", "L1", 0)))
    assert state.last_round.seats[0].scoring == {"A": 0, "D": 0, "L": 3}


def test_tile_l_vacation_places_no_tokens():
    state = new_game(scoring_tiles=("A", "D", "L"))
    state = play_round(state, dice(1, 1, 1, 1, 1, 1), island_plan(3, vacation=True))
    assert state.players[0].island_tokens == 0
    assert state.players[0].vp == 10
    state = dataclasses.replace(state, round=10)
    state = play_round(state, dice(1, 1, 1, 1, 1, 1), plan(seg("red", "L1", 0)))
    assert state.last_round.seats[0].scoring == {"A": 0, "D": 0, "L": 5}


# --------------------------------------------------------------------------- adventure island


def test_adventure_island_second_and_third_4():
    # Rules p.7, Nico: a 4 skipped once before; two more 4s cost 2 + 3 VP.
    state = new_game(variants={"adventure_island"})
    state = play_round(state, dice(4, 1, 1, 1, 1, 1), island_plan(1))
    p = state.players[0]
    assert p.island_stacks == [0, 0, 0, 1, 0, 0]
    assert p.vp == 9
    state = play_round(state, dice(4, 4, 1, 1, 1, 1), island_plan(2))
    p = state.players[0]
    assert p.island_stacks == [0, 0, 0, 3, 0, 0]
    assert state.last_round.seats[0].island_loss == 5
    assert p.vp == 4
    ledger_ok(p)


def test_adventure_island_stacks_by_die_face():
    state = new_game(variants={"adventure_island"})
    state = play_round(state, dice(4, 3, 4, 1, 1, 1), island_plan(3))
    p = state.players[0]
    assert p.island_stacks == [0, 0, 1, 2, 0, 0]
    assert p.vp == 10 - (1 + 1 + 2)


def test_adventure_island_uses_die_not_board_pips():
    state = new_game(variants={"adventure_island"}, boards=(2,))
    state = play_round(state, dice(6, 1, 1, 1, 1, 1), island_plan(1))
    assert state.players[0].island_stacks == [0, 0, 0, 0, 0, 1]


def test_adventure_island_loss_capped_at_5():
    state = edit_player(
        new_game(variants={"adventure_island"}),
        vp=100,
        ledger={"start": 100},
        island_stacks=[0, 0, 0, 4, 0, 0],
    )
    state = play_round(state, dice(4, 4, 4, 1, 1, 1), island_plan(3))
    p = state.players[0]
    assert p.island_stacks == [0, 0, 0, 7, 0, 0]
    assert state.last_round.seats[0].island_loss == 5 + 5 + 5
    assert p.vp == 85


def test_adventure_island_vacation_cancels_loss_and_places_no_tokens():
    state = new_game(variants={"adventure_island"})
    state = play_round(state, dice(4, 4, 1, 1, 1, 1), island_plan(2, vacation=True))
    p = state.players[0]
    assert p.island_stacks == [0] * 6
    assert p.vp == 10
    assert p.vacation is False


# --------------------------------------------------------------------------- end of game


def _at_last_round(tiles=("B", "C", "E")):
    """A solo game at round 15 (roll phase), reached by 14 island rounds."""
    state = new_game(scoring_tiles=tiles)
    for n in [1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 6, 6]:
        state = play_round(state, dice(1, 1, 1, 1, 1, 1), island_plan(n))
    assert state.round == 15
    assert state.players[0].chart == [1, 0, 0, 0, 0, 0]
    return state


def test_three_unfinished_lines_cost_6():
    state = _at_last_round()
    state = edit_player(
        state,
        vp=40,
        ledger={"start": 40},
        built={"L1": 2, "L2": 1, "L4": 3},
        jokers=0,
    )
    # Round 15: red starts L3; L1, L2, L3 are unfinished, L4 is complete.
    state = play_round(state, dice(3, 1, 1, 1, 1, 1), plan(seg("red", "L3", 0)))
    assert G.is_over(state)
    p = state.players[0]
    assert state.last_round.seats[0].scoring == {"B": 0, "C": 0, "E": 0}
    assert state.last_round.seats[0].end_penalty == 6
    assert p.ledger["end_penalty"] == -6
    assert p.vp == 34
    out = G.outcome(state)[0]
    assert out["score"] == 34
    assert out["details"]["unfinished_lines"] == 3


def test_end_penalty_not_below_zero():
    state = edit_player(
        _at_last_round(), vp=2, ledger={"start": 2}, built={"L1": 2, "L2": 1}, jokers=0
    )
    state = play_round(state, dice(3, 1, 1, 1, 1, 1), plan(seg("red", "L3", 0)))
    assert state.players[0].vp == 0
    assert state.last_round.seats[0].end_penalty == 2


def test_no_end_penalty_without_started_lines():
    state = edit_player(_at_last_round(), vp=20, ledger={"start": 20})
    vp = 20
    state = play_round(state, dice(1, 1, 1, 1, 1, 1), island_plan(1, vacation=True))
    assert G.is_over(state)
    assert state.last_round.seats[0].end_penalty == 0
    assert state.players[0].vp == vp


@pytest.mark.parametrize(
    ("unfinished", "loss"),
    [(0, 0), (1, 1), (2, 3), (3, 6), (4, 10), (5, 15), (6, 20), (7, 25), (10, 40)],
)
def test_end_penalty_table(unfinished, loss):
    assert scoring.end_penalty(unfinished) == loss


def test_unfinished_lines_counts_only_started_incomplete_lines():
    p = player(built={"L1": 2, "L2": 4, "L5": 11, "L10": 1})
    assert scoring.unfinished_lines(p) == 3


def _two_or_more(vps, station_lines):
    state = new_game(len(vps))
    for seat, (vp, lines) in enumerate(zip(vps, station_lines, strict=True)):
        state = edit_player(state, seat, vp=vp, ledger={"start": vp}, built=full(*lines))
    return G.outcome(state)


def test_tie_broken_by_station_tiles():
    out = _two_or_more([20, 20], [("L1", "L2"), ()])
    assert [o["rank"] for o in out] == [1, 2]
    assert [o["tiebreak"] for o in out] == [[20, 1], [20, 0]]
    assert [o["details"]["station_tiles"] for o in out] == [1, 0]


def test_vp_beats_station_tiles():
    out = _two_or_more([20, 21], [("L1", "L2"), ()])
    assert [o["rank"] for o in out] == [2, 1]


def test_full_tie_shares_the_victory():
    out = _two_or_more([20, 20, 19], [("L1", "L2"), ("L7", "L9"), ("L1", "L2", "L7", "L9")])
    assert [o["rank"] for o in out] == [1, 1, 3]


SOLO = [
    (0, "Dice are not your friends..."),
    (60, "Dice are not your friends..."),
    (61, "A good start! Keep it up!"),
    (70, "A good start! Keep it up!"),
    (71, "Solid work!"),
    (80, "Solid work!"),
    (81, "Awesome accomplishment."),
    (90, "Awesome accomplishment."),
    (91, "You're a master builder of powerlines!"),
    (100, "You're a master builder of powerlines!"),
    (101, "It is about time for you to increase the difficulty!"),
    (150, "It is about time for you to increase the difficulty!"),
]


@pytest.mark.parametrize(("vp", "title"), SOLO)
def test_solo_titles(vp, title):
    assert scoring.solo_title(vp) == title
    state = edit_player(new_game(), vp=vp, ledger={"start": vp})
    assert G.outcome(state)[0]["details"]["title"] == title


# --------------------------------------------------------------------------- jokers per side


def _joker_track(**kw):
    state = new_game(scoring_tiles=("A", "D", "G"), **kw)
    track = []
    for n in [1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 6, 6]:
        state = play_round(state, dice(1, 1, 1, 1, 1, 1), island_plan(n))
        track.append(state.players[0].jokers)
    assert G.is_over(state)
    return track


def test_jokers_above_scoring_spaces_side_a():
    track = _joker_track()
    assert track[0:2] == [1, 2]
    assert track[4] == 3  # after scoring 1
    assert track[9] == 4  # after scoring 2
    assert track[14] == 4  # none after the final scoring
    assert track == [1, 2, 2, 2, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4]


def test_jokers_above_scoring_spaces_side_b_with_contracts():
    track = _joker_track(variants={"contracts"})
    assert track == [1, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3]


def test_special_contracts_alone_keeps_side_a():
    track = _joker_track(variants={"special_contracts"}, special_contracts="alone")
    assert track[14] == 4


def test_joker_counted_before_taking_the_scoring_joker():
    state = new_game(scoring_tiles=("A", "D", "G"))
    for n in [1, 2, 2, 2, 3]:
        state = play_round(state, dice(1, 1, 1, 1, 1, 1), island_plan(n))
    assert state.last_round.seats[0].scoring == {"A": 0, "D": 0, "G": 1}
    assert state.players[0].jokers == 2


# --------------------------------------------------------------------------- construction limits

# Dice (1, 5, 3, 4, 2, 6): red→L1/0, yellow→L2/0, blue→L3/0, green→L4/0 on board 1.
LIMIT_DICE = dice(1, 5, 3, 4, 2, 6)
R, Y, B = seg("red", "L1", 0), seg("yellow", "L2", 0), seg("blue", "L3", 0)
LIMIT_CASES = [
    # (placements, lines, legal with limits, legal without)
    ([R], 1, True, True),
    ([R, isl("yellow")], 1, True, True),
    ([R, Y], 2, False, True),
    ([R, seg("yellow", "L1", 1, joker=True)], 1, True, True),
    ([R, Y, isl("blue")], 2, True, True),
    ([R, Y, B], 3, False, True),
    ([R, Y, isl("blue"), isl("green")], 2, True, True),
    ([R, Y, B, isl("green")], 3, False, True),
    ([R, Y, B, isl("green"), isl("white")], 3, True, True),
    ([R, Y, B, isl("green"), isl("white"), isl("black")], 3, True, True),
    ([isl("red"), isl("yellow")], 0, True, True),
]


@pytest.mark.parametrize(("placements", "lines", "limited", "plain"), LIMIT_CASES)
@pytest.mark.parametrize("variant", [True, False])
def test_construction_limits(placements, lines, limited, plain, variant):
    variants = {"construction_limits"} if variant else set()
    state = new_game(variants=variants)
    # one joker for the joker case, from a one-worker round on an unrelated line
    state = play_round(state, dice(1, 1, 1, 1, 1, 1), plan(seg("red", "L10", 0)))
    state = rolled(state, LIMIT_DICE)
    action = plan(*placements)
    if limited if variant else plain:
        after = do(state, 0, action)
        assert sum(1 for b in after.players[0].built[:9] if b) == lines
    else:
        reason = refused(state, 0, action)
        assert "construction limits" in reason
        assert f"{len(placements)} worker" in reason


# --------------------------------------------------------------------------- tile draws


SEEDS = range(120)


def test_default_tiles_are_a_d_g():
    assert new_game().scoring_tiles == ("A", "D", "G")


def test_explicit_tiles_win():
    state = new_game(variants={"contracts"}, scoring_tiles=("B", "H", "K"))
    assert state.scoring_tiles == ("B", "H", "K")


def test_contracts_by_colour_draws_one_of_each_colour():
    seen = Counter()
    for seed in SEEDS:
        tiles = new_game(seed=seed, variants={"contracts"}).scoring_tiles
        assert tiles[0] in "ABC" and tiles[1] in "DEF" and tiles[2] in "GHI"
        seen.update(tiles)
    assert set(seen) == set("ABCDEFGHI")


def test_contracts_any_three_of_nine():
    groups = set()
    for seed in SEEDS:
        tiles = new_game(seed=seed, variants={"contracts"}, contract_draw="any").scoring_tiles
        assert len(set(tiles)) == 3 and set(tiles) <= set("ABCDEFGHI")
        groups.add(tuple(sum(t in g for t in tiles) for g in ("ABC", "DEF", "GHI")))
    assert groups - {(1, 1, 1)}, "a draw from all nine sometimes takes two of one colour"


@pytest.mark.parametrize("contracts", [True, False])
def test_special_contracts_alone_is_j_k_l(contracts):
    variants = {"special_contracts"} | ({"contracts"} if contracts else set())
    for seed in range(10):
        state = new_game(seed=seed, variants=variants, special_contracts="alone")
        assert state.scoring_tiles == ("J", "K", "L")


def test_special_contracts_mixed_in():
    with_special = without_special = 0
    seen = Counter()
    for seed in SEEDS:
        tiles = new_game(seed=seed, variants={"special_contracts", "contracts"}).scoring_tiles
        assert len(set(tiles)) == 3 and set(tiles) <= set("ABCDEFGHIJKL")
        assert list(tiles) == sorted(tiles)
        seen.update(tiles)
        if set(tiles) & set("JKL"):
            with_special += 1
        if set(tiles) - set("JKL"):
            without_special += 1
    assert with_special and without_special
    assert set(seen) == set("ABCDEFGHIJKL")


def test_tile_draw_depends_only_on_seed():
    a = new_game(seed=7, variants={"contracts"}, contract_draw="any").scoring_tiles
    b = new_game(seed=7, variants={"contracts"}, contract_draw="any").scoring_tiles
    assert a == b


# --------------------------------------------------------------------------- order and views


def test_island_loss_comes_before_city_vp():
    # Spec §3 Construct: island loss (not below 0) first, then cities, then stations.
    state = edit_player(new_game(), vp=1, ledger={"start": 1})
    state = play_round(
        state,
        dice(4, 1, 6, 1, 1, 1),
        plan(
            seg("red", "L4", 0),
            seg("yellow", "L4", 1),
            seg("blue", "L4", 2),
            isl("green"),
            isl("white"),
        ),
    )
    p = state.players[0]
    assert state.last_round.seats[0].island_loss == 1
    assert p.vp == 3
    ledger_ok(p)


@pytest.mark.parametrize(
    ("variants", "side", "jokers"), [(set(), "A", [1, 1, 0]), ({"contracts"}, "B", [1, 0, 0])]
)
def test_view_shows_centre_side_and_jokers_above_scoring(variants, side, jokers):
    state = new_game(variants=variants, scoring_tiles=("A", "D", "G"))
    v = G.view(state, 0)
    assert v["centre_side"] == side
    assert v["jokers_above_scoring"] == jokers
    assert v["next_scoring"] == 1
    for n in [1, 2, 2, 2, 3]:
        state = play_round(state, dice(1, 1, 1, 1, 1, 1), island_plan(n))
    v = G.view(state, None)
    assert v["next_scoring"] == 2
    assert v["jokers_above_scoring"] == [0, *jokers[1:]]


def test_outcome_names_the_tiebreak_that_decided():
    state = new_game(3)
    state = edit_player(state, 0, vp=40, built=full("L1", "L2"), ledger={"start": 40})
    state = edit_player(state, 1, vp=40, ledger={"start": 40})
    state = edit_player(state, 2, vp=12, ledger={"start": 12})
    result = G.outcome(state)
    assert [r["rank"] for r in result] == [1, 2, 3]
    assert [r["details"]["tiebreak"] for r in result] == ["station_tiles", "station_tiles", None]
    state = edit_player(state, 1, built=full("L1", "L2", board=2))
    result = G.outcome(state)
    assert [r["rank"] for r in result] == [1, 1, 3]
    assert [r["details"]["tiebreak"] for r in result] == ["shared", "shared", None]
