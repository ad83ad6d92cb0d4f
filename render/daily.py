"""The daily challenge's closing image: the top boards as a podium over the day's ranked list."""

import io
from collections.abc import Sequence
from itertools import compress
from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    INK,
    MEDAL_R,
    MEDALS,
    MIN_TEXT,
    MUTED,
    PANEL,
    RULE,
    WIDTH,
    Swatches,
    blend,
    canvas,
    fit,
    font,
    medal,
    ordinal,
    png,
    two_lines,
)

PODIUM = 3
"""Boards shown side by side at most."""
SHOWN = 20
"""Rows of the list drawn at most; the rest are counted in one line."""
SLOT_W = 320
"""A podium slot's width: three and their gaps fill the image between its margins."""
GAP = 20
PAD = 10
THUMB_W = SLOT_W - 2 * PAD
THUMB_H = 470
"""Tallest a board is drawn: a whole Railroad Ink board image at THUMB_W wide."""
CAPTION_H = 2 * MEDAL_R + 24
ROW_H = 58
RANK_W = 92


def daily_board(
    title: str, subtitle: str, rows: Sequence[dict[str, Any]], thumbnails: Sequence[bytes]
) -> bytes:
    """PNG of a closed day: the first rows' boards (`thumbnails`, at most 3) with medal, name and
    score, then the ranked list (rank, name, score, note) of up to SHOWN rows."""
    boards = [_scaled(data) for data in thumbnails[: min(PODIUM, len(rows))]]
    heading, line = font(40, bold=True), font(MIN_TEXT)
    notes = two_lines(subtitle, line, WIDTH - 60)
    top = 72 + 32 * len(notes) + 14
    thumb_h = max((b.height for b in boards), default=0)
    list_top = top + PAD + thumb_h + CAPTION_H + 24 if boards else top
    shown = rows[:SHOWN]
    more = len(rows) - len(shown)
    height = list_top + ROW_H * max(len(shown), 1) + (40 if more else 0) + 24
    # Board pixels take what the drawing leaves of the palette, so they are added last.
    swatches = Swatches()
    img, draw = canvas(WIDTH, height, swatches=swatches)
    draw.text((30, 18), fit(title, heading, WIDTH - 60), font=heading, fill=INK)
    for i, text in enumerate(notes):
        draw.text((30, 72 + 32 * i), text, font=line, fill=MUTED)
    left = (WIDTH - len(boards) * SLOT_W - (len(boards) - 1) * GAP) // 2
    spots = [(left + i * (SLOT_W + GAP), top) for i in range(len(boards))]
    for (x, y), row in zip(spots, rows, strict=False):
        _slot(draw, (x, y), thumb_h, row, rows)
    if not rows:
        draw.text((30, list_top + 14), "Nobody played", font=font(28), fill=INK)
    for i, row in enumerate(shown):
        _row(draw, list_top + i * ROW_H, row, rows)
    if more:
        y = list_top + ROW_H * len(shown) + 6
        draw.text((30, y), f"and {more} more", font=line, fill=MUTED)
    if boards:
        _paste(img, swatches, boards, [(x + PAD, y + PAD) for x, y in spots], thumb_h)
    return png(img)


def _scaled(data: bytes) -> Image.Image:
    """A board image in RGB, scaled down (never up) to fit THUMB_W by THUMB_H."""
    with Image.open(io.BytesIO(data)) as opened:
        clear = "transparency" in opened.info or "A" in opened.getbands()
        im = opened.convert("RGBA" if clear else "RGB")
    scale = min(1.0, THUMB_W / im.width, THUMB_H / im.height)
    size = (max(1, round(im.width * scale)), max(1, round(im.height * scale)))
    # reducing_gap shrinks by whole factors first: a third of the time, no visible difference.
    im = im.resize(size, Image.Resampling.LANCZOS, reducing_gap=3.0)
    if clear:
        im = Image.alpha_composite(Image.new("RGBA", size, (*PANEL, 255)), im).convert("RGB")
    return im


