"""The shared centre board: dice, round track, scoring tiles and every player's VP."""

from collections.abc import Sequence
from typing import Any

from PIL import ImageDraw

from render.common import (
    BACKGROUND,
    DICE,
    HIGHLIGHT,
    INK,
    MIN_TEXT,
    MUTED,
    PANEL,
    RGB,
    RULE,
    SEATS,
    WIDTH,
    Box,
    blend,
    canvas,
    die,
    fit,
    font,
    ordinal,
    player_names,
    png,
    rounded,
    seat_badge,
    text_colour,
    two_lines,
)

MARGIN = 24
GAP = 20
PAD = 20
RADIUS = 16
INNER = WIDTH - 2 * MARGIN

TILE_COLOURS: dict[str, RGB] = {
    "red": DICE["red"],
    "green": DICE["green"],
    "yellow": DICE["yellow"],
    "special": (112, 72, 160),
}
"""Scoring-tile backs; the special contracts (J, K, L) get a violet of their own."""

JOKER: RGB = (112, 72, 160)
DONE: RGB = (234, 228, 214)
NEXT_ROW: RGB = (255, 238, 178)
SHADOW: RGB = (228, 221, 205)

TITLE_H = 44
"""From a panel's top to its content, below the title."""
HEADER_H = 134
DICE_H = 2 * PAD + TITLE_H + 100 + 44
TRACK_H = 2 * PAD + TITLE_H + 44 + 60 + 44
TILE_HEAD_H = 76
TILE_ROW_H = 66
TILES_H = 2 * PAD + TITLE_H + TILE_HEAD_H + 3 * TILE_ROW_H
ROW_H = 64
LABEL_W = 132
"""The scoring tiles' first column: which scoring a row is and when."""


def centre_board(view: dict[str, Any], names: Sequence[str] | None = None) -> bytes:
    """PNG of the centre board as `view` shows it; `names` label seats (default "Seat 1", …)."""
    seats = view["seats"]
    labels = player_names(len(seats), names)
    players_h = 2 * PAD + TITLE_H + 40 + ROW_H * len(seats)
    tiles_h = TILES_H if view["scoring_tiles"] else 0
    height = MARGIN * 2 + HEADER_H + DICE_H + TRACK_H + tiles_h + players_h + 3 * GAP
    img, draw = canvas(WIDTH, height, BACKGROUND)
    y = MARGIN
    _header(draw, y, view)
    y += HEADER_H
    _dice(draw, (MARGIN, y, WIDTH - MARGIN, y + DICE_H), view)
    y += DICE_H + GAP
    _track(draw, (MARGIN, y, WIDTH - MARGIN, y + TRACK_H), view)
    y += TRACK_H + GAP
    if tiles_h:
        _tiles(draw, (MARGIN, y, WIDTH - MARGIN, y + tiles_h), view)
        y += tiles_h + GAP
    _players(draw, (MARGIN, y, WIDTH - MARGIN, y + players_h), view, labels)
    return png(img)


