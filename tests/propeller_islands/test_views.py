"""The view's help texts: tile effects, printed banners apart from tokens, character abilities."""

import pytest

from engine.propeller_islands.components import characters, tile_types
from engine.propeller_islands.state import Turn

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
