"""Railroad Ink board images: decodable, phone-sized, every piece drawable."""

import io
from random import Random

import pytest
from PIL import Image

from engine import registry
from engine.core import play_out, step
from engine.railroad_ink import autopilot
from render.railroad_ink import board

G = registry.get("railroad_ink")


def _decode(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


@pytest.mark.parametrize(
    "expansions", [(), ("street_lamps",), ("power_grid",), ("street_lamps", "power_grid")]
)
def test_boards_render_through_a_whole_game(expansions):
    config = G.Config(players=2, expansions=frozenset(expansions))
    rng = Random(4)
    state = G.new(config, 4)
    seen = set()
    while not G.is_over(state):
        state = step(G, state, rng, autopilot.act)
        view = G.view(state, 0)
        image = board(view, 0, ["Ada", "山田"])
        seen.add(image)
        img = _decode(image)
        assert img.mode == "RGB" and img.width >= 1000 and len(image) <= 600 * 1024
    assert len(seen) >= G.Config(players=2, expansions=frozenset(expansions)).round_count


def test_a_played_board_differs_from_an_empty_one():
    state = play_out(G, G.new(G.Config(players=1), 9), Random(9), autopilot.act)
    view = G.view(state, 0)
    empty = board({**view, "seats": [{**view["seats"][0], "board": [[None] * 7] * 7}]}, 0)
    assert board(view, 0) != empty
    assert sum(cell is not None for row in view["seats"][0]["board"] for cell in row) >= 20
