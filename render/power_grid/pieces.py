"""Power Grid pieces shared by every image: fuel tokens, plant cards, house slots and seat chips."""

from collections.abc import Sequence
from typing import Any

from PIL import ImageDraw

from render.common import (
    HIGHLIGHT,
    INK,
    MIN_TEXT,
    MUTED,
    PANEL,
    RGB,
    RULE,
    SEATS,
    Box,
    blend,
    fit,
    font,
    player_names,
    printable,
    text_colour,
)

RESOURCES = ("coal", "oil", "garbage", "uranium")

FUEL: dict[str, RGB] = {
    "coal": (133, 92, 58),
    "oil": (45, 45, 50),
    "garbage": (240, 196, 40),
    "uranium": (214, 48, 48),
    "hybrid": (133, 92, 58),
    "ecological": (70, 160, 80),
    "fusion": (120, 150, 210),
    "step3": (255, 196, 0),
}
"""Card and token colours as printed; every use also carries a shape or a word."""

FUEL_WORD = {
    "coal": "coal",
    "oil": "oil",
    "garbage": "garbage",
    "uranium": "uranium",
    "hybrid": "coal/oil",
    "ecological": "eco",
    "fusion": "fusion",
    "step3": "Step 3",
}

OUT_OF_PLAY: RGB = (214, 211, 204)


def seat_colour(seat: int) -> RGB:
    return SEATS[seat % len(SEATS)]


def token(draw: ImageDraw.ImageDraw, centre: tuple[float, float], size: float, kind: str) -> None:
    """A resource token whose shape names the resource: coal square, oil drop, garbage
    triangle, uranium diamond; "hybrid" (coal or oil) is a square split in both colours."""
    x, y = centre
    r = size / 2
    fill = FUEL[kind]
    if kind == "coal":
        draw.rectangle(
            (x - r * 0.85, y - r * 0.85, x + r * 0.85, y + r * 0.85), fill=fill, outline=INK
        )
    elif kind == "oil":
        draw.ellipse((x - r * 0.8, y - r * 0.45, x + r * 0.8, y + r), fill=fill, outline=INK)
        draw.polygon([(x, y - r), (x - r * 0.62, y), (x + r * 0.62, y)], fill=fill)
    elif kind == "garbage":
        draw.polygon(
            [(x, y - r), (x - r, y + r * 0.8), (x + r, y + r * 0.8)], fill=fill, outline=INK
        )
    elif kind == "hybrid":
        a = r * 0.85
        draw.rectangle((x - a, y - a, x + a, y + a), fill=FUEL["coal"], outline=INK)
        draw.polygon(
            [(x + a, y - a), (x + a, y + a), (x - a, y + a)], fill=FUEL["oil"], outline=INK
        )
    else:
        draw.polygon([(x, y - r), (x + r, y), (x, y + r), (x - r, y)], fill=fill, outline=INK)


def house(draw: ImageDraw.ImageDraw, centre: tuple[float, float], size: float, fill: RGB) -> None:
    """A small house pictogram (the cities a plant powers)."""
    x, y = centre
    r = size / 2
    draw.polygon(
        [
            (x - r, y),
            (x, y - r),
            (x + r, y),
            (x + r * 0.7, y),
            (x + r * 0.7, y + r),
            (x - r * 0.7, y + r),
            (x - r * 0.7, y),
        ],
        fill=fill,
        outline=INK,
    )


def _band(draw: ImageDraw.ImageDraw, box: Box, kind: str, radius: int) -> None:
    """The card's coloured top; a hybrid's is split coal and oil."""
    if kind == "hybrid":
        x0, y0, x1, y1 = box
        mid = (x0 + x1) // 2
        draw.rounded_rectangle(box, radius=radius, fill=FUEL["oil"])
        draw.rounded_rectangle((x0, y0, mid, y1), radius=radius, fill=FUEL["coal"])
        draw.rectangle((mid - radius, y0, mid, y1), fill=FUEL["coal"])
    else:
        draw.rounded_rectangle(box, radius=radius, fill=FUEL[kind])


def need_tokens(plant: dict[str, Any]) -> list[str]:
    """The tokens one firing burns, by kind."""
    if plant["type"] in (*RESOURCES, "hybrid"):
        return [plant["type"]] * plant["resources"]
    return []