def panel(draw: ImageDraw.ImageDraw, box: Box, title: str = "", note: str = "") -> None:
    """A rounded panel with an optional bold title and a muted note on the right."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle((x0 + 2, y0 + 4, x1 + 2, y1 + 4), radius=RADIUS, fill=SHADOW)
    draw.rounded_rectangle(box, radius=RADIUS, fill=PANEL, outline=RULE, width=2)
    heading = font(30, bold=True)
    if title:
        draw.text((x0 + PAD, y0 + PAD), title, font=heading, fill=INK, anchor="lt")
    if note:
        width = x1 - x0 - 2 * PAD - int(heading.getlength(title)) - 24
        note = fit(note, font(MIN_TEXT), width)
        draw.text((x1 - PAD, y0 + PAD + 4), note, font=font(MIN_TEXT), fill=MUTED, anchor="rt")


# ---- sections ---------------------------------------------------------------------------------


def _header(draw: ImageDraw.ImageDraw, y: int, view: dict[str, Any]) -> None:
    """Title and round; what the table waits for; the variants."""
    draw.text((MARGIN, y), "Powerline", font=font(44, bold=True), fill=INK, anchor="lt")
    rnd = "Game over" if view["over"] else f"Round {view['round']} of {view['rounds']}"
    draw.text((WIDTH - MARGIN, y + 2), rnd, font=font(40, bold=True), fill=INK, anchor="rt")
    draw.text((MARGIN + 2, y + 58), _phase_text(view), font=font(26), fill=INK, anchor="lt")
    variants = ", ".join(v.replace("_", " ") for v in view["variants"]) or "none"
    text = fit(f"Variants: {variants}", font(MIN_TEXT), INNER)
    draw.text((MARGIN + 2, y + 94), text, font=font(MIN_TEXT), fill=MUTED, anchor="lt")


def _phase_text(view: dict[str, Any]) -> str:
    """What the table is waiting for, in words."""
    if view["over"]:
        return f"All {view['rounds']} rounds played: final scores below."
    if view["phase"] == "roll" or view["dice"] is None:
        return "Waiting for the dice to be rolled."
    ready = sum(1 for s in view["seats"] if s["submitted"])
    return f"Dice rolled: planning, {ready} of {len(view['seats'])} locked in."


def _dice(draw: ImageDraw.ImageDraw, box: Box, view: dict[str, Any]) -> None:
    """The six dice in colour order, each with its initial and colour name beneath."""
    dice = view["dice"]
    note = "no more rolls" if view["over"] else "" if dice else "not rolled yet"
    panel(draw, box, "Dice", note)
    x0, y0, x1, _ = box
    colours, initials = view["colors"], view["color_initials"]
    cell = (x1 - x0 - 2 * PAD) / len(colours)
    size = 100
    top = y0 + PAD + TITLE_H
    for i, (colour, initial) in enumerate(zip(colours, initials, strict=True)):
        cx = x0 + PAD + cell * (i + 0.5)
        face = (cx - size / 2, top, cx + size / 2, top + size)
        fill = DICE.get(colour, MUTED)
        if dice and dice.get(colour):
            die(draw, face, int(dice[colour]), fill, width=3)
        else:
            _blank_die(draw, face, fill)
        _die_label(draw, (cx, top + size + 26), initial, colour)


def _blank_die(draw: ImageDraw.ImageDraw, box: tuple[float, ...], fill: RGB) -> None:
    """An unrolled die: a pale face of its colour with a question mark."""
    pale = blend(fill, PANEL, 0.6)
    draw.rounded_rectangle(box, radius=16, fill=pale, outline=MUTED, width=2)
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    draw.text((cx, cy), "?", font=font(44, bold=True), fill=text_colour(pale), anchor="mm")


def _die_label(draw: ImageDraw.ImageDraw, at: tuple[float, float], initial: str, name: str) -> None:
    """The colour initial in bold beside the colour's name, centred on `at`."""
    big, small = font(30, bold=True), font(MIN_TEXT)
    gap = 8
    width = big.getlength(initial) + gap + small.getlength(name)
    x = at[0] - width / 2
    draw.text((x, at[1]), initial, font=big, fill=INK, anchor="lm")
    draw.text(
        (x + big.getlength(initial) + gap, at[1] + 1), name, font=small, fill=MUTED, anchor="lm"
    )


def _track(draw: ImageDraw.ImageDraw, box: Box, view: dict[str, Any]) -> None:
    """Rounds 1..N with a scoring space after each round in `scoring_after`, and waiting jokers."""
    waiting = any(view["jokers_above_scoring"])
    note = "S = scoring" + (" · J = jokers each player takes there" if waiting else "")
    panel(draw, box, "Round track", note)
    x0, y0, x1, _ = box
    after = view["scoring_after"]
    cells = [("round", r) for r in range(1, view["rounds"] + 1)]
    for k, r in reversed(list(enumerate(after, start=1))):
        cells.insert(r, ("scoring", k))
    gap, ratio = 5, 1.6
    units = sum(ratio if kind == "scoring" else 1 for kind, _ in cells)
    unit = (x1 - x0 - 2 * PAD - gap * (len(cells) - 1)) / units
    top, height = y0 + PAD + TITLE_H + 44, 60
    x = float(x0 + PAD)
    for kind, n in cells:
        w = unit * (ratio if kind == "scoring" else 1)
        cell = (round(x), top, round(x + w), top + height)
        if kind == "round":
            _round_cell(draw, cell, n, view)
        else:
            _scoring_cell(draw, cell, n, view)
        x += w + gap


