"""The daily challenge's closing image: podium of boards, ranked list, ties, overflow, phone."""

import io
from collections.abc import Iterator
from contextlib import contextmanager
from random import Random
from typing import Any
from unittest.mock import patch

import pytest
from PIL import Image, ImageChops

from engine import registry
from engine.core import step
from engine.railroad_ink import autopilot
from render.common import WIDTH, canvas
from render.daily import daily_board
from render.railroad_ink import board
from tests.render.pngs import EXOTIC, check, decode
from tests.render.test_phone import PHONE_TEXT, PHONE_WIDTH

G = registry.get("railroad_ink")
TITLE = "Railroad Ink daily — Thu 26 Nov 2026"
SUBTITLE = "with the Street Lamps dice · 7 played · the same dice for everyone"
FLATS = ((200, 30, 30), (30, 110, 200), (40, 160, 60))
"""One colour per synthetic board, to find each on the podium."""


def _rows(count: int, ranks: list[int | None] | None = None) -> list[dict[str, Any]]:
    ranks = ranks or list(range(1, count + 1))
    return [
        {"rank": rank, "name": f"Player {i + 1}", "score": f"{60 - i} points", "note": ""}
        for i, rank in enumerate(ranks[:count])
    ]


def _flat(colour: tuple[int, int, int], size: tuple[int, int] = (1040, 1628)) -> bytes:
    """A board-sized palette PNG of one colour."""
    out = io.BytesIO()
    Image.new("RGB", size, colour).convert("P").save(out, format="PNG")
    return out.getvalue()


@pytest.fixture(scope="module")
def boards() -> list[bytes]:
    """Three real final boards of a seeded Railroad Ink game, as its presenter draws them."""
    config = G.Config(players=3, expansions=frozenset({"street_lamps"}))
    state, rng = G.new(config, 3), Random(3)
    while not G.is_over(state):
        state = step(G, state, rng, autopilot.act)
    names = ["Ada", "Zoë 🎲⚡", "山田太郎"]
    return [board(G.view(state, seat), seat, names) for seat in range(3)]


@contextmanager
def drawn() -> Iterator[list[tuple[float, str]]]:
    """Every text drawn inside the block, as (font size in px, text)."""
    # The canvas's draw may lay out text its own way rather than through ImageDraw.text, so the
    # patch goes on the class the canvas really uses.
    cls = type(canvas(1, 1)[1])
    original = cls.text
    seen: list[tuple[float, str]] = []

    def text(self: Any, xy: Any, words: Any, *args: Any, **kwargs: Any) -> None:
        fnt = kwargs.get("font", args[1] if len(args) > 1 else None)
        seen.append((float(fnt.size), str(words)))
        original(self, xy, words, *args, **kwargs)

    with patch.object(cls, "text", text):
        yield seen


def _near(img: Image.Image, colour: tuple[int, int, int]) -> tuple[int, int, int, int] | None:
    """The box of the pixels within a few levels of `colour` (a palette may shift it)."""
    diff = ImageChops.difference(img, Image.new("RGB", img.size, colour)).convert("L")
    return diff.point(lambda v: 255 if v <= 6 else 0).getbbox()


