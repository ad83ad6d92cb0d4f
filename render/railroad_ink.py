"""Railroad Ink images, drawn from `view(...)` dicts only: a player's board with the roll."""

from collections.abc import Sequence
from typing import Any

from PIL import ImageDraw

from render.common import (
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    RULE,
    canvas,
    fit,
    font,
    player_names,
    png,
    seat_badge,
)
from render.railroad_ink_tiles import piece, route_line

WIDTH, HEIGHT = 1200, 900
CELL = 96
BOARD_X, BOARD_Y = 56, 120
PANEL_X = BOARD_X + 7 * CELL + 70
CENTRE_TINT = (236, 228, 206)
SIDE_INDEX = {"N": 0, "E": 1, "S": 2, "W": 3}


def _cell_xy(name: str) -> tuple[int, int]:
    """Top-left pixel of a cell named like `C4` (column letter, row number)."""
    return BOARD_X + (ord(name[0]) - 65) * CELL, BOARD_Y + (int(name[1:]) - 1) * CELL


def _seg_of(cell: dict[str, Any]) -> list[int]:
    seg = [-1] * 4
    for k, sides in enumerate(cell["segments"]):
        for side in sides:
            seg[SIDE_INDEX[side]] = k
    return seg


def _sides(text: str) -> list[str | None]:
    return [None if ch == "." else ch for ch in text]


def board(view: dict[str, Any], seat: int, names: Sequence[str] | None = None) -> bytes:
    """PNG of `seat`'s board as the viewer of `view` may see it, with this round's roll."""
    me = view["seats"][seat]
    img, draw = canvas(WIDTH, HEIGHT)
    seat_badge(draw, (20, 20, 70, 74), seat)
    name = player_names(len(view["seats"]), names)[seat]
    draw.text((86, 20), fit(name, font(32, bold=True), 640), font=font(32, bold=True), fill=INK)
    phase = {"roll": "waiting for the roll", "plan": "planning", "over": "game over"}
    sub = f"Round {view['round']}/{view['rounds']} · {phase.get(view['phase'], view['phase'])}"
    if view["expansions"]:
        sub += " · " + ", ".join(e.replace("_", " ") for e in view["expansions"])
    draw.text((88, 60), fit(sub, font(18), 640), font=font(18), fill=MUTED)
    draw.text(
        (WIDTH - 24, 44), f"{me['total']} pts", font=font(40, bold=True), fill=INK, anchor="rm"
    )
    _grid(draw, view, me)
    _panel(draw, view, me)
    return png(img)


def _grid(draw: ImageDraw.ImageDraw, view: dict[str, Any], me: dict[str, Any]) -> None:
    size = view["size"]
    x1, y1 = BOARD_X + size * CELL, BOARD_Y + size * CELL
    draw.rounded_rectangle(
        (BOARD_X - 36, BOARD_Y - 36, x1 + 36, y1 + 36), radius=18, fill=PANEL, outline=RULE, width=2
    )
    for name in view["centre"]:
        x, y = _cell_xy(name)
        draw.rectangle((x, y, x + CELL, y + CELL), fill=CENTRE_TINT)
    for k in range(size + 1):
        draw.line((BOARD_X + k * CELL, BOARD_Y, BOARD_X + k * CELL, y1), fill=RULE, width=1)
        draw.line((BOARD_X, BOARD_Y + k * CELL, x1, BOARD_Y + k * CELL), fill=RULE, width=1)
    for exit_ in view["exits"]:
        _exit(draw, exit_)
    for row in me["board"]:
        for cell in row:
            if cell is None:
                continue
            x, y = _cell_xy(cell["cell"])
            box = (x + 2, y + 2, x + CELL - 2, y + CELL - 2)
            if cell.get("accumulator"):
                _accumulator(draw, box, me["charges"] or 0, view["max_charges"])
                continue
            if cell.get("lamp_on"):
                draw.rectangle(box, fill=(255, 240, 170))
            piece(draw, box, _sides(cell["sides"]), _seg_of(cell), cell["station"], cell["lamp"])
            draw.text(
                (x + 5, y + 3),
                str(cell["round"]),
                font=font(14, bold=True),
                fill=HIGHLIGHT if cell["special"] else MUTED,
            )
            if cell.get("electrified"):
                draw.text(
                    (x + CELL - 8, y + CELL - 6),
                    "⚡",
                    font=font(18, bold=True),
                    fill=(255, 180, 0),
                    anchor="rb",
                    stroke_width=1,
                    stroke_fill=INK,
                )
    for k in range(size):
        draw.text(
            (BOARD_X + k * CELL + CELL / 2, y1 + 46),
            chr(65 + k),
            font=font(16),
            fill=MUTED,
            anchor="mm",
        )
        draw.text(
            (BOARD_X - 48, BOARD_Y + k * CELL + CELL / 2),
            str(k + 1),
            font=font(16),
            fill=MUTED,
            anchor="mm",
        )


