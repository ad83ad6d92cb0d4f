"""The shared table image: the forge with its dice, the 12 offer tiles, blueprints and players."""

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    RULE,
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
    panel_box,
    resource_icon,
    tile,
)
from render.propeller_islands.status import die_note, status

WIDTH = 1200
MARGIN = 16
S = 66
FLOWER_BOX = (MARGIN, 84, 640, 760)
RIGHT_X = 656
ROW_H = 46
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
    """PNG of the forge (dice on their values), the offer tiles, blueprint rows and every seat."""
    labels = player_names(len(view["seats"]), names)
    seats = view["seats"]
    table_y = FLOWER_BOX[3] + 16
    legend_y = table_y + 56 + ROW_H * len(seats) + 36
    on_offer = legend_columns(view["offer"], WIDTH - 2 * MARGIN - 2 * PAD)
    height = legend_y + legend_height(on_offer) + MARGIN
    img, draw = canvas(WIDTH, height)
    draw.text((MARGIN, 12), "Propeller Islands · the forge", font=font(32, bold=True), fill=INK)
    line = " · ".join(x for x in (status(view, labels), die_note(view)) if x)
    draw.text((MARGIN + 2, 54), fit(line, font(18), WIDTH - 2 * MARGIN), font=font(18), fill=MUTED)

    panel_box(draw, FLOWER_BOX, "Forge and offer")
    cx = (FLOWER_BOX[0] + FLOWER_BOX[2]) / 2
    cy = (FLOWER_BOX[1] + FLOWER_BOX[3]) / 2 + 12
    corners = hex_corners(cx, cy, S)
    draw.polygon(corners, fill=blend(PANEL, RULE, 0.4), outline=INK, width=2)
    draw.text((cx, cy - 10), "FORGE", font=font(16, bold=True), fill=MUTED, anchor="mm")
    draw.text((cx, cy + 12), "die → 3 spaces", font=font(14), fill=MUTED, anchor="mm")
    offer = {o["space"]: o for o in view["offer"]}
    for v in range(1, 7):
        dx, dy = DIRECTIONS[v - 1]
        nx, ny = DIRECTIONS[v % 6]
        _forge_space(draw, (cx + dx * S, cy + dy * S), v, view["forge"][str(v)])
        _offer(img, draw, (cx + 2 * dx * S, cy + 2 * dy * S), offer[2 * v - 1], (cx, cy))
        between = (cx + (dx + nx) * S, cy + (dy + ny) * S)
        _offer(img, draw, between, offer[2 * v], (cx, cy))

    _side(draw, view)
    _table(draw, view, labels, table_y)
    legend(draw, (MARGIN, legend_y, WIDTH - MARGIN, height - MARGIN), "Tiles on offer", on_offer)
    return png(img)


def _forge_space(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], v: int, count: int
) -> None:
    """Forge space Fv: its value and the dice lying on it."""
    x, y = centre
    draw.polygon(hex_corners(x, y, S), fill=FORGE_FILL, outline=INK, width=2)
    draw.text((x, y - 0.6 * S), f"F{v}", font=font(16, bold=True), fill=INK, anchor="mm")
    size = 30
    shown = min(count, 6)
    per_row = 3
    for i in range(shown):
        row, col = divmod(i, per_row)
        in_row = min(per_row, shown - row * per_row)
        x0 = x - (in_row * size + (in_row - 1) * 6) / 2 + col * (size + 6)
        y0 = y - 14 + row * (size + 6) - (size + 6) / 2 * (shown > per_row)
        die(draw, (x0, y0, x0 + size, y0 + size), v, (250, 250, 250))
    if count == 0:
        draw.text((x, y + 6), "no dice", font=font(14), fill=MUTED, anchor="mm")
    elif count > shown:
        draw.text((x, y + 0.62 * S), f"×{count}", font=font(15, bold=True), fill=INK, anchor="mm")


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
    tx, ty = centre[0] + dx / norm * (S + 4), centre[1] + dy / norm * (S + 4)
    label = f"O{space['space']}"
    fnt = font(15, bold=True)
    w = fnt.getlength(label) / 2 + 6
    draw.rounded_rectangle((tx - w, ty - 11, tx + w, ty + 11), radius=8, fill=INK)
    draw.text((tx, ty), label, font=fnt, fill=(255, 255, 255), anchor="mm")