def _round_cell(draw: ImageDraw.ImageDraw, cell: Box, n: int, view: dict[str, Any]) -> None:
    """One round space: done rounds muted, the current one highlighted with a "now" marker."""
    current = not view["over"] and n == view["round"]
    done = view["over"] or n < view["round"]
    fill = HIGHLIGHT if current else DONE if done else PANEL
    rounded(
        draw, cell, radius=8, fill=fill, outline=INK if current else RULE, width=3 if current else 2
    )
    cx, cy = (cell[0] + cell[2]) / 2, (cell[1] + cell[3]) / 2
    colour = INK if not done or current else MUTED
    fnt = font(MIN_TEXT, bold=current or not done, condensed=n > 9)
    draw.text((cx, cy), str(n), font=fnt, fill=colour, anchor="mm")
    if current:
        _marker(draw, cx, cell[3], "now")


def _scoring_cell(draw: ImageDraw.ImageDraw, cell: Box, k: int, view: dict[str, Any]) -> None:
    """A scoring space: dark until scored, ringed when next, with its waiting jokers above."""
    nxt = view["next_scoring"]
    done = nxt is None or k < nxt
    fill = (190, 184, 172) if done else (58, 58, 66)
    outline = HIGHLIGHT if k == nxt else INK
    draw.rounded_rectangle(cell, radius=10, fill=fill, outline=outline, width=4 if k == nxt else 2)
    cx, cy = (cell[0] + cell[2]) / 2, (cell[1] + cell[3]) / 2
    mark = f"S{k}✓" if done else f"S{k}"
    fnt = font(MIN_TEXT, bold=True, condensed=True)
    draw.text((cx, cy), mark, font=fnt, fill=text_colour(fill), anchor="mm")
    if k == nxt:
        _marker(draw, cx, cell[3], "next")
    jokers = view["jokers_above_scoring"]
    if k - 1 < len(jokers) and jokers[k - 1]:
        _jokers(draw, (cx, cell[1] - 24), int(jokers[k - 1]))


def _marker(draw: ImageDraw.ImageDraw, cx: float, top: int, label: str) -> None:
    """An upward arrow under a track space with a word, so position is never colour alone."""
    draw.polygon([(cx, top + 6), (cx - 9, top + 19), (cx + 9, top + 19)], fill=INK)
    draw.text((cx, top + 24), label, font=font(MIN_TEXT, bold=True), fill=INK, anchor="mt")


def _jokers(draw: ImageDraw.ImageDraw, at: tuple[float, float], count: int) -> None:
    """A joker token with the count each player takes, centred on `at`."""
    text = f"×{count} each"
    fnt = font(MIN_TEXT, bold=True)
    r = 16
    width = 2 * r + 6 + fnt.getlength(text)
    x, y = at[0] - width / 2, at[1]
    draw.ellipse((x, y - r, x + 2 * r, y + r), fill=JOKER, outline=INK, width=2)
    draw.text((x + r, y + 1), "J", font=fnt, fill=(255, 255, 255), anchor="mm")
    draw.text((x + 2 * r + 6, y), text, font=fnt, fill=INK, anchor="lm")


