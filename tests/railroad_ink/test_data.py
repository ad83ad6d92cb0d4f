"""The JSON data: faces, dice, exits and the network table, and the 8 orientations of faces."""

from engine.railroad_ink.board import (
    CENTRE,
    EXITS,
    cell_name,
    faces,
    orientations,
    rules,
    specials,
    tile,
)


def test_dice_faces_match_the_spec():
    dice = rules().dice
    assert dice["standard"].faces == (
        "highway_straight",
        "railway_straight",
        "highway_curve",
        "railway_curve",
        "highway_t",
        "railway_t",
    )
    assert sorted(dice["junction"].faces) == sorted(
        ["overpass", "station_straight", "station_curve"] * 2
    )
    assert len(set(dice["lamp"].faces)) == 6
    assert all(faces()[f].lamp and set(faces()[f].sides) <= {"H", "."} for f in dice["lamp"].faces)
    assert sorted(dice["power"].faces) == ["?", "?", "E", "N", "S", "W"]
    assert rules().route_dice == ("standard", "standard", "standard", "junction")


def test_six_special_routes_join_all_four_sides():
    assert len(specials()) == 6
    for f in specials():
        assert faces()[f].segments == ("NESW",)
        assert "." not in faces()[f].sides


def test_network_table():
    assert rules().network_points == (0, 0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 45)


def test_twelve_exits_alternate_and_centre_is_three_by_three():
    assert len(EXITS) == 12
    assert sum(e.type == "H" for e in EXITS) == 6
    ids = {e.id: e.type for e in EXITS}
    assert ids["N:B1"] == "H" and ids["N:D1"] == "R" and ids["W:A2"] == "R"
    assert ids["W:A4"] == "H" and ids["E:G6"] == "R" and ids["S:F7"] == "H"
    assert sorted(cell_name(i) for i in CENTRE) == [
        "C3", "C4", "C5", "D3", "D4", "D5", "E3", "E4", "E5"
    ]  # fmt: skip


def test_orientations_rotate_clockwise_and_mirror():
    assert tile("highway_curve", 0).sides == ("H", "H", None, None)
    assert tile("highway_curve", 1).sides == (None, "H", "H", None)
    assert tile("highway_curve", 4).sides == ("H", None, None, "H")
    assert tile("station_curve", 0).sides == ("H", "R", None, None)
    assert tile("station_curve", 4).sides == ("H", None, None, "R")
    assert tile("highway_t", 1).sides == ("H", None, "H", "H")
    assert tile("overpass", 1).seg_of == (1, 0, 1, 0)
    assert tile("lamp_double_curve", 1).seg_of == (0, 0, 1, 1)


def test_distinct_orientations_per_face():
    counts = {f: len(orientations(f)) for f in faces()}
    assert counts["highway_straight"] == 2
    assert counts["highway_curve"] == 4
    assert counts["station_curve"] == 8
    assert counts["overpass"] == 2
    assert counts["highway_cross"] == 1
    assert counts["station_opposite"] == 2
    assert counts["lamp_double_curve"] == 2
    assert counts["lamp_overpass"] == 1
    assert sum(counts.values()) == 64
