"""Pieces shared by the Propeller Islands images: hex tiles, guild marks, resources, cards,
effect legends."""

import math
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    INK,
    MIN_TEXT,
    MUTED,
    PANEL,
    RGB,
    RULE,
    SEATS,
    Box,
    Sprite,
    blend,
    drawer,
    fit,
    font,
    meeple,
    paste_sprite,
    printable,
    replayed,
    seat_badge,
    sprite,
    text_colour,
    two_lines,
)

SQRT3 = math.sqrt(3)
PAD = 20
SHADOW: RGB = (222, 215, 200)

GUILDS: dict[str, tuple[RGB, str]] = {
    "I": ((196, 78, 52), "Industry"),
    "S": ((52, 124, 196), "Science"),
    "C": ((142, 84, 170), "Culture"),
    "*": ((250, 250, 250), "every guild"),
}
"""Guild colours; the letter is always drawn on them."""

RESOURCES: dict[str, tuple[RGB, str]] = {
    "energy": ((250, 204, 40), "E"),
    "steel": ((150, 160, 172), "S"),
    "parts": ((196, 132, 72), "P"),
}

CATEGORY_FILL: dict[str, RGB] = {
    "capitol": (244, 216, 140),
    "guild": (240, 230, 210),
    "hub": (214, 230, 240),
    "depot": (222, 222, 214),
    "landmark": (234, 218, 236),
}

TOKEN_RESOURCE = {"PROD-E": "energy", "PROD-S": "steel", "PROD-P": "parts"}


def hex_corners(cx: float, cy: float, s: float) -> list[tuple[float, float]]:
    """The six corners of a flat-topped hex of circumradius `s`."""
    return [
        (cx + s * math.cos(math.radians(a)), cy + s * math.sin(math.radians(a)))
        for a in range(0, 360, 60)
    ]


def axial_xy(q: int, r: int, s: float) -> tuple[float, float]:
    """Pixel offset of axial hex (q, r) from the Capitol, flat-topped."""
    return s * 1.5 * q, s * SQRT3 * (r + q / 2)


def panel_box(draw: ImageDraw.ImageDraw, box: Box, title: str = "") -> None:
    """A rounded panel with a drop shadow and an optional small-caps title."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle((x0 + 2, y0 + 4, x1 + 2, y1 + 4), radius=16, fill=SHADOW)
    draw.rounded_rectangle(box, radius=16, fill=PANEL, outline=RULE, width=2)
    if title:
        draw.text((x0 + 18, y0 + 14), title.upper(), font=font(MIN_TEXT, bold=True), fill=MUTED)


def hub_icon(draw: ImageDraw.ImageDraw, centre: tuple[float, float], r: float, guild: str) -> None:
    """A hub: a ring in the guild colour (white for the Capitol's any-guild hub) with its letter."""
    cx, cy = centre
    fill = GUILDS[guild][0]
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=INK, width=2)
    inner = r * 0.7
    draw.ellipse((cx - inner, cy - inner, cx + inner, cy + inner), fill=PANEL)
    draw.text((cx, cy + 1), guild, font=font(MIN_TEXT, bold=True), fill=INK, anchor="mm")


def banner_icon(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], h: float, guild: str
) -> None:
    """A banner: a notched pennant in the guild colour with its letter."""
    cx, cy = centre
    w = h * 0.82
    x0, y0, x1, y1 = cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2
    fill = GUILDS[guild][0]
    draw.polygon(
        [(x0, y0), (x1, y0), (x1, y1), (cx, y1 - h * 0.24), (x0, y1)],
        fill=fill,
        outline=INK,
        width=2,
    )
    draw.text(
        (cx, cy - h * 0.1),
        guild,
        font=font(MIN_TEXT, bold=True, condensed=True),
        fill=text_colour(fill),
        anchor="mm",
    )