def _side(draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    """The die in play, the stacks and the two face-up blueprint rows."""
    x0, x1 = RIGHT_X, WIDTH - MARGIN
    panel_box(draw, (x0, 84, x1, 244), "Dice and stacks")
    y = 140
    turn, bonus = view["turn"], view["bonus"]
    value = (turn or {}).get("value") or (bonus or {}).get("value")
    if value:
        die(draw, (x0 + 16, y - 24, x0 + 64, y + 24), value, HIGHLIGHT)
        what = "bonus die" if bonus and not turn else "die in play"
        draw.text((x0 + 76, y), what, font=font(18, bold=True), fill=INK, anchor="lm")
    elif view["dice_to_roll"]:
        text = f"{view['dice_to_roll']} dice to roll"
        draw.text((x0 + 16, y), text, font=font(18, bold=True), fill=INK, anchor="lm")
    else:
        draw.text((x0 + 16, y), "no die in play", font=font(18), fill=MUTED, anchor="lm")
    lines = (
        f"Tile stack: {view['stack_count']} · discarded: {len(view['discarded'])}",
        "Blueprint stacks: I {I} · II {II}".format(**view["blueprint_stack_count"]),
    )
    for i, text in enumerate(lines):
        draw.text((x0 + 16, 184 + i * 26), text, font=font(17), fill=INK, anchor="lm")

    panel_box(draw, (x0, 256, x1, 760), "Blueprint offer")
    cw = (x1 - x0 - 32 - 16) // 3
    for row, level in enumerate(("I", "II")):
        y0 = 292 + row * 232
        draw.text((x0 + 16, y0), f"Level {level}", font=font(17, bold=True), fill=INK)
        cards = view["blueprint_offer"][level]
        for i in range(3):
            bx = x0 + 16 + i * (cw + 8)
            box = (bx, y0 + 28, bx + cw, y0 + 28 + 136)
            if i < len(cards):
                card(draw, box, cards[i])
            else:
                draw.rounded_rectangle(box, radius=10, outline=RULE, width=2)
                draw.text(
                    ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2),
                    "empty",
                    font=font(15),
                    fill=MUTED,
                    anchor="mm",
                )


def _table(draw: ImageDraw.ImageDraw, view: dict[str, Any], labels: list[str], y0: int) -> None:
    """One row per seat: resources, fame, blueprints, dock workers and the score so far."""
    seats = view["seats"]
    panel_box(draw, (MARGIN, y0, WIDTH - MARGIN, y0 + 56 + ROW_H * len(seats) + 20), "Players")
    cols = [
        (470, "E"),
        (530, "S"),
        (590, "P"),
        (660, "fame"),
        (750, "hand"),
        (840, "done"),
        (940, "dock"),
        (1060, "VP now"),
    ]
    for x, head in cols:
        draw.text((x, y0 + 40), head, font=font(15, bold=True), fill=MUTED, anchor="mm")
    to_act = set(view["to_act"])
    for i, s in enumerate(seats):
        y = y0 + 76 + i * ROW_H
        if s["seat"] in to_act:
            draw.rounded_rectangle(
                (MARGIN + 8, y - 21, WIDTH - MARGIN - 8, y + 21),
                radius=10,
                fill=blend(PANEL, HIGHLIGHT, 0.35),
            )
            draw.text((MARGIN + 14, y), "▶", font=font(16), fill=INK, anchor="lm")
        name_line(draw, (MARGIN + 34, y), s["seat"], labels, 330, 18)
        if s["seat"] == view["start_player"]:
            draw.text((MARGIN + 374, y), "start", font=font(14), fill=MUTED, anchor="lm")
        for (x, _), kind in zip(cols[:3], ("energy", "steel", "parts"), strict=True):
            resource_icon(draw, (x - 14, y), 11, kind)
            draw.text((x + 2, y), str(s[kind]), font=font(18, bold=True), fill=INK, anchor="lm")
        values = [
            s["fame"],
            s["hand_size"],
            f"{len(s['completed'])}/7",
            s["dock_workers"],
            s["score"]["total"],
        ]
        for (x, _), value in zip(cols[3:], values, strict=True):
            draw.text((x, y), str(value), font=font(18, bold=True), fill=INK, anchor="mm")
