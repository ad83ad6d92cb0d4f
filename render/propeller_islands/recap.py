"""The end of a round for the channel: every island small, one row a seat, with its fame, VP so
far, blueprints and dock workers."""

from collections.abc import Sequence
from typing import Any

from PIL import ImageDraw

from render.common import INK, MIN_TEXT, MUTED, SEATS, WIDTH, canvas, fit, font, player_names, png
from render.propeller_islands.parts import (
    CATEGORY_FILL,
    PAD,
    SQRT3,
    axial_xy,
    hex_corners,
    name_line,
    panel_box,
)

MARGIN = 16
HEADER_H = 150
INFO_W = 360
"""The left part of a seat's row: name, VP and the counts; the island fills the rest."""
HEX_MIN, HEX_MAX = 24, 40
"""Mini hexes: big enough for a number in the phone's smallest text, small enough to stack."""
ISLAND_MAX_H = 330
KEY = "Gold: Capitol · beige: guild · blue: hub · grey: depot · pink: landmark · dot: a worker"


def recap(view: dict[str, Any], names: Sequence[str] | None, round_: int) -> bytes:
    """PNG of every seat's island after round `round_`, with the score if the game ended now."""
    labels = player_names(len(view["seats"]), names)
    sizes = [_size(seat["island"]) for seat in view["seats"]]
    width = max(WIDTH, *(INFO_W + int(span * s) + 2 * MARGIN + 2 * PAD for span, _, s in sizes))
    rows = [max(170, int(h * s) + 2 * PAD) for _, h, s in sizes]
    height = HEADER_H + sum(r + 16 for r in rows) + MARGIN
    img, draw = canvas(width, height)
    draw.text((MARGIN + 4, 14), f"Round {round_} is over", font=font(40, bold=True), fill=INK)
    sub = font(MIN_TEXT)
    note = "VP if the game ended now (fame, resources, landmarks, blueprints)"
    draw.text((MARGIN + 6, 68), fit(note, sub, width - 2 * MARGIN), font=sub, fill=MUTED)
    draw.text((MARGIN + 6, 104), fit(KEY, sub, width - 2 * MARGIN), font=sub, fill=MUTED)
    y = HEADER_H
    for seat, row, (_, _, s) in zip(view["seats"], rows, sizes, strict=True):
        _seat(draw, seat, labels, (MARGIN, y, width - MARGIN, y + row), s)
        y += row + 16
    return png(img)


def _size(island: list[dict[str, Any]]) -> tuple[float, float, float]:
    """An island's width and height in hex radii, and the hex size it is drawn at."""
    qs = [c["at"][0] for c in island]
    ys = [c["at"][1] + c["at"][0] / 2 for c in island]
    span_x = 1.5 * (max(qs) - min(qs)) + 2
    span_y = SQRT3 * (max(ys) - min(ys) + 1)
    room = WIDTH - INFO_W - 2 * MARGIN - 2 * PAD
    return span_x, span_y, max(HEX_MIN, min(HEX_MAX, room / span_x, ISLAND_MAX_H / span_y))


def _seat(
    draw: ImageDraw.ImageDraw,
    seat: dict[str, Any],
    labels: list[str],
    box: tuple[int, int, int, int],
    s: float,
) -> None:
    """One seat's row: name and VP, fame and the counts on the left, the island on the right."""
    x0, y0, x1, y1 = box
    panel_box(draw, box)
    vp = f"{seat['score']['total']} VP"
    big = font(40, bold=True)
    draw.text((x0 + PAD, y0 + 84), vp, font=big, fill=INK, anchor="lm")
    name_line(draw, (x0 + PAD, y0 + 34), seat["seat"], labels, INFO_W - 2 * PAD, MIN_TEXT)
    done = len(seat["completed"])
    lines = (
        f"Fame {seat['fame']} · {done}/7 blueprints",
        f"{seat['dock_workers']} workers on the dock",
    )
    for i, line in enumerate(lines):
        fnt = font(MIN_TEXT)
        at = (x0 + PAD, y0 + 122 + 30 * i)
        draw.text(at, fit(line, fnt, INFO_W - 2 * PAD), font=fnt, fill=INK, anchor="lm")
    island = seat["island"]
    qs = [c["at"][0] for c in island]
    ys = [c["at"][1] + c["at"][0] / 2 for c in island]
    span_x = 1.5 * (max(qs) - min(qs)) + 2
    left = x0 + INFO_W + (x1 - x0 - INFO_W - span_x * s) / 2
    ox = left + s - 1.5 * min(qs) * s
    oy = y0 + (y1 - y0) / 2 - SQRT3 * s * (max(ys) + min(ys)) / 2
    colour = SEATS[seat["seat"] % len(SEATS)]
    for cell in island:
        dx, dy = axial_xy(cell["at"][0], cell["at"][1], s)
        _mini(draw, (ox + dx, oy + dy), s, cell, colour)


def _mini(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    s: float,
    cell: dict[str, Any],
    colour: tuple[int, int, int],
) -> None:
    """A tile in small: its category's colour, its number ("?" for any), a dot for a worker."""
    cx, cy = centre
    draw.polygon(hex_corners(cx, cy, s), fill=CATEGORY_FILL[cell["category"]], outline=INK, width=2)
    if cell["category"] in ("guild", "hub"):
        number = "?" if cell["number"] is None else str(cell["number"])
        draw.text((cx, cy), number, font=font(MIN_TEXT, bold=True), fill=INK, anchor="mm")
    if cell["worker"]:
        r = max(5.0, s * 0.18)
        wx, wy = cx + s * 0.5, cy - s * 0.42
        draw.ellipse((wx - r, wy - r, wx + r, wy + r), fill=colour, outline=INK, width=2)
