"""The market image: plant market and auction, resource tracks, and a panel per player."""

from collections.abc import Sequence
from typing import Any

from PIL import ImageDraw

from render.common import (
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    RULE,
    Box,
    canvas,
    fit,
    font,
    ordinal,
    png,
)
from render.power_grid.pieces import (
    FUEL_WORD,
    RESOURCES,
    header,
    name_chip,
    plant_card,
    seat_chip,
    seat_colour,
    token,
)
from render.power_grid.pieces import labels as seat_labels

WIDTH = 1200
HEADER_H = 96
PAD = 16
CARD_W, CARD_H = 124, 150
PLANTS_H = 58 + CARD_H + 56
TRACK_H = 62
RESOURCES_H = 40 + 4 * TRACK_H + 8
ROW_H = 112
MINI_W, MINI_H = 112, 96


def market(view: dict[str, Any], names: Sequence[str] | None = None) -> bytes:
    """PNG of the plant market (with any auction), the resource market and the players."""
    labels = seat_labels(view, names)
    auction_h = 58 if view["auction"] else 0
    top = _players_top(view)
    height = top + 40 + ROW_H * view["players"] + PAD
    img, draw = canvas(WIDTH, height)
    header(draw, view, names, WIDTH)
    y = HEADER_H
    _plants(draw, view, labels, (PAD, y, WIDTH - PAD, y + PLANTS_H + auction_h))
    y += PLANTS_H + auction_h + PAD
    _resources(draw, view, (PAD, y, WIDTH - PAD, y + RESOURCES_H))
    _section(draw, (PAD, top, WIDTH - PAD, height - PAD), "Players in turn order")
    for seat in _order(view):
        _player(draw, view, seat, labels[seat], panel_box(view, seat))
    return png(img)


def _players_top(view: dict[str, Any]) -> int:
    auction_h = 58 if view["auction"] else 0
    return HEADER_H + PLANTS_H + auction_h + PAD + RESOURCES_H + PAD


def _order(view: dict[str, Any]) -> list[int]:
    return view["order"] or list(range(view["players"]))


def panel_box(view: dict[str, Any], seat: int) -> Box:
    """Where `seat`'s panel sits in the market image."""
    y = _players_top(view) + 40 + _order(view).index(seat) * ROW_H
    return PAD + 8, y, WIDTH - PAD - 8, y + ROW_H - 8


def _section(draw: ImageDraw.ImageDraw, box: Box, title: str) -> None:
    draw.rounded_rectangle(box, radius=16, fill=PANEL, outline=RULE, width=2)
    draw.text((box[0] + 16, box[1] + 10), title.upper(), font=font(16, bold=True), fill=MUTED)


def _plants(draw: ImageDraw.ImageDraw, view: dict[str, Any], labels: list[str], box: Box) -> None:
    """Actual and future market side by side, the deck's state, and the open auction."""
    _section(draw, box, "Power plants")
    pm = view["plant_market"]
    x0, y0, x1, _ = box
    cards_y = y0 + 58
    under = view["auction"]["plant"]["number"] if view["auction"] else None
    x = x0 + 16
    groups = [("actual: buy now", pm["actual"]), ("future", pm["future"])]
    for title, plants in groups:
        if not plants:
            continue
        draw.text((x, cards_y - 2), title, font=font(15), fill=MUTED, anchor="ls")
        for plant in plants:
            ring = HIGHLIGHT if under is not None and plant["number"] == under else None
            plant_card(draw, (x, cards_y + 6, x + CARD_W, cards_y + 6 + CARD_H), plant, ring=ring)
            x += CARD_W + 10
        x += 22
    if not pm["future"]:
        draw.text(
            (x, cards_y + 6 + CARD_H / 2),
            "no future market in Step 3",
            font=font(16),
            fill=MUTED,
            anchor="lm",
        )
    step3 = {"deck": "in the deck", "market": "in the market", "gone": "drawn"}[view["step3_card"]]
    removed = ", ".join(str(n) for n in view["removed_in_play"]) or "none"
    info = (
        f"Deck: {view['deck_size']} cards · Step 3 card {step3} · removed at setup: "
        f"{view['removed_at_setup']} · removed in play: {removed}"
    )
    small = font(16)
    line_y = cards_y + CARD_H + 30
    draw.text(
        (x0 + 16, line_y), fit(info, small, int(x1 - x0 - 32)), font=small, fill=INK, anchor="lm"
    )
    if view["auction"]:
        _auction(draw, view, labels, (x0 + 12, line_y + 22, x1 - 12, line_y + 72))


def _auction(draw: ImageDraw.ImageDraw, view: dict[str, Any], labels: list[str], box: Box) -> None:
    """The open auction: plant, high bid and its leader, whose bid it is and who is still in."""
    a = view["auction"]
    draw.rounded_rectangle(box, radius=12, fill=(255, 240, 190), outline=INK, width=2)
    x0, y0, x1, y1 = box
    cy = (y0 + y1) / 2
    bold = font(18, bold=True)
    text = f"Auction: plant {a['plant']['number']} · bid {a['bid']} by"
    draw.text((x0 + 14, cy), text, font=bold, fill=INK, anchor="lm")
    x = x0 + 14 + bold.getlength(text) + 8
    x = name_chip(draw, (x, cy), a["leader"], labels[a["leader"]], 260) + 18
    if a["turn"] is not None:
        draw.text((x, cy), "next:", font=font(16), fill=MUTED, anchor="lm")
        x += 48
        x = name_chip(draw, (x, cy), a["turn"], labels[a["turn"]], 220) + 18
    others = [s for s in a["bidders"] if s not in (a["leader"], a["turn"])]
    if others and x + 120 < x1:
        draw.text((x, cy), "also in:", font=font(16), fill=MUTED, anchor="lm")
        x += 66
        for s in others:
            if x + 30 > x1:
                break
            seat_chip(draw, (x + 13, cy), 13, s)
            x += 32


