"""The Powerline board map (stations, lines of dice, cities) at any scale, from a seat's view."""

import math
from dataclasses import dataclass
from functools import lru_cache, partial
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
    die,
    font,
    meeple,
    replayed,
    rounded,
    text_colour,
)

ENERGY: RGB = (255, 214, 10)
STATION_FILL: RGB = (236, 230, 214)
BADGE_R = 16
"""Radius of a fitting-die disc: room for its initial at the smallest text size."""
WORKER_MIN = 64
"""A planned worker is never smaller than this, so the initial on it stays readable."""


@dataclass(frozen=True)
class Frame:
    """Where the map goes: top-left corner, pixels per grid unit, and how much detail to draw."""

    x: float
    y: float
    unit: float
    centre: tuple[float, float]
    """The middle of the station grid, in grid units (cities sit on the side away from it)."""
    detail: bool = True
    box: tuple[float, float, float, float] | None = None
    """The area given to the map, which marks around it stay inside."""

    @classmethod
    def inside(
        cls, seat: dict[str, Any], box: tuple[float, float, float, float], detail: bool = True
    ) -> "Frame":
        """The largest frame that fits the stations' grid into `box` with room for cities."""
        xs = [s["pos"][0] for s in seat["stations"]]
        ys = [s["pos"][1] for s in seat["stations"]]
        w, h = max(xs) - min(xs), max(ys) - min(ys)
        x0, y0, x1, y1 = box
        unit = min((x1 - x0) / (w + 1.3), (y1 - y0) / (h + 1.3))
        ox = x0 + ((x1 - x0) - w * unit) / 2 - min(xs) * unit
        oy = y0 + ((y1 - y0) - h * unit) / 2 - min(ys) * unit
        return cls(ox, oy, unit, (min(xs) + w / 2, min(ys) + h / 2), detail, box)

    def at(self, pos: tuple[float, float]) -> tuple[float, float]:
        return self.x + pos[0] * self.unit, self.y + pos[1] * self.unit

    @property
    def station_r(self) -> float:
        return self.unit * 0.36


@dataclass(frozen=True)
class Marks:
    """Extra things to draw on the map beyond the public board."""

    plan: dict[str, Any] | None = None
    """The owner's own plan: meeples on the planned segments."""
    highlight: bool = True
    """Outline the segments the current dice make eligible."""
    fresh: frozenset[tuple[str, int]] = frozenset()
    """(line, segment) built in the last round, drawn with a ring."""
    initials: dict[str, str] | None = None
    """Colour name → initial (R, Y, B, G, W, K) from the view, for meeples and fitting dice."""


@dataclass(frozen=True)
class _Geometry:
    """Where a seat's board puts everything in one frame, in pixels."""

    stations: dict[str, tuple[float, float]]
    centres: dict[str, list[tuple[float, float]]]
    """A line's segment centres, segment 0 next to its first-named station."""
    dice: dict[str, float]
    """The size of a line's dice."""
    normals: dict[tuple[str, bool], tuple[float, float]]
    """A line's unit normal towards its city (True: away from the board's centre) or away."""
    cities: dict[str, tuple[float, float]]
    """A line's city: beside the line's middle, on the side away from the board's centre."""
    obstacles: list[tuple[float, float, float, float]]
    """Boxes of every die, station and city, which discs keep clear of where they can."""


Board = tuple[tuple[tuple[str, float, float], ...], tuple[tuple[str, str, str, int], ...]]
"""A board's shape: its stations (id, position) and lines (id, ends, segments)."""


def _board(seat: dict[str, Any]) -> Board:
    return (
        tuple((s["id"], *s["pos"]) for s in seat["stations"]),
        tuple((line["id"], *line["ends"], len(line["pips"])) for line in seat["lines"]),
    )


def _geometry(frame: Frame, seat: dict[str, Any]) -> _Geometry:
    # Every seat's board has one of a few shapes, drawn round after round in the same frames.
    return _geometry_of(frame, _board(seat))


