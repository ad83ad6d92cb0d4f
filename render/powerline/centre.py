"""The shared centre board: dice, round track, scoring tiles and every player's VP."""

from collections.abc import Sequence
from typing import Any

from PIL import ImageDraw

from render.common import (
    BACKGROUND,
    DICE,
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    RGB,
    RULE,
    SEATS,
    Box,
    blend,
    canvas,
    die,
    fit,
    font,
    ordinal,
    player_names,
    png,
    seat_badge,
    text_colour,
)

WIDTH = 1200
MARGIN = 32
GAP = 20
PAD = 22
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

HEADER_H = 84
DICE_H = 206
TRACK_H = 196
TILE_ROW_H = 46
TILES_H = 86 + 3 * TILE_ROW_H
ROW_H = 56


def centre_board(view: dict[str, Any], names: Sequence[str] | None = None) -> bytes:
    """PNG of the centre board as `view` shows it; `names` label seats (default "Seat 1", …)."""
    seats = view["seats"]
    labels = player_names(len(seats), names)
    players_h = 2 * PAD + 70 + ROW_H * len(seats)
    height = MARGIN * 2 + HEADER_H + DICE_H + TRACK_H + TILES_H + players_h + 3 * GAP
    img, draw = canvas(WIDTH, height, BACKGROUND)
    y = MARGIN
    _header(draw, y, view)
    y += HEADER_H
    _dice(draw, (MARGIN, y, WIDTH - MARGIN, y + DICE_H), view)
    y += DICE_H + GAP
    _track(draw, (MARGIN, y, WIDTH - MARGIN, y + TRACK_H), view)
    y += TRACK_H + GAP
    _tiles(draw, y, view)
    y += TILES_H + GAP
    _players(draw, (MARGIN, y, WIDTH - MARGIN, y + players_h), view, labels)
    return png(img)


