"""The shared table image: the forge with its dice, the 12 offer tiles, blueprints and players."""

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    HIGHLIGHT,
    INK,
    MIN_TEXT,
    MUTED,
    PANEL,
    RULE,
    WIDTH,
    blend,
    canvas,
    die,
    fit,
    font,
    player_names,
    png,
)
from render.propeller_islands.parts import (
    PAD,
    SQRT3,
    card,
    empty_hex,
    hex_corners,
    legend,
    legend_columns,
    legend_height,
    name_line,
    offer_tag,
    panel_box,
    resource_icon,
    tile,
)
from render.propeller_islands.status import die_note, status

MARGIN = 16
S = 104
HEADER_H = 112
FLOWER_BOX = (MARGIN, HEADER_H, WIDTH - MARGIN, HEADER_H + 990)
STACKS_H = 124
CARD_H = 176
OFFER_H = 54 + 2 * (40 + CARD_H) + 10
ROW_H = 54
FORGE_FILL = (200, 206, 214)
# Centre offsets (in hex radii) of the six forge spaces: F1 straight up, then clockwise.
DIRECTIONS = [
    (0.0, -SQRT3),
    (1.5, -SQRT3 / 2),
    (1.5, SQRT3 / 2),
    (0.0, SQRT3),
    (-1.5, SQRT3 / 2),
    (-1.5, -SQRT3 / 2),
]


def forge(view: dict[str, Any], names: Sequence[str] | None = None) -> bytes:
    """PNG of the forge (dice on their values), the offer tiles, the die in play and the stacks,
    the blueprint rows, every seat and what the tiles on offer do, top to bottom."""
    labels = player_names(len(view["seats"]), names)
    seats = view["seats"]
    stacks_y = FLOWER_BOX[3] + 16
    offer_y = stacks_y + STACKS_H + 16
    table_y = offer_y + OFFER_H + 16
    legend_y = table_y + 70 + ROW_H * len(seats) + 30
    on_offer = legend_columns(view["offer"], WIDTH - 2 * MARGIN - 2 * PAD)
    height = legend_y + legend_height(on_offer) + MARGIN
    img, draw = canvas(WIDTH, height)
    title = font(40, bold=True)
    draw.text((MARGIN + 4, 14), "Propeller Islands · the forge", font=title, fill=INK)
    line = " · ".join(x for x in (status(view, labels), die_note(view)) if x)
    sub = font(MIN_TEXT)
    draw.text((MARGIN + 6, 68), fit(line, sub, WIDTH - 2 * MARGIN - 12), font=sub, fill=MUTED)

    panel_box(draw, FLOWER_BOX, "Forge and offer")
    cx = (FLOWER_BOX[0] + FLOWER_BOX[2]) / 2
    cy = (FLOWER_BOX[1] + FLOWER_BOX[3]) / 2 + 12
    corners = hex_corners(cx, cy, S)
    draw.polygon(corners, fill=blend(PANEL, RULE, 0.4), outline=INK, width=2)
    draw.text((cx, cy - 16), "FORGE", font=font(MIN_TEXT, bold=True), fill=MUTED, anchor="mm")
    fnt = font(MIN_TEXT, condensed=True)
    draw.text((cx, cy + 16), "die → 3 spaces", font=fnt, fill=MUTED, anchor="mm")
    offer = {o["space"]: o for o in view["offer"]}
    for v in range(1, 7):
        dx, dy = DIRECTIONS[v - 1]
        nx, ny = DIRECTIONS[v % 6]
        _forge_space(draw, (cx + dx * S, cy + dy * S), v, view["forge"][str(v)])
        _offer(img, draw, (cx + 2 * dx * S, cy + 2 * dy * S), offer[2 * v - 1], (cx, cy))
        between = (cx + (dx + nx) * S, cy + (dy + ny) * S)
        _offer(img, draw, between, offer[2 * v], (cx, cy))

    _stacks(draw, view, stacks_y)
    _blueprints(draw, view, offer_y)
    _table(draw, view, labels, table_y)
    legend(draw, (MARGIN, legend_y, WIDTH - MARGIN, height - MARGIN), "Tiles on offer", on_offer)
    return png(img)


def _forge_space(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], v: int, count: int
) -> None:
    """Forge space Fv: its value and the dice lying on it."""
    x, y = centre
    draw.polygon(hex_corners(x, y, S), fill=FORGE_FILL, outline=INK, width=2)
    draw.text((x, y - 0.62 * S), f"F{v}", font=font(MIN_TEXT, bold=True), fill=INK, anchor="mm")
    size = 40
    shown = min(count, 6)
    per_row = 3
    for i in range(shown):
        row, col = divmod(i, per_row)
        in_row = min(per_row, shown - row * per_row)
        x0 = x - (in_row * size + (in_row - 1) * 6) / 2 + col * (size + 6)
        y0 = y - 16 + row * (size + 6) - (size + 6) / 2 * (shown > per_row)
        die(draw, (x0, y0, x0 + size, y0 + size), v, (250, 250, 250))
    if count == 0:
        draw.text((x, y + 8), "no dice", font=font(MIN_TEXT), fill=MUTED, anchor="mm")
    elif count > shown:
        fnt = font(MIN_TEXT, bold=True)
        draw.text((x, y + 0.66 * S), f"×{count}", font=fnt, fill=INK, anchor="mm")


