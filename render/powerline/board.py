"""A player's board: the map with their network, plus chart, jokers, vacation tile and island."""

from collections.abc import Sequence
from typing import Any

from PIL import ImageDraw

from render.common import (
    DICE,
    HIGHLIGHT,
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
    seat_badge,
)
from render.powerline.map import Frame, Marks, draw_map, planned_worker

WIDTH, HEIGHT = 1240, 1000
PANEL_X = 955
SUN: RGB = (255, 176, 0)


def initials(view: dict[str, Any]) -> dict[str, str]:
    return dict(zip(view["colors"], view["color_initials"], strict=True))


def player_board(view: dict[str, Any], seat: int, names: Sequence[str] | None = None) -> bytes:
    """PNG of `seat`'s board as the viewer of `view` may see it (own plan only in own view)."""
    me = view["seats"][seat]
    colour = SEATS[seat % len(SEATS)]
    img, draw = canvas(WIDTH, HEIGHT)
    _header(draw, view, seat, player_names(len(view["seats"]), names)[seat], colour)
    frame = Frame.inside(me, (24, 92, PANEL_X - 26, HEIGHT - 24))
    draw.rounded_rectangle(
        (12, 80, PANEL_X - 14, HEIGHT - 12), radius=18, fill=PANEL, outline=RULE, width=2
    )
    marks = Marks(plan=me["plan"], highlight=view["phase"] == "plan", initials=initials(view))
    draw_map(draw, frame, me, colour, marks)
    _panel(draw, view, me, marks)
    return png(img)


def _header(draw: ImageDraw.ImageDraw, view: dict, seat: int, name: str, colour: RGB) -> None:
    me = view["seats"][seat]
    seat_badge(draw, (12, 12, 62, 66), seat)
    title = font(32, bold=True)
    draw.text((76, 14), fit(name, title, 560), font=title, fill=INK)
    phase = {"roll": "waiting for the roll", "plan": "planning", "over": "game over"}[view["phase"]]
    sub = f"Board {me['board']}  ·  Round {view['round']}/{view['rounds']}  ·  {phase}"
    if me["submitted"] and view["phase"] == "plan":
        sub += "  ·  plan submitted ✓"
    draw.text((78, 52), sub, font=font(18), fill=MUTED)
    draw.text((WIDTH - 24, 40), f"{me['vp']} VP", font=font(44, bold=True), fill=INK, anchor="rm")


def _section(draw: ImageDraw.ImageDraw, y: int, title: str) -> int:
    draw.text((PANEL_X, y), title.upper(), font=font(15, bold=True), fill=MUTED)
    return y + 24


def _panel(draw: ImageDraw.ImageDraw, view: dict, me: dict, marks: Marks) -> None:
    y = 84
    if view["dice"]:
        y = _section(draw, y, "Dice")
        size = 38
        for i, c in enumerate(view["colors"]):
            x = PANEL_X + i * (size + 8)
            die(draw, (x, y, x + size, y + size), view["dice"][c], DICE[c])
            draw.text(
                (x + size / 2, y + size + 10),
                marks.initials[c],
                font=font(14, bold=True),
                fill=INK,
                anchor="mm",
            )
        y += size + 28
    y = _section(draw, y, "Sun space")
    _sun(draw, (PANEL_X + 22, y + 22), 20)
    draw.text(
        (PANEL_X + 54, y + 22),
        f"{me['jokers']} joker" + ("" if me["jokers"] == 1 else "s"),
        font=font(22, bold=True),
        fill=INK,
        anchor="lm",
    )
    y += 54
    y = _section(draw, y, "Vacation tile")
    if view["vacation_tile"]:
        state = "available" if me["vacation"] else "used"
        fill = (140, 200, 230) if me["vacation"] else RULE
        draw.rounded_rectangle((PANEL_X, y, PANEL_X + 44, y + 30), radius=6, fill=fill, outline=INK)
        draw.text((PANEL_X + 22, y + 15), "☀", font=font(18), fill=INK, anchor="mm")
        draw.text((PANEL_X + 56, y + 15), state, font=font(18), fill=INK, anchor="lm")
    else:
        draw.text((PANEL_X, y + 4), "not in play", font=font(18), fill=MUTED)
    y += 44
    y = _section(draw, y, f"Energy tiles: {me['energy']}")
    y = _chart(draw, view, me, y + 4)
    y = _island(draw, view, me, marks, y + 8)
    _legend(draw, y + 12)


def _sun(draw: ImageDraw.ImageDraw, centre: tuple[float, float], r: float) -> None:
    x, y = centre
    draw.ellipse((x - r, y - r, x + r, y + r), fill=SUN, outline=INK, width=2)
    draw.text((x, y), "☀", font=font(int(r * 1.3)), fill=INK, anchor="mm")