def resource_icon(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], r: float, kind: str
) -> None:
    """A resource token: a disc in its colour with its letter (E, S or P)."""
    cx, cy = centre
    fill, letter = RESOURCES[kind]
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=INK, width=2)
    draw.text((cx, cy + 1), letter, font=font(int(r * 1.15), bold=True), fill=INK, anchor="mm")


def token_mark(draw: ImageDraw.ImageDraw, box: Box, kind: str, token: str | None) -> None:
    """An upgrade slot (P, B or W): its letter while free, the installed token otherwise."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    if token is None:
        draw.rounded_rectangle(box, radius=4, fill=PANEL, outline=MUTED, width=1)
        draw.text((cx, cy + 1), kind, font=font(MIN_TEXT), fill=MUTED, anchor="mm")
    elif token in TOKEN_RESOURCE:
        fill, letter = RESOURCES[TOKEN_RESOURCE[token]]
        draw.rounded_rectangle(box, radius=4, fill=fill, outline=INK, width=2)
        fnt = font(MIN_TEXT, bold=True, condensed=True)
        draw.text((cx, cy + 1), "+" + letter, font=fnt, fill=INK, anchor="mm")
    elif token.startswith("BAN-"):
        banner_icon(draw, (cx, cy), y1 - y0 + 2, token[-1])
    else:
        draw.rounded_rectangle(box, radius=4, fill=(250, 250, 250), outline=INK, width=2)
        draw.text((cx, cy + 1), "?", font=font(MIN_TEXT, bold=True), fill=INK, anchor="mm")


def token_label(token: str) -> tuple[str, str]:
    """What an upgrade token is and does, in two short parts."""
    if token in TOKEN_RESOURCE:
        return "Production", "+1 " + TOKEN_RESOURCE[token]
    if token.startswith("BAN-"):
        return "Banner", GUILDS[token[-1]][1]
    return "Wild die", "number → ?"


@cache
def _lying_worker(seat: int, size: int) -> tuple[Sprite, tuple[int, int]]:
    """A worker meeple on its side (used this round) and its size, cached per seat and size."""
    img = Image.new("RGBA", (size + 8, size + 8), (0, 0, 0, 0))
    meeple(
        ImageDraw.Draw(img), ((size + 8) / 2, (size + 8) / 2), size, SEATS[seat % len(SEATS)], ""
    )
    lying = img.transpose(Image.Transpose.ROTATE_90)
    return sprite(lying), lying.size


def worker(
    img: Image.Image, centre: tuple[float, float], size: int, seat: int, state: str | None
) -> None:
    """A worker standing (ready, with the seat number) or lying (used), or an empty house."""
    draw = drawer(img)
    cx, cy = centre
    if state == "ready":
        meeple(draw, centre, size, SEATS[seat % len(SEATS)], str(seat + 1))
    elif state == "lying":
        lying, (width, height) = _lying_worker(seat, size)
        paste_sprite(draw, lying, (int(cx - width / 2), int(cy - height / 2 + 4)))
    else:
        h = size * 0.8
        draw.polygon(
            [
                (cx - h / 2, cy + h / 2),
                (cx - h / 2, cy - h / 8),
                (cx, cy - h / 2),
                (cx + h / 2, cy - h / 8),
                (cx + h / 2, cy + h / 2),
            ],
            fill=PANEL,
            outline=MUTED,
            width=2,
        )


def tile(
    img: Image.Image,
    centre: tuple[float, float],
    s: float,
    cell: dict[str, Any],
    seat: int | None = None,
    landmark_vp: int | None = None,
) -> None:
    """One building hex: number or '?', hub/banner, name, upgrade slots and the worker spot."""
    draw = drawer(img)
    cx, cy = centre
    cat = cell["category"]
    draw.polygon(hex_corners(cx, cy, s), fill=CATEGORY_FILL[cat], outline=INK, width=2)
    top = cy - 0.56 * s
    if cat in ("guild", "hub", "capitol"):
        r = max(18.0, 0.22 * s)
        number = "?" if cell["number"] is None else str(cell["number"])
        draw.ellipse((cx - r, top - r, cx + r, top + r), fill=(255, 255, 255), outline=INK, width=2)
        draw.text((cx, top + 1), number, font=font(int(r * 1.35), bold=True), fill=INK, anchor="mm")
    icon_x = cx - 0.42 * s
    if cell["hub"]:
        hub_icon(draw, (icon_x, top + 2), max(19.0, 0.2 * s), cell["hub"])
    # Island cells carry printed_banner (their banners list also holds BAN tokens); offers: banner.
    if printed := cell.get("printed_banner", cell.get("banner")):
        banner_icon(draw, (icon_x, top + 2), max(34.0, 0.34 * s), printed)
    if seat is not None and (cell.get("housing") or cell.get("worker")):
        state = cell.get("worker")
        size = int(max(34, 0.42 * s) * (0.85 if state == "lying" else 1))
        dx = 0.48 * s if state == "lying" else 0.42 * s
        worker(img, (cx + dx, top + 2), size, seat, state)
    name = cell["name"].replace("(", "").replace(")", "")
    fnt = font(MIN_TEXT, bold=True, condensed=True)
    lines = two_lines(name, fnt, 1.7 * s)
    line_h = MIN_TEXT + 2
    y = cy + 0.02 * s - (len(lines) - 1) * line_h / 2
    for line in lines:
        draw.text((cx, y), line, font=fnt, fill=INK, anchor="mm")
        y += line_h
    slots = cell["slots"]
    if cat == "landmark" and landmark_vp is not None:
        draw.text(
            (cx, cy + 0.56 * s),
            f"★ {landmark_vp} VP",
            font=font(MIN_TEXT, bold=True),
            fill=INK,
            anchor="mm",
        )
    if slots:
        tokens = cell.get("tokens", {})
        w, gap = 30, 4
        x = cx - (len(slots) * w + (len(slots) - 1) * gap) / 2
        y0 = cy + 0.6 * s - w / 2
        for kind in slots:
            token_mark(draw, (int(x), int(y0), int(x + w), int(y0 + w)), kind, tokens.get(kind))
            x += w + gap


def empty_hex(draw: ImageDraw.ImageDraw, centre: tuple[float, float], s: float, label: str) -> None:
    """A free hex (a placement spot or an empty offer space), faint, with a label if any. Its
    dashed outline is replayed where it was drawn before (the same spots stay free)."""
    replayed(draw, ("empty hex", centre, s), lambda d: _dashed_hex(d, centre, s))
    if label:
        draw.text(centre, label, font=font(MIN_TEXT), fill=MUTED, anchor="mm")


def _dashed_hex(draw: ImageDraw.ImageDraw, centre: tuple[float, float], s: float) -> None:
    cx, cy = centre
    corners = hex_corners(cx, cy, s * 0.96)
    draw.polygon(corners, fill=blend(PANEL, RULE, 0.25))
    for a, b in zip(corners, corners[1:] + corners[:1], strict=True):
        for k in range(0, 10, 2):
            start, end = k / 10, (k + 1) / 10
            x0, y0 = a[0] + (b[0] - a[0]) * start, a[1] + (b[1] - a[1]) * start
            x1, y1 = a[0] + (b[0] - a[0]) * end, a[1] + (b[1] - a[1]) * end
            draw.line((x0, y0, x1, y1), fill=MUTED, width=2)


def card(draw: ImageDraw.ImageDraw, box: Box, info: dict[str, Any] | None) -> None:
    """A blueprint card: id, cost in E/S/P, the upgrade it gives and its VP (None: face down)."""
    x0, y0, x1, y1 = box
    if info is None:
        draw.rounded_rectangle(box, radius=10, fill=(70, 92, 128), outline=INK, width=2)
        draw.rounded_rectangle(
            (x0 + 8, y0 + 8, x1 - 8, y1 - 8), radius=6, outline=(160, 180, 210), width=2
        )
        draw.text(
            ((x0 + x1) / 2, (y0 + y1) / 2),
            "Blueprint",
            font=font(MIN_TEXT, bold=True),
            fill=(255, 255, 255),
            anchor="mm",
        )
        return
    fill = (232, 240, 250) if info["level"] == "I" else (250, 236, 214)
    draw.rounded_rectangle(box, radius=10, fill=fill, outline=INK, width=2)
    draw.text((x0 + 12, y0 + 8), info["id"], font=font(MIN_TEXT, bold=True), fill=INK)
    draw.text(
        (x1 - 12, y0 + 6), f"{info['vp']} VP", font=font(26, bold=True), fill=INK, anchor="ra"
    )
    cost = [kind for kind in RESOURCES if info[kind]]
    step = min(84, (x1 - x0 - 16) // max(1, len(cost)))
    for i, kind in enumerate(cost):
        x, y = x0 + 12 + i * step, y0 + 62
        resource_icon(draw, (x + 15, y), 15, kind)
        fnt = font(MIN_TEXT, bold=True, condensed=True)
        draw.text((x + 33, y), f"×{info[kind]}", font=fnt, fill=INK, anchor="lm")
    if not cost:
        draw.text((x0 + 12, y0 + 62), "free", font=font(MIN_TEXT), fill=MUTED, anchor="lm")
    token_mark(draw, (x0 + 12, y1 - 58, x0 + 46, y1 - 24), info["kind"], info["token"])
    for i, text in enumerate(token_label(info["token"])):
        fnt = font(MIN_TEXT, bold=i == 0, condensed=True)
        draw.text(
            (x0 + 56, y1 - 60 + i * 27),
            fit(text, fnt, x1 - x0 - 64),
            font=fnt,
            fill=INK,
            anchor="lt",
        )


def name_line(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    seat: int,
    names: Sequence[str],
    width: int,
    size: int = 28,
) -> None:
    """A seat badge followed by the player's name (made printable and cut to `width`)."""
    x, y = xy
    seat_badge(draw, (int(x), int(y - 20), int(x + 42), int(y + 20)), seat)
    fnt = font(size, bold=True)
    draw.text((x + 54, y), fit(names[seat], fnt, width - 54), font=fnt, fill=INK, anchor="lm")