def _slot(
    draw: ImageDraw.ImageDraw,
    at: tuple[int, int],
    thumb_h: int,
    row: dict[str, Any],
    rows: Sequence[dict[str, Any]],
) -> None:
    """A podium slot's panel (its board pasted later) with the medal, name and score under it."""
    x, y = at
    bottom = y + PAD + thumb_h + CAPTION_H
    draw.rounded_rectangle((x, y, x + SLOT_W, bottom), radius=14, fill=PANEL, outline=RULE)
    cy = bottom - CAPTION_H / 2
    text_x = x + PAD
    if row["rank"] is not None:
        medal(draw, (x + PAD + MEDAL_R, cy), row, list(rows))
        text_x += 2 * MEDAL_R + 12
    room = x + SLOT_W - PAD - text_x
    # Condensed: a slot has room for a dozen letters of the list's face.
    name, small = font(28, bold=True, condensed=True), font(MIN_TEXT)
    draw.text((text_x, cy - 16), fit(row["name"], name, room), font=name, fill=INK, anchor="lm")
    score = " · ".join(part for part in (row["score"], row["note"]) if part)
    draw.text((text_x, cy + 18), fit(score, small, room), font=small, fill=INK, anchor="lm")


def _row(
    draw: ImageDraw.ImageDraw, y: int, row: dict[str, Any], rows: Sequence[dict[str, Any]]
) -> None:
    """One entry of the list: rank (shared ranks marked "="), name, note and score."""
    rank = row["rank"]
    fill = blend(MEDALS[rank], PANEL, 0.7) if rank in MEDALS else PANEL
    draw.rounded_rectangle((20, y, WIDTH - 20, y + ROW_H - 6), radius=10, fill=fill, outline=RULE)
    cy = y + (ROW_H - 6) / 2
    if rank is None:
        place = "–"
    else:
        shared = sum(1 for r in rows if r["rank"] == rank) > 1
        place = ("=" if shared else "") + ordinal(rank)
    bold, small = font(MIN_TEXT, bold=True, condensed=True), font(MIN_TEXT, condensed=True)
    draw.text((36, cy), place, font=bold, fill=INK, anchor="lm")
    name = font(28, bold=True)
    score = fit(row["score"], name, 260)
    right = WIDTH - 36 - name.getlength(score)
    draw.text((WIDTH - 36, cy), score, font=name, fill=INK, anchor="rm")
    if row["note"]:
        note = fit(row["note"], small, 280)
        draw.text((right - 20, cy), note, font=small, fill=MUTED, anchor="rm")
        right -= 20 + small.getlength(note)
    who = fit(row["name"], name, int(right - 20 - (36 + RANK_W)))
    draw.text((36 + RANK_W, cy), who, font=name, fill=INK, anchor="lm")


def _paste(
    img: Image.Image,
    swatches: Swatches,
    boards: list[Image.Image],
    spots: list[tuple[int, int]],
    thumb_h: int,
) -> None:
    """The boards into their slots (centred), in the palette entries the drawing left free."""
    strip = Image.new("RGB", (THUMB_W * len(boards), thumb_h), PANEL)
    for i, board in enumerate(boards):
        strip.paste(board, (i * THUMB_W, 0))
    room = 256 - len(swatches.palette()) // 3
    # Octree keeps the small saturated marks (lit lamps, the battery) that median cut folds
    # into the greys around them; dithering would only speckle the flat cells.
    colours = strip.quantize(room, method=Image.Quantize.FASTOCTREE)
    mapped = strip.quantize(palette=colours, dither=Image.Dither.NONE)
    entries = mapped.getpalette() or []
    table = bytearray(256)
    for k in compress(range(256), mapped.histogram()):
        table[k] = swatches.index((entries[3 * k], entries[3 * k + 1], entries[3 * k + 2]))
    mapped = Image.frombytes("P", strip.size, mapped.tobytes().translate(table))
    for i, (board, (x, y)) in enumerate(zip(boards, spots, strict=True)):
        box = (i * THUMB_W, 0, i * THUMB_W + board.width, board.height)
        img.paste(mapped.crop(box), (x + (THUMB_W - board.width) // 2, y))