def panel(draw: ImageDraw.ImageDraw, box: Box, title: str = "", note: str = "") -> None:
    """A rounded panel with an optional bold title and a muted note on the right."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle((x0 + 2, y0 + 4, x1 + 2, y1 + 4), radius=RADIUS, fill=SHADOW)
    draw.rounded_rectangle(box, radius=RADIUS, fill=PANEL, outline=RULE, width=2)
    if title:
        draw.text((x0 + PAD, y0 + PAD), title, font=font(22, bold=True), fill=INK, anchor="lt")
    if note:
        width = x1 - x0 - 2 * PAD - int(font(22, bold=True).getlength(title)) - 24
        note = fit(note, font(16), width)
        draw.text((x1 - PAD, y0 + PAD + 4), note, font=font(16), fill=MUTED, anchor="rt")


# ---- sections ---------------------------------------------------------------------------------


def _header(draw: ImageDraw.ImageDraw, y: int, view: dict[str, Any]) -> None:
    """Title, round and phase on the left; variants on the right."""
    draw.text((MARGIN, y), "Powerline", font=font(36, bold=True), fill=INK, anchor="lt")
    draw.text((MARGIN + 2, y + 48), _phase_text(view), font=font(18), fill=MUTED, anchor="lt")
    rnd = "Game over" if view["over"] else f"Round {view['round']} of {view['rounds']}"
    draw.text((WIDTH - MARGIN, y + 2), rnd, font=font(30, bold=True), fill=INK, anchor="rt")
    variants = ", ".join(v.replace("_", " ") for v in view["variants"]) or "none"
    text = fit(f"Variants: {variants}", font(16), INNER // 2)
    draw.text((WIDTH - MARGIN, y + 50), text, font=font(16), fill=MUTED, anchor="rt")


def _phase_text(view: dict[str, Any]) -> str:
    """What the table is waiting for, in words."""
    if view["over"]:
        return f"All {view['rounds']} rounds played: final scores below."
    if view["phase"] == "roll" or view["dice"] is None:
        return "Waiting for the dice to be rolled."
    ready = sum(1 for s in view["seats"] if s["submitted"])
    return f"Dice rolled: planning ({ready} of {len(view['seats'])} locked in)."


def _dice(draw: ImageDraw.ImageDraw, box: Box, view: dict[str, Any]) -> None:
    """The six dice in colour order, each with its initial and colour name beneath."""
    dice = view["dice"]
    note = "no more rolls" if view["over"] else "" if dice else "not rolled yet"
    panel(draw, box, "Dice", note)
    x0, y0, x1, _ = box
    colours, initials = view["colors"], view["color_initials"]
    cell = (x1 - x0 - 2 * PAD) / len(colours)
    size = 88
    top = y0 + PAD + 40
    for i, (colour, initial) in enumerate(zip(colours, initials, strict=True)):
        cx = x0 + PAD + cell * (i + 0.5)
        face = (cx - size / 2, top, cx + size / 2, top + size)
        fill = DICE.get(colour, MUTED)
        if dice and dice.get(colour):
            die(draw, face, int(dice[colour]), fill, width=3)
        else:
            _blank_die(draw, face, fill)
        _die_label(draw, (cx, top + size + 24), initial, colour)


def _blank_die(draw: ImageDraw.ImageDraw, box: tuple[float, ...], fill: RGB) -> None:
    """An unrolled die: a pale face of its colour with a question mark."""
    pale = blend(fill, PANEL, 0.6)
    draw.rounded_rectangle(box, radius=16, fill=pale, outline=MUTED, width=2)
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    draw.text((cx, cy), "?", font=font(40, bold=True), fill=text_colour(pale), anchor="mm")


def _die_label(draw: ImageDraw.ImageDraw, at: tuple[float, float], initial: str, name: str) -> None:
    """The colour initial in bold beside the colour's name, centred on `at`."""
    big, small = font(26, bold=True), font(17)
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
    panel(
        draw, box, "Round track", "J = jokers each player takes at that scoring" if waiting else ""
    )
    x0, y0, x1, _ = box
    after = view["scoring_after"]
    cells = [("round", r) for r in range(1, view["rounds"] + 1)]
    for k, r in reversed(list(enumerate(after, start=1))):
        cells.insert(r, ("scoring", k))
    gap, ratio = 6, 1.45
    units = sum(ratio if kind == "scoring" else 1 for kind, _ in cells)
    unit = (x1 - x0 - 2 * PAD - gap * (len(cells) - 1)) / units
    top, height = y0 + PAD + 74, 58
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
    draw.rounded_rectangle(
        cell, radius=8, fill=fill, outline=INK if current else RULE, width=3 if current else 2
    )
    cx, cy = (cell[0] + cell[2]) / 2, (cell[1] + cell[3]) / 2
    colour = INK if not done or current else MUTED
    draw.text((cx, cy), str(n), font=font(22, bold=current or not done), fill=colour, anchor="mm")
    if current:
        _marker(draw, cx, cell[3], "now")


def _scoring_cell(draw: ImageDraw.ImageDraw, cell: Box, k: int, view: dict[str, Any]) -> None:
    """A scoring space: dark until scored, ringed when next, with its waiting jokers above."""
    nxt = view["next_scoring"]
    done = nxt is None or k < nxt
    fill = (190, 184, 172) if done else (58, 58, 66)
    outline = HIGHLIGHT if k == nxt else INK
    draw.rounded_rectangle(cell, radius=10, fill=fill, outline=outline, width=4 if k == nxt else 2)
    cx = (cell[0] + cell[2]) / 2
    ink = text_colour(fill)
    draw.text((cx, cell[1] + 17), "Scoring", font=font(14, bold=True), fill=ink, anchor="mm")
    mark = f"{k} ✓" if done else str(k)
    draw.text((cx, cell[1] + 40), mark, font=font(20, bold=True), fill=ink, anchor="mm")
    if k == nxt:
        _marker(draw, cx, cell[3], "next")
    jokers = view["jokers_above_scoring"]
    if k - 1 < len(jokers) and jokers[k - 1]:
        _jokers(draw, (cx, cell[1] - 20), int(jokers[k - 1]))


def _marker(draw: ImageDraw.ImageDraw, cx: float, top: int, label: str) -> None:
    """An upward arrow under a track space with a word, so position is never colour alone."""
    draw.polygon([(cx, top + 6), (cx - 8, top + 18), (cx + 8, top + 18)], fill=INK)
    draw.text((cx, top + 22), label, font=font(16, bold=True), fill=INK, anchor="mt")