def test_a_day_with_real_boards_is_a_phone_wide_palette_png(boards):
    rows = _rows(7, [1, 2, 2, 4, 5, 6, None])
    data = daily_board(TITLE, SUBTITLE, rows, boards)
    img = check(data)
    assert img.width == WIDTH
    # Shrunk boards keep their small saturated marks: the yellow of a lit lamp.
    assert _near(img.crop((0, 0, WIDTH, img.height // 2)), (255, 196, 0)) is not None


@pytest.mark.parametrize("count", [1, 2, 3])
def test_the_podium_shows_each_board_left_to_right_and_centred(count):
    rows = _rows(5)
    with drawn() as seen:
        img = check(daily_board(TITLE, SUBTITLE, rows, [_flat(c) for c in FLATS[:count]]))
    boxes = [_near(img, colour) for colour in FLATS]
    shown = boxes[:count]
    assert all(box is not None for box in shown) and boxes[count:] == [None] * (3 - count)
    lefts = [box[0] for box in shown if box]
    rights = [box[2] for box in shown if box]
    assert lefts == sorted(lefts) and all(a < b for a, b in zip(rights, lefts[1:], strict=False))
    assert all(r - left <= WIDTH // 3 for left, r in zip(lefts, rights, strict=True))
    assert abs((lefts[0] + rights[-1]) / 2 - WIDTH / 2) <= 2
    # Each podium name is drawn under its board and again in the list.
    texts = [t for _, t in seen]
    for row in rows:
        assert texts.count(row["name"]) == (2 if int(row["rank"]) <= count else 1)


def test_no_boards_means_no_podium_but_still_the_list():
    rows = _rows(3)
    with drawn() as seen:
        bare = check(daily_board(TITLE, SUBTITLE, rows, []))
    with_one = decode(daily_board(TITLE, SUBTITLE, rows, [_flat(FLATS[0])]))
    assert [t for _, t in seen].count("Player 1") == 1
    assert bare.height < with_one.height


def test_past_twenty_rows_the_rest_are_counted_in_one_line():
    with drawn() as seen:
        data = daily_board(TITLE, SUBTITLE, _rows(25), [])
    texts = [t for _, t in seen]
    assert "Player 20" in texts and "Player 21" not in texts
    assert "and 5 more" in texts
    assert decode(data).height == decode(daily_board(TITLE, SUBTITLE, _rows(21), [])).height
    with drawn() as seen:
        daily_board(TITLE, SUBTITLE, _rows(20), [])
    assert not any(t.startswith("and ") for _, t in seen)


def test_tied_rows_share_their_rank():
    rows = _rows(5, [1, 2, 2, 4, None])
    with drawn() as seen:
        daily_board(TITLE, SUBTITLE, rows, [_flat(c) for c in FLATS])
    texts = [t for _, t in seen]
    # Two list rows and two podium medals.
    assert texts.count("=2nd") == 4
    assert texts.count("1st") == 2 and "=1st" not in texts
    assert "4th" in texts and "=4th" not in texts
    assert "–" in texts  # an unranked entry


def test_notes_and_exotic_names_draw_on_one_line():
    rows = [
        {"rank": i + 1, "name": name, "score": f"{30 - i} points", "note": "ended unfinished"}
        for i, name in enumerate(EXOTIC)
    ]
    with drawn() as seen:
        check(daily_board(TITLE, SUBTITLE, rows, [_flat(c) for c in FLATS]))
    texts = [t for _, t in seen]
    assert texts.count("ended unfinished") == len(rows)
    assert not any(c in t for t in texts for c in "\n\t\0")
    assert all("🎲" not in t for t in texts)


def test_nobody_played_still_draws():
    with drawn() as seen:
        img = decode(daily_board(TITLE, SUBTITLE, [], [_flat(FLATS[0])]))
    assert img.width == WIDTH
    assert "Nobody played" in [t for _, t in seen]
    assert _near(img, FLATS[0]) is None


def test_a_transparent_board_sits_on_the_panel():
    out = io.BytesIO()
    Image.new("RGBA", (800, 600), (0, 0, 0, 0)).save(out, format="PNG")
    img = check(daily_board(TITLE, SUBTITLE, _rows(2), [out.getvalue()]))
    assert _near(img, (0, 0, 0)) is None


def test_legible_on_a_phone(boards):
    rows = _rows(25, [1, 2, 2, *range(4, 26)])
    rows[3]["note"] = "ended unfinished"
    with drawn() as seen:
        width = decode(daily_board(TITLE, SUBTITLE, rows, boards)).width
    assert len(seen) > 20  # the recording saw the drawing
    size, text = min(seen)
    height = size * PHONE_WIDTH / max(width, PHONE_WIDTH)
    assert height >= PHONE_TEXT, f"{text!r} is {height:.1f} px high on a phone ({width} px wide)"