def plant_card(
    draw: ImageDraw.ImageDraw,
    box: Box,
    plant: dict[str, Any],
    stored: dict[str, int] | None = None,
    ring: RGB | None = None,
) -> None:
    """A plant card: number on its fuel colour, fuel need as tokens, the cities it powers and,
    for an owned plant, the tokens stored on it."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    if ring is not None:
        draw.rounded_rectangle((x0 - 5, y0 - 5, x1 + 5, y1 + 5), radius=14, fill=ring)
    draw.rounded_rectangle(box, radius=10, fill=PANEL, outline=INK, width=2)
    kind = plant["type"]
    band_h = int(h * (0.36 if stored is None else 0.4))
    _band(draw, (x0 + 3, y0 + 3, x1 - 3, y0 + band_h), kind, 8)
    ink = text_colour(FUEL["coal" if kind == "hybrid" else kind])
    if kind == "step3":
        draw.text(
            (x0 + w / 2, y0 + band_h / 2 + 2),
            "STEP",
            font=font(26, bold=True),
            fill=INK,
            anchor="mm",
        )
        draw.text((x0 + w / 2, y0 + h * 0.66), "3", font=font(52, bold=True), fill=INK, anchor="mm")
        return
    number = font(int(min(band_h * 0.75, w * 0.34)), bold=True)
    draw.text(
        (x0 + w / 2, y0 + band_h / 2 + 2), str(plant["number"]), font=number, fill=ink, anchor="mm"
    )
    body_top = y0 + band_h
    rows = 2 if stored is None else 3
    row_h = (y1 - body_top) / rows
    need_box = (x0 + 6, body_top, x1 - 6, body_top + row_h)
    if stored is None:
        # Big cards also name the fuel; the mini cards beside a player rely on token shapes.
        need_box = (x0 + 6, body_top + 2, x1 - 6, body_top + row_h * 0.7)
        draw.text(
            (x0 + w / 2, body_top + row_h * 0.98),
            FUEL_WORD[kind],
            font=font(MIN_TEXT, condensed=True),
            fill=MUTED,
            anchor="mm",
        )
    _need(draw, need_box, plant)
    cy = body_top + row_h * 1.55 if stored is None else body_top + row_h * 1.5
    small = font(MIN_TEXT, bold=True)
    label = f"→ {plant['cities']}"
    tw = small.getlength(label)
    size = 22
    left = x0 + (w - tw - size - 6) / 2
    draw.text((left, cy), label, font=small, fill=INK, anchor="lm")
    house(draw, (left + tw + 6 + size / 2, cy), size, PANEL)
    if stored is not None:
        _stored(draw, (x0 + 6, body_top + 2 * row_h, x1 - 6, y1 - 4), plant, stored)


def _need(
    draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], plant: dict[str, Any]
) -> None:
    """The fuel need: up to three tokens, else a count and one token; eco and fusion say so."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    kinds = need_tokens(plant)
    if not kinds:
        fnt = font(MIN_TEXT, bold=True, condensed=True)
        draw.text((cx, cy), "no fuel", font=fnt, fill=INK, anchor="mm")
        return
    size = 20
    if len(kinds) > 3:
        label = f"{len(kinds)}×"
        fnt = font(MIN_TEXT, bold=True)
        tw = fnt.getlength(label)
        draw.text((cx - (tw + size) / 2, cy), label, font=fnt, fill=INK, anchor="lm")
        token(draw, (cx + tw / 2 + 2, cy), size, kinds[0])
        return
    step = size + 5
    start = cx - step * (len(kinds) - 1) / 2
    for i, kind in enumerate(kinds):
        token(draw, (start + i * step, cy), size, kind)


def _stored(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    plant: dict[str, Any],
    stored: dict[str, int],
) -> None:
    """Storage as a row of slots: stored tokens filled in, free room as empty outlines."""
    x0, y0, x1, y1 = box
    cap = plant["storage"]
    if cap == 0:
        return
    tokens = [k for k in RESOURCES for _ in range(stored.get(k, 0))]
    size = min(18.0, (x1 - x0) / cap - 2)
    step = size + 2
    start = (x0 + x1) / 2 - step * (cap - 1) / 2
    cy = (y0 + y1) / 2
    for i in range(cap):
        x = start + i * step
        if i < len(tokens):
            token(draw, (x, cy), size, tokens[i])
        else:
            r = size / 2 - 1
            draw.rectangle((x - r, cy - r, x + r, cy + r), outline=RULE)


CHIP_R = 19
"""A seat chip's radius: room for the seat number at the smallest text size."""


def seat_chip(draw: ImageDraw.ImageDraw, centre: tuple[float, float], r: float, seat: int) -> None:
    """A seat-coloured disc with the seat number: the house marker on the map and in legends."""
    x, y = centre
    fill = seat_colour(seat)
    draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=INK, width=2)
    draw.text(
        (x, y),
        str(seat + 1),
        font=font(int(r * 1.25), bold=True),
        fill=text_colour(fill),
        anchor="mm",
    )


