"""Every scoring rule on hand-built boards with known scores."""

from tests.railroad_ink.helpers import G, board_score, filled, new_game, with_board

COLUMN_B = {f"B{r}": ("highway_straight", 0) for r in range(1, 8)}
ROW_2_RAIL = {f"{c}2": ("railway_straight", 1) for c in "ACDEFG"}


def test_straight_highway_between_two_exits():
    s = board_score(COLUMN_B)
    assert (s.networks, s.network_points, s.longest_highway, s.longest_railway) == ([2], 4, 7, 0)
    assert (s.centre, s.errors, s.total) == (0, 0, 11)


def test_overpass_keeps_networks_apart_and_counts_in_both_longest_routes():
    s = board_score({**COLUMN_B, **ROW_2_RAIL, "B2": ("overpass", 0)})
    assert s.networks == [2, 2]
    assert (s.network_points, s.longest_highway, s.longest_railway) == (8, 7, 7)
    assert (s.errors, s.total) == (0, 22)


def test_three_exit_network_scores_eight():
    spec = {**COLUMN_B, "B4": ("highway_t", 1), "A4": ("highway_straight", 1)}
    s = board_score(spec)
    assert (s.networks, s.network_points, s.longest_highway, s.errors, s.total) == (
        [3], 8, 7, 0, 15
    )  # fmt: skip


def test_station_joins_highway_and_railway_networks():
    spec = {"B1": ("highway_straight", 0), "B2": ("station_curve", 0)}
    spec |= {f"{c}2": ("railway_straight", 1) for c in "CDEFG"}
    s = board_score(spec)
    assert (s.networks, s.longest_highway, s.longest_railway) == ([2], 2, 6)
    assert (s.errors, s.total) == (0, 12)


def test_station_is_a_middle_link_of_the_longest_railway():
    spec = {**ROW_2_RAIL, "B2": ("station_1h3r", 0)}
    s = board_score(spec)
    # B2's highway (north) and railway (south) ends face empty spaces: two errors.
    assert (s.networks, s.longest_railway, s.longest_highway, s.errors) == ([2], 7, 1, 2)
    assert s.total == 4 + 7 + 1 - 2


# C3 holds a two-segment piece; a loop C3-C2-D2-D3-C3 with tails B3 and C4.
LOOP = {
    "C2": ("highway_curve", 1),
    "D2": ("highway_curve", 2),
    "D3": ("highway_curve", 3),
    "B3": ("highway_straight", 1),
    "C4": ("highway_straight", 0),
}


def test_longest_route_passes_a_lamp_overpass_twice():
    s = board_score({**LOOP, "C3": ("lamp_overpass", 0)})
    assert s.longest_highway == 7


def test_longest_route_crosses_a_one_piece_crossroads_once_by_default():
    assert board_score({**LOOP, "C3": ("highway_cross", 0)}).longest_highway == 5
    assert board_score({**LOOP, "C3": ("highway_cross", 0)}, mode="trail").longest_highway == 7


def test_longest_route_is_one_for_a_lone_piece_and_zero_without_any():
    s = board_score({"D4": ("railway_t", 0)})
    assert (s.longest_railway, s.longest_highway, s.centre, s.errors, s.total) == (1, 0, 1, 3, -1)


def test_route_ends_at_the_board_edge_are_no_errors():
    # A1 runs east-west: its west end is plain board edge, its east end faces B1's blank side.
    s = board_score({"A1": ("highway_straight", 1), "B1": ("highway_straight", 0)})
    assert (s.errors, s.networks, s.longest_highway, s.total) == (2, [], 1, -1)


def test_centre_counts_a_two_segment_piece_once():
    s = board_score({"D4": ("overpass", 0), "C3": ("railway_cross", 0)})
    assert (s.centre, s.errors, s.longest_highway, s.longest_railway) == (2, 8, 1, 1)
    assert s.total == 2 - 8 + 2


def test_twelve_exit_network_scores_forty_five():
    # Every space holds a station crossroads: one network through all twelve exits.
    s = board_score(filled("station_opposite"))
    assert s.networks == [12]
    assert s.network_points == 45
    assert (s.centre, s.errors) == (9, 0)


def test_route_end_into_the_accumulator_is_no_error():
    spec = {"C4": ("highway_straight", 1)}
    assert board_score(spec).errors == 2
    assert board_score(spec, power=True).errors == 1
    assert board_score(spec, power=True).centre == 1


def test_lit_lamps_score_one_each():
    spec = {
        "B1": ("lamp_straight", 0, {"lamp_on": True}),
        "B2": ("lamp_straight", 0, {"lamp_on": True}),
        "B3": ("lamp_straight", 0),
    }
    s = board_score(spec)
    assert (s.lamps, s.errors, s.longest_highway, s.total) == (2, 1, 3, 2 - 1 + 3)


def test_accumulator_scores_charges_times_linked_exits():
    on = {"electrified": True}
    spec = {
        "D1": ("railway_straight", 0, on),
        "D2": ("railway_straight", 0, on),
        "D3": ("railway_straight", 0, on),
        "A4": ("highway_straight", 1, on),
        "B4": ("highway_straight", 1, on),
        "C4": ("highway_straight", 1, on),
        # Electrified at an exit but not linked to the Accumulator: it does not count.
        "B7": ("highway_straight", 0, on),
        "B6": ("highway_straight", 0),
    }
    s = board_score(spec, charges=2, power=True)
    assert (s.charges, s.power_exits, s.power) == (2, 2, 4)
    assert s.errors == 1  # B6's north end; C4's east end faces the Accumulator
    assert board_score(spec, charges=0, power=True).power == 0
    assert board_score(spec, charges=3, power=True).power == 6


def test_outcome_breaks_ties_by_fewer_errors():
    state = new_game(3)
    state = with_board(state, {"B1": ("highway_straight", 0), "B2": ("highway_straight", 0)}, 0)
    state = with_board(state, {"A1": ("highway_straight", 1)}, 1)
    state = with_board(state, {"A1": ("highway_straight", 1)}, 2)
    # Seat 0: longest 2, one error (B2 south) = 1; seats 1, 2: longest 1, error at B1 = 0.
    out = G.outcome(state)
    assert [o["score"] for o in out] == [1, 0, 0]
    assert [o["rank"] for o in out] == [1, 2, 2]
    assert out[1]["details"]["tiebreak"] == "shared"
    state = with_board(state, {"A1": ("highway_straight", 1), "B1": ("highway_straight", 0)}, 1)
    out = G.outcome(state)
    assert [o["score"] for o in out] == [1, -1, 0]
    assert [o["rank"] for o in out] == [1, 3, 2]
    assert out[0]["details"]["breakdown"]["longest_highway"] == 2
