"""The map images: the whole map (regions, connections with costs, cities with their house slots
and houses), the part around one player's network, and an overview of the regions and networks
small enough for a phone."""

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
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
    WIDTH,
    Swatches,
    blend,
    canvas,
    fit,
    font,
    png,
    text_colour,
)
from render.power_grid.pieces import OUT_OF_PLAY, header, legend, legend_height, seat_colour

ROTATED = frozenset({"germany"})
"""Maps whose data is stored a quarter-turn anticlockwise (north to the left): drawn north-up."""

REGION: dict[str, RGB] = {
    "green": (150, 210, 140),
    "brown": (205, 170, 130),
    "yellow": (240, 222, 110),
    "red": (238, 150, 140),
    "cyan": (140, 212, 225),
    "purple": (196, 170, 222),
}
REGION_INK: dict[str, RGB] = {
    "green": (30, 110, 40),
    "brown": (110, 70, 35),
    "yellow": (125, 100, 0),
    "red": (170, 40, 30),
    "cyan": (0, 105, 125),
    "purple": (100, 60, 150),
}

CLOSEST = 112.0
"""Pixels between the two closest cities of the whole map; sets its scale (names at the
smallest text size fit between cities)."""
NODE_R = 40
SLOT_R = 16
SLOTS = ((0.0, -16.0), (-17.5, 12.5), (17.5, 12.5))
HALO_R = 70
COST_R = 19
HEADER_H = 112
NOTE_H = 40
REGION_FONT = 30
FOCUS_H = 1000
"""Height of the part of the map cut around a player's network."""
FOCUS_PAD = 110
"""Room kept around a network's outer cities in the focus: their halos and names."""
DOT_R = 13
"""A city on the overview, where houses are seat-coloured wedges and names are left out."""

Rect = tuple[float, float, float, float]


@dataclass(frozen=True)
class Layout:
    """Where everything of one map goes, in image pixels (the map part starts at y = 0)."""

    width: int
    height: int
    pos: dict[str, tuple[float, float]]
    labels: dict[str, tuple[float, float]]
    """Top-left corner of each city's name."""
    costs: dict[tuple[str, str], tuple[float, float]]
    regions: dict[str, tuple[float, float]]
    """Centre of each region's name."""


def map_image(view: dict[str, Any], names: Sequence[str] | None = None) -> bytes:
    """PNG of the whole map: regions (in play highlighted), connections, cities with houses and
    slots; wider than a phone shows legibly, so it is sent on demand, to zoom into."""
    layout = _layout_of(view)
    width = max(WIDTH, layout.width)
    foot = legend_height(view, width)
    img, draw = canvas(width, HEADER_H + layout.height + foot)
    header(draw, view, names, width)
    draw.rounded_rectangle(
        (12, HEADER_H, width - 12, HEADER_H + layout.height - 8),
        radius=18,
        fill=PANEL,
        outline=RULE,
        width=2,
    )
    _draw_map(draw, view, layout, ((width - layout.width) / 2, HEADER_H))
    legend(draw, view, names, width, HEADER_H + layout.height)
    return png(img)


