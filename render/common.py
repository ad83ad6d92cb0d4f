"""Drawing helpers shared by every game's images: fonts, palette, text fitting, dice, meeples."""

import io
import math
from bisect import bisect_right
from collections.abc import Callable, Hashable, Sequence
from functools import cache, lru_cache
from itertools import compress
from operator import itemgetter
from pathlib import Path
from typing import Any, NamedTuple, cast

from PIL import Image, ImageColor, ImageDraw, ImageFont

RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]


class Sprite(NamedTuple):
    """A flat-coloured drawing as masks (0 or 255) with their colours, pasted in turn: into a
    palette canvas exactly, where pasting its pixels would need them mapped to the canvas's
    palette first. Masks are Pillow's core images, all of `size`."""

    size: tuple[int, int]
    layers: tuple[tuple[RGB, Any], ...]


BACKGROUND: RGB = (246, 242, 232)
PANEL: RGB = (255, 253, 247)
INK: RGB = (34, 34, 38)
MUTED: RGB = (112, 108, 100)
RULE: RGB = (205, 198, 184)
HIGHLIGHT: RGB = (255, 196, 0)

DICE: dict[str, RGB] = {
    "red": (204, 37, 41),
    "yellow": (246, 200, 30),
    "blue": (31, 96, 196),
    "green": (28, 140, 72),
    "white": (250, 250, 250),
    "black": (28, 28, 30),
}
"""The six dice as printed; every use also carries the colour's initial."""

SEATS: tuple[RGB, ...] = (
    (230, 159, 0),
    (86, 180, 233),
    (0, 158, 115),
    (204, 121, 167),
    (0, 114, 178),
    (213, 94, 0),
)
"""Seat colours: the Okabe-Ito palette, distinguishable under the common colour blindnesses."""

PHONE_WIDTH = 390
PHONE_TEXT = 9
"""A phone shows an image this many pixels wide; text must stay this many pixels high there."""

WIDTH = 1040
"""Every posted image is this wide (sharp on desktop clients too)."""
MIN_TEXT = PHONE_TEXT * WIDTH // PHONE_WIDTH
"""No text is drawn smaller (24 px): still PHONE_TEXT px high on a PHONE_WIDTH-wide screen."""


FONTS = Path(__file__).parent / "fonts"
COVERAGE = FONTS / "coverage.txt"
"""The characters all the faces draw (tests.render.coverage writes it from the fonts)."""


def _font_path(name: str) -> str:
    return str(FONTS / name)