@lru_cache(maxsize=64)
def _geometry_of(frame: Frame, board: Board) -> _Geometry:
    stations = {sid: frame.at((x, y)) for sid, x, y in board[0]}
    cx, cy = frame.at(frame.centre)
    centres, dice, normals, cities = {}, {}, {}, {}
    for line, a, b, n in board[1]:
        (ax, ay), (bx, by) = stations[a], stations[b]
        length = math.hypot(bx - ax, by - ay)
        ux, uy = (bx - ax) / length, (by - ay) / length
        margin = frame.station_r * 1.15
        span = length - 2 * margin
        centres[line] = [
            (ax + ux * (margin + span * (k + 0.5) / n), ay + uy * (margin + span * (k + 0.5) / n))
            for k in range(n)
        ]
        step = math.dist(centres[line][0], centres[line][1])
        dice[line] = min(step * 0.84, frame.unit * 0.5)
        nx, ny = -(by - ay) / length, (bx - ax) / length
        outward = ((ax + bx) / 2 - cx) * nx + ((ay + by) / 2 - cy) * ny >= 0
        normals[line, outward] = nx, ny
        normals[line, not outward] = -nx, -ny
        off = frame.unit * 0.62
        tx, ty = normals[line, True]
        cities[line] = ((ax + bx) / 2 + tx * off, (ay + by) / 2 + ty * off)
    obstacles = []
    for line, *_ in board[1]:
        h = dice[line] / 2
        obstacles += [(x - h, y - h, x + h, y + h) for x, y in centres[line]]
        x, y = cities[line]
        w = frame.unit * 0.62
        obstacles.append((x - w / 2, y - w * 0.6, x + w / 2, y + w * 0.75))
    r = frame.station_r
    obstacles += [(x - r, y - r, x + r, y + r) for x, y in stations.values()]
    return _Geometry(stations, centres, dice, normals, cities, obstacles)


def built_segments(line: dict[str, Any]) -> list[int]:
    """Segments holding a token: built from segment 0 upward, or from the far end down."""
    n, b = len(line["pips"]), line["built"]
    return list(range(b)) if line["direction"] >= 0 else list(range(n - b, n))


def draw_map(
    draw: ImageDraw.ImageDraw, frame: Frame, seat: dict[str, Any], colour: RGB, marks: Marks
) -> None:
    """Draw one seat's board: cables, cities, dice segments, stations, planned workers."""
    g = _geometry(frame, seat)
    dice_faces = {}
    for line in seat["lines"]:
        _cable(draw, frame, g, line, colour)
    for line in seat["lines"]:
        _city(draw, frame, g, line, colour)
    options = fitting(seat) if marks.highlight else {}
    for line in seat["lines"]:
        lid = line["id"]
        size = g.dice[lid]
        for k, (cx, cy) in enumerate(g.centres[lid]):
            dice_faces[(lid, k)] = (cx, cy, size)
        # A line's dice look the same round after round until it is built on, or its dice fit.
        key = (
            "dice",
            frame,
            g.centres[lid][0],
            g.centres[lid][-1],
            size,
            tuple(line["pips"]),
            line["built"],
            line["direction"],
            line["complete"],
            colour,
            tuple(k for k in range(len(line["pips"])) if (lid, k) in options),
            tuple(k for k in range(len(line["pips"])) if (lid, k) in marks.fresh),
        )
        paint = partial(
            _dice, frame=frame, g=g, line=line, colour=colour, options=options, marks=marks
        )
        replayed(draw, key, paint)
    if frame.detail:
        for line in seat["lines"]:
            _line_label(draw, frame, g, line)
    for station in seat["stations"]:
        _station(draw, frame, station, colour)
    if options and frame.detail:
        for badge in fitting_badges(frame, seat, options):
            _badge(draw, badge, marks.initials or {})
    if marks.plan:
        for p in marks.plan["placements"]:
            if p["island"]:
                continue
            cx, cy, size = dice_faces[(p["line"], p["segment"])]
            worker = max(size * 0.95, WORKER_MIN)
            planned_worker(draw, (cx + size * 0.2, cy - size * 0.25), worker, p, marks)