def _exit(draw: ImageDraw.ImageDraw, exit_: dict[str, Any]) -> None:
    """An exit: a stub of its route type leaving the board edge, outside the grid."""
    x, y = _cell_xy(exit_["cell"])
    side = SIDE_INDEX[exit_["side"]]
    ox, oy = ((0, -1), (1, 0), (0, 1), (-1, 0))[side]
    start = (
        (x + CELL / 2, y),
        (x + CELL, y + CELL / 2),
        (x + CELL / 2, y + CELL),
        (x, y + CELL / 2),
    )[side]
    route_line(draw, start, (start[0] + ox * 30, start[1] + oy * 30), exit_["type"], CELL)


def _accumulator(draw: ImageDraw.ImageDraw, box: tuple, charges: int, limit: int) -> None:
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(
        (x0 + 12, y0 + 22, x1 - 12, y1 - 12), radius=8, fill=(60, 160, 90), outline=INK, width=3
    )
    draw.rectangle(((x0 + x1) / 2 - 10, y0 + 12, (x0 + x1) / 2 + 10, y0 + 22), fill=INK)
    draw.text(
        ((x0 + x1) / 2, (y0 + y1) / 2 + 6),
        f"{charges}/{limit}",
        font=font(20, bold=True),
        fill=(255, 255, 255),
        anchor="mm",
    )


def _panel(draw: ImageDraw.ImageDraw, view: dict[str, Any], me: dict[str, Any]) -> None:
    x, y = PANEL_X, 110
    roll = view["roll"]
    draw.text((x, y), "THIS ROUND'S ROLL", font=font(15, bold=True), fill=MUTED)
    y += 26
    size = 70
    if roll is None:
        draw.text((x, y), "not rolled yet", font=font(18), fill=INK)
        y += 40
    else:
        dice = roll["route"] + roll["lamps"]
        for i, die in enumerate(dice):
            bx = x + (i % 4) * (size + 10)
            by = y + (i // 4) * (size + 30)
            draw.rounded_rectangle(
                (bx, by, bx + size, by + size), radius=10, fill=PANEL, outline=INK, width=2
            )
            face = _face(view, die["face"])
            piece(draw, (bx + 4, by + 4, bx + size - 4, by + size - 4), *face)
            draw.text(
                (bx + size / 2, by + size + 12),
                str(die["die"]),
                font=font(14),
                fill=MUTED,
                anchor="mm",
            )
        y += ((len(dice) + 3) // 4) * (size + 30) + 10
        if roll["power"]:
            power = ", ".join(str(p["face"]) for p in roll["power"])
            draw.text((x, y), f"Power dice: {power}", font=font(16), fill=INK)
            y += 30
    draw.text((x, y), "SPECIAL ROUTES", font=font(15, bold=True), fill=MUTED)
    y += 26
    used = set(me["specials_used"])
    for i, special in enumerate(view["specials"]):
        bx = x + (i % 3) * (size + 10)
        by = y + (i // 3) * (size + 10)
        fill = RULE if special["face"] in used else PANEL
        draw.rounded_rectangle((bx, by, bx + size, by + size), radius=10, fill=fill, outline=INK)
        piece(draw, (bx + 4, by + 4, bx + size - 4, by + size - 4), *_face(view, special["face"]))
    y += 2 * (size + 10) + 10
    draw.text((x, y), "SCORE", font=font(15, bold=True), fill=MUTED)
    y += 26
    for key, value in me["score"].items():
        if not isinstance(value, int) or key == "total":
            continue
        shown = f"−{value}" if key == "errors" and value else str(value)
        draw.text((x, y), key.replace("_", " "), font=font(17), fill=INK)
        draw.text((WIDTH - 30, y), shown, font=font(17), fill=INK, anchor="ra")
        y += 26


def _face(view: dict[str, Any], face: str) -> tuple[list[str | None], list[int], bool, bool]:
    """A die face drawn upright, from the view's table of faces."""
    data = view["faces"][face]
    cell = {"segments": data["segments"]}
    return _sides(data["sides"]), _seg_of(cell), data["station"], data["lamp"]
