"""Every scoring rule on hand-built boards with known scores."""

import json
from pathlib import Path
from random import Random

import pytest

from engine.railroad_ink.board import ACC, CELLS, NEIGH, SIZE, Tile
from engine.railroad_ink.config import Config
from engine.railroad_ink.scoring import longest, score
from engine.railroad_ink.state import Cell
from tests.railroad_ink.helpers import G, board_score, filled, new_game, with_board

CASES = json.loads((Path(__file__).parent / "scoring_cases.json").read_text())

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


# A loop B2-C2-C3-B3-B2 with a tail B1 north of B2.
LOOP_AT_B2 = {
    "B1": ("highway_straight", 0),
    "C2": ("highway_curve", 2),
    "C3": ("highway_curve", 3),
    "B3": ("highway_curve", 0),
}


def test_trail_does_not_close_a_loop_back_into_a_t_junction():
    # B1-B2-C2-C3-B3 and back into B2's south side: B2 is no crossroads, so it counts once.
    spec = {**LOOP_AT_B2, "B2": ("highway_t", 3)}
    assert board_score(spec).longest_highway == 5
    assert board_score(spec, mode="trail").longest_highway == 5


def test_trail_counts_a_crossroads_twice_only_when_crossing_it_twice():
    # B2's west side faces an empty space: the loop's end only runs back into the crossroads.
    spec = {**LOOP_AT_B2, "B2": ("highway_cross", 0)}
    assert board_score(spec).longest_highway == 5
    assert board_score(spec, mode="trail").longest_highway == 5
    # With A2 the chain B1-B2-C2-C3-B3-B2-A2 crosses B2 twice.
    spec["A2"] = ("highway_straight", 1)
    assert board_score(spec).longest_highway == 5
    assert board_score(spec, mode="trail").longest_highway == 7


def test_trail_never_turns_back_between_two_crossroads():
    spec = {"B2": ("highway_cross", 0), "C2": ("highway_cross", 0)}
    assert board_score(spec, mode="trail").longest_highway == 2


def test_trail_matches_a_brute_force_search_on_random_boards():
    rng = Random(1)
    for _ in range(60):
        tiles = _random_corner(rng)
        for kind in "HR":
            assert longest(tiles, kind, "trail") == _brute_trail(tiles, kind), (tiles, kind)


def _random_corner(rng: Random) -> list[Tile | None]:
    """A 4×4 corner of random joins, mostly highway; a space with all four sides is one
    segment (a crossroads, or a station if the kinds mix) or, 3 times in 10, two segments."""
    kinds: dict[int, dict[int, str]] = {}
    for r in range(4):
        for c in range(4):
            i = r * SIZE + c
            for d, n, ok in ((1, i + 1, c < 3), (2, i + SIZE, r < 3)):
                if ok and rng.random() < 0.75:
                    k = "H" if rng.random() < 0.8 else "R"
                    kinds.setdefault(i, {})[d] = kinds.setdefault(n, {})[d ^ 2] = k
    tiles: list[Tile | None] = [None] * CELLS
    for i, ks in kinds.items():
        sides = tuple(ks.get(d) for d in range(4))
        seg_of = tuple(0 if d in ks else -1 for d in range(4))
        if len(ks) == 4 and rng.random() < 0.3:
            pair = rng.choice(((0, 2), (0, 1), (0, 3)))
            seg_of = tuple(0 if d in pair else 1 for d in range(4))
        station = len(set(ks.values())) > 1
        tiles[i] = Tile("test", 0, sides, seg_of, max(seg_of) + 1, station, False)
    return tiles


def _brute_trail(tiles: list[Tile | None], kind: str) -> int:
    """Longest of all walks that never reuse a join, where no space repeats except a
    crossroads crossed twice (neither time at an end of the walk)."""
    adj: dict[tuple[int, int], list[tuple[int, int]]] = {}
    cross = set()
    for i, t in enumerate(tiles):
        for d in range(4):
            if t is None or t.sides[d] != kind:
                continue
            a = (i, t.seg_of[d])
            adj.setdefault(a, [])
            if t.segments == 1 and all(s == kind for s in t.sides):
                cross.add(a)
            n = NEIGH[i][d]
            tn = tiles[n] if n >= 0 else None
            if tn is not None and tn.sides[d ^ 2] == kind:
                adj[a].append((n, tn.seg_of[d ^ 2]))
    best = 0

    def walk(path: list[tuple[int, int]], joins: set[frozenset]) -> None:
        nonlocal best
        if path.count(path[-1]) == 1:
            best = max(best, len(path))
        for v in adj[path[-1]]:
            join = frozenset((path[-1], v))
            if join not in joins and v != path[0] and path.count(v) < (2 if v in cross else 1):
                walk([*path, v], joins | {join})

    for start in adj:
        walk([start], set())
    return best


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


def _cell(code: str | None) -> Cell | None:
    """A cell spelt "face:orientation[:lit][:power]"."""
    if code is None:
        return None
    face, orientation, *flags = code.split(":")
    return Cell(face, int(orientation), 1, lamp_on="lit" in flags, electrified="power" in flags)


@pytest.mark.parametrize("case", CASES["cases"], ids=lambda case: case["board"])
def test_boards_score_as_before_the_packed_board(case):
    """Boards of random and autopilot games and boards of any tiles anywhere, every line under
    three sets of options, as the piece-graph scoring (CASES["made_by"]) scored them."""
    cells = [_cell(code) for code in case["cells"]]
    acc = ACC if "power_grid" in case["expansions"] else -1
    for name, options in CASES["variants"].items():
        config = Config(players=1, expansions=frozenset(case["expansions"]), **options)
        s = score(cells, case["charges"], acc, config=config, powered=case["powered"])
        assert list(s.lines().values()) == case["lines"][name], name