def _dice(
    draw: ImageDraw.ImageDraw,
    frame: Frame,
    g: _Geometry,
    line: dict[str, Any],
    colour: RGB,
    options: dict[tuple[str, int], list[str]],
    marks: Marks,
) -> None:
    """A line's dice (those that fit haloed, this round's ringed) and its way of construction."""
    lid = line["id"]
    size = g.dice[lid]
    built = set(built_segments(line))
    for k, (cx, cy) in enumerate(g.centres[lid]):
        box = (cx - size / 2, cy - size / 2, cx + size / 2, cy + size / 2)
        if (lid, k) in options:
            pad = max(3.0, size * 0.14)
            rounded(
                draw,
                (box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad),
                radius=int(size * 0.3),
                fill=HIGHLIGHT,
            )
        fill = colour if k in built else PANEL
        die(draw, box, line["pips"][k], fill, width=2 if frame.detail else 1)
        if (lid, k) in marks.fresh:
            rounded(
                draw,
                (box[0] - 3, box[1] - 3, box[2] + 3, box[3] + 3),
                radius=int(size * 0.25),
                outline=INK,
                width=3,
            )
    if line["built"] and not line["complete"]:
        _direction_arrow(draw, frame, g, line, colour)


def fitting(seat: dict[str, Any]) -> dict[tuple[str, int], list[str]]:
    """(line, segment) → the colours of the dice that fit it now."""
    return {
        (line["id"], o["segment"]): o["colors"] for line in seat["lines"] for o in line["options"]
    }


@dataclass(frozen=True)
class Badge:
    """A disc naming one die colour that fits a segment, and where its stack starts."""

    x: float
    y: float
    colour: str
    root: tuple[float, float]
    """The edge of the segment's die the stack leaves from (a leader line joins them)."""

    @property
    def box(self) -> tuple[float, float, float, float]:
        return self.x - BADGE_R, self.y - BADGE_R, self.x + BADGE_R, self.y + BADGE_R


def fitting_badges(
    frame: Frame, seat: dict[str, Any], options: dict[tuple[str, int], list[str]]
) -> list[Badge]:
    """Each fitting segment's discs, stacked off its line: away from the city first, else to
    the other side or pushed further out, so that no disc overlaps another and, as far as a
    short push allows, none covers a die, station or city or leaves the map."""
    fits = tuple((key, tuple(colours)) for key, colours in sorted(options.items()))
    return list(_badges(frame, _board(seat), fits))


@lru_cache(maxsize=64)
def _badges(
    frame: Frame, board: Board, fits: tuple[tuple[tuple[str, int], tuple[str, ...]], ...]
) -> tuple[Badge, ...]:
    # The dice of a round fit the same segments in every image of it.
    g = _geometry_of(frame, board)
    obstacles = g.obstacles
    placed: list[Badge] = []
    taken: list[tuple[float, float, float, float]] = []
    for (line_id, k), colours in fits:
        cx, cy = g.centres[line_id][k]
        half = g.dice[line_id] / 2
        best: tuple[float, list[Badge]] | None = None
        for push in range(40):
            for toward_city in (False, True):
                nx, ny = g.normals[line_id, toward_city]
                edge = half * (abs(nx) + abs(ny))
                # Steps long enough that the discs' boxes, not just the discs, stay apart.
                step = (2 * BADGE_R + 2) / max(abs(nx), abs(ny))
                start = edge + BADGE_R + 4 + push * step / 2
                stack = [
                    Badge(
                        cx + nx * (start + i * step),
                        cy + ny * (start + i * step),
                        colour,
                        (cx + nx * edge, cy + ny * edge),
                    )
                    for i, colour in enumerate(colours)
                ]
                boxes = [b.box for b in stack]
                if any(_overlaps(box, other, 2) for box in boxes for other in taken):
                    continue
                covered = sum(_overlaps(box, o, 0) for box in boxes for o in obstacles)
                outside = sum(not _within(box, frame.box) for box in boxes)
                score = 3 * covered + 100 * outside + push
                if best is None or score < best[0]:
                    best = (score, stack)
            # Every later stack is pushed further, so it scores at least push + 1.
            if best is not None and best[0] <= push + 1:
                break
        if best is not None:
            placed += best[1]
            taken += [b.box for b in best[1]]
    return tuple(placed)


def _within(box: tuple[float, ...], bounds: tuple[float, ...] | None) -> bool:
    if bounds is None:
        return True
    return (
        box[0] >= bounds[0] and box[1] >= bounds[1] and box[2] <= bounds[2] and box[3] <= bounds[3]
    )


def _overlaps(a: tuple[float, ...], b: tuple[float, ...], gap: float) -> bool:
    return a[0] < b[2] + gap and b[0] < a[2] + gap and a[1] < b[3] + gap and b[1] < a[3] + gap


