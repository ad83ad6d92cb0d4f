"""The market image: plant market and auction, resource tracks, and a panel per player."""

from collections.abc import Sequence
from typing import Any

from PIL import ImageDraw

from render.common import (
    HIGHLIGHT,
    INK,
    MIN_TEXT,
    MUTED,
    PANEL,
    RULE,
    WIDTH,
    Box,
    canvas,
    fit,
    font,
    ordinal,
    png,
)
from render.power_grid.pieces import (
    CHIP_R,
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

HEADER_H = 112
PAD = 16
TITLE_H = 54
CARD_W, CARD_H = 150, 172
ROW_LABEL_H = 34
TRACK_H = 84
RESOURCES_H = TITLE_H + 4 * TRACK_H + 12
AUCTION_H = 76
ROW_H = 140
MINI_W, MINI_H = 118, 118


def market(view: dict[str, Any], names: Sequence[str] | None = None) -> bytes:
    """PNG of the plant market (with any auction), the resource market and the players."""
    labels = seat_labels(view, names)
    top = _players_top(view)
    height = top + TITLE_H + ROW_H * view["players"] + PAD
    img, draw = canvas(WIDTH, height)
    header(draw, view, names, WIDTH)
    y = HEADER_H
    plants_h = _plants_height(view)
    _plants(draw, view, labels, (PAD, y, WIDTH - PAD, y + plants_h))
    y += plants_h + PAD
    _resources(draw, view, (PAD, y, WIDTH - PAD, y + RESOURCES_H))
    _section(draw, (PAD, top, WIDTH - PAD, height - PAD), "Players in turn order")
    for seat in _order(view):
        _player(draw, view, seat, labels[seat], panel_box(view, seat))
    return png(img)


INFO_W = 320
"""Room the deck's state takes beside the cards when they leave it (else it goes under them)."""


def _info_beside(view: dict[str, Any]) -> bool:
    pm = view["plant_market"]
    most = max(len(pm["actual"]), len(pm["future"]))
    return most * (CARD_W + 12) + INFO_W <= WIDTH - 2 * PAD - 36


def _plants_height(view: dict[str, Any]) -> int:
    pm = view["plant_market"]
    rows = sum(1 for plants in (pm["actual"], pm["future"]) if plants) or 1
    auction = AUCTION_H if view["auction"] else 0
    info = 0 if _info_beside(view) else len(_info(view)) * 34 + 16
    return TITLE_H + rows * (ROW_LABEL_H + CARD_H + 14) + info + auction


def _info(view: dict[str, Any]) -> list[str]:
    """The deck's state in short lines: two beside the cards make four."""
    step3 = {"deck": "in the deck", "market": "in the market", "gone": "drawn"}[view["step3_card"]]
    removed = ", ".join(str(n) for n in view["removed_in_play"]) or "none"
    lines = [
        f"Deck: {view['deck_size']} cards",
        f"Step 3 card {step3}",
        f"Removed at setup: {view['removed_at_setup']}",
        f"Removed in play: {removed}",
    ]
    if _info_beside(view):
        if font(MIN_TEXT).getlength(lines[-1]) > INFO_W:
            lines[-1:] = ["Removed in play:", removed]
        return lines
    joined = [f"{lines[0]} · {lines[1]}", f"{lines[2]} · in play: {removed}"]
    if not view["plant_market"]["future"]:
        joined.insert(0, "No future market in Step 3")
    return joined


def _players_top(view: dict[str, Any]) -> int:
    return HEADER_H + _plants_height(view) + PAD + RESOURCES_H + PAD


def _order(view: dict[str, Any]) -> list[int]:
    return view["order"] or list(range(view["players"]))


def panel_box(view: dict[str, Any], seat: int) -> Box:
    """Where `seat`'s panel sits in the market image."""
    y = _players_top(view) + TITLE_H + _order(view).index(seat) * ROW_H
    return PAD + 8, y, WIDTH - PAD - 8, y + ROW_H - 8


def _section(draw: ImageDraw.ImageDraw, box: Box, title: str) -> None:
    draw.rounded_rectangle(box, radius=16, fill=PANEL, outline=RULE, width=2)
    fnt = font(MIN_TEXT, bold=True)
    draw.text((box[0] + 18, box[1] + 14), title.upper(), font=fnt, fill=MUTED)


def _plants(draw: ImageDraw.ImageDraw, view: dict[str, Any], labels: list[str], box: Box) -> None:
    """The actual and the future market, a row each; the deck's state; the open auction."""
    _section(draw, box, "Power plants")
    pm = view["plant_market"]
    x0, y0, x1, _ = box
    y = y0 + TITLE_H
    under = view["auction"]["plant"]["number"] if view["auction"] else None
    groups = [("Actual market: buy now", pm["actual"]), ("Future market", pm["future"])]
    for title, plants in groups:
        if not plants:
            continue
        draw.text((x0 + 18, y), title, font=font(MIN_TEXT), fill=MUTED)
        y += ROW_LABEL_H
        step = min(CARD_W + 12, (x1 - x0 - 36) // len(plants))
        for i, plant in enumerate(plants):
            x = x0 + 18 + i * step
            ring = HIGHLIGHT if under is not None and plant["number"] == under else None
            plant_card(draw, (x, y, x + step - 12, y + CARD_H), plant, ring=ring)
        y += CARD_H + 14
    small = font(MIN_TEXT)
    beside = (x1 - 18 - INFO_W, y0 + TITLE_H + ROW_LABEL_H + 4)
    at = beside if _info_beside(view) else (x0 + 18, y)
    for i, line in enumerate(_info(view)):
        text = fit(line, small, int(x1 - 18 - at[0]))
        draw.text((at[0], at[1] + i * 34), text, font=small, fill=INK)
    if view["auction"]:
        top = y0 + _plants_height(view) - AUCTION_H
        _auction(draw, view, labels, (x0 + 12, top, x1 - 12, top + AUCTION_H - 12))


def _auction(draw: ImageDraw.ImageDraw, view: dict[str, Any], labels: list[str], box: Box) -> None:
    """The open auction: plant, high bid and its leader, whose bid it is and who is still in."""
    a = view["auction"]
    draw.rounded_rectangle(box, radius=12, fill=(255, 240, 190), outline=INK, width=2)
    x0, y0, x1, y1 = box
    cy = (y0 + y1) / 2
    bold = font(MIN_TEXT, bold=True)
    text = f"Plant {a['plant']['number']}: {a['bid']} by"
    draw.text((x0 + 14, cy), text, font=bold, fill=INK, anchor="lm")
    x = x0 + 14 + bold.getlength(text) + 8
    x = name_chip(draw, (x, cy), a["leader"], labels[a["leader"]], 300, size=MIN_TEXT) + 16
    if a["turn"] is not None:
        draw.text((x, cy), "next:", font=font(MIN_TEXT), fill=MUTED, anchor="lm")
        x += font(MIN_TEXT).getlength("next:") + 8
        x = name_chip(draw, (x, cy), a["turn"], labels[a["turn"]], 240, size=MIN_TEXT) + 16
    others = [s for s in a["bidders"] if s not in (a["leader"], a["turn"])]
    if others and x + 140 < x1:
        draw.text((x, cy), "also:", font=font(MIN_TEXT), fill=MUTED, anchor="lm")
        x += font(MIN_TEXT).getlength("also:") + 8
        for s in others:
            if x + 2 * CHIP_R > x1:
                break
            seat_chip(draw, (x + CHIP_R, cy), CHIP_R, s)
            x += 2 * CHIP_R + 6


def _resources(draw: ImageDraw.ImageDraw, view: dict[str, Any], box: Box) -> None:
    """One track per resource: tokens on their price spaces, what the next costs, the supply."""
    _section(draw, box, "Resource market")
    x0, y0, x1, _ = box
    left, right = x0 + 18, x1 - 18
    label_w = 228
    for i, kind in enumerate(RESOURCES):
        track = view["resources"][kind]
        y = y0 + TITLE_H + i * TRACK_H
        token(draw, (left + 14, y + 22), 26, kind)
        draw.text(
            (left + 36, y + 22), FUEL_WORD[kind], font=font(28, bold=True), fill=INK, anchor="lm"
        )
        price = track["next_price"]
        nxt = f"next {price}" if price is not None else "sold out"
        info = f"{nxt} · supply {view['supply'][kind]}"
        fnt = font(MIN_TEXT, condensed=True)
        draw.text((left, y + 58), fit(info, fnt, label_w - 10), font=fnt, fill=MUTED, anchor="lm")
        spaces = track["spaces"]
        w = (right - left - label_w) / len(spaces)
        for k, space in enumerate(spaces):
            sx = left + label_w + k * w
            _space(draw, (sx + 2, y + 2, sx + w - 2, y + TRACK_H - 8), kind, space)


def _space(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    kind: str,
    space: dict[str, int],
) -> None:
    """A price space: its price, and its tokens filled from the right (as the market empties
    cheapest first)."""
    x0, y0, x1, y1 = box
    full = space["count"] > 0
    draw.rounded_rectangle(
        box, radius=6, fill=(255, 255, 255) if full else (240, 237, 230), outline=RULE
    )
    draw.text(
        (x0 + 6, y1 - 4),
        str(space["price"]),
        font=font(MIN_TEXT, bold=True),
        fill=INK if full else MUTED,
        anchor="ld",
    )
    cap = space["capacity"]
    size = min(22.0, (x1 - x0 - 10) / cap - 4)
    step = size + 4
    start = x1 - 6 - size / 2 - step * (cap - 1)
    cy = y0 + 18
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
    line = y0 + 30
    draw.text(
        (x0 + 22, line),
        ordinal(pos + 1) if pos is not None else "–",
        font=font(26, bold=True),
        fill=INK,
        anchor="lm",
    )
    cards_w = max(1, len(me["plants"])) * (MINI_W + 8)
    text_w = int(x1 - x0 - cards_w - 30)
    name_chip(draw, (x0 + 86, line), seat, name, text_w - 76, size=28)
    money = "money hidden" if me["money"] is None else f"{me['money']} Elektro"
    body = font(MIN_TEXT)
    bold = font(MIN_TEXT, bold=me["money"] is not None)
    draw.text((x0 + 22, line + 40), money, font=bold, fill=INK, anchor="lm")
    cities = me["city_count"]
    where = f" · {cities} {'city' if cities == 1 else 'cities'} · {me['houses_left']} houses"
    at = x0 + 22 + bold.getlength(money)
    room = int(x0 + text_w - at)
    draw.text((at, line + 40), fit(where, body, room), font=body, fill=INK, anchor="lm")
    status = fit(_status(view, me), body, text_w - 22)
    draw.text((x0 + 22, line + 76), status, font=body, fill=MUTED, anchor="lm")
    x = x1 - 10 - len(me["plants"]) * (MINI_W + 8)
    for plant in me["plants"]:
        plant_card(draw, (x, y0 + 6, x + MINI_W, y0 + 6 + MINI_H), plant, stored=plant["stored"])
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