def name_chip(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    seat: int,
    name: str,
    width: int,
    size: int = 28,
    tail: str = "",
) -> float:
    """Seat chip, the player's name and a muted `tail`, cut to `width` pixels together (the
    name gives way first); returns the end x."""
    x, y = xy
    seat_chip(draw, (x + CHIP_R, y), CHIP_R, seat)
    fnt, small = font(size, bold=True), font(MIN_TEXT)
    left = x + 2 * CHIP_R + 8
    text = fit(name, fnt, int(width - (left - x) - small.getlength(tail)))
    draw.text((left, y), text, font=fnt, fill=INK, anchor="lm")
    end = left + fnt.getlength(text)
    if tail:
        draw.text((end, y), tail, font=small, fill=MUTED, anchor="lm")
        end += small.getlength(tail)
    return end


def faded(colour: RGB) -> RGB:
    return blend(colour, (255, 255, 255), 0.55)


def labels(view: dict[str, Any], names: Sequence[str] | None) -> list[str]:
    """One printable single-line label per seat, the viewer's marked "You ·" (it comes first so
    that cutting a long name never cuts the mark)."""
    out = [printable(n) for n in player_names(view["players"], names)]
    viewer = view.get("viewer")
    if viewer is not None and 0 <= viewer < len(out):
        out[viewer] = f"You · {out[viewer]}"
    return out


PHASES = {
    "setup": "setting up",
    "regions": "picking regions",
    "auction": "auction",
    "resources": "buying resources",
    "build": "building",
    "bureaucracy": "powering cities",
    "over": "game over",
}


def waiting(view: dict[str, Any], names: list[str]) -> str:
    """Who the game waits for, in words."""
    if view["phase"] == "over":
        return ""
    seats = [s for s in view["to_act"] if s >= 0]
    if not seats:
        return "waiting for the cards"
    if view["discard"] is not None:
        return f"{names[view['discard']['seat']]} discards a plant"
    if len(seats) > 1:
        return f"waiting for {len(seats)} players"
    return f"{names[seats[0]]} to play"


def status(view: dict[str, Any]) -> str:
    """Round, phase and the end condition in one line."""
    phase = PHASES.get(view["phase"], view["phase"])
    if view["phase"] in ("setup", "regions"):
        return f"{phase.capitalize()}: {len(view['regions'])} of {view['regions_needed']} regions"
    return f"Round {view['round']} · {phase} · game ends at {view['end_cities']} cities"


def header(
    draw: ImageDraw.ImageDraw,
    view: dict[str, Any],
    names: Sequence[str] | None,
    width: int,
) -> None:
    """Title, round and phase, who is to play, and the Step as a badge on the right."""
    title = font(40, bold=True)
    draw.text((24, 14), f"Power Grid · {view['map_title']}", font=title, fill=INK)
    line = status(view)
    who = waiting(view, labels(view, names))
    sub = font(MIN_TEXT)
    text = fit(line + (f" · {who}" if who else ""), sub, width - 48)
    draw.text((26, 70), text, font=sub, fill=MUTED)
    badge = (width - 180, 14, width - 24, 62)
    draw.rounded_rectangle(badge, radius=14, fill=HIGHLIGHT, outline=INK, width=2)
    draw.text(
        ((badge[0] + badge[2]) / 2, (badge[1] + badge[3]) / 2),
        f"STEP {view['step']}",
        font=font(30, bold=True),
        fill=INK,
        anchor="mm",
    )


LEGEND_ROW = 48


def _legend_columns(width: int) -> int:
    return max(1, min(3, (width - 48) // 480))


def legend_height(view: dict[str, Any], width: int) -> int:
    rows = -(-view["players"] // _legend_columns(width))
    return rows * LEGEND_ROW + 24


def legend(
    draw: ImageDraw.ImageDraw,
    view: dict[str, Any],
    names: Sequence[str] | None,
    width: int,
    top: int,
) -> None:
    """Each seat's chip, name and city count, in player order."""
    seats = labels(view, names)
    cols = _legend_columns(width)
    col_w = (width - 48) // cols
    order = view["order"] or list(range(view["players"]))
    for i, seat in enumerate(order):
        x = 24 + (i % cols) * col_w
        y = top + 4 + (i // cols) * LEGEND_ROW + LEGEND_ROW / 2
        count = view["seats"][seat]["city_count"]
        tail = f" · {count} {'city' if count == 1 else 'cities'}"
        name_chip(draw, (x, y), seat, seats[seat], col_w - 20, size=MIN_TEXT, tail=tail)