class _RememberingFont(ImageFont.FreeTypeFont):
    """A FreeType face that keeps the glyph masks it rendered and the widths it measured: the
    same words come back on every round's images, and rendering and measuring is most of text."""

    BUDGET = 2 << 20
    """Bytes of masks kept per face, at most: every game's images together need about half of
    it of the face they draw most (the regular 24 px)."""
    LENGTHS = 4096
    """Widths kept per face, at most."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._forget()

    def __setstate__(self, state: list[Any]) -> None:
        # Unpickling calls FreeTypeFont.__init__, not ours.
        super().__setstate__(state)
        self._forget()

    def _forget(self) -> None:
        self._masks: dict[tuple[Any, ...], tuple[Any, tuple[int, int]]] = {}
        self._bytes = 0
        self._lengths: dict[tuple[Any, ...], float] = {}

    def getlength(
        self,
        text: str | bytes,
        mode: str = "",
        direction: str | None = None,
        features: list[str] | None = None,
        language: str | None = None,
    ) -> float:
        if features:
            return super().getlength(text, mode, direction, features, language)
        key = (text, mode, direction, language)
        found = self._lengths.get(key)
        if found is None:
            if len(self._lengths) >= self.LENGTHS:
                self._lengths.clear()
            found = self._lengths[key] = super().getlength(text, mode, direction, None, language)
        return found

    def getmask2(
        self,
        text: str | bytes,
        mode: str = "",
        direction: str | None = None,
        features: list[str] | None = None,
        language: str | None = None,
        stroke_width: float = 0,
        anchor: str | None = None,
        ink: int = 0,
        start: tuple[float, float] | None = None,
        *rest: Any,
        **kwargs: Any,
    ) -> tuple[Any, tuple[int, int]]:
        args = (text, mode, direction, features, language, stroke_width, anchor, ink, start, *rest)
        # Colour masks are changed by the caller, and `ink` only matters for them.
        if mode == "RGBA" or features:
            return super().getmask2(*args, **kwargs)
        key = (text, mode, direction, language, stroke_width, anchor, start, *rest, *kwargs.items())
        found = self._masks.get(key)
        if found is None:
            found = super().getmask2(*args, **kwargs)
            width, height = found[0].size
            if self._bytes + width * height > self.BUDGET:
                self._forget()
            self._masks[key] = found
            self._bytes += width * height
        return found

    def mask(
        self, text: str, anchor: str, start: tuple[float, float], stroke_width: float
    ) -> tuple[Any, tuple[int, int]]:
        """The mask and offset ImageDraw.text would get for one line drawn on an L image."""
        key = (text, "L", None, None, stroke_width, anchor, start, ("stroke_filled", True))
        found = self._masks.get(key)
        if found is None:
            # Filed under the same key as ImageDraw's own call.
            found = self.getmask2(
                text, "L", None, None, None, stroke_width, anchor, 0, start, stroke_filled=True
            )
        return found


def font(size: int, bold: bool = False, condensed: bool = False) -> ImageFont.FreeTypeFont:
    """The shipped DejaVu Sans at `size` px (never below MIN_TEXT)."""
    return _face(max(size, MIN_TEXT), bold, condensed)


@cache
def _face(size: int, bold: bool, condensed: bool) -> ImageFont.FreeTypeFont:
    # Cached by the size drawn, not the size asked: the many asks below MIN_TEXT share one face
    # (a face holds a third of a megabyte).
    name = "DejaVuSans" + ("Condensed" if condensed else "") + ("-Bold" if bold else "") + ".ttf"
    return _RememberingFont(_font_path(name), size)


@cache
def _coverage() -> tuple[list[int], list[int]]:
    """Code points every shipped face can draw, as the starts and ends of ranges (COVERAGE)."""
    ranges = [line.split("-") for line in COVERAGE.read_text("ascii").split()]
    return [int(start, 16) for start, _ in ranges], [int(end, 16) for _, end in ranges]


def _covered(code: int) -> bool:
    starts, ends = _coverage()
    i = bisect_right(starts, code) - 1
    return i >= 0 and code <= ends[i]


@lru_cache(maxsize=4096)
def printable(text: str) -> str:
    """`text` on one line, with characters the fonts lack (CJK, most emoji) shown as '?' rather
    than boxes."""
    # Line breaks and tabs become spaces: text measuring fails on a line break.
    return "".join(" " if c.isspace() else c if _covered(ord(c)) else "?" for c in text)


def fit(text: str, fnt: ImageFont.FreeTypeFont, width: int) -> str:
    """`text` made printable and cut with an ellipsis so it fits in `width` pixels."""
    text = printable(text)
    if fnt.getlength(text) <= width:
        return text
    # The longest cut that fits: widths grow with every character, so halving finds it.
    short, long = 0, len(text)
    while short < long:
        middle = (short + long + 1) // 2
        if fnt.getlength(text[:middle] + "…") <= width:
            short = middle
        else:
            long = middle - 1
    return text[:short].rstrip() + "…"


def two_lines(text: str, fnt: ImageFont.FreeTypeFont, width: float) -> list[str]:
    """`text` on one line if it fits `width`, else split at the most even word break into two
    (each cut to fit)."""
    text = printable(text)
    words = text.split()
    if fnt.getlength(text) <= width or len(words) < 2:
        return [fit(text, fnt, int(width))]
    best = min(
        range(1, len(words)),
        key=lambda k: max(fnt.getlength(" ".join(words[:k])), fnt.getlength(" ".join(words[k:]))),
    )
    return [fit(" ".join(part), fnt, int(width)) for part in (words[:best], words[best:])]


def tally(
    draw: ImageDraw.ImageDraw,
    at: tuple[float, float],
    items: Sequence[tuple[str, str]],
    right: float,
) -> None:
    """ "Start 10 · Cities 49 · …" on one line from `at` (left, middle): each word muted and
    condensed, its value bold; separators tighten, then the last items go, to end by `right`."""
    word, value = font(MIN_TEXT, condensed=True), font(MIN_TEXT, bold=True, condensed=True)

    def width(sep: str, count: int) -> float:
        return sum(
            word.getlength((sep if i else "") + w + " ") + value.getlength(v)
            for i, (w, v) in enumerate(items[:count])
        )

    count = len(items)
    sep = "  ·  " if width("  ·  ", count) <= right - at[0] else " · "
    while count > 1 and width(sep, count) > right - at[0]:
        count -= 1
    x, y = at
    for i, (w, v) in enumerate(items[:count]):
        lead = (sep if i else "") + w + " "
        draw.text((x, y), lead, font=word, fill=MUTED, anchor="lm")
        x += word.getlength(lead)
        draw.text((x, y), v, font=value, fill=INK, anchor="lm")
        x += value.getlength(v)


def text_colour(fill: RGB) -> RGB:
    """Black or white, whichever reads better on `fill`."""
    r, g, b = fill
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else (255, 255, 255)


_PIPS = {
    1: [(0.5, 0.5)],
    2: [(0.25, 0.25), (0.75, 0.75)],
    3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
    4: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)],
    5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
    6: [(0.25, 0.22), (0.75, 0.22), (0.25, 0.5), (0.75, 0.5), (0.25, 0.78), (0.75, 0.78)],
}


def die(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    value: int,
    fill: RGB,
    outline: RGB = INK,
    width: int = 2,
) -> None:
    """A die face with `value` pips (1..6) in `box`; pips contrast with `fill`. Faces are cached
    sprites (a board shows dozens of the same few), pasted through their own shape."""
    x0, y0, x1, y1 = (round(v) for v in box)
    paste_sprite(draw, _die_sprite(value, x1 - x0, y1 - y0, fill, outline, width), (x0, y0))


@lru_cache(maxsize=512)
def _die_sprite(value: int, w: int, h: int, fill: RGB, outline: RGB, width: int) -> Sprite:
    shape, ring, pips = _die_masks(value, w, h, width)
    return Sprite((w + 1, h + 1), ((fill, shape), (outline, ring), (text_colour(fill), pips)))


@lru_cache(maxsize=256)
def _die_masks(value: int, w: int, h: int, width: int) -> tuple[Any, Any, Any]:
    """Where a die face shows, its outline and its pips (as Pillow's core images): shared by
    the faces of every colour."""
    radius = max(3, int(w * 0.18))
    masks = [Image.new("L", (w + 1, h + 1)) for _ in range(3)]
    shape, ring, pips = (ImageDraw.Draw(mask) for mask in masks)
    shape.rounded_rectangle((0, 0, w, h), radius=radius, fill=255)
    ring.rounded_rectangle((0, 0, w, h), radius=radius, outline=255, width=width)
    r = max(2.0, w * 0.085)
    for fx, fy in _PIPS[value]:
        cx, cy = fx * w, fy * h
        pips.ellipse((cx - r, cy - r, cx + r, cy + r), fill=255)
    inside = masks[0].im
    return inside, masks[1].im.chop_darker(inside), masks[2].im.chop_darker(inside)


def rounded(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    radius: int,
    fill: RGB | None = None,
    outline: RGB | None = None,
    width: int = 1,
) -> None:
    """A rounded rectangle pasted from a cached sprite, for the small ones a board repeats
    (highlights, rings, chart cells): the same pixels as drawing it, in a fraction of the time."""
    x0, y0 = math.floor(box[0]), math.floor(box[1])
    local = (box[0] - x0, box[1] - y0, box[2] - x0, box[3] - y0)
    paste_sprite(draw, _rounded_sprite(local, radius, fill, outline, width), (x0, y0))


@lru_cache(maxsize=512)
def _rounded_sprite(
    box: tuple[float, float, float, float],
    radius: int,
    fill: RGB | None,
    outline: RGB | None,
    width: int,
) -> Sprite:
    img = Image.new("RGBA", (math.ceil(box[2]) + 1, math.ceil(box[3]) + 1), (0, 0, 0, 0))
    ImageDraw.Draw(img).rounded_rectangle(
        box,
        radius=radius,
        fill=None if fill is None else (*fill, 255),
        outline=None if outline is None else (*outline, 255),
        width=width,
    )
    return sprite(img)


def meeple(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], size: float, fill: RGB, letter: str
) -> None:
    """A worker meeple with its colour initial, `size` px tall."""
    cx, cy = centre
    h = size
    head = h * 0.22
    body = [
        (cx - h * 0.42, cy + h * 0.5),
        (cx - h * 0.42, cy + h * 0.12),
        (cx - h * 0.18, cy - h * 0.12),
        (cx + h * 0.18, cy - h * 0.12),
        (cx + h * 0.42, cy + h * 0.12),
        (cx + h * 0.42, cy + h * 0.5),
    ]
    draw.polygon(body, fill=fill, outline=INK, width=2)
    draw.ellipse(
        (cx - head, cy - h * 0.5, cx + head, cy - h * 0.5 + 2 * head),
        fill=fill,
        outline=INK,
        width=2,
    )
    draw.text(
        (cx, cy + h * 0.22),
        letter,
        font=font(int(h * 0.38), bold=True),
        fill=text_colour(fill),
        anchor="mm",
    )


def player_names(count: int, names: Sequence[str] | None) -> list[str]:
    """One label per seat: the given name, or "Seat N" where none (or a blank one) is given."""
    given = list(names or [])
    return [
        given[i] if i < len(given) and given[i].strip() else f"Seat {i + 1}" for i in range(count)
    ]


def seat_badge(draw: ImageDraw.ImageDraw, box: Box, seat: int) -> None:
    """A seat-coloured badge carrying the seat number, so colour is never the only cue."""
    fill = SEATS[seat % len(SEATS)]
    draw.rounded_rectangle(box, radius=10, fill=fill, outline=INK, width=2)
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    draw.text(
        (cx, cy), str(seat + 1), font=font(MIN_TEXT, bold=True), fill=text_colour(fill), anchor="mm"
    )


def blend(a: RGB, b: RGB, t: float) -> RGB:
    """`a` moved a fraction `t` of the way towards `b`."""
    r, g, bl = (round(x + (y - x) * t) for x, y in zip(a, b, strict=True))
    return r, g, bl


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, …"""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


MEDALS: dict[int, RGB] = {1: HIGHLIGHT, 2: (206, 208, 214), 3: (214, 150, 92)}
MEDAL_R = 32


def medal(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    entry: dict[str, Any],
    standings: list[dict[str, Any]],
) -> None:
    """The rank as an ordinal in a disc: gold, silver and bronze for the top three."""
    rank = int(entry["rank"])
    shared = sum(1 for e in standings if e["rank"] == rank) > 1
    fill = MEDALS.get(rank, PANEL)
    cx, cy = centre
    r = MEDAL_R
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=INK, width=2)
    text = ("=" if shared else "") + ordinal(rank)
    fnt = font(MIN_TEXT, bold=True, condensed=True)
    draw.text((cx, cy), text, font=fnt, fill=text_colour(fill), anchor="mm")