def _tiles(draw: ImageDraw.ImageDraw, box: Box, view: dict[str, Any]) -> None:
    """The scoring tiles in play as a table: a column per tile, a row per scoring."""
    panel(draw, box, "Scoring tiles", "count → VP")
    x0, y0, x1, _ = box
    tiles = view["scoring_tiles"]
    left = x0 + PAD + LABEL_W
    col_w = (x1 - PAD - left) / len(tiles)
    top = y0 + PAD + TITLE_H
    for i, tile in enumerate(tiles):
        _tile_head(draw, (int(left + i * col_w), top, int(left + (i + 1) * col_w), top), tile)
    nxt = view["next_scoring"]
    y = top + TILE_HEAD_H
    for k in range(1, len(view["scoring_after"]) + 1):
        row = (x0 + 10, y, x1 - 10, y + TILE_ROW_H - 6)
        if k == nxt:
            draw.rounded_rectangle(row, radius=10, fill=NEXT_ROW, outline=HIGHLIGHT, width=2)
        done = nxt is None or k < nxt
        ink = MUTED if done else INK
        cy = (row[1] + row[3]) / 2
        draw.text(
            (x0 + PAD, cy - 13), ordinal(k), font=font(MIN_TEXT, bold=True), fill=ink, anchor="lm"
        )
        after = view["scoring_after"][k - 1]
        sub = "next" if k == nxt else "done" if done else f"after R{after}"
        draw.text(
            (x0 + PAD, cy + 14), sub, font=font(MIN_TEXT, bold=k == nxt), fill=ink, anchor="lm"
        )
        for i, tile in enumerate(tiles):
            x = left + i * col_w
            for text in _payouts(tile["rows"][k - 1]):
                x = _chip(draw, x, cy, text, ink, left + (i + 1) * col_w - 8)
        y += TILE_ROW_H


def _tile_head(draw: ImageDraw.ImageDraw, box: Box, tile: dict[str, Any]) -> None:
    """A tile's letter on its colour and its title, on two lines where it needs them."""
    x0, y0, x1, _ = box
    fill = TILE_COLOURS.get(tile["colour"], MUTED)
    draw.rounded_rectangle(
        (x0, y0 + 6, x0 + 48, y0 + 54), radius=10, fill=fill, outline=INK, width=2
    )
    draw.text(
        (x0 + 24, y0 + 30),
        tile["letter"],
        font=font(30, bold=True),
        fill=text_colour(fill),
        anchor="mm",
    )
    fnt = font(MIN_TEXT, bold=True, condensed=True)
    lines = two_lines(tile["title"], fnt, x1 - x0 - 66)
    top = y0 + 30 - 14 * len(lines)
    for i, line in enumerate(lines):
        draw.text((x0 + 58, top + 28 * i), line, font=fnt, fill=INK, anchor="lt")


def _payouts(row: dict[str, Any]) -> list[str]:
    """A tile row as short "count:VP" labels, as printed on the tile."""
    if not row.get("brackets"):
        return [f"{row.get('per_unit', 0)} VP each"]
    labels = []
    for b in row["brackets"]:
        lo, hi = b["min"], b["max"]
        count = f"{lo}+" if hi is None else str(lo) if lo == hi else f"{lo}–{hi}"
        labels.append(f"{count}:{b['vp']}")
    return labels


def _chip(
    draw: ImageDraw.ImageDraw, x: float, cy: float, text: str, ink: RGB, limit: float
) -> float:
    """A small rounded label at `x`; returns where the next one may start."""
    fnt = font(MIN_TEXT, bold=True, condensed=True)
    text = fit(text, fnt, max(20, int(limit - x - 12)))
    width = fnt.getlength(text) + 12
    draw.rounded_rectangle(
        (x, cy - 19, x + width, cy + 19), radius=8, fill=PANEL, outline=RULE, width=2
    )
    draw.text((x + 6, cy), text, font=fnt, fill=ink, anchor="lm")
    return x + width + 5