def _badge(draw: ImageDraw.ImageDraw, badge: Badge, initials: dict[str, str]) -> None:
    """One disc with the die colour's initial; a thin leader joins a pushed-out stack to its die."""
    if math.dist(badge.root, (badge.x, badge.y)) > BADGE_R + 8:
        draw.line((badge.root, (badge.x, badge.y)), fill=INK, width=2)
    fill = DICE[badge.colour]
    draw.ellipse(badge.box, fill=fill, outline=INK, width=2)
    draw.text(
        (badge.x, badge.y + 1),
        initials.get(badge.colour, "?"),
        font=font(MIN_TEXT, bold=True),
        fill=text_colour(fill),
        anchor="mm",
    )


def planned_worker(
    draw: ImageDraw.ImageDraw, at: tuple[float, float], size: float, p: dict, marks: Marks
) -> None:
    """A planned worker as a meeple in its die colour, with a joker badge where one is spent."""
    meeple(draw, at, size, DICE[p["color"]], (marks.initials or {}).get(p["color"], "?"))
    if p.get("joker"):
        x, y = at
        r = size * 0.24
        draw.ellipse(
            (x + size * 0.2, y - size * 0.62, x + size * 0.2 + 2 * r, y - size * 0.62 + 2 * r),
            fill=HIGHLIGHT,
            outline=INK,
            width=2,
        )
        draw.text(
            (x + size * 0.2 + r, y - size * 0.62 + r),
            "J",
            font=font(int(r * 1.5), bold=True),
            fill=INK,
            anchor="mm",
        )


def _cable(
    draw: ImageDraw.ImageDraw, frame: Frame, g: _Geometry, line: dict[str, Any], colour: RGB
) -> None:
    a, b = (g.stations[e] for e in line["ends"])
    width = max(2, int(frame.unit * (0.09 if line["complete"] else 0.04)))
    draw.line((a, b), fill=colour if line["complete"] else RULE, width=width)


def _direction_arrow(
    draw: ImageDraw.ImageDraw, frame: Frame, g: _Geometry, line: dict[str, Any], colour: RGB
) -> None:
    """A chevron just past the last token, pointing the way construction continues."""
    centres = g.centres[line["id"]]
    built = built_segments(line)
    last = built[-1] if line["direction"] >= 0 else built[0]
    step = 1 if line["direction"] >= 0 else -1
    nxt = last + step
    (x0, y0), (x1, y1) = centres[last], centres[nxt]
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    length = math.dist((x0, y0), (x1, y1))
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    s = max(5.0, frame.unit * 0.1)
    tip = (mx + ux * s, my + uy * s)
    left = (mx - ux * s - uy * s, my - uy * s + ux * s)
    right = (mx - ux * s + uy * s, my - uy * s - ux * s)
    draw.polygon([tip, left, right], fill=colour, outline=INK)


def _city(
    draw: ImageDraw.ImageDraw, frame: Frame, g: _Geometry, line: dict[str, Any], colour: RGB
) -> None:
    """The city with its VP, building and (once supplied) a bolt."""
    x, y = g.cities[line["id"]]
    w = frame.unit * 0.62
    h = w * 0.72
    fill = ENERGY if line["complete"] else STATION_FILL
    replayed(draw, ("city", frame, x, y, fill), lambda d: _house(d, (x, y), w, fill))
    if frame.detail:
        vp_font = font(int(w * 0.42), bold=True)
        draw.text((x, y + h * 0.18), str(line["city_vp"]), font=vp_font, fill=INK, anchor="mm")

        symbol = {"opera": "♫", "church": "✝"}.get(line["building"] or "")
        if symbol:
            draw.text(
                (x, y - h * 0.42),
                symbol,
                font=font(int(w * 0.32), bold=True),
                fill=INK,
                anchor="mm",
            )
        if line["complete"]:
            draw.text(
                (x + w * 0.5, y - h * 0.6),
                "⚡",
                font=font(int(w * 0.42), bold=True),
                fill=colour,
                anchor="mm",
                stroke_width=2,
                stroke_fill=INK,
            )


def _house(draw: ImageDraw.ImageDraw, at: tuple[float, float], w: float, fill: RGB) -> None:
    """A city's building: a body under a roof."""
    x, y = at
    h = w * 0.72
    roof = [(x - w / 2, y - h * 0.15), (x, y - h * 0.75), (x + w / 2, y - h * 0.15)]
    body = (x - w / 2, y - h * 0.15, x + w / 2, y + h * 0.5)
    draw.rectangle(body, fill=fill, outline=INK, width=2)
    draw.polygon(roof, fill=fill, outline=INK)