def _offer(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    space: dict[str, Any],
    middle: tuple[float, float],
) -> None:
    """Offer space O<n>: its tile (or a dashed empty hex) and an 'O<n>' tag on the outside."""
    if space["tile"] is None:
        empty_hex(draw, centre, S, "empty")
    else:
        tile(img, centre, S, space)
    dx, dy = centre[0] - middle[0], centre[1] - middle[1]
    norm = (dx * dx + dy * dy) ** 0.5
    ux, uy = dx / norm, dy / norm
    label = f"O{space['space']}"
    fnt = font(MIN_TEXT, bold=True)
    w = fnt.getlength(label) / 2 + 8
    # Left and right, clear of the tile's name across the hex's middle.
    reach = S * 0.95 + 4 + w if abs(ux) > 0.95 else S + 6
    offer_tag(draw, (centre[0] + ux * reach, centre[1] + uy * reach), space["space"])


def _stacks(draw: ImageDraw.ImageDraw, view: dict[str, Any], y0: int) -> None:
    """The die in play (or the dice to roll) and the tile and blueprint stacks."""
    x0, x1 = MARGIN, WIDTH - MARGIN
    panel_box(draw, (x0, y0, x1, y0 + STACKS_H), "Dice and stacks")
    y = y0 + 82
    turn, bonus = view["turn"], view["bonus"]
    value = (turn or {}).get("value") or (bonus or {}).get("value")
    x = x0 + PAD
    if value:
        die(draw, (x, y - 26, x + 52, y + 26), value, HIGHLIGHT)
        what = "bonus die" if bonus and not turn else "die in play"
        draw.text((x + 64, y), what, font=font(28, bold=True), fill=INK, anchor="lm")
    elif view["dice_to_roll"]:
        text = f"{view['dice_to_roll']} dice to roll"
        draw.text((x, y), text, font=font(28, bold=True), fill=INK, anchor="lm")
    else:
        draw.text((x, y), "no die in play", font=font(28), fill=MUTED, anchor="lm")
    stacks = (
        f"Tiles: {view['stack_count']} · discarded {len(view['discarded'])}",
        "Blueprints: I {I} · II {II}".format(**view["blueprint_stack_count"]),
    )
    for i, text in enumerate(stacks):
        draw.text((x1 - PAD, y - 16 + 32 * i), text, font=font(MIN_TEXT), fill=INK, anchor="rm")


def _blueprints(draw: ImageDraw.ImageDraw, view: dict[str, Any], y0: int) -> None:
    """The two face-up blueprint rows."""
    x0, x1 = MARGIN, WIDTH - MARGIN
    panel_box(draw, (x0, y0, x1, y0 + OFFER_H), "Blueprint offer")
    cw = (x1 - x0 - 2 * PAD - 2 * 12) // 3
    for row, level in enumerate(("I", "II")):
        top = y0 + 54 + row * (40 + CARD_H)
        draw.text((x0 + PAD, top), f"Level {level}", font=font(MIN_TEXT, bold=True), fill=INK)
        cards = view["blueprint_offer"][level]
        for i in range(3):
            bx = x0 + PAD + i * (cw + 12)
            box = (bx, top + 34, bx + cw, top + 34 + CARD_H - 10)
            if i < len(cards):
                card(draw, box, cards[i])
            else:
                draw.rounded_rectangle(box, radius=10, outline=RULE, width=2)
                draw.text(
                    ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2),
                    "empty",
                    font=font(MIN_TEXT),
                    fill=MUTED,
                    anchor="mm",
                )


def _table(draw: ImageDraw.ImageDraw, view: dict[str, Any], labels: list[str], y0: int) -> None:
    """One row per seat: resources, fame, blueprints, dock workers and the score so far."""
    seats = view["seats"]
    panel_box(draw, (MARGIN, y0, WIDTH - MARGIN, y0 + 70 + ROW_H * len(seats) + 14), "Players")
    cols = [
        (452, "E"),
        (520, "S"),
        (588, "P"),
        (666, "fame"),
        (748, "hand"),
        (830, "done"),
        (912, "dock"),
        (986, "VP"),
    ]
    for x, head in cols:
        draw.text((x, y0 + 50), head, font=font(MIN_TEXT, bold=True), fill=MUTED, anchor="mm")
    to_act = set(view["to_act"])
    for i, s in enumerate(seats):
        y = y0 + 94 + i * ROW_H
        if s["seat"] in to_act:
            draw.rounded_rectangle(
                (MARGIN + 8, y - 25, WIDTH - MARGIN - 8, y + 25),
                radius=10,
                fill=blend(PANEL, HIGHLIGHT, 0.35),
            )
            draw.text((MARGIN + 14, y), "▶", font=font(MIN_TEXT), fill=INK, anchor="lm")
        start = s["seat"] == view["start_player"]
        room = 340 - (40 if start else 0)
        name_line(draw, (MARGIN + 40, y), s["seat"], labels, room, MIN_TEXT)
        if start:
            draw.text(
                (MARGIN + 40 + room + 4, y), "1st", font=font(MIN_TEXT), fill=MUTED, anchor="lm"
            )
        for (x, _), kind in zip(cols[:3], ("energy", "steel", "parts"), strict=True):
            resource_icon(draw, (x - 16, y), 14, kind)
            fnt = font(MIN_TEXT, bold=True)
            draw.text((x + 2, y), str(s[kind]), font=fnt, fill=INK, anchor="lm")
        values = [
            s["fame"],
            s["hand_size"],
            f"{len(s['completed'])}/7",
            s["dock_workers"],
            s["score"]["total"],
        ]
        for (x, _), value in zip(cols[3:], values, strict=True):
            draw.text((x, y), str(value), font=font(26, bold=True), fill=INK, anchor="mm")