def map_focus(view: dict[str, Any], names: Sequence[str] | None = None) -> bytes:
    """PNG of the part of the map holding all of the viewer's network: at the whole map's scale
    with names and costs (so it reads on a phone) when the network fits, else drawn smaller like
    the overview with the network's names and costs; the overview where there is no network."""
    frame = focus_frame(view)
    if frame is None:
        return map_overview(view, names)
    window, scale = frame
    layout, width = _layout_of(view), WIDTH - 24
    # The part shares the image's palette, so it pastes in as drawn.
    swatches = Swatches()
    if scale == 1.0:
        part = _detailed(view, layout, window, swatches)
        note = "Around your network · the whole map: /game board"
    else:
        part = _compact(view, layout, window, scale, own_cities(view), swatches)
        note = "Your whole network · names and costs: /game board"
    foot = legend_height(view, WIDTH)
    top = HEADER_H + NOTE_H
    img, draw = canvas(WIDTH, top + part.height + 8 + foot, swatches=swatches)
    header(draw, view, names, WIDTH)
    draw.text(
        (26, HEADER_H - 4), fit(note, font(MIN_TEXT), WIDTH - 52), font=font(MIN_TEXT), fill=INK
    )
    # A part narrower than the frame (a whole small map) sits centred on the map's colour.
    draw.rectangle((12, top, WIDTH - 12, top + part.height), fill=PANEL)
    img.paste(part, (12 + (width - part.width) // 2, top))
    draw.rounded_rectangle(
        (12, top, WIDTH - 12, top + part.height), radius=18, outline=RULE, width=2
    )
    legend(draw, view, names, WIDTH, top + part.height + 8)
    return png(img)


def own_cities(view: dict[str, Any]) -> list[str]:
    """The viewer's cities (none for a spectator)."""
    seat = view.get("viewer")
    return [c["name"] for c in view["cities"] if seat is not None and seat in c["houses"]]


def focus_frame(view: dict[str, Any]) -> tuple[Rect, float] | None:
    """The part of the map (in the whole map's pixels) the focus shows, and the scale it is drawn
    at (1: the whole map's, with names and costs); None before the viewer has a network."""
    own = own_cities(view)
    if not own or view["phase"] in ("setup", "regions"):
        return None
    layout = _layout_of(view)
    must = _bounds(layout, own)
    width = WIDTH - 24
    scale = min(1.0, width / (must[2] - must[0]), FOCUS_H / (must[3] - must[1]))
    window = _window(layout, must, _neighbourhood(view, own), width / scale, FOCUS_H / scale)
    return window, scale


def _detailed(
    view: dict[str, Any], layout: Layout, window: Rect, swatches: Swatches
) -> Image.Image:
    """The map at full scale (names, slots, costs), cut to `window`: only that part is drawn,
    the rest falling outside the image."""
    x0, y0, x1, y1 = (round(v) for v in window)
    part, draw = canvas(x1 - x0, y1 - y0, PANEL, swatches)
    _draw_map(draw, view, layout, (-x0, -y0))
    return part


def _compact(
    view: dict[str, Any],
    layout: Layout,
    window: Rect,
    scale: float,
    own: list[str],
    swatches: Swatches,
) -> Image.Image:
    """`window` drawn `scale` times smaller in the overview's way (cities as dots with houses as
    wedges), with the costs of the network's connections and the names of its cities and their
    neighbours wherever they fit clear of the dots and each other (the network's first)."""
    x0, y0, x1, y1 = window
    size = (int((x1 - x0) * scale), int((y1 - y0) * scale))
    part, draw = canvas(*size, PANEL, swatches)
    live = _live_regions(view)

    def at(name: str) -> tuple[float, float]:
        x, y = layout.pos[name]
        return (x - x0) * scale, (y - y0) * scale

    _halos_and_lines(draw, view, live, at, HALO_R * scale * 1.1, 3)
    for c in view["cities"]:
        _dot(draw, at(c["name"]), c, c["region"] in live)
    for region, (x, y) in layout.regions.items():
        _region_label(draw, ((x - x0) * scale, (y - y0) * scale), region, view)
    taken: list[Rect] = []
    for c in view["cities"]:
        x, y = at(c["name"])
        taken.append((x - DOT_R, y - DOT_R, x + DOT_R, y + DOT_R))
    mine = set(own)
    region_of = {c["name"]: c["region"] for c in view["cities"]}
    for e in view["connections"]:
        ends = {e["a"], e["b"]}
        if e["cost"] and ends & mine and all(region_of[c] in live for c in ends):
            (ax, ay), (bx, by) = at(e["a"]), at(e["b"])
            centre = ((ax + bx) / 2, (ay + by) / 2)
            box = (centre[0] - COST_R, centre[1] - COST_R, centre[0] + COST_R, centre[1] + COST_R)
            if not _clash(box, taken, (0.0, 0.0, *size)):
                _cost(draw, centre, e["cost"], True)
                taken.append(box)
    bounds = (4.0, 4.0, size[0] - 4.0, size[1] - 4.0)
    near = [c for c in _neighbourhood(view, own) if c not in mine]
    for i, name in enumerate([*sorted(own), *near]):
        placed = _place_name(draw, at(name), name, taken, bounds, must=i < len(own))
        if placed:
            taken.append(placed)
    return part


def _place_name(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    name: str,
    taken: list[Rect],
    bounds: Rect,
    must: bool,
) -> Rect | None:
    """A city's name beside its dot where it clashes least; one that need not be drawn is left
    out where it would overlap anything. Returns where it went."""
    x, y = centre
    name_font = font(MIN_TEXT, bold=True, condensed=True)
    w, h = name_font.getlength(name), MIN_TEXT + 4
    gap = DOT_R + 3
    options = [
        (x - w / 2, y + gap),
        (x - w / 2, y - gap - h),
        (x + gap, y - h / 2),
        (x - gap - w, y - h / 2),
    ]
    rects = [(ox, oy, ox + w, oy + h) for ox, oy in options]
    best = min(rects, key=lambda r: _clash(r, taken, bounds))
    if not must and _clash(best, taken, bounds):
        return None
    draw.text(best[:2], name, font=name_font, fill=INK, stroke_width=4, stroke_fill=PANEL)
    return best


def map_overview(view: dict[str, Any], names: Sequence[str] | None = None) -> bytes:
    """PNG of the whole map small enough for a phone: regions named (in play, or picked while
    picking), connections, and each city's houses as seat-coloured wedges; no city names."""
    layout = _layout_of(view)
    scale = (WIDTH - 2 * 24) / layout.width
    height = int(layout.height * scale)
    foot = legend_height(view, WIDTH)
    top = HEADER_H + NOTE_H
    img, draw = canvas(WIDTH, top + height + 8 + foot)
    header(draw, view, names, WIDTH)
    picking = view["phase"] in ("setup", "regions")
    note = "Picked regions ✓" if picking else "Houses in their seat's colour"
    note += " · names and costs: /game board"
    draw.text(
        (26, HEADER_H - 4), fit(note, font(MIN_TEXT), WIDTH - 52), font=font(MIN_TEXT), fill=INK
    )
    draw.rounded_rectangle(
        (12, top, WIDTH - 12, top + height), radius=18, fill=PANEL, outline=RULE, width=2
    )
    live = _live_regions(view)

    def at(name: str) -> tuple[float, float]:
        x, y = layout.pos[name]
        return 24 + x * scale, top + y * scale

    _halos_and_lines(draw, view, live, at, HALO_R * scale * 1.1, 3)
    for c in view["cities"]:
        _dot(draw, at(c["name"]), c, c["region"] in live)
    for region, (x, y) in layout.regions.items():
        _region_label(draw, (24 + x * scale, top + y * scale), region, view)
    legend(draw, view, names, WIDTH, top + height + 8)
    return png(img)


def _layout_of(view: dict[str, Any]) -> "Layout":
    return _layout(
        view["map"],
        tuple((c["name"], c["region"], c["x"], c["y"]) for c in view["cities"]),
        tuple((e["a"], e["b"]) for e in view["connections"]),
    )


def _halos_and_lines(
    draw: ImageDraw.ImageDraw,
    view: dict[str, Any],
    live: set[str],
    at: Callable[[str], tuple[float, float]],
    halo: float,
    width: int,
) -> None:
    """Each city's region halo, then the connections: dark between regions in play."""
    by_name = {c["name"]: c for c in view["cities"]}
    for c in view["cities"]:
        box = _around(*at(c["name"]), halo)
        if _shows(draw, box):
            draw.ellipse(box, fill=_halo(view, c, live))
    for e in view["connections"]:
        (ax, ay), (bx, by) = at(e["a"]), at(e["b"])
        if not _shows(
            draw,
            (min(ax, bx) - width, min(ay, by) - width, max(ax, bx) + width, max(ay, by) + width),
        ):
            continue
        usable = by_name[e["a"]]["region"] in live and by_name[e["b"]]["region"] in live
        draw.line(
            ((ax, ay), (bx, by)),
            fill=(110, 104, 94) if usable else (178, 174, 166),
            width=width,
        )


def _shows(draw: ImageDraw.ImageDraw, box: Rect) -> bool:
    """Whether any of `box` falls on the image: a window of the map skips drawing the rest."""
    width, height = draw.im.size
    return box[0] < width and box[1] < height and box[2] > 0 and box[3] > 0


def _around(x: float, y: float, r: float) -> Rect:
    return x - r, y - r, x + r, y + r


def _draw_map(
    draw: ImageDraw.ImageDraw, view: dict[str, Any], layout: Layout, origin: tuple[float, float]
) -> None:
    """Halos, connections with costs, cities with slots and houses, names and region names."""
    ox, oy = origin
    live = _live_regions(view)
    by_name = {c["name"]: c for c in view["cities"]}

    def at(name: str) -> tuple[float, float]:
        x, y = layout.pos[name]
        return ox + x, oy + y

    _halos_and_lines(draw, view, live, at, HALO_R, 6)
    for c in view["cities"]:
        x, y = at(c["name"])
        if _shows(draw, _around(x, y, NODE_R + 2)):
            _city(draw, (x, y), c, c["region"] in live, view["house_limit"])
    for e in view["connections"]:
        x, y = layout.costs[(e["a"], e["b"])]
        x, y = ox + x, oy + y
        if e["cost"] == 0 or not _shows(draw, _around(x, y, COST_R + 2)):
            continue
        usable = by_name[e["a"]]["region"] in live and by_name[e["b"]]["region"] in live
        _cost(draw, (x, y), e["cost"], usable)
    name_font = font(MIN_TEXT, bold=True, condensed=True)
    for c in view["cities"]:
        x, y = layout.labels[c["name"]]
        x, y = ox + x, oy + y
        # Room for the stroke and for letters below the line.
        box = (x - 8, y - 8, x + name_font.getlength(c["name"]) + 8, y + 2 * MIN_TEXT)
        if not _shows(draw, box):
            continue
        draw.text(
            (x, y),
            c["name"],
            font=name_font,
            fill=INK if c["region"] in live else MUTED,
            stroke_width=4,
            stroke_fill=PANEL,
        )
    for region, (x, y) in layout.regions.items():
        _region_label(draw, (ox + x, oy + y), region, view)


def _halo(view: dict[str, Any], city: dict[str, Any], live: set[str]) -> RGB:
    """The city's region colour; while picking, regions not yet picked stay pale so the picked
    ones stand out."""
    if city["region"] not in live:
        return OUT_OF_PLAY
    pale = view["phase"] in ("setup", "regions") and city["region"] not in view["regions"]
    return _tint(city["region"], 0.72 if pale else 0.35)


def _neighbourhood(view: dict[str, Any], own: list[str]) -> list[str]:
    """The seat's cities and every city in play one connection away from them."""
    live = _live_regions(view)
    in_play = {c["name"] for c in view["cities"] if c["region"] in live}
    near = set(own)
    for e in view["connections"]:
        if e["a"] in own or e["b"] in own:
            near |= {e["a"], e["b"]} & in_play
    return sorted(near)


def _bounds(layout: Layout, cities: list[str]) -> Rect:
    """The box around `cities` with room for their halos and names, inside the map."""
    xs = [layout.pos[c][0] for c in cities]
    ys = [layout.pos[c][1] for c in cities]
    return (
        max(0.0, min(xs) - FOCUS_PAD),
        max(0.0, min(ys) - FOCUS_PAD),
        min(float(layout.width), max(xs) + FOCUS_PAD),
        min(float(layout.height), max(ys) + FOCUS_PAD),
    )


def _window(layout: Layout, must: Rect, around: list[str], width: float, height: float) -> Rect:
    """A `width` × `height` cut of the map (or all of it, if smaller) centred on the cities
    `around`, then moved to hold the box `must` whole, kept inside the map."""
    xs = [layout.pos[c][0] for c in around]
    ys = [layout.pos[c][1] for c in around]
    w, h = min(width, layout.width), min(height, layout.height)
    x0 = (min(xs) + max(xs) - w) / 2
    y0 = (min(ys) + max(ys) - h) / 2
    # `must` fits in the window (the scale was chosen so), so both moves keep it whole.
    x0 = min(max(x0, must[2] - w), must[0])
    y0 = min(max(y0, must[3] - h), must[1])
    x0 = min(max(0.0, x0), layout.width - w)
    y0 = min(max(0.0, y0), layout.height - h)
    return x0, y0, x0 + w, y0 + h


def _live_regions(view: dict[str, Any]) -> set[str]:
    """Regions drawn in colour: those in play, or while picking, every region still open."""
    if view["phase"] in ("setup", "regions"):
        return {c["region"] for c in view["cities"]}
    return set(view["regions"])


def _tint(region: str, pale: float) -> RGB:
    return blend(REGION.get(region, (200, 200, 200)), (255, 255, 255), pale)


def _city(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    city: dict[str, Any],
    live: bool,
    limit: int,
) -> None:
    """The city disc with its slots: a house shows the seat number, an empty slot its cost
    (greyed while the Step does not open it yet)."""
    x, y = centre
    draw.ellipse(
        (x - NODE_R, y - NODE_R, x + NODE_R, y + NODE_R),
        fill=PANEL if live else (236, 234, 229),
        outline=INK if live else MUTED,
        width=2,
    )
    houses = city["houses"]
    small = font(MIN_TEXT, bold=True, condensed=True)
    for i, (dx, dy) in enumerate(SLOTS[: len(city["slot_costs"])]):
        sx, sy = x + dx, y + dy
        box = (sx - SLOT_R, sy - SLOT_R, sx + SLOT_R, sy + SLOT_R)
        if i < len(houses):
            fill = seat_colour(houses[i])
            draw.ellipse(box, fill=fill, outline=INK, width=2)
            draw.text(
                (sx, sy),
                str(houses[i] + 1),
                font=font(MIN_TEXT, bold=True),
                fill=text_colour(fill),
                anchor="mm",
            )
            continue
        open_ = live and i < limit
        draw.ellipse(box, fill=PANEL if open_ else (228, 225, 218), outline=INK if open_ else RULE)
        draw.text(
            (sx, sy + 0.5),
            str(city["slot_costs"][i]),
            font=small,
            fill=INK if open_ else (150, 146, 138),
            anchor="mm",
        )


def _dot(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], city: dict[str, Any], live: bool
) -> None:
    """A city on the overview: a small disc, split into a wedge per house in its seat's colour."""
    x, y = centre
    box = (x - DOT_R, y - DOT_R, x + DOT_R, y + DOT_R)
    draw.ellipse(
        box, fill=PANEL if live else (236, 234, 229), outline=INK if live else MUTED, width=2
    )
    houses = city["houses"]
    for i, seat in enumerate(houses):
        start = -90 + 360 * i / len(houses)
        draw.pieslice(box, start, start + 360 / len(houses), fill=seat_colour(seat), outline=INK)


def _cost(draw: ImageDraw.ImageDraw, centre: tuple[float, float], cost: int, usable: bool) -> None:
    x, y = centre
    draw.ellipse(
        (x - COST_R, y - COST_R, x + COST_R, y + COST_R),
        fill=(255, 255, 255) if usable else (238, 236, 231),
        outline=(110, 104, 94) if usable else (178, 174, 166),
        width=2,
    )
    fnt = font(MIN_TEXT, bold=True, condensed=True)
    draw.text((x, y), str(cost), font=fnt, fill=INK if usable else MUTED, anchor="mm")


def _region_label(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], region: str, view: dict[str, Any]
) -> None:
    """The region's name; regions out of play say so, picked ones carry a tick while picking."""
    picking = view["phase"] in ("setup", "regions")
    if picking:
        text = region.upper() + (" ✓" if region in view["regions"] else "")
        live = True
    else:
        live = region in view["regions"]
        text = region.upper() if live else f"{region.upper()} · not in play"
    draw.text(
        centre,
        text,
        font=font(REGION_FONT, bold=True),
        fill=REGION_INK.get(region, INK) if live else MUTED,
        anchor="mm",
        stroke_width=5,
        stroke_fill=PANEL,
    )


