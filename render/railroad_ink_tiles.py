"""Drawing Railroad Ink route pieces: highways, railways, stations, overpasses, street lamps.

A piece is given as the route type leaving each side (N, E, S, W: "H", "R" or None) and, per
side, which inner segment it belongs to; segments of one piece that do not join are overpasses.
Also here: the marks laid over pieces (lit and unlit lamps, electrified spaces, power arrows).
"""

import itertools
import math
from collections.abc import Sequence

from PIL import ImageDraw

from render.common import INK, RGB, replayed

ROAD: RGB = (70, 72, 78)
ROAD_LINE: RGB = (250, 250, 250)
RAIL: RGB = (40, 40, 44)
LAMP: RGB = (255, 204, 0)
LAMP_OFF: RGB = (236, 234, 228)
LIT: RGB = (255, 240, 170)
BRIDGE: RGB = (255, 253, 247)
POWER: RGB = (0, 114, 178)
POWER_TINT: RGB = (214, 232, 246)

Point = tuple[float, float]

# Side midpoints as fractions of a cell, N, E, S, W.
MID = ((0.5, 0.0), (1.0, 0.5), (0.5, 1.0), (0.0, 0.5))
SIDE_INDEX = {"N": 0, "E": 1, "S": 2, "W": 3}
STEP = ((0, -1), (1, 0), (0, 1), (-1, 0))
"""Unit (dx, dy) towards N, E, S, W."""


def _point(x: float, y: float, size: float, frac: tuple[float, float]) -> Point:
    return x + frac[0] * size, y + frac[1] * size


def _along(points: Sequence[Point], start: float, step: float) -> list[tuple[Point, Point]]:
    """(position, unit tangent) every `step` px of arc length along a polyline, from `start`."""
    out: list[tuple[Point, Point]] = []
    t, walked = start, 0.0
    for a, b in itertools.pairwise(points):
        length = math.dist(a, b)
        if length == 0:
            continue
        ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
        while t <= walked + length:
            k = t - walked
            out.append(((a[0] + ux * k, a[1] + uy * k), (ux, uy)))
            t += step
        walked += length
    return out


def _sub(points: Sequence[Point], t0: float, t1: float) -> list[Point]:
    """The part of a polyline between arc lengths t0 and t1, as a polyline."""
    out: list[Point] = []
    walked = 0.0
    for a, b in itertools.pairwise(points):
        length = math.dist(a, b)
        if length == 0:
            continue
        lo, hi = max(t0, walked), min(t1, walked + length)
        if lo < hi:
            fa, fb = (lo - walked) / length, (hi - walked) / length
            pa = (a[0] + (b[0] - a[0]) * fa, a[1] + (b[1] - a[1]) * fa)
            pb = (a[0] + (b[0] - a[0]) * fb, a[1] + (b[1] - a[1]) * fb)
            if not out or out[-1] != pa:
                out.append(pa)
            out.append(pb)
        walked += length
    return out


def route_path(draw: ImageDraw.ImageDraw, points: Sequence[Point], kind: str, size: float) -> None:
    """A highway (wide, dashed centre line) or railway (rail with ties) along a polyline.

    Dashes and ties are laid by arc length, so a curve reads as one continuous route.
    """
    points = list(points)
    total = sum(math.dist(a, b) for a, b in itertools.pairwise(points))
    if total == 0:
        return
    if kind == "H":
        draw.line(points, fill=ROAD, width=max(4, int(size * 0.24)), joint="curve")
        dash, gap = size * 0.08, size * 0.07
        t = gap / 2
        width = max(2, int(size * 0.025))
        while t < total:
            part = _sub(points, t, min(t + dash, total))
            if len(part) >= 2:
                draw.line(part, fill=ROAD_LINE, width=width)
            t += dash + gap
        return
    draw.line(points, fill=RAIL, width=max(2, int(size * 0.05)), joint="curve")
    tie = size * 0.1
    tw = max(2, round(size * 0.022))
    for (cx, cy), (ux, uy) in _along(points, size * 0.07, size * 0.14):
        draw.line((cx - uy * tie, cy + ux * tie, cx + uy * tie, cy - ux * tie), fill=RAIL, width=tw)


def route_line(draw: ImageDraw.ImageDraw, a: Point, b: Point, kind: str, size: float) -> None:
    """A straight stretch of highway or railway from `a` to `b`."""
    route_path(draw, (a, b), kind, size)


def _arc(x: float, y: float, size: float, d1: int, d2: int) -> list[Point]:
    """A quarter circle from side d1's midpoint to side d2's, centred on their shared corner."""
    corner = {
        frozenset((0, 1)): (1, 0),
        frozenset((1, 2)): (1, 1),
        frozenset((2, 3)): (0, 1),
        frozenset((3, 0)): (0, 0),
    }[frozenset((d1, d2))]
    cx, cy = x + corner[0] * size, y + corner[1] * size
    start = {(1, 0): 90, (1, 1): 180, (0, 1): 270, (0, 0): 0}[corner]
    r = size / 2
    return [
        (cx + r * math.cos(math.radians(start + t)), cy + r * math.sin(math.radians(start + t)))
        for t in range(0, 91, 6)
    ]