def _jokers(draw: ImageDraw.ImageDraw, at: tuple[float, float], count: int) -> None:
    """A joker token with the count each player takes, centred on `at`."""
    text = f"×{count} each"
    fnt = font(15, bold=True)
    r = 12
    width = 2 * r + 5 + fnt.getlength(text)
    x, y = at[0] - width / 2, at[1]
    draw.ellipse((x, y - r, x + 2 * r, y + r), fill=JOKER, outline=INK, width=2)
    draw.text((x + r, y), "J", font=font(15, bold=True), fill=(255, 255, 255), anchor="mm")
    draw.text((x + 2 * r + 5, y), text, font=fnt, fill=INK, anchor="lm")


def _tiles(draw: ImageDraw.ImageDraw, y: int, view: dict[str, Any]) -> None:
    """The scoring tiles in play, side by side."""
    tiles = view["scoring_tiles"]
    if not tiles:
        return
    width = (INNER - GAP * (len(tiles) - 1)) // len(tiles)
    for i, tile in enumerate(tiles):
        x = MARGIN + i * (width + GAP)
        _tile(draw, (x, y, x + width, y + TILES_H), tile, view)


def _tile(draw: ImageDraw.ImageDraw, box: Box, tile: dict[str, Any], view: dict[str, Any]) -> None:
    """One scoring tile: its letter and title, then what each of the three scorings pays."""
    panel(draw, box)
    x0, y0, x1, _ = box
    fill = TILE_COLOURS.get(tile["colour"], MUTED)
    badge = (x0 + PAD, y0 + PAD, x0 + PAD + 44, y0 + PAD + 44)
    draw.rounded_rectangle(badge, radius=10, fill=fill, outline=INK, width=2)
    draw.text(
        (badge[0] + 22, badge[1] + 22),
        tile["letter"],
        font=font(26, bold=True),
        fill=text_colour(fill),
        anchor="mm",
    )
    left = badge[2] + 12
    room = x1 - PAD - left
    fnt = font(19, bold=True)
    if fnt.getlength(tile["title"]) > room:
        fnt = font(19, bold=True, condensed=True)
    draw.text((left, badge[1] + 2), fit(tile["title"], fnt, room), font=fnt, fill=INK, anchor="lt")
    draw.text((left, badge[1] + 26), "count → VP", font=font(14), fill=MUTED, anchor="lt")
    top = y0 + 80
    for k, row in enumerate(tile["rows"], start=1):
        _tile_row(draw, (x0 + 10, top, x1 - 10, top + TILE_ROW_H - 4), k, row, view)
        top += TILE_ROW_H


def _tile_row(
    draw: ImageDraw.ImageDraw, box: Box, k: int, row: dict[str, Any], view: dict[str, Any]
) -> None:
    """The k-th scoring's payouts; the next scoring's row is highlighted, past ones muted."""
    nxt = view["next_scoring"]
    done = nxt is None or k < nxt
    if k == nxt:
        draw.rounded_rectangle(box, radius=10, fill=NEXT_ROW, outline=HIGHLIGHT, width=2)
    x0, y0, x1, y1 = box
    cy = (y0 + y1) / 2
    ink = MUTED if done else INK
    after = view["scoring_after"]
    draw.text((x0 + 12, cy - 9), ordinal(k), font=font(17, bold=True), fill=ink, anchor="lm")
    sub = "next" if k == nxt else "done" if done else f"after R{after[k - 1]}"
    draw.text((x0 + 12, cy + 10), sub, font=font(14, bold=k == nxt), fill=ink, anchor="lm")
    x = x0 + 82
    for text in _payouts(row):
        x = _chip(draw, x, cy, text, ink, x1 - 6)


def _payouts(row: dict[str, Any]) -> list[str]:
    """A tile row as short "count: VP" labels, as printed on the tile."""
    if not row.get("brackets"):
        return [f"{row.get('per_unit', 0)} VP each"]
    labels = []
    for b in row["brackets"]:
        lo, hi = b["min"], b["max"]
        count = f"{lo}+" if hi is None else str(lo) if lo == hi else f"{lo}–{hi}"
        labels.append(f"{count}: {b['vp']}")
    return labels


def _chip(
    draw: ImageDraw.ImageDraw, x: float, cy: float, text: str, ink: RGB, limit: float
) -> float:
    """A small rounded label at `x`; returns where the next one may start."""
    fnt = font(17, bold=True, condensed=True)
    text = fit(text, fnt, max(20, int(limit - x - 16)))
    width = fnt.getlength(text) + 16
    draw.rounded_rectangle(
        (x, cy - 15, x + width, cy + 15), radius=8, fill=PANEL, outline=RULE, width=2
    )
    draw.text((x + 8, cy), text, font=fnt, fill=ink, anchor="lm")
    return x + width + 6


