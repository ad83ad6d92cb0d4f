"""The board, chart, rules and tile data match the spec (shared/specs/powerline.md §2, §4, §5)."""

from collections import Counter

import pytest

from engine.powerline.board import board_data, board_numbers, charts, layout, rules, tiles

SPEC_STATIONS = {
    "A1": ("wind", 5, {"L1", "L2"}),
    "B1": ("hydro", 7, {"L1", "L3", "L4"}),
    "S1": ("solar", 8, {"L3", "L5"}),
    "G1": ("biogas", 6, {"L2", "L6", "L7"}),
    "A2": ("wind", 6, {"L4", "L6", "L8"}),
    "B2": ("hydro", 5, {"L7", "L9"}),
    "S2": ("solar", 8, {"L8", "L9", "L10"}),
    "G2": ("biogas", 8, {"L5", "L10"}),
}

SPEC_LINES = {
    # id: (ends, segments, city VP, building, board-1 pips)
    "L1": (("A1", "B1"), 5, 6, None, (1, 2, 1, 4, 2)),
    "L2": (("A1", "G1"), 4, 5, "church", (5, 4, 3, 6)),
    "L3": (("B1", "S1"), 6, 8, "opera", (3, 5, 2, 6, 4, 6)),
    "L4": (("B1", "A2"), 3, 3, None, (4, 1, 6)),
    "L5": (("S1", "G2"), 12, 17, None, (4, 4, 5, 4, 2, 6, 2, 5, 3, 1, 3, 2)),
    "L6": (("G1", "A2"), 4, 5, None, (5, 1, 3, 2)),
    "L7": (("G1", "B2"), 3, 3, None, (3, 6, 5)),
    "L8": (("A2", "S2"), 5, 6, "opera", (4, 2, 5, 4, 1)),
    "L9": (("B2", "S2"), 7, 10, "church", (3, 2, 5, 6, 1, 6, 4)),
    "L10": (("S2", "G2"), 8, 11, None, (1, 3, 2, 1, 3, 6, 5, 3)),
}

SPEC_RELABEL = {
    1: (1, 2, 3, 4, 5, 6),
    2: (4, 5, 2, 6, 3, 1),
    3: (3, 6, 1, 5, 4, 2),
    4: (6, 3, 5, 2, 1, 4),
    5: (2, 1, 4, 3, 6, 5),
    6: (5, 4, 6, 1, 2, 3),
}


def test_stations_match_spec():
    data = board_data()
    assert [s.id for s in data.stations] == list(SPEC_STATIONS)
    for s in data.stations:
        kind, vp, _ = SPEC_STATIONS[s.id]
        assert (s.type, s.vp) == (kind, vp)
    lay = layout(1)
    for sid, (_, _, lines) in SPEC_STATIONS.items():
        touching = {lay.line_ids[i] for i in lay.station_lines[lay.station_ids.index(sid)]}
        assert touching == lines, sid


def test_station_types_two_each():
    assert Counter(s.type for s in board_data().stations) == {
        "wind": 2,
        "hydro": 2,
        "solar": 2,
        "biogas": 2,
    }


def test_lines_match_spec():
    data = board_data()
    assert [line.id for line in data.lines] == list(SPEC_LINES)
    for line in data.lines:
        ends, n, city, building, pips = SPEC_LINES[line.id]
        assert line.ends == ends
        assert len(line.pips) == n
        assert line.city_vp == city
        assert line.building == building
        assert line.pips == pips


def test_totals():
    data = board_data()
    assert sum(len(line.pips) for line in data.lines) == 57
    assert sum(line.city_vp for line in data.lines) == 74
    assert sum(s.vp for s in data.stations) == 53
    assert len(data.lines) == 10
    assert len(data.stations) == 8


def test_buildings_and_17_vp_line():
    data = board_data()
    assert sorted(line.id for line in data.lines if line.building == "opera") == ["L3", "L8"]
    assert sorted(line.id for line in data.lines if line.building == "church") == ["L2", "L9"]
    assert [line.id for line in data.lines if line.city_vp == 17] == ["L5"]
    assert all(3 <= len(line.pips) <= 12 for line in data.lines)


def test_top_left_wind_station_joins_two_lines_worth_5():
    lay = layout(1)
    a1 = lay.station_ids.index("A1")
    assert len(lay.station_lines[a1]) == 2
    assert lay.station_vp[a1] == 5


def test_board_1_face_counts():
    counts = Counter(p for line in board_data().lines for p in line.pips)
    assert [counts[f] for f in range(1, 7)] == [9, 10, 10, 10, 9, 9]


def test_relabel_table_matches_spec_and_is_latin_square():
    relabel = board_data().relabel
    assert {b: tuple(f) for b, f in relabel.items()} == SPEC_RELABEL
    assert board_numbers() == (1, 2, 3, 4, 5, 6)
    for faces in relabel.values():
        assert sorted(faces) == [1, 2, 3, 4, 5, 6]
    for column in range(6):
        assert sorted(relabel[b][column] for b in relabel) == [1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize("board", [1, 2, 3, 4, 5, 6])
def test_layout_relabels_board_1(board):
    lay, base = layout(board), layout(1)
    faces = SPEC_RELABEL[board]
    for i in range(10):
        assert lay.pips[i] == tuple(faces[p - 1] for p in base.pips[i])
    assert lay.length == base.length
    assert lay.city_vp == base.city_vp
    assert lay.ends == base.ends
    counts = Counter(p for line in lay.pips for p in line)
    assert sum(counts.values()) == 57
    assert sorted(counts.values()) == [9, 9, 9, 10, 10, 10]


@pytest.mark.parametrize("side", ["green", "blue"])
def test_charts(side):
    chart = getattr(charts(), side)
    assert [c.workers for c in chart.columns] == [1, 2, 3, 4, 5, 6]
    assert [len(c.suns) for c in chart.columns] == [2, 3, 3, 3, 2, 2]
    assert sum(len(c.suns) for c in chart.columns) == 15
    assert sum(c.workers * len(c.suns) for c in chart.columns) == 51
    assert chart.columns[0].suns == (True, True)
    assert not any(any(c.suns) for c in chart.columns[1:])


def test_line_limits():
    assert charts().green.line_limits == (3, 3, 3, 3, 3, 3)
    assert charts().blue.line_limits == (1, 1, 2, 2, 3, 3)


def test_rules_constants():
    r = rules()
    assert r.rounds == 15
    assert r.scoring_after == (5, 10, 15)
    assert r.start_vp == 10
    assert r.start_energy == 3
    assert r.jokers_above_scoring == {"A": (1, 1, 0), "B": (1, 0, 0)}
    assert r.default_scoring_tiles == ("A", "D", "G")
    assert r.adventure_loss_cap == 5
    assert [t.min for t in r.solo_titles] == [0, 61, 71, 81, 91, 101]


def test_energy_tiles_suffice():
    # 3 at start + 1 per round always covers the at most 10 cities.
    assert rules().start_energy + rules().rounds >= len(board_data().lines)


def test_tile_set():
    t = tiles()
    assert sorted(t) == list("ABCDEFGHIJKL")
    assert {k for k, v in t.items() if v.colour == "red"} == {"A", "B", "C"}
    assert {k for k, v in t.items() if v.colour == "green"} == {"D", "E", "F"}
    assert {k for k, v in t.items() if v.colour == "yellow"} == {"G", "H", "I"}
    assert {k for k, v in t.items() if v.colour == "special"} == {"J", "K", "L"}