def piece(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    sides: Sequence[str | None],
    seg_of: Sequence[int],
    station: bool = False,
    lamp: bool = False,
    lit: bool = False,
) -> None:
    """Draw one placed piece inside `box` (a square cell); a lamp shows `lit` or not. A piece
    is replayed where it was drawn before (a board's pieces stay from round to round)."""
    key = ("piece", tuple(box), tuple(sides), tuple(seg_of), station, lamp, lit)
    replayed(draw, key, lambda d: _draw_piece(d, box, sides, seg_of, station, lamp, lit))


def _draw_piece(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    sides: Sequence[str | None],
    seg_of: Sequence[int],
    station: bool,
    lamp: bool,
    lit: bool,
) -> None:
    x, y, x1, _ = box
    size = x1 - x
    centre = (x + size / 2, y + size / 2)
    segments = sorted({k for k in seg_of if k >= 0})
    for k in segments:
        ends = [d for d in range(4) if seg_of[d] == k]
        crossing = len(ends) == 2 and (ends[0] - ends[1]) % 2 == 0
        if k > 0 and crossing:
            # The upper segment of an overpass: a light bridge deck so it reads as on top.
            a, b = (_point(x, y, size, MID[d]) for d in ends)
            draw.line((a, b), fill=BRIDGE, width=int(size * 0.34))
        kinds = {sides[d] for d in ends}
        if len(ends) == 2 and (ends[0] + ends[1]) % 2 == 1 and len(kinds) == 1 and not station:
            route_path(draw, _arc(x, y, size, ends[0], ends[1]), sides[ends[0]] or "H", size)
            continue
        if crossing and len(kinds) == 1:
            a, b = (_point(x, y, size, MID[d]) for d in ends)
            route_path(draw, (a, b), sides[ends[0]] or "H", size)
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
        street_lamp(draw, (x + size * 0.82, y + size * 0.18), size * 0.09, lit)


def street_lamp(draw: ImageDraw.ImageDraw, centre: Point, r: float, lit: bool) -> None:
    """A lamp: lit is a yellow disc with rays, unlit a pale hollow disc (shape, not only hue)."""
    cx, cy = centre
    if lit:
        for k in range(8):
            a = math.radians(k * 45 + 22.5)
            c, s = math.cos(a), math.sin(a)
            draw.line(
                (cx + c * r * 1.3, cy + s * r * 1.3, cx + c * r * 1.9, cy + s * r * 1.9),
                fill=INK,
                width=2,
            )
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=LAMP, outline=INK, width=2)
    else:
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=LAMP_OFF, outline=INK, width=2)
        draw.line((cx - r * 0.5, cy, cx + r * 0.5, cy), fill=INK, width=2)


def bolt(draw: ImageDraw.ImageDraw, centre: Point, h: float, fill: RGB = POWER) -> None:
    """A lightning bolt `h` px tall, outlined so it reads on any background."""
    cx, cy = centre
    pts = [(0.1, -0.5), (-0.3, 0.06), (-0.02, 0.06), (-0.12, 0.5), (0.3, -0.08), (0.02, -0.08)]
    draw.polygon([(cx + px * h, cy + py * h) for px, py in pts], fill=fill, outline=INK, width=2)


def electrified(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float]) -> None:
    """An electrified space: a heavy frame with corner ticks and a bolt badge bottom-right."""
    x0, y0, x1, y1 = box
    draw.rectangle((x0 + 2, y0 + 2, x1 - 2, y1 - 2), outline=POWER, width=5)
    r = (x1 - x0) * 0.15
    cx, cy = x1 - r - 4, y1 - r - 4
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(255, 255, 255), outline=POWER, width=3)
    bolt(draw, (cx, cy), r * 1.5, (255, 214, 10))


def arrow(
    draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], face: str, fill: RGB
) -> None:
    """A power die face: an arrow pointing N/E/S/W, or a bold '?' mark drawn as a ring."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    s = (x1 - x0) * 0.36
    if face not in SIDE_INDEX:
        draw.ellipse((cx - s, cy - s, cx + s, cy + s), outline=fill, width=max(3, int(s * 0.22)))
        bolt(draw, (cx, cy), s * 1.3, (255, 214, 10))
        return
    dx, dy = STEP[SIDE_INDEX[face]]
    px, py = -dy, dx
    shaft = s * 0.22
    head = s * 0.55
    pts = [
        (-s, -shaft),
        (s - head * 1.1, -shaft),
        (s - head * 1.1, -head),
        (s, 0),
        (s - head * 1.1, head),
        (s - head * 1.1, shaft),
        (-s, shaft),
    ]
    draw.polygon(
        [(cx + a * dx + b * px, cy + a * dy + b * py) for a, b in pts],
        fill=fill,
        outline=INK,
        width=2,
    )