def _line_label(
    draw: ImageDraw.ImageDraw, frame: Frame, g: _Geometry, line: dict[str, Any]
) -> None:
    """The line's name beside its city, as the planner and the summaries say it ("L5"): to the
    right of a city above or below its line (under it, the name would sit on the dice), else
    under the city; drawn after the dice so none covers it."""
    x, y = g.cities[line["id"]]
    nx, ny = g.normals[line["id"], True]
    w = frame.unit * 0.62
    h = w * 0.72
    fnt = font(int(w * 0.36), bold=True)
    if abs(ny) > abs(nx):
        at, anchor = (x + w / 2 + 6, y + h * 0.18), "lm"
    else:
        at, anchor = (x, y + h * 0.5 + w * 0.05), "mt"
    draw.text(at, line["id"], font=fnt, fill=INK, anchor=anchor, stroke_width=3, stroke_fill=PANEL)


def _station(draw: ImageDraw.ImageDraw, frame: Frame, station: dict[str, Any], colour: RGB) -> None:
    x, y = frame.at(station["pos"])
    r = frame.station_r
    fill = colour if station["covered"] else STATION_FILL
    ink = text_colour(fill)
    key = ("station", frame, x, y, station["type"], fill)
    replayed(draw, key, lambda d: _station_disc(d, frame, (x, y), station["type"], fill))
    if not frame.detail:
        return
    draw.text(
        (x, y + r * 0.45),
        str(station["vp"]),
        font=font(int(r * 0.62), bold=True),
        fill=ink,
        anchor="mm",
    )
    # The station's name as the summaries say it ("station A2").
    draw.text(
        (x - r * 0.8, y - r * 0.8),
        station["id"],
        font=font(int(r * 0.5), bold=True),
        fill=INK,
        anchor="mm",
        stroke_width=3,
        stroke_fill=PANEL,
    )
    if station["covered"]:
        draw.text(
            (x + r * 0.78, y - r * 0.78),
            "✓",
            font=font(int(r * 0.7), bold=True),
            fill=INK,
            anchor="mm",
        )


def _station_disc(
    draw: ImageDraw.ImageDraw, frame: Frame, at: tuple[float, float], kind: str, fill: RGB
) -> None:
    x, y = at
    r = frame.station_r
    draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=INK, width=3)
    ink = text_colour(fill)
    if frame.detail:
        _station_icon(draw, kind, (x, y - r * 0.28), r * 0.42, ink)
    else:
        _station_icon(draw, kind, (x, y), r * 0.55, ink)


def _station_icon(
    draw: ImageDraw.ImageDraw, kind: str, at: tuple[float, float], r: float, ink: RGB
) -> None:
    """Small pictograms: wind turbine, water drop, sun, leaf."""
    x, y = at
    if kind == "wind":
        for angle in (90, 210, 330):
            a = math.radians(angle)
            draw.line((x, y, x + r * math.cos(a), y - r * math.sin(a)), fill=ink, width=3)
        draw.ellipse((x - 3, y - 3, x + 3, y + 3), fill=ink)
    elif kind == "hydro":
        draw.polygon([(x, y - r), (x - r * 0.6, y + r * 0.2), (x + r * 0.6, y + r * 0.2)], fill=ink)
        draw.ellipse((x - r * 0.6, y - r * 0.2, x + r * 0.6, y + r * 0.8), fill=ink)
    elif kind == "solar":
        draw.ellipse((x - r * 0.45, y - r * 0.45, x + r * 0.45, y + r * 0.45), fill=ink)
        for k in range(8):
            a = math.radians(k * 45)
            draw.line(
                (
                    x + r * 0.6 * math.cos(a),
                    y + r * 0.6 * math.sin(a),
                    x + r * math.cos(a),
                    y + r * math.sin(a),
                ),
                fill=ink,
                width=2,
            )
    else:
        draw.ellipse((x - r * 0.55, y - r, x + r * 0.55, y + r * 0.7), fill=ink)
        draw.line((x, y + r, x, y - r * 0.5), fill=MUTED if ink == INK else INK, width=2)