def _resources(draw: ImageDraw.ImageDraw, view: dict[str, Any], box: Box) -> None:
    """One track per resource: tokens on their price spaces, what the next costs, the supply."""
    _section(draw, box, "Resource market")
    x0, y0, x1, _ = box
    left, right = x0 + 16, x1 - 16
    label_w, info_w = 140, 190
    for i, kind in enumerate(RESOURCES):
        track = view["resources"][kind]
        y = y0 + 40 + i * TRACK_H
        cy = y + TRACK_H / 2 - 4
        token(draw, (left + 12, cy), 22, kind)
        draw.text((left + 32, cy), FUEL_WORD[kind], font=font(20, bold=True), fill=INK, anchor="lm")
        spaces = track["spaces"]
        span = right - info_w - (left + label_w)
        w = span / len(spaces)
        for k, space in enumerate(spaces):
            sx = left + label_w + k * w
            _space(draw, (sx + 2, y + 2, sx + w - 2, y + TRACK_H - 8), kind, space)
        price = track["next_price"]
        nxt = f"next {price}" if price is not None else "sold out"
        info = font(16)
        draw.text(
            (right, cy - 10), f"{track['count']} on sale · {nxt}", font=info, fill=INK, anchor="rm"
        )
        draw.text(
            (right, cy + 12), f"supply {view['supply'][kind]}", font=info, fill=MUTED, anchor="rm"
        )


def _space(draw: ImageDraw.ImageDraw, box: Box, kind: str, space: dict[str, int]) -> None:
    """A price space: its tokens (filled from the right, as the market empties cheapest first)."""
    x0, y0, x1, y1 = box
    full = space["count"] > 0
    draw.rounded_rectangle(
        box, radius=6, fill=(255, 255, 255) if full else (240, 237, 230), outline=RULE
    )
    draw.text(
        (x0 + 5, y1 - 3),
        str(space["price"]),
        font=font(15, bold=True),
        fill=INK if full else MUTED,
        anchor="ld",
    )
    cap = space["capacity"]
    size = 16
    step = size + 3
    start = x1 - 6 - size / 2 - step * (cap - 1)
    cy = y0 + 15
    for k in range(cap):
        x = start + k * step
        if k >= cap - space["count"]:
            token(draw, (x, cy), size, kind)
        else:
            r = size / 2 - 2
            draw.ellipse((x - r, cy - r, x + r, cy + r), outline=RULE)


def _player(
    draw: ImageDraw.ImageDraw, view: dict[str, Any], seat: int, name: str, box: Box
) -> None:
    """Order, name, money (or hidden), cities and houses, status, and the plants with fuel."""
    me = view["seats"][seat]
    x0, y0, x1, y1 = box
    acting = seat in view["to_act"]
    draw.rounded_rectangle(
        box,
        radius=12,
        fill=(255, 247, 214) if acting else (250, 248, 242),
        outline=INK if acting else RULE,
        width=3 if acting else 1,
    )
    draw.rectangle((x0 + 1, y0 + 12, x0 + 8, y1 - 12), fill=seat_colour(seat))
    pos = me["order_position"]
    draw.text(
        (x0 + 40, y0 + 28),
        ordinal(pos + 1) if pos is not None else "–",
        font=font(20, bold=True),
        fill=INK,
        anchor="mm",
    )
    cards_w = 4 * (MINI_W + 8)
    name_w = int(x1 - x0 - cards_w - 80)
    name_chip(draw, (x0 + 66, y0 + 28), seat, name, name_w, size=20)
    money = "money hidden" if me["money"] is None else f"{me['money']} Elektro"
    body = font(17)
    draw.text(
        (x0 + 70, y0 + 58),
        money,
        font=font(17, bold=me["money"] is not None),
        fill=INK,
        anchor="lm",
    )
    cities = me["city_count"]
    draw.text(
        (x0 + 250, y0 + 58),
        f"{cities} {'city' if cities == 1 else 'cities'} · {me['houses_left']} houses left",
        font=body,
        fill=INK,
        anchor="lm",
    )
    draw.text(
        (x0 + 70, y0 + 84), fit(_status(view, me), body, name_w), font=body, fill=MUTED, anchor="lm"
    )
    x = x1 - 10 - len(me["plants"]) * (MINI_W + 8)
    for plant in me["plants"]:
        plant_card(draw, (x, y0 + 4, x + MINI_W, y0 + 4 + MINI_H), plant, stored=plant["stored"])
        x += MINI_W + 8
    if not me["plants"]:
        draw.text((x1 - 20, (y0 + y1) / 2), "no plants yet", font=body, fill=MUTED, anchor="rm")


def _status(view: dict[str, Any], me: dict[str, Any]) -> str:
    """What the seat has done this round and what it could power now."""
    parts = []
    seat = me["seat"]
    if view["phase"] == "auction":
        if me["bought"]:
            parts.append("bought a plant")
        elif me["passed"]:
            parts.append("passed")
        elif view["chooser"] == seat and not view["auction"]:
            parts.append("chooses a plant")
    if me["powered"] is not None:
        parts.append(f"powered {me['powered']}")
    parts.append(f"can power {me['can_power']} of {me['city_count']}")
    return " · ".join(parts)