LINE_H = 32
"""Line pitch of wrapped text."""
LEGEND_TOP = 54
LEGEND_COLUMN_GAP = 28
SWATCH = 36
"""Indent of a legend entry: a small hex in its category colour, then the text."""


def labelled_lines(label: str, text: str, width: int, size: int = MIN_TEXT) -> list[str]:
    """`text` wrapped into lines of `width` px, the first one after a bold `label` and a space."""
    fnt = font(size)
    first = width - font(size, bold=True).getlength(label + " ")
    lines = [""]
    for word in printable(text).split():
        trial = f"{lines[-1]} {word}".strip()
        limit = first if len(lines) == 1 else width
        if fnt.getlength(trial) <= limit:
            lines[-1] = trial
        else:
            lines.append(word)
    return [fit(line, fnt, width) for line in lines]


def draw_labelled(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    label: str,
    lines: list[str],
    size: int = MIN_TEXT,
    fill: RGB = INK,
) -> None:
    """Lines from `labelled_lines` with their top-left at `xy`: the bold label, then the text."""
    x, y = xy
    bold = font(size, bold=True)
    draw.text((x, y), label, font=bold, fill=fill)
    indent = bold.getlength(label + " ")
    for i, line in enumerate(lines):
        draw.text((x + indent * (i == 0), y + i * LINE_H), line, font=font(size), fill=fill)


