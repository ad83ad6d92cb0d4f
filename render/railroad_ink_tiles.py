"""Drawing Railroad Ink route pieces: highways, railways, stations, overpasses, street lamps.

A piece is given as the route type leaving each side (N, E, S, W: "H", "R" or None) and, per
side, which inner segment it belongs to; segments of one piece that do not join are overpasses.
"""

import itertools
import math
from collections.abc import Sequence

from PIL import ImageDraw

from render.common import INK, RGB

ROAD: RGB = (70, 72, 78)
ROAD_LINE: RGB = (250, 250, 250)
RAIL: RGB = (40, 40, 44)
LAMP: RGB = (255, 204, 0)
BRIDGE: RGB = (255, 253, 247)

# Side midpoints as fractions of a cell, N, E, S, W.
MID = ((0.5, 0.0), (1.0, 0.5), (0.5, 1.0), (0.0, 0.5))


def _point(x: float, y: float, size: float, frac: tuple[float, float]) -> tuple[float, float]:
    return x + frac[0] * size, y + frac[1] * size


def route_line(
    draw: ImageDraw.ImageDraw,
    a: tuple[float, float],
    b: tuple[float, float],
    kind: str,
    size: float,
) -> None:
    """A straight stretch of highway (wide, dashed centre) or railway (rail with ties)."""
    if kind == "H":
        draw.line((a, b), fill=ROAD, width=max(4, int(size * 0.24)))
        _dashes(draw, a, b, size)
        return
    draw.line((a, b), fill=RAIL, width=max(2, int(size * 0.05)))
    length = math.dist(a, b)
    if length == 0:
        return
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    tie = size * 0.1
    step = size * 0.14
    t = step / 2
    while t < length:
        cx, cy = a[0] + ux * t, a[1] + uy * t
        draw.line((cx - uy * tie, cy + ux * tie, cx + uy * tie, cy - ux * tie), fill=RAIL, width=2)
        t += step


def _dashes(draw: ImageDraw.ImageDraw, a, b, size: float) -> None:
    length = math.dist(a, b)
    if length == 0:
        return
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    dash, gap = size * 0.08, size * 0.07
    t = gap / 2
    while t < length:
        e = min(t + dash, length)
        draw.line(
            (a[0] + ux * t, a[1] + uy * t, a[0] + ux * e, a[1] + uy * e),
            fill=ROAD_LINE,
            width=max(1, int(size * 0.025)),
        )
        t += dash + gap


def _curve(
    draw: ImageDraw.ImageDraw, x: float, y: float, size: float, d1: int, d2: int, kind: str
) -> None:
    """A quarter circle joining two adjacent sides, centred on the corner between them."""
    corner = {
        frozenset((0, 1)): (1, 0),
        frozenset((1, 2)): (1, 1),
        frozenset((2, 3)): (0, 1),
        frozenset((3, 0)): (0, 0),
    }[frozenset((d1, d2))]
    cx, cy = x + corner[0] * size, y + corner[1] * size
    start = {(1, 0): 90, (1, 1): 180, (0, 1): 270, (0, 0): 0}[corner]
    r = size / 2
    points = [
        (cx + r * math.cos(math.radians(start + t)), cy + r * math.sin(math.radians(start + t)))
        for t in range(0, 91, 10)
    ]
    for a, b in itertools.pairwise(points):
        route_line(draw, a, b, kind, size)


def piece(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    sides: Sequence[str | None],
    seg_of: Sequence[int],
    station: bool = False,
    lamp: bool = False,
) -> None:
    """Draw one placed piece inside `box` (a square cell)."""
    x, y, x1, _ = box
    size = x1 - x
    centre = (x + size / 2, y + size / 2)
    segments = sorted({k for k in seg_of if k >= 0})
    for k in segments:
        ends = [d for d in range(4) if seg_of[d] == k]
        crossing = len(ends) == 2 and (ends[0] - ends[1]) % 2 == 0
        if k > 0 and crossing:
            # The upper segment of an overpass: a light bridge deck so it reads as on top.
            for d in ends:
                draw.line((centre, _point(x, y, size, MID[d])), fill=BRIDGE, width=int(size * 0.34))
        kinds = {sides[d] for d in ends}
        if len(ends) == 2 and (ends[0] + ends[1]) % 2 == 1 and len(kinds) == 1 and not station:
            _curve(draw, x, y, size, ends[0], ends[1], sides[ends[0]] or "H")
            continue
        for d in ends:
            route_line(draw, _point(x, y, size, MID[d]), centre, sides[d] or "H", size)
    if station:
        s = size * 0.16
        draw.rectangle(
            (centre[0] - s, centre[1] - s, centre[0] + s, centre[1] + s),
            fill=INK,
            outline=BRIDGE,
            width=2,
        )
    if lamp:
        r = size * 0.09
        lx, ly = x + size * 0.82, y + size * 0.18
        draw.ellipse((lx - r, ly - r, lx + r, ly + r), fill=LAMP, outline=INK, width=2)
