"""A player's board: the map with their network, then dice, jokers, chart, island and legend."""

from collections.abc import Sequence
from typing import Any

from PIL import ImageDraw

from render.common import (
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
    canvas,
    die,
    fit,
    font,
    player_names,
    png,
    rounded,
    seat_badge,
)
from render.powerline.map import BADGE_R, Frame, Marks, draw_map, planned_worker

HEADER_H = 112
MAP_H = 1000
PANEL_Y = HEADER_H + MAP_H + 20
LEFT, MIDDLE, RIGHT = 28, WIDTH // 2 + 12, WIDTH - 28
PANEL_H = 520
HEIGHT = PANEL_Y + PANEL_H
SUN: RGB = (255, 176, 0)
ROW = 46


def initials(view: dict[str, Any]) -> dict[str, str]:
    return dict(zip(view["colors"], view["color_initials"], strict=True))


def player_board(view: dict[str, Any], seat: int, names: Sequence[str] | None = None) -> bytes:
    """PNG of `seat`'s board as the viewer of `view` may see it (own plan only in own view)."""
    me = view["seats"][seat]
    img, draw = canvas(WIDTH, HEIGHT)
    _header(draw, view, seat, player_names(len(view["seats"]), names)[seat])
    draw.rounded_rectangle(
        (12, HEADER_H, WIDTH - 12, HEADER_H + MAP_H), radius=18, fill=PANEL, outline=RULE, width=2
    )
    frame = map_frame(me)
    marks = Marks(plan=me["plan"], highlight=view["phase"] == "plan", initials=initials(view))
    draw_map(draw, frame, me, SEATS[seat % len(SEATS)], marks)
    y = _dice(draw, view, marks, PANEL_Y)
    y = _stats(draw, view, me, y)
    _legend(draw, y + 6)
    _island(draw, view, me, marks, _chart(draw, view, me, PANEL_Y) + 10)
    return png(img)


def map_frame(seat: dict[str, Any]) -> Frame:
    """Where a player board draws the seat's map."""
    return Frame.inside(seat, (24, HEADER_H + 10, WIDTH - 24, HEADER_H + MAP_H - 10))


def _header(draw: ImageDraw.ImageDraw, view: dict, seat: int, name: str) -> None:
    me = view["seats"][seat]
    seat_badge(draw, (16, 16, 76, 76), seat)
    vp = f"{me['vp']} VP"
    big = font(52, bold=True)
    title = font(40, bold=True)
    room = int(WIDTH - 92 - 24 - big.getlength(vp) - 24)
    draw.text((92, 14), fit(name, title, room), font=title, fill=INK)
    phase = {"roll": "waiting for the roll", "plan": "planning", "over": "game over"}[view["phase"]]
    sub = f"Board {me['board']} · Round {view['round']}/{view['rounds']} · {phase}"
    if me["submitted"] and view["phase"] == "plan":
        sub += " · submitted ✓"
    draw.text((94, 64), fit(sub, font(MIN_TEXT), room), font=font(MIN_TEXT), fill=MUTED)
    draw.text((WIDTH - 24, 48), vp, font=big, fill=INK, anchor="rm")


def _section(draw: ImageDraw.ImageDraw, x: int, y: int, title: str) -> int:
    draw.text((x, y), title.upper(), font=font(MIN_TEXT, bold=True), fill=MUTED)
    return y + 34


def _dice(draw: ImageDraw.ImageDraw, view: dict, marks: Marks, y: int) -> int:
    """This round's six dice with their initials (nothing before the roll)."""
    y = _section(draw, LEFT, y, "Dice")
    if not view["dice"]:
        draw.text((LEFT, y), "not rolled yet", font=font(MIN_TEXT), fill=MUTED)
        return y + ROW
    size = 56
    for i, c in enumerate(view["colors"]):
        x = LEFT + i * (size + 20)
        die(draw, (x, y, x + size, y + size), view["dice"][c], DICE[c])
        draw.text(
            (x + size / 2, y + size + 18),
            (marks.initials or {})[c],
            font=font(MIN_TEXT, bold=True),
            fill=INK,
            anchor="mm",
        )
    return y + size + 44


def _stats(draw: ImageDraw.ImageDraw, view: dict, me: dict, y: int) -> int:
    """Jokers on the sun space, the vacation tile and the energy tiles, one row each."""
    label, value = font(MIN_TEXT, bold=True), font(28, bold=True)
    at = LEFT + 230
    draw.text((LEFT, y + ROW / 2), "SUN SPACE", font=label, fill=MUTED, anchor="lm")
    _sun(draw, (at + 20, y + ROW / 2), 19)
    jokers = f"{me['jokers']} joker" + ("" if me["jokers"] == 1 else "s")
    draw.text((at + 50, y + ROW / 2), jokers, font=value, fill=INK, anchor="lm")
    y += ROW
    draw.text((LEFT, y + ROW / 2), "VACATION", font=label, fill=MUTED, anchor="lm")
    if view["vacation_tile"]:
        fill = (140, 200, 230) if me["vacation"] else RULE
        draw.rounded_rectangle((at, y + 6, at + 40, y + ROW - 6), radius=6, fill=fill, outline=INK)
        draw.text((at + 20, y + ROW / 2), "☀", font=font(MIN_TEXT), fill=INK, anchor="mm")
        state = "available" if me["vacation"] else "used"
        draw.text((at + 50, y + ROW / 2), state, font=value, fill=INK, anchor="lm")
    else:
        draw.text((at, y + ROW / 2), "not in play", font=font(MIN_TEXT), fill=MUTED, anchor="lm")
    y += ROW
    draw.text((LEFT, y + ROW / 2), "ENERGY TILES", font=label, fill=MUTED, anchor="lm")
    draw.text((at, y + ROW / 2), str(me["energy"]), font=value, fill=INK, anchor="lm")
    return y + ROW