Column = list[tuple[dict[str, Any], list[str]]]


def legend_columns(tiles: Iterable[dict[str, Any]], width: int, columns: int = 1) -> list[Column]:
    """One entry (tile, wrapped effect lines) per distinct tile type, in type order, split into
    balanced columns sharing `width` px."""
    kinds: dict[str, dict[str, Any]] = {}
    for t in tiles:
        if t.get("tile"):
            kinds.setdefault(t["tile"][:2], t)
    col_w = (width - (columns - 1) * LEGEND_COLUMN_GAP) // columns - SWATCH
    entries = [
        (kinds[k], labelled_lines(kinds[k]["name"] + ":", kinds[k]["text"], col_w))
        for k in sorted(kinds)
    ]
    heights = [len(lines) * LINE_H + 6 for _, lines in entries]
    target = max([sum(heights) // columns, *heights], default=0)
    while True:
        out: list[Column] = [[]]
        used = 0
        for entry, h in zip(entries, heights, strict=True):
            if used + h > target and out[-1]:
                out.append([])
                used = 0
            out[-1].append(entry)
            used += h
        if len(out) <= columns:
            return out
        target += LINE_H


def legend_height(columns: list[Column]) -> int:
    """Height of the legend panel drawn by `legend`."""
    tallest = max((sum(len(lines) * LINE_H + 6 for _, lines in col) for col in columns), default=0)
    return LEGEND_TOP + tallest + 12


def legend(draw: ImageDraw.ImageDraw, box: Box, title: str, columns: list[Column]) -> None:
    """A panel listing tile types (a swatch in the category colour, bold name, effect text)."""
    x0, y0, x1, _ = box
    panel_box(draw, box, title)
    col_w = (x1 - x0 - 2 * PAD - (len(columns) - 1) * LEGEND_COLUMN_GAP) / max(1, len(columns))
    for i, col in enumerate(columns):
        x = x0 + PAD + i * (col_w + LEGEND_COLUMN_GAP)
        y = y0 + LEGEND_TOP
        for t, lines in col:
            fill = CATEGORY_FILL[t["category"]]
            draw.polygon(hex_corners(x + 13, y + 15, 13), fill=fill, outline=INK, width=1)
            draw_labelled(draw, (x + SWATCH, y), t["name"] + ":", lines)
            y += len(lines) * LINE_H + 6


CHOICE: RGB = (255, 196, 0)
"""The outline and fill tint of a spot or tile the seat may pick now."""


def spot_mark(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], s: float, label: str, filled: bool
) -> None:
    """A spot the pending decision may pick, named by `label` as its menu names it: an empty
    hex tinted with a large letter, or a tile ringed, its letter on a badge where its worker
    stands (the tile's name and number stay readable)."""
    cx, cy = centre
    if not filled:
        fnt = font(max(MIN_TEXT + 10, int(0.5 * s)), bold=True)
        draw.polygon(hex_corners(cx, cy, s * 0.96), fill=blend(PANEL, CHOICE, 0.45))
        draw.polygon(hex_corners(cx, cy, s * 0.96), outline=INK, width=3)
        draw.text((cx, cy), label, font=fnt, fill=INK, anchor="mm")
        return
    draw.polygon(hex_corners(cx, cy, s - 2), outline=CHOICE, width=6)
    choice_badge(draw, (cx + 0.5 * s, cy - 0.5 * s), label, MIN_TEXT + 6)


def choice_badge(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], label: str, size: int
) -> None:
    """A choice's short name (a letter, a number), white on a dark pill centred at `centre`."""
    cx, cy = centre
    fnt = font(size, bold=True)
    r = max(fnt.getlength(label) / 2 + 8, size / 2 + 6)
    h = size / 2 + 6
    draw.rounded_rectangle((cx - r, cy - h, cx + r, cy + h), radius=int(h), fill=INK)
    draw.text((cx, cy), label, font=fnt, fill=(255, 255, 255), anchor="mm")


def offer_tag(draw: ImageDraw.ImageDraw, centre: tuple[float, float], space: int) -> None:
    """An offer space's name ("O4"), white on a dark pill centred at `centre`."""
    tx, ty = centre
    label = f"O{space}"
    fnt = font(MIN_TEXT, bold=True)
    w = fnt.getlength(label) / 2 + 8
    draw.rounded_rectangle((tx - w, ty - 16, tx + w, ty + 16), radius=10, fill=INK)
    draw.text((tx, ty), label, font=fnt, fill=(255, 255, 255), anchor="mm")