def sprite(img: Image.Image, shape: Image.Image | None = None) -> Sprite:
    """`img` as a sprite of its colours inside `shape` (else its alpha, else everywhere)."""
    if shape is None and img.mode == "RGBA":
        shape = img.getchannel("A")
    rgb = img.convert("RGB")
    # Pillow's core images: Image.point rounds each entry of a table in Python first.
    bands = [band.im for band in rgb.split()]
    found: list[tuple[RGB, Any]] = []
    for _, pixel in rgb.getcolors(rgb.width * rgb.height) or []:
        colour = cast(RGB, pixel)
        where = None if shape is None else shape.im
        for band, value in zip(bands, colour, strict=True):
            only = band.point(_only(value), "L")
            where = only if where is None else where.chop_darker(only)
        assert where is not None
        if where.getbbox() is not None:
            found.append((colour, where))
    return Sprite(rgb.size, tuple(found))


def paste_sprite(draw: ImageDraw.ImageDraw, found: Sprite, at: tuple[int, int]) -> None:
    """`found` pasted with its top-left corner at `at`."""
    if isinstance(draw, _PaletteDraw):
        draw.sprite(found, at)
        return
    for colour, where in found.layers:
        mask = Image.new("L", found.size)
        mask.im.paste(where, (0, 0, *found.size))
        draw.bitmap(at, mask, fill=colour)


