"""The map image: regions, connections with costs, cities with their house slots and houses."""

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from PIL import ImageDraw

from render.common import INK, MUTED, PANEL, RGB, RULE, blend, canvas, font, png, text_colour
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

CLOSEST = 78.0
"""Pixels between the two closest cities; sets the map's scale."""
NODE_R = 28
SLOT_R = 11.5
SLOTS = ((0.0, -11.5), (-12.5, 9.0), (12.5, 9.0))
HALO_R = 50
COST_R = 13
MARGIN = 36
HEADER_H = 96
NAME_FONT = 15

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
    """PNG of the map: regions (in play highlighted), connections, cities with houses and slots."""
    layout = _layout(
        view["map"],
        tuple((c["name"], c["region"], c["x"], c["y"]) for c in view["cities"]),
        tuple((e["a"], e["b"]) for e in view["connections"]),
    )
    width = max(1000, layout.width)
    foot = legend_height(view, width)
    img, draw = canvas(width, HEADER_H + layout.height + foot)
    header(draw, view, names, width)
    top = HEADER_H
    ox = (width - layout.width) / 2
    live = _live_regions(view)
    by_name = {c["name"]: c for c in view["cities"]}

    def at(name: str) -> tuple[float, float]:
        x, y = layout.pos[name]
        return ox + x, top + y

    draw.rounded_rectangle(
        (12, top, width - 12, top + layout.height - 8), radius=18, fill=PANEL, outline=RULE, width=2
    )
    for c in view["cities"]:
        x, y = at(c["name"])
        # While picking, regions not yet picked stay pale so the picked ones stand out.
        pale = view["phase"] in ("setup", "regions") and c["region"] not in view["regions"]
        fill = _tint(c["region"], 0.72 if pale else 0.35) if c["region"] in live else OUT_OF_PLAY
        draw.ellipse((x - HALO_R, y - HALO_R, x + HALO_R, y + HALO_R), fill=fill)
    for e in view["connections"]:
        usable = by_name[e["a"]]["region"] in live and by_name[e["b"]]["region"] in live
        draw.line(
            (at(e["a"]), at(e["b"])), fill=(110, 104, 94) if usable else (178, 174, 166), width=5
        )
    for c in view["cities"]:
        _city(draw, at(c["name"]), c, c["region"] in live, view["house_limit"])
    for e in view["connections"]:
        if e["cost"] == 0:
            continue
        x, y = layout.costs[(e["a"], e["b"])]
        usable = by_name[e["a"]]["region"] in live and by_name[e["b"]]["region"] in live
        _cost(draw, (ox + x, top + y), e["cost"], usable)
    name_font = font(NAME_FONT, bold=True, condensed=True)
    for c in view["cities"]:
        x, y = layout.labels[c["name"]]
        draw.text(
            (ox + x, top + y),
            c["name"],
            font=name_font,
            fill=INK if c["region"] in live else MUTED,
            stroke_width=3,
            stroke_fill=PANEL,
        )
    for region, (x, y) in layout.regions.items():
        _region_label(draw, (ox + x, top + y), region, view)
    legend(draw, view, names, width, HEADER_H + layout.height)
    return png(img)


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
    small = font(14, bold=True)
    for i, (dx, dy) in enumerate(SLOTS[: len(city["slot_costs"])]):
        sx, sy = x + dx, y + dy
        box = (sx - SLOT_R, sy - SLOT_R, sx + SLOT_R, sy + SLOT_R)
        if i < len(houses):
            fill = seat_colour(houses[i])
            draw.ellipse(box, fill=fill, outline=INK, width=2)
            draw.text(
                (sx, sy),
                str(houses[i] + 1),
                font=font(16, bold=True),
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


def _cost(draw: ImageDraw.ImageDraw, centre: tuple[float, float], cost: int, usable: bool) -> None:
    x, y = centre
    draw.ellipse(
        (x - COST_R, y - COST_R, x + COST_R, y + COST_R),
        fill=(255, 255, 255) if usable else (238, 236, 231),
        outline=(110, 104, 94) if usable else (178, 174, 166),
        width=2,
    )
    draw.text(
        (x, y), str(cost), font=font(14, bold=True), fill=INK if usable else MUTED, anchor="mm"
    )


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
        font=font(20, bold=True),
        fill=REGION_INK.get(region, INK) if live else MUTED,
        anchor="mm",
        stroke_width=4,
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
    pad = HALO_R + 70
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
    name_font = font(NAME_FONT, bold=True, condensed=True)
    labels = {}
    for name, (x, y) in sorted(pos.items(), key=lambda kv: (kv[1][1], kv[1][0])):
        w = name_font.getlength(name)
        h = 18
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
    region_font = font(20, bold=True)
    for region in dict.fromkeys(r for _, r, _, _ in cities):
        members = [pos[n] for n, r, _, _ in cities if r == region]
        cx = sum(p[0] for p in members) / len(members)
        cy = sum(p[1] for p in members) / len(members)
        w = region_font.getlength(f"{region.upper()} · not in play")
        h = 24
        options = [
            (cx + dx, cy + dy)
            for r in (0, 40, 80, 120)
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
        w = min(x1, a1) - max(x0, a0)
        h = min(y1, b1) - max(y0, b0)
        if w > 0 and h > 0:
            total += w * h
    outside = (
        max(0.0, bounds[0] - x0)
        + max(0.0, bounds[1] - y0)
        + max(0.0, x1 - bounds[2])
        + max(0.0, y1 - bounds[3])
    )
    return total + outside * 1000