def _sun(draw: ImageDraw.ImageDraw, centre: tuple[float, float], r: float) -> None:
    x, y = centre
    draw.ellipse((x - r, y - r, x + r, y + r), fill=SUN, outline=INK, width=2)
    draw.text((x, y), "☀", font=font(MIN_TEXT), fill=INK, anchor="mm")


def _chart(draw: ImageDraw.ImageDraw, view: dict, me: dict, y: int) -> int:
    """Worker chart: a column per number of deployed workers, remaining tiles stacked in it."""
    y = _section(draw, MIDDLE, y, "Worker chart")
    col_w, tile_h = 76, 30
    limited = any(c["lines"] < 3 for c in view["chart_columns"])
    for i, column in enumerate(view["chart_columns"]):
        x = MIDDLE + i * col_w
        cx = x + (col_w - 10) / 2
        draw.text(
            (cx, y + 12),
            str(column["workers"]),
            font=font(MIN_TEXT, bold=True),
            fill=INK,
            anchor="mm",
        )
        left = me["chart"][i]
        for k in range(column["tiles"]):
            ty = y + 30 + k * (tile_h + 5)
            box = (x, ty, x + col_w - 10, ty + tile_h)
            removed = k < column["tiles"] - left
            if removed and column["suns"][k]:
                _sun(draw, (cx, (box[1] + box[3]) / 2), 14)
            elif removed:
                rounded(draw, box, radius=5, outline=RULE, width=2)
            else:
                rounded(draw, box, radius=5, fill=(96, 140, 96), outline=INK, width=2)
        if limited:
            below = y + 30 + 3 * (tile_h + 5) + 16
            draw.text(
                (cx, below), f"≤{column['lines']}", font=font(MIN_TEXT), fill=MUTED, anchor="mm"
            )
    bottom = y + 30 + 3 * (tile_h + 5) + (36 if limited else 6)
    if limited:
        note = fit("≤ lines a round (limits)", font(MIN_TEXT), RIGHT - MIDDLE)
        draw.text((MIDDLE, bottom), note, font=font(MIN_TEXT), fill=MUTED)
        bottom += 32
    return bottom


def _island(draw: ImageDraw.ImageDraw, view: dict, me: dict, marks: Marks, y: int) -> int:
    adventure = "adventure_island" in view["variants"]
    y = _section(draw, MIDDLE, y, "Adventure Island" if adventure else "Island")
    box = (MIDDLE, y, RIGHT, y + (190 if adventure else 150))
    draw.rounded_rectangle(box, radius=16, fill=(200, 228, 214), outline=INK, width=2)
    if adventure:
        size = 50
        for face in range(1, 7):
            x = MIDDLE + 12 + (face - 1) * 78
            die(draw, (x, y + 12, x + size, y + 12 + size), face, PANEL)
            stack = me["island_stacks"][face - 1]
            draw.text(
                (x + size / 2, y + size + 32),
                f"×{stack}",
                font=font(MIN_TEXT, bold=True),
                fill=INK,
                anchor="mm",
            )
        meeple_y = y + 150
    else:
        tokens = me["island_tokens"]
        draw.text((MIDDLE + 14, y + 12), "−1 VP per worker", font=font(MIN_TEXT), fill=INK)
        if "L" in _letters(view):
            label = f"{tokens} token" + ("" if tokens == 1 else "s")
            draw.text((MIDDLE + 14, y + 44), label, font=font(MIN_TEXT), fill=INK)
        meeple_y = y + 110
    plan = marks.plan
    if plan:
        island = [p for p in plan["placements"] if p["island"]]
        for i, p in enumerate(island):
            planned_worker(draw, (MIDDLE + 40 + i * 62, meeple_y), 64, p, marks)
        if plan["vacation"]:
            draw.text(
                (box[2] - 14, box[3] - 12),
                "vacation ☀",
                font=font(MIN_TEXT, bold=True),
                fill=INK,
                anchor="rb",
            )
    return int(box[3])


def _legend(draw: ImageDraw.ImageDraw, y: int) -> None:
    y = _section(draw, LEFT, y, "Legend")
    rows = [
        ("halo", "a die fits this segment"),
        ("disc", "the dice that fit it"),
        ("arrow", "way of construction"),
        ("⚡", "city supplied"),
        ("✓", "station covered"),
    ]
    for kind, label in rows:
        x, cy = LEFT + 18, y + 17
        if kind == "halo":
            draw.rounded_rectangle((x - 15, cy - 15, x + 15, cy + 15), radius=7, fill=HIGHLIGHT)
            draw.rounded_rectangle(
                (x - 9, cy - 9, x + 9, cy + 9), radius=4, fill=PANEL, outline=INK
            )
        elif kind == "disc":
            r = BADGE_R
            draw.ellipse((x - r, cy - r, x + r, cy + r), fill=DICE["red"], outline=INK, width=2)
            draw.text(
                (x, cy + 1), "R", font=font(MIN_TEXT, bold=True), fill=(255, 255, 255), anchor="mm"
            )
        elif kind == "arrow":
            draw.polygon(
                [(x + 12, cy), (x - 10, cy - 12), (x - 10, cy + 12)], fill=MUTED, outline=INK
            )
        else:
            draw.text((x, cy), kind, font=font(MIN_TEXT, bold=True), fill=INK, anchor="mm")
        draw.text((x + 34, cy), label, font=font(MIN_TEXT), fill=INK, anchor="lm")
        y += 38


def _letters(view: dict) -> set[str]:
    return {t["letter"] for t in view["scoring_tiles"]}