@cache
def _only(value: int) -> bytes:
    """A point table keeping where a band is `value`."""
    return bytes(255 if v == value else 0 for v in range(256))


STEPS = 8
"""Most levels an anti-aliased edge keeps on a palette canvas: text blends into what lies under
it in eighths (each a palette colour), which reads as 256 levels do at these sizes."""
LEVEL_SPAN = 24
"""Colour values one level of an edge may span: an edge between close colours needs fewer."""
EDGE_ROOM = 224
"""Palette entries edges may take: the rest stay for flat colours drawn after them."""
EDGE_CELL = 3
"""An edge colour takes the index of any colour already within the same 8-value cube (3 bits
dropped from each channel): no eye tells them apart on a pixel of an edge."""
_SOLID = bytes([0] + [255] * 255)
_LEVELS = {n: itemgetter(*((m * n + 127) // 255 for m in range(256))) for n in range(1, STEPS + 1)}
"""Per number of levels n, what picks each coverage's step from a ramp's n + 1 steps."""
_SWATCHES = "render.swatches"
_RAMPS: dict[tuple[int, ...], bytes] = {}
_RAMPS_KEPT = 1024
"""Ramps kept (a quarter of a kilobyte each), at most."""
_TILES: dict[tuple[int, int], tuple[Any, bytes, Any]] = {}
_TILE_BUDGET = 2 << 20
"""Bytes of coloured glyph tiles kept, at most: the busiest map image needs 1.5 MB."""
_tile_bytes = 0


class Swatches:
    """The palette of one image, filled as it is drawn: each colour gets the next index when
    first used; once the palette is full, a new colour gets the index of the nearest."""

    def __init__(self) -> None:
        self.colours: list[RGB] = []
        self._bytes = bytearray()
        self._index: dict[RGB, int] = {}
        self._cells: dict[RGB, int] = {}
        self._ramps: dict[tuple[int, int], bytes] = {}

    def index(self, colour: RGB) -> int:
        found = self._index.get(colour)
        if found is None:
            found = self._add(colour) if len(self.colours) < 256 else self._nearest([colour])[0]
        return found

    def ramp(self, under: int, ink: int) -> bytes:
        """The index for each coverage (0-255) of `ink` over `under`."""
        found = self._ramps.get((under, ink))
        if found is None:
            edges = _edges(self.colours[under], self.colours[ink])
            # Each edge colour takes its own index, a colour's in its cell, or a new one while
            # edges have room; else (-1) the nearest.
            steps = [under]
            for colour, cell in edges:
                index = self._index.get(colour)
                if index is None:
                    index = self._cells.get(cell)
                    if index is None:
                        index = self._add(colour) if len(self.colours) < EDGE_ROOM else -1
                steps.append(index)
            steps.append(ink)
            if -1 in steps:
                lacking = [c for (c, _), i in zip(edges, steps[1:-1], strict=True) if i < 0]
                nearest = iter(self._nearest(lacking))
                steps = [next(nearest) if i < 0 else i for i in steps]
            found = self._ramps[under, ink] = _ramp(tuple(steps))
        return found

    def palette(self) -> bytes:
        return bytes(self._bytes)

    def _add(self, colour: RGB) -> int:
        index = self._index[colour] = len(self.colours)
        self._cells.setdefault(_cell(colour), index)
        self.colours.append(colour)
        self._bytes += bytes(colour)
        return index

    def _nearest(self, colours: list[RGB]) -> bytes:
        """The index of the nearest palette colour to each of `colours`, mapped by Pillow."""
        probe = Image.new("RGB", (len(colours), 1))
        probe.putdata(colours)
        entries = Image.new("P", (1, 1))
        entries.putpalette(self._bytes)
        return probe.quantize(palette=entries, dither=Image.Dither.NONE).tobytes()


def _ramp(steps: tuple[int, ...]) -> bytes:
    """The ramp through `steps` (the index under, those of the edge, the ink's): one object for
    equal ramps of every image, so tiles coloured through a ramp are kept by its identity (see
    _tile)."""
    found = _RAMPS.get(steps)
    if found is None:
        if len(_RAMPS) >= _RAMPS_KEPT:
            _RAMPS.clear()
        found = _RAMPS[steps] = bytes(_LEVELS[len(steps) - 1](steps))
    return found


@lru_cache(maxsize=2048)
def _edges(under: RGB, ink: RGB) -> tuple[tuple[RGB, RGB], ...]:
    """The colours between `under` and `ink` that an edge of `ink` over `under` takes (up to
    STEPS - 1, fewer between close colours), each with its cell."""
    span = max(abs(x - y) for x, y in zip(under, ink, strict=True))
    n = max(1, min(STEPS, math.ceil(span / LEVEL_SPAN)))
    return tuple((c, _cell(c)) for c in (blend(under, ink, k / n) for k in range(1, n)))


def _cell(colour: RGB) -> RGB:
    r, g, b = colour
    return r >> EDGE_CELL, g >> EDGE_CELL, b >> EDGE_CELL


class _Blending:
    """A palette canvas's core drawing object, but a glyph's edge is blended with the colours
    under it through the swatches' ramps (the core would blend indices: unrelated colours)."""

    def __init__(self, core: Any, image: Any, swatches: Swatches) -> None:
        self._core, self._image, self._swatches = core, image, swatches

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._core, name)
        setattr(self, name, found)  # every later use skips __getattr__
        return found

    def draw_bitmap(self, at: tuple[int, int], mask: Any, ink: int) -> None:
        x, y = at
        w, h = mask.size
        box = (x, y, x + w, y + h)
        width, height = self._image.size
        # Tiles are coloured from the whole mask (the one kept), then cut to the image.
        cut: tuple[int, int, int, int] | None = None
        if x < 0 or y < 0 or box[2] > width or box[3] > height:
            box = (max(x, 0), max(y, 0), min(box[2], width), min(box[3], height))
            if box[0] >= box[2] or box[1] >= box[3]:
                return
            cut = (box[0] - x, box[1] - y, box[2] - x, box[3] - y)
        under = self._image.crop(box)
        # A histogram takes half the time of the extremes over a line of text.
        if under.histogram().count(0) == 255:
            # One colour under the whole box, the common case: where the glyph is not, its
            # ramp gives that colour back, so the tile goes in whole.
            ramp = self._swatches.ramp(under.getpixel((0, 0)), ink)
            self._image.paste(_tile(mask, ramp, cut), box)
            return
        cover = _tile(mask, _SOLID, cut)
        under_glyph = list(compress(range(256), under.histogram((0, 0), cover)))
        if len(under_glyph) == 1:
            # Often the box crosses a line the glyph itself keeps clear of.
            tile = _tile(mask, self._swatches.ramp(under_glyph[0], ink), cut)
            self._image.paste(tile, box, cover)
            return
        ramps = tuple(self._swatches.ramp(colour, ink) for colour in under_glyph)
        steps, count, blended = _blends(ramps)
        if blended is None:
            for colour, ramp in zip(under_glyph, ramps, strict=True):
                where = under.point(_only(colour), "L").chop_darker(cover)
                self._image.paste(_tile(mask, ramp, cut), box, where)
            return
        # Each pixel's colour under and coverage as one number, looked up in one go.
        numbers = [0] * 256
        for k, colour in enumerate(under_glyph):
            numbers[colour] = k * count
        code = under.point(numbers, "L").chop_add(_tile(mask, steps, cut), 1.0, 0)
        self._image.paste(code.point(blended, "L"), box, cover)


@lru_cache(maxsize=256)
def _blends(ramps: tuple[bytes, ...]) -> tuple[bytes, int, bytes | None]:
    """For a glyph over several colours, each with its ramp: the step each coverage takes
    (coverages alike in every ramp share one), how many steps, and the index for each (colour,
    step) as colour × steps + step; None if those are more than 256."""
    steps: dict[tuple[int, ...], int] = {}
    step_of = bytes(steps.setdefault(tuple(r[m] for r in ramps), len(steps)) for m in range(256))
    if len(ramps) * len(steps) > 256:
        return step_of, len(steps), None
    blended = bytearray(256)
    for picks, step in steps.items():
        for k, index in enumerate(picks):
            blended[k * len(steps) + step] = index
    return step_of, len(steps), bytes(blended)


def _tile(mask: Any, ramp: bytes, cut: tuple[int, int, int, int] | None) -> Any:
    """`mask` coloured through `ramp` (and cut to `cut`): the same few words come back in the
    same colours on every round's images."""
    global _tile_bytes
    key = (id(mask), id(ramp))
    found = _TILES.get(key)
    if found is None:
        w, h = mask.size
        if _tile_bytes + w * h > _TILE_BUDGET:
            _TILES.clear()
            _tile_bytes = 0
        # The mask and ramp are kept with their tile, so their ids are not reused meanwhile.
        found = _TILES[key] = (mask, ramp, mask.point(ramp, "L"))
        _tile_bytes += w * h
    return found[2] if cut is None else found[2].crop(cut)


@cache
def _corners(d: int, width: int) -> tuple[Any, ...]:
    """Masks of a rounded rectangle's four corners (top left, then clockwise), each in a box of
    `d` from the corner: its fill (width 0), else its outline `width` wide."""
    found = []
    for start in (180, 270, 0, 90):
        mask = Image.new("L", (d + 1, d + 1))
        core = ImageDraw.Draw(mask).draw
        if width:
            core.draw_arc((0, 0, d, d), start, start + 90, 255, width)
        else:
            core.draw_pieslice((0, 0, d, d), start, start + 90, 255, 1)
        found.append(mask.im)
    return tuple(found)


_REPLAYS: dict[Hashable, list[tuple[Any, ...]]] = {}
_REPLAYS_KEPT = 512
"""Drawings whose steps are kept, at most (a board's pieces: a few kilobytes each)."""
_INK_AT = {
    "draw_lines": 1,
    "draw_rectangle": 1,
    "draw_ellipse": 1,
    "draw_polygon": 1,
    "draw_points": 1,
    "draw_pieslice": 3,
    "draw_arc": 3,
    "draw_chord": 3,
}
"""Where each of Pillow's drawing calls takes its ink."""


class _Logging:
    """Stands in for a draw's core drawing object while a drawing is recorded (see
    _PaletteDraw.replayed): logs each call that draws, its ink as a colour, then makes it."""

    def __init__(self, core: Any, steps: list[tuple[Any, ...]], swatches: Swatches) -> None:
        self._core, self._steps, self._swatches = core, steps, swatches

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._core, name)
        if not name.startswith("draw_"):
            return found
        if name not in _INK_AT:
            raise TypeError(f"{name} does not replay (text blends with what lies under it)")
        at = _INK_AT[name]

        def logged(*args: Any) -> Any:
            colour = self._swatches.colours[args[at]]
            self._steps.append((name, (*args[:at], colour, *args[at + 1 :]), at))
            return found(*args)

        return logged


_IMAGEDRAW_TEXT = ImageDraw.ImageDraw.text


class _PaletteDraw(ImageDraw.ImageDraw):
    """Draws on a palette canvas with the RGB colours the renderers use, each given its index
    as it is first drawn; text stays anti-aliased (see _Blending)."""

    def __init__(self, img: Image.Image, swatches: Swatches) -> None:
        super().__init__(img)
        self.swatches = swatches
        # Index values drawn as an L image would take them: text laid out and rendered as on
        # an RGB image (a palette mode would get one-bit glyphs and their metrics).
        self.mode = "L"
        self.fontmode = "L"
        self.draw = _Blending(self.draw, self.im, swatches)
        self._recording: list[tuple[Any, ...]] | None = None

    def replayed(self, key: Hashable, paint: Callable[[ImageDraw.ImageDraw], None]) -> None:
        """`paint(self)`, which draws shapes and sprites only (text blends with what lies under
        it), drawn once per `key` (all it depends on, its place included) and then replayed:
        the same calls in the same order, the palette taking the same steps, without the
        geometry and ImageDraw's wrapping around each call."""
        if self._recording is not None:
            paint(self)  # inside a drawing being recorded, which takes these steps as its own
            return
        steps = _REPLAYS.get(key)
        if steps is None:
            steps = self._recording = []
            core = self.draw
            self.draw = _Logging(core, steps, self.swatches)
            try:
                paint(self)
            finally:
                self.draw, self._recording = core, None
            if len(_REPLAYS) >= _REPLAYS_KEPT:
                _REPLAYS.clear()
            _REPLAYS[key] = steps
            return
        index, draw = self.swatches.index, self.draw
        for step in steps:
            kind = step[0]
            if kind is None:
                index(step[1])
            elif kind == "paste":
                self.im.paste(index(step[1]), step[2], step[3])
            elif kind == "sprite":
                self.sprite(step[1], step[2])
            else:
                at = step[2]
                args = step[1]
                getattr(draw, kind)(*args[:at], index(args[at]), *args[at + 1 :])

    def sprite(self, found: Sprite, at: tuple[int, int]) -> None:
        """`found` pasted with its top-left corner at `at`."""
        if self._recording is not None:
            self._recording.append(("sprite", found, at))
        x, y = at
        box = (x, y, x + found.size[0], y + found.size[1])
        index, paste = self.swatches.index, self.im.paste
        for colour, where in found.layers:
            paste(index(colour), box, where)

    def _paste(self, ink: int, box: Box, mask: Any) -> None:
        """`ink` where `mask` is set in `box`."""
        if self._recording is not None:
            self._recording.append(("paste", self.swatches.colours[ink], box, mask))
        self.im.paste(ink, box, mask)

    def _getink(self, ink: Any, fill: Any = None) -> tuple[int | None, int | None]:
        if ink is None and fill is None:
            return super()._getink(ink, fill)
        return self._indexed(ink), self._indexed(fill)

    def _indexed(self, colour: Any) -> int | None:
        """The index of an RGB colour (as a tuple or a name); an index is taken as it is."""
        if colour is None or isinstance(colour, int):
            return colour
        if isinstance(colour, str):
            colour = ImageColor.getrgb(colour)
        if self._recording is not None:
            self._recording.append((None, colour[:3]))
        return self.swatches.index(colour[:3])

    def text(
        self,
        xy: tuple[float, float],
        text: Any,
        fill: Any = None,
        font: Any = None,
        anchor: str | None = None,
        spacing: float = 4,
        align: str = "left",
        direction: str | None = None,
        features: list[str] | None = None,
        language: str | None = None,
        stroke_width: float = 0,
        stroke_fill: Any = None,
        embedded_color: bool = False,
        *args: Any,
        **kwargs: Any,
    ) -> None:
        """As ImageDraw's, with the same pixels; one plain line in a shipped face goes the short
        way: ImageDraw's own steps took longer than drawing the text."""
        if (
            # Wrapped, it sees every text (the phone tests record each one's size).
            ImageDraw.ImageDraw.text is not _IMAGEDRAW_TEXT
            or fill is None
            or not isinstance(font, _RememberingFont)
            or not isinstance(text, str)
            or "\n" in text
            or direction
            or features
            or language
            or embedded_color
            or args
            or kwargs
        ):
            super().text(
                xy,
                text,
                fill,
                font,
                anchor,
                spacing,
                align,
                direction,
                features,
                language,
                stroke_width,
                stroke_fill,
                embedded_color,
                *args,
                **kwargs,
            )
            return
        x, y = xy
        at = (int(x), int(y))
        start = (math.modf(x)[0], math.modf(y)[0])
        anchor = anchor or "la"
        ink = self._indexed(fill)
        if stroke_width:
            outer = ink if stroke_fill is None else self._indexed(stroke_fill)
            self._glyphs(at, font.mask(text, anchor, start, stroke_width), outer)
            if outer == ink:
                return
        self._glyphs(at, font.mask(text, anchor, start, 0), ink)

    def _glyphs(self, at: tuple[int, int], found: tuple[Any, tuple[int, int]], ink: Any) -> None:
        mask, (dx, dy) = found
        self.draw.draw_bitmap((at[0] + dx, at[1] + dy), mask, ink)

    def rounded_rectangle(
        self,
        xy: Any,
        radius: float = 0,
        fill: Any = None,
        outline: Any = None,
        width: int = 1,
        *,
        corners: tuple[bool, bool, bool, bool] | None = None,
    ) -> None:
        """As ImageDraw's, with the same pixels; the four corners of a rectangle longer than them
        each way are pasted from cached masks (ImageDraw's steps cost more than the drawing)."""
        (x0, y0), (x1, y1) = self._normalize_coords(xy)
        d = min(x1 - x0, y1 - y0, radius * 2)
        x0, y0, x1, y1 = round(x0), round(y0), round(x1), round(y1)
        if corners is not None or d <= 0 or d != int(d) or d >= min(x1 - x0, y1 - y0) - 1:
            super().rounded_rectangle(xy, radius, fill, outline, width, corners=corners)
            return
        d = int(d)
        r = d // 2
        ink, fill_ink = self._getink(outline, fill)
        spots = ((x0, y0), (x1 - d, y0), (x1 - d, y1 - d), (x0, y1 - d))
        rectangle, paste = self.draw.draw_rectangle, self._paste
        if fill_ink is not None:
            for (x, y), mask in zip(spots, _corners(d, 0), strict=True):
                paste(fill_ink, (x, y, x + d + 1, y + d + 1), mask)
            if x1 - r - 1 >= x0 + r + 1:
                rectangle((x0 + r + 1, y0, x1 - r - 1, y1), fill_ink, 1)
            rectangle((x0, y0 + r + 1, x0 + r, y1 - r - 1), fill_ink, 1)
            rectangle((x1 - r, y0 + r + 1, x1, y1 - r - 1), fill_ink, 1)
        if ink is not None and ink != fill_ink and width != 0:
            for (x, y), mask in zip(spots, _corners(d, width), strict=True):
                paste(ink, (x, y, x + d + 1, y + d + 1), mask)
            rectangle((x0 + r + 1, y0, x1 - r - 1, y0 + width - 1), ink, 1)
            rectangle((x0 + r + 1, y1 - width + 1, x1 - r - 1, y1), ink, 1)
            rectangle((x0, y0 + r + 1, x0 + width - 1, y1 - r - 1), ink, 1)
            rectangle((x1 - width + 1, y0 + r + 1, x1, y1 - r - 1), ink, 1)

    def polygon(self, xy: Any, fill: Any = None, outline: Any = None, width: int = 1) -> None:
        """As ImageDraw's, but a wide outline is kept inside the polygon by a mask of the
        polygon's own box: ImageDraw's is the size of the image, megabytes for every hex."""
        if outline is None or width <= 1:
            super().polygon(xy, fill, outline, width)
            return
        flat = isinstance(xy[0], (int, float))
        points = list(zip(xy[::2], xy[1::2], strict=True)) if flat else list(xy)
        x0 = math.floor(min(x for x, _ in points)) - 1
        y0 = math.floor(min(y for _, y in points)) - 1
        size = (
            math.ceil(max(x for x, _ in points)) + 2 - x0,
            math.ceil(max(y for _, y in points)) + 2 - y0,
        )
        ink, fill_ink = self._getink(outline, fill)
        if fill_ink is not None:
            self.draw.draw_polygon(xy, fill_ink, 1)
        if ink == fill_ink:
            return
        here = [(x - x0, y - y0) for x, y in points]
        # Straight to Pillow's core: ImageDraw's own steps cost more than these small masks.
        inside = Image.core.fill("1", size, 0)
        Image.core.draw(inside, 0).draw_polygon(here, 1, 1)
        ring = Image.core.fill("L", size, 0)
        Image.core.draw(ring, 0).draw_polygon(here, 255, 0, width * 2 - 1, inside)
        assert ink is not None  # an outline was given
        self._paste(ink, (x0, y0, x0 + size[0], y0 + size[1]), ring)


def replayed(
    draw: ImageDraw.ImageDraw, key: Hashable, paint: Callable[[ImageDraw.ImageDraw], None]
) -> None:
    """`paint(draw)`, replayed from the second time on when `draw` is a canvas's (see
    _PaletteDraw.replayed): for shapes a board draws again and again in the same places."""
    if isinstance(draw, _PaletteDraw):
        draw.replayed(key, paint)
    else:
        paint(draw)


IMAGE_BLOCK = 128 << 10
"""Bytes of each of the blocks Pillow builds an image of, at most (its default: one block per
image): blocks this small come from memory the C allocator keeps for the next image, where a
whole canvas took fresh pages from the system each time (faulting them in took a third of the
drawing of a map's focus)."""
Image.core.set_block_size(IMAGE_BLOCK)


def canvas(
    width: int, height: int, colour: RGB = BACKGROUND, swatches: Swatches | None = None
) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A palette image to draw on, filled with `colour`, and its draw (see `drawer`). Canvases
    given the same `swatches` share a palette: one pastes into another as it is."""
    swatches = swatches or Swatches()
    img = Image.new("P", (width, height), swatches.index(colour))
    img.info[_SWATCHES] = swatches
    return img, _PaletteDraw(img, swatches)


def drawer(img: Image.Image) -> ImageDraw.ImageDraw:
    """A draw for a canvas: ImageDraw.Draw would draw its palette indices, not its colours."""
    return _PaletteDraw(img, img.info[_SWATCHES])


def png(img: Image.Image) -> bytes:
    """Encode as a 256-colour PNG at zlib level 3 (bench.encoding): a canvas as drawn, in its own
    palette; any other image through `palette`."""
    out = io.BytesIO()
    swatches: Swatches | None = img.info.get(_SWATCHES)
    if swatches is None:
        img = palette(img)
    else:
        img.putpalette(swatches.palette())
    img.save(out, format="PNG", compress_level=3)
    return out.getvalue()


def palette(img: Image.Image) -> Image.Image:
    """`img` in 256 colours: the octree palette of every other pixel of every other row, then
    each pixel's nearest entry. A flat drawing's colours all show in that quarter, and mapping
    costs a fraction of building the octree of the whole image."""
    sample = img.resize((max(1, img.width // 2), max(1, img.height // 2)), Image.Resampling.NEAREST)
    colours = sample.quantize(256, method=Image.Quantize.FASTOCTREE)
    return img.quantize(palette=colours, dither=Image.Dither.NONE)