def _players(draw: ImageDraw.ImageDraw, box: Box, view: dict[str, Any], names: list[str]) -> None:
    """Every seat with its name, rank, VP and what the next scoring would pay it per tile."""
    nxt = view["next_scoring"]
    after = view["scoring_after"][nxt - 1] if nxt else None
    note = "final VP" if nxt is None else f"+: what scoring {nxt} (after round {after}) pays now"
    panel(draw, box, "Players", note)
    x0, y0, x1, _ = box
    cols = _columns(x0, x1, view)
    head = y0 + PAD + 50
    small = font(14, bold=True)
    draw.text((cols["vp"], head), "VP", font=small, fill=MUTED, anchor="rm")
    if len(view["seats"]) > 1:
        draw.text((cols["rank"], head), "Rank", font=small, fill=MUTED, anchor="mm")
    if nxt is not None:
        for tile, x in zip(view["scoring_tiles"], cols["tiles"], strict=True):
            fill = TILE_COLOURS.get(tile["colour"], MUTED)
            draw.rounded_rectangle((x - 14, head - 13, x + 14, head + 13), radius=6, fill=fill)
            draw.text((x, head), tile["letter"], font=small, fill=text_colour(fill), anchor="mm")
        draw.text((cols["sum"], head), "Total", font=small, fill=MUTED, anchor="rm")
    top = head + 22
    for seat, name in zip(view["seats"], names, strict=True):
        _player_row(draw, (x0 + 10, top, x1 - 10, top + ROW_H - 6), seat, name, view, cols)
        top += ROW_H


def _columns(x0: int, x1: int, view: dict[str, Any]) -> dict[str, Any]:
    """Column anchors of the players table, laid out from the right edge."""
    right = x1 - PAD - 8
    tiles = len(view["scoring_tiles"]) if view["next_scoring"] is not None else 0
    tile_xs = [right - 90 - 72 * (tiles - i) + 36 for i in range(tiles)]
    vp = (tile_xs[0] - 60) if tiles else right
    return {
        "badge": x0 + PAD,
        "name": x0 + PAD + 62,
        "rank": vp - 150,
        "vp": vp,
        "tiles": tile_xs,
        "sum": right,
        "name_end": vp - 200,
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
    seat_badge(draw, (cols["badge"], int(cy - 20), cols["badge"] + 46, int(cy + 20)), i)
    status = _status(seat, view)
    end = cols["name_end"] - (font(15).getlength(status) + 16 if status else 0)
    suffix = " (you)" if view.get("viewer") == i else ""
    big = font(22, bold=True)
    label = fit(name, big, int(end - cols["name"] - big.getlength(suffix))) + suffix
    draw.text((cols["name"], cy), label, font=big, fill=INK, anchor="lm")
    if status:
        draw.text((cols["name_end"], cy), status, font=font(15), fill=MUTED, anchor="rm")
    if len(view["seats"]) > 1:
        shared = sum(1 for s in view["seats"] if s["rank"] == seat["rank"]) > 1
        rank = ("=" if shared else "") + ordinal(int(seat["rank"]))
        draw.text((cols["rank"], cy), rank, font=font(20, bold=True), fill=INK, anchor="mm")
    draw.text((cols["vp"], cy), str(seat["vp"]), font=font(32, bold=True), fill=INK, anchor="rm")
    if view["next_scoring"] is None:
        return
    pays = [int(t["next_pays"][i]) for t in view["scoring_tiles"]]
    for x, vp in zip(cols["tiles"], pays, strict=True):
        ink = INK if vp else MUTED
        draw.text((x, cy), f"+{vp}", font=font(20, bold=bool(vp)), fill=ink, anchor="mm")
    draw.text((cols["sum"], cy), f"+{sum(pays)}", font=font(22, bold=True), fill=INK, anchor="rm")


def _status(seat: dict[str, Any], view: dict[str, Any]) -> str:
    """Whether the seat has locked in its plan (only while planning)."""
    if view["over"] or view["phase"] != "plan":
        return ""
    return "✓ locked in" if seat["submitted"] else "planning…"