def _chart(draw: ImageDraw.ImageDraw, view: dict, me: dict, y: int) -> int:
    """Worker chart: a column per number of deployed workers, remaining tiles stacked in it."""
    y = _section(draw, y, "Worker chart")
    col_w, tile_h = 42, 26
    limited = any(c["lines"] < 3 for c in view["chart_columns"])
    for i, column in enumerate(view["chart_columns"]):
        x = PANEL_X + i * col_w
        draw.text(
            (x + col_w / 2 - 3, y + 8),
            str(column["workers"]),
            font=font(16, bold=True),
            fill=INK,
            anchor="mm",
        )
        left = me["chart"][i]
        for k in range(column["tiles"]):
            ty = y + 20 + k * (tile_h + 4)
            box = (x + 2, ty, x + col_w - 8, ty + tile_h)
            removed = k < column["tiles"] - left
            if removed and column["suns"][k]:
                _sun(draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), 11)
            elif removed:
                draw.rounded_rectangle(box, radius=4, outline=RULE, width=2)
            else:
                draw.rounded_rectangle(box, radius=4, fill=(96, 140, 96), outline=INK, width=2)
        if limited:
            draw.text(
                (x + col_w / 2 - 3, y + 20 + 3 * (tile_h + 4) + 10),
                f"≤{column['lines']}",
                font=font(14),
                fill=MUTED,
                anchor="mm",
            )
    bottom = y + 20 + 3 * (tile_h + 4) + (26 if limited else 4)
    if limited:
        draw.text(
            (PANEL_X, bottom), "≤ lines per round (construction limits)", font=font(14), fill=MUTED
        )
        bottom += 20
    return bottom


def _island(draw: ImageDraw.ImageDraw, view: dict, me: dict, marks: Marks, y: int) -> int:
    adventure = "adventure_island" in view["variants"]
    y = _section(draw, y, "Adventure Island" if adventure else "Island")
    box = (PANEL_X, y, WIDTH - 18, y + (120 if adventure else 96))
    draw.rounded_rectangle(box, radius=16, fill=(200, 228, 214), outline=INK, width=2)
    if adventure:
        size = 34
        for face in range(1, 7):
            x = PANEL_X + 10 + (face - 1) * 44
            die(draw, (x, y + 10, x + size, y + 10 + size), face, PANEL)
            stack = me["island_stacks"][face - 1]
            draw.text(
                (x + size / 2, y + 62), f"×{stack}", font=font(16, bold=True), fill=INK, anchor="mm"
            )
        meeple_y = y + 98
    else:
        tokens = me["island_tokens"]
        label = f"{tokens} token" + ("" if tokens == 1 else "s") if "L" in _letters(view) else ""
        draw.text((PANEL_X + 12, y + 12), "−1 VP per worker", font=font(16), fill=INK)
        if label:
            draw.text((PANEL_X + 12, y + 34), label, font=font(16), fill=INK)
        meeple_y = y + 70
    plan = marks.plan
    if plan:
        island = [p for p in plan["placements"] if p["island"]]
        for i, p in enumerate(island):
            planned_worker(draw, (PANEL_X + 24 + i * 40, meeple_y), 34, p, marks)
        if plan["vacation"]:
            draw.text(
                (box[2] - 10, box[3] - 12),
                "vacation ☀",
                font=font(15, bold=True),
                fill=INK,
                anchor="rb",
            )
    return int(box[3])


def _legend(draw: ImageDraw.ImageDraw, y: int) -> None:
    y = _section(draw, y, "Legend")
    rows = [
        ("halo", "segment a die fits now"),
        ("disc", "the dice that fit it"),
        ("arrow", "direction of construction"),
        ("⚡", "city supplied with energy"),
        ("✓", "station covered"),
    ]
    for kind, label in rows:
        x = PANEL_X + 14
        if kind == "halo":
            draw.rounded_rectangle((x - 10, y + 1, x + 10, y + 21), radius=5, fill=HIGHLIGHT)
            draw.rounded_rectangle((x - 6, y + 5, x + 6, y + 17), radius=3, fill=PANEL, outline=INK)
        elif kind == "disc":
            draw.ellipse((x - 9, y + 2, x + 9, y + 20), fill=DICE["red"], outline=INK)
            draw.text((x, y + 11), "R", font=font(14, bold=True), fill=(255, 255, 255), anchor="mm")
        elif kind == "arrow":
            draw.polygon(
                [(x + 9, y + 11), (x - 7, y + 2), (x - 7, y + 20)], fill=MUTED, outline=INK
            )
        else:
            draw.text((x, y + 11), kind, font=font(18, bold=True), fill=INK, anchor="mm")
        draw.text((x + 22, y + 11), label, font=font(15), fill=INK, anchor="lm")
        y += 26


def _letters(view: dict) -> set[str]:
    return {t["letter"] for t in view["scoring_tiles"]}