def _players(draw: ImageDraw.ImageDraw, box: Box, view: dict[str, Any], names: list[str]) -> None:
    """Every seat with its name, rank, VP and what the next scoring would pay it per tile."""
    nxt = view["next_scoring"]
    after = view["scoring_after"][nxt - 1] if nxt else None
    note = "final VP" if nxt is None else f"+: what scoring {nxt} (after round {after}) pays now"
    panel(draw, box, "Players", note)
    x0, y0, x1, _ = box
    cols = _columns(x0, x1, view)
    head = y0 + PAD + TITLE_H + 18
    small = font(MIN_TEXT, bold=True)
    draw.text((cols["vp"], head), "VP", font=small, fill=MUTED, anchor="rm")
    if len(view["seats"]) > 1:
        draw.text((cols["rank"], head), "Rank", font=small, fill=MUTED, anchor="mm")
    if nxt is not None:
        for tile, x in zip(view["scoring_tiles"], cols["tiles"], strict=True):
            fill = TILE_COLOURS.get(tile["colour"], MUTED)
            draw.rounded_rectangle((x - 17, head - 17, x + 17, head + 17), radius=6, fill=fill)
            draw.text((x, head), tile["letter"], font=small, fill=text_colour(fill), anchor="mm")
        draw.text((cols["sum"], head), "Total", font=small, fill=MUTED, anchor="rm")
    top = head + 24
    for seat, name in zip(view["seats"], names, strict=True):
        _player_row(draw, (x0 + 10, top, x1 - 10, top + ROW_H - 6), seat, name, view, cols)
        top += ROW_H


def _columns(x0: int, x1: int, view: dict[str, Any]) -> dict[str, Any]:
    """Column anchors of the players table, laid out from the right edge."""
    right = x1 - PAD - 8
    tiles = len(view["scoring_tiles"]) if view["next_scoring"] is not None else 0
    tile_xs = [right - 100 - 70 * (tiles - i) + 35 for i in range(tiles)]
    vp = (tile_xs[0] - 56) if tiles else right
    return {
        "badge": x0 + PAD,
        "name": x0 + PAD + 62,
        "rank": vp - 110,
        "vp": vp,
        "tiles": tile_xs,
        "sum": right,
        "name_end": vp - 150,
    }


def _player_row(
    draw: ImageDraw.ImageDraw,
    box: Box,
    seat: dict[str, Any],
    name: str,
    view: dict[str, Any],
    cols: dict[str, Any],
) -> None:
    """One seat: tinted in its colour, numbered badge, name, status, rank, VP, next payouts."""
    i = int(seat["seat"])
    colour = SEATS[i % len(SEATS)]
    draw.rounded_rectangle(box, radius=12, fill=blend(colour, PANEL, 0.8))
    cy = (box[1] + box[3]) / 2
    seat_badge(draw, (cols["badge"], int(cy - 22), cols["badge"] + 48, int(cy + 22)), i)
    status = _status(seat, view)
    end = cols["name_end"] - (font(MIN_TEXT).getlength(status) + 14 if status else 0)
    suffix = " (you)" if view.get("viewer") == i else ""
    big = font(28, bold=True)
    label = fit(name, big, int(end - cols["name"] - big.getlength(suffix))) + suffix
    draw.text((cols["name"], cy), label, font=big, fill=INK, anchor="lm")
    if status:
        draw.text((cols["name_end"], cy), status, font=font(MIN_TEXT), fill=MUTED, anchor="rm")
    if len(view["seats"]) > 1:
        shared = sum(1 for s in view["seats"] if s["rank"] == seat["rank"]) > 1
        rank = ("=" if shared else "") + ordinal(int(seat["rank"]))
        draw.text((cols["rank"], cy), rank, font=font(26, bold=True), fill=INK, anchor="mm")
    draw.text((cols["vp"], cy), str(seat["vp"]), font=font(36, bold=True), fill=INK, anchor="rm")
    if view["next_scoring"] is None:
        return
    pays = [int(t["next_pays"][i]) for t in view["scoring_tiles"]]
    for x, vp in zip(cols["tiles"], pays, strict=True):
        ink = INK if vp else MUTED
        draw.text((x, cy), f"+{vp}", font=font(26, bold=bool(vp)), fill=ink, anchor="mm")
    draw.text((cols["sum"], cy), f"+{sum(pays)}", font=font(28, bold=True), fill=INK, anchor="rm")


def _status(seat: dict[str, Any], view: dict[str, Any]) -> str:
    """Whether the seat has locked in its plan (only while planning)."""
    if view["over"] or view["phase"] != "plan":
        return ""
    return "✓ locked in" if seat["submitted"] else "planning…"
