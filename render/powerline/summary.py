"""The round summary: every player's small board with what they built and scored last round."""

import math
from collections import Counter
from collections.abc import Sequence
from typing import Any

from PIL import ImageDraw

from render.common import (
    DICE,
    INK,
    MUTED,
    PANEL,
    RGB,
    RULE,
    SEATS,
    canvas,
    die,
    fit,
    font,
    player_names,
    png,
)
from render.powerline.board import initials
from render.powerline.map import Frame, Marks, draw_map

WIDTH = 1230
MAP_TOP = 62
LINE_H = 22
HEADER_H = 96


def round_summary(view: dict[str, Any], names: Sequence[str] | None = None) -> bytes:
    """PNG of the last resolved round for a channel post (public: plans are revealed by then)."""
    report = view["last_round"]
    if report is None:
        raise ValueError("no round has been resolved yet")
    seats = view["seats"]
    cols = min(len(seats), 3)
    rows = math.ceil(len(seats) / cols)
    cell_w = (WIDTH - 24 - (cols - 1) * 12) // cols
    texts = [_lines(done) for done in report["seats"]]
    cell_h = MAP_TOP + int(cell_w * 0.86) + 10 + LINE_H * max(map(len, texts)) + 12
    img, draw = canvas(WIDTH, HEADER_H + rows * (cell_h + 12) + 12)
    _header(draw, view, report)
    for i, seat in enumerate(seats):
        x = 12 + (i % cols) * (cell_w + 12)
        y = HEADER_H + (i // cols) * (cell_h + 12)
        box = (x, y, x + cell_w, y + cell_h)
        _cell(draw, view, seat, report["seats"][i], texts[i], box, names)
    return png(img)


def _header(draw: ImageDraw.ImageDraw, view: dict[str, Any], report: dict[str, Any]) -> None:
    title = f"Round {report['round']} built"
    if report["scoring"]:
        title += f"  ·  scoring {report['scoring']}"
    if view["over"]:
        title += "  ·  final round"
    draw.text((20, 16), title, font=font(34, bold=True), fill=INK)
    size = 40
    x = WIDTH - 20 - 6 * (size + 10)
    for c, letter in zip(view["colors"], view["color_initials"], strict=True):
        die(draw, (x, 14, x + size, 14 + size), report["dice"][c], DICE[c])
        draw.text(
            (x + size / 2, 14 + size + 12), letter, font=font(15, bold=True), fill=INK, anchor="mm"
        )
        x += size + 10


def _cell(
    draw: ImageDraw.ImageDraw,
    view: dict[str, Any],
    seat: dict[str, Any],
    done: dict[str, Any],
    text: list[str],
    box: tuple[int, int, int, int],
    names: Sequence[str] | None,
) -> None:
    x0, y0, x1, y1 = box
    i = seat["seat"]
    colour: RGB = SEATS[i % len(SEATS)]
    draw.rounded_rectangle(box, radius=16, fill=PANEL, outline=RULE, width=2)
    draw.rounded_rectangle((x0, y0, x0 + 12, y1), radius=6, fill=colour)
    name_font = font(22, bold=True)
    delta = done["vp_after"] - done["vp_before"]
    vp_text = f"{done['vp_after']} VP"
    vp_font = font(22, bold=True)
    vp_w = vp_font.getlength(vp_text)
    # A disc of the seat's colour, not a number that reads like a place in the standings.
    draw.ellipse((x0 + 24, y0 + 15, x0 + 44, y0 + 35), fill=colour, outline=INK, width=2)
    draw.text(
        (x0 + 52, y0 + 12),
        fit(player_names(len(view["seats"]), names)[i], name_font, int(x1 - x0 - 76 - vp_w)),
        font=name_font,
        fill=INK,
    )
    draw.text((x1 - 14, y0 + 12), vp_text, font=vp_font, fill=INK, anchor="ra")
    sign = "+" if delta >= 0 else "−"
    draw.text(
        (x1 - 14, y0 + 40), f"{sign}{abs(delta)} this round", font=font(15), fill=MUTED, anchor="ra"
    )
    fresh = frozenset(
        (p["line"], p["segment"]) for p in done["plan"]["placements"] if not p["island"]
    )
    map_box = (x0 + 18, y0 + MAP_TOP, x1 - 8, y0 + MAP_TOP + (x1 - x0) * 0.86)
    frame = Frame.inside(seat, map_box, detail=False)
    draw_map(
        draw, frame, seat, colour, Marks(highlight=False, fresh=fresh, initials=initials(view))
    )
    y = int(map_box[3]) + 10
    for line in text:
        draw.text((x0 + 24, y), fit(line, font(16), int(x1 - x0 - 36)), font=font(16), fill=INK)
        y += LINE_H


def _lines(done: dict[str, Any]) -> list[str]:
    """What the seat did, in words: segments per line, cities, stations, island, scoring."""
    placements = done["plan"]["placements"]
    per_line = Counter(p["line"] for p in placements if not p["island"])
    island = sum(1 for p in placements if p["island"])
    jokers = sum(1 for p in placements if p["joker"])
    built = ", ".join(f"{line} ×{n}" if n > 1 else line for line, n in per_line.items())
    text = [f"Built: {built or 'nothing'}" + (f" ({jokers} joker)" if jokers else "")]
    gains = [f"city {c}" for c in done["cities"]] + [f"station {s}" for s in done["stations"]]
    if gains:
        text.append("Completed: " + ", ".join(gains))
    if island:
        loss = f"−{done['island_loss']} VP" if done["island_loss"] else "no loss (vacation)"
        text.append(f"Island: {island} worker{'s' if island > 1 else ''}, {loss}")
    if done["jokers_gained"]:
        text.append(f"Jokers gained: {done['jokers_gained']}")
    if done["scoring"]:
        text.append("Scoring: " + ", ".join(f"{t} +{vp}" for t, vp in done["scoring"].items()))
    if done["end_penalty"]:
        text.append(f"Unfinished lines: −{done['end_penalty']} VP")
    return text
