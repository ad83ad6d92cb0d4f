"""A tournament's standings as an image: one row per player, the points and each tiebreak in a
column, legible at phone width (the text is never under `MIN_TEXT`)."""

from collections.abc import Sequence

from render.common import (
    INK,
    MIN_TEXT,
    MUTED,
    PANEL,
    RULE,
    SEATS,
    WIDTH,
    blend,
    canvas,
    fit,
    font,
    png,
    two_lines,
)

ROW_H = 58
HEAD_H = 184
RANK_W = 70
NAME_W = 330
SHOWN = 40
"""Rows drawn at most; the rest are counted in one line (the text lists everyone)."""


def standings_image(
    title: str, note: str, columns: Sequence[str], rows: Sequence[tuple[str, Sequence[str]]]
) -> bytes:
    """PNG of standings: `rows` of (name, a cell per column after the name) in order, a
    withdrawn player's name marked by its caller."""
    shown = rows[:SHOWN]
    more = len(rows) - len(shown)
    img, draw = canvas(WIDTH, HEAD_H + ROW_H * max(len(shown), 1) + (44 if more else 0) + 30)
    heading = font(40, bold=True)
    draw.text((30, 18), fit(title, heading, WIDTH - 60), font=heading, fill=INK)
    for i, line in enumerate(two_lines(note, font(MIN_TEXT), WIDTH - 60)):
        draw.text((30, 72 + 32 * i), line, font=font(MIN_TEXT), fill=MUTED)
    cell_w = (WIDTH - 60 - RANK_W - NAME_W) // max(len(columns), 1)
    label = font(MIN_TEXT, bold=True, condensed=True)
    for x, text in _columns(["#", "Player", *columns], cell_w):
        draw.text((x, HEAD_H - 34), fit(text, label, cell_w - 8), font=label, fill=MUTED)
    for i, (name, cells) in enumerate(shown):
        y = HEAD_H + i * ROW_H
        fill = blend(SEATS[i % len(SEATS)], PANEL, 0.85)
        draw.rounded_rectangle(
            (20, y, WIDTH - 20, y + ROW_H - 6), radius=10, fill=fill, outline=RULE
        )
        texts = [str(i + 1), name, *cells]
        for j, (x, text) in enumerate(_columns(texts, cell_w)):
            named = j == 1
            fnt = font(28 if named else MIN_TEXT, bold=named, condensed=not named)
            width = NAME_W - 16 if named else cell_w - 8
            draw.text(
                (x, y + (ROW_H - 6) / 2), fit(text, fnt, width), font=fnt, fill=INK, anchor="lm"
            )
    if more:
        y = HEAD_H + len(shown) * ROW_H + 8
        draw.text((30, y), f"and {more} more", font=font(MIN_TEXT), fill=MUTED)
    return png(img)


def _columns(texts: Sequence[str], cell_w: int) -> list[tuple[int, str]]:
    """Each text with the x where its column starts: rank, name, then equal cells."""
    xs = [30, 30 + RANK_W] + [30 + RANK_W + NAME_W + k * cell_w for k in range(len(texts) - 2)]
    return list(zip(xs, texts, strict=True))