@cache
def _layout(
    map_name: str,
    cities: tuple[tuple[str, str, int, int], ...],
    connections: tuple[tuple[str, str], ...],
) -> Layout:
    """Scale the data so the closest cities sit CLOSEST apart, then place names clear of the
    cities, costs and each other (computed once per map)."""
    raw = {n: ((-y, x) if map_name in ROTATED else (x, y)) for n, _, x, y in cities}
    closest = min(
        (math.dist(raw[a], raw[b]) for i, a in enumerate(raw) for b in list(raw)[i + 1 :]),
        default=1.0,
    )
    scale = CLOSEST / max(closest, 1.0)
    xs = [p[0] for p in raw.values()]
    ys = [p[1] for p in raw.values()]
    pad = HALO_R + 90
    pos = {
        n: ((x - min(xs)) * scale + pad, (y - min(ys)) * scale + pad - 20)
        for n, (x, y) in raw.items()
    }
    width = int((max(xs) - min(xs)) * scale + 2 * pad)
    height = int((max(ys) - min(ys)) * scale + 2 * pad - 20)
    costs = {
        (a, b): ((pos[a][0] + pos[b][0]) / 2, (pos[a][1] + pos[b][1]) / 2) for a, b in connections
    }
    taken: list[Rect] = [(x - NODE_R, y - NODE_R, x + NODE_R, y + NODE_R) for x, y in pos.values()]
    taken += [(x - COST_R, y - COST_R, x + COST_R, y + COST_R) for x, y in costs.values()]
    bounds = (20.0, 8.0, width - 20.0, height - 16.0)
    name_font = font(MIN_TEXT, bold=True, condensed=True)
    labels = {}
    for name, (x, y) in sorted(pos.items(), key=lambda kv: (kv[1][1], kv[1][0])):
        w = name_font.getlength(name)
        h = MIN_TEXT + 4
        gap = NODE_R + 2
        options = [
            (x - w / 2, y + gap),
            (x - w / 2, y - gap - h),
            (x + gap + 2, y - h / 2),
            (x - gap - 2 - w, y - h / 2),
            (x + gap * 0.7, y + gap * 0.7),
            (x - gap * 0.7 - w, y + gap * 0.7),
            (x + gap * 0.7, y - gap * 0.7 - h),
            (x - gap * 0.7 - w, y - gap * 0.7 - h),
        ]
        best = min(options, key=lambda o: _clash((o[0], o[1], o[0] + w, o[1] + h), taken, bounds))
        labels[name] = best
        taken.append((best[0], best[1], best[0] + w, best[1] + h))
    regions = {}
    region_font = font(REGION_FONT, bold=True)
    for region in dict.fromkeys(r for _, r, _, _ in cities):
        members = [pos[n] for n, r, _, _ in cities if r == region]
        cx = sum(p[0] for p in members) / len(members)
        cy = sum(p[1] for p in members) / len(members)
        w = region_font.getlength(f"{region.upper()} · not in play")
        h = REGION_FONT + 6
        options = [
            (cx + dx, cy + dy)
            for r in (0, 56, 112, 168)
            for dx, dy in ((0, r), (0, -r), (r, 0), (-r, 0), (r, r), (-r, r), (r, -r), (-r, -r))
        ]
        best = min(
            options,
            key=lambda o: _clash(
                (o[0] - w / 2, o[1] - h / 2, o[0] + w / 2, o[1] + h / 2), taken, bounds
            ),
        )
        regions[region] = best
        taken.append((best[0] - w / 2, best[1] - h / 2, best[0] + w / 2, best[1] + h / 2))
    return Layout(width, height, pos, labels, costs, regions)


def _clash(rect: Rect, taken: list[Rect], bounds: Rect) -> float:
    """Overlap area with what is already placed, plus a heavy cost for leaving the map."""
    x0, y0, x1, y1 = rect
    total = 0.0
    for a0, b0, a1, b1 in taken:
        # Most placed boxes are nowhere near: four comparisons rule them out.
        if a0 < x1 and x0 < a1 and b0 < y1 and y0 < b1:
            total += (min(x1, a1) - max(x0, a0)) * (min(y1, b1) - max(y0, b0))
    outside = (
        max(0.0, bounds[0] - x0)
        + max(0.0, bounds[1] - y0)
        + max(0.0, x1 - bounds[2])
        + max(0.0, y1 - bounds[3])
    )
    return total + outside * 1000
