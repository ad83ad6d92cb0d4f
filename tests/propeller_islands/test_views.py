"""The view's help texts (tile effects, printed banners apart from tokens, character abilities)
and the deciding seat's choices (lettered spots, claims, dock spaces, activations)."""

import pytest

from engine.propeller_islands.components import characters, tile_types
from engine.propeller_islands.island import NEIGHBOURS
from engine.propeller_islands.state import Turn
from engine.propeller_islands.views import spot_label

from .helpers import G, edit, island, play, turn_state


def test_tiles_carry_their_effect_text_from_the_data() -> None:
    s = island(turn_state(2), 0, [(0, -1, "13-1", None, {}), (1, -1, "22-1", None, {})])
    view = G.view(s, 0)
    cells = {c["tile"]: c for c in view["seats"][0]["island"]}
    assert cells["13-1"]["text"] == tile_types()["13"].text
    assert cells["22-1"]["text"] == tile_types()["22"].text
    assert cells["01A"]["text"] == "Any number: deploy 1 worker, or +1 energy, +1 steel"
    for o in view["offer"]:
        if o["tile"]:
            assert o["text"] == tile_types()[o["tile"][:2]].text


@pytest.mark.parametrize(
    ("tile", "card", "printed", "after"),
    [
        ("05-2", "I-12", "C", ["C", "I"]),
        ("08-1", "I-16", None, ["C"]),
    ],
)
def test_printed_banner_ignores_an_installed_banner_token(
    tile: str, card: str, printed: str | None, after: list[str]
) -> None:
    s = island(turn_state(2), 0, [(0, -1, tile, None, {})])
    s = edit(s, 0, energy=5, steel=5, parts=5, hand=[card])
    s.turn = Turn(0, "blueprint", 1, 1)
    s = play(s, 0, {"type": "complete", "card": card})
    assert s.tasks[-1].kind == "install"
    s = play(s, 0, {"type": "install", "tile": [0, -1]})
    cell = G.view(s, None)["seats"][0]["island"][1]
    assert cell["tokens"]["B"].startswith("BAN-")
    assert cell["banners"] == after
    assert cell["printed_banner"] == printed


def test_the_ability_unlocks_with_fame() -> None:
    s = turn_state(2, characters=("marie", "nelson"))
    marie = characters()["marie"]
    for fame, unlocked in ((0, 0), (4, 0), (5, 1), (9, 1), (10, 2), (17, 2)):
        seat = G.view(edit(s, 0, fame=fame), 1)["seats"][0]
        assert seat["ability"] == {
            "basic": marie.basic,
            "advanced": marie.advanced,
            "unlocked": unlocked,
        }
        assert seat["ability_level"] == unlocked


def test_no_ability_before_a_character_is_kept() -> None:
    s = G.new(G.Config(players=2), 0)
    assert all(seat["ability"] is None for seat in G.view(s, None)["seats"])


def test_the_decision_is_only_in_the_view_of_the_seat_deciding() -> None:
    s = turn_state(2, dice=[1, 2, 3, 4, 5])
    assert G.view(s, 0)["decision"]["point"] == "draft"
    assert G.view(s, 1)["decision"] is None
    assert G.view(s, None)["decision"] is None


def test_claim_spots_are_lettered_in_reading_order_with_the_fame_of_their_links() -> None:
    # Seat 0's island: the Capitol and the Energy Depot 02-1 (an Industry hub) at (1, 0).
    s = island(turn_state(2, dice=[1, 2, 3, 4, 5]), 0, [(1, 0, "02-1", None, {})])
    s.offer[0] = "06-1"  # a Refinery with an Industry banner, in O1
    s = play(s, 0, {"type": "draft", "value": 1})
    decision = G.view(s, 0)["decision"]
    spots = decision["spots"]
    assert [spot["label"] for spot in spots] == list("ABCDEFGH")
    ys = [(2 * spot["at"][1] + spot["at"][0], spot["at"][0]) for spot in spots]
    assert ys == sorted(ys)
    claims = {c["space"]: c for c in decision["claims"]}
    assert sorted(claims) == [1, 2, 12] and decision["discards"] == [1, 2, 12]
    assert all(claims[space]["spots"] == list("ABCDEFGH") for space in claims)
    next_to_depot = {
        spot["label"] for spot in spots if (spot["at"][0] - 1, spot["at"][1]) in NEIGHBOURS
    }
    assert claims[1]["fame"] == dict.fromkeys(next_to_depot, 1) and len(next_to_depot) == 5
    legal = {(a.space, tuple(a.at)) for a in G.legal_actions(s, 0) if a.type == "claim"}
    assert legal == {(space, tuple(spot["at"])) for space in claims for spot in spots}


def test_deploy_names_the_dock_spaces_and_the_lines_they_empty() -> None:
    s = island(turn_state(2, dice=[1, 2, 3, 4, 5]), 0, [(1, 0, "05-3", None, {})])
    s = edit(s, 0, dock=[False, True, False, False] + [False] * 4 + [True, True, False, False])
    s.turn = Turn(0, "activating", 1, 1)
    s = play(s, 0, {"type": "use", "tile": [0, 0], "option": "deploy"})
    decision = G.view(s, 0)["decision"]
    assert [spot["at"] for spot in decision["spots"]] == [[1, 0]]
    dock = {d["number"]: d["empties"] for d in decision["dock"]}
    assert dock == {2: ["R1"], 9: ["C1"], 10: []}


def test_the_die_in_play_names_what_it_activates() -> None:
    s = island(turn_state(2, dice=[1, 2, 3, 4, 5]), 0, [(1, 0, "05-3", "ready", {})])
    s = play(s, 0, {"type": "draft", "value": 3})
    assert sorted(G.view(s, 0)["decision"]["activations"]) == [[0, 0], [1, 0]]
    s = island(turn_state(2, dice=[1, 2, 3, 4, 5]), 0, [(1, 0, "05-3", "ready", {})])
    s = play(s, 0, {"type": "draft", "value": 2})
    assert G.view(s, 0)["decision"]["activations"] == [[0, 0]]


def test_spot_labels_go_on_past_z() -> None:
    assert [spot_label(i) for i in (0, 25, 26, 27, 51, 52)] == ["A", "Z", "AA", "AB", "AZ", "BA"]
