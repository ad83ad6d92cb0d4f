"""Drawing helpers shared by every game's images: fonts, palette, text fitting, dice, meeples."""

import io
import math
from collections.abc import Sequence
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from fontTools.ttLib import TTFont
from PIL import Image, ImageDraw, ImageFont

RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]

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


def _font_path(name: str) -> str:
    return str(FONTS / name)


class _RememberingFont(ImageFont.FreeTypeFont):
    """A FreeType face that keeps the glyph masks it rendered: the same words at the same
    sub-pixel offset come back on every round's images, and rendering is most of drawing text."""

    BUDGET = 1 << 20
    """Bytes of masks kept per face, at most: every game's images need less of any one face."""

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


@cache
def font(size: int, bold: bool = False, condensed: bool = False) -> ImageFont.FreeTypeFont:
    """The shipped DejaVu Sans at `size` px (never below MIN_TEXT)."""
    name = "DejaVuSans" + ("Condensed" if condensed else "") + ("-Bold" if bold else "") + ".ttf"
    return _RememberingFont(_font_path(name), max(size, MIN_TEXT))


@cache
def _coverage() -> frozenset[int]:
    """Code points every shipped face can draw (they share DejaVu Sans's repertoire)."""
    faces = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSansCondensed.ttf")
    maps = [set(TTFont(_font_path(f), lazy=True).getBestCmap()) for f in faces]
    return frozenset(set.intersection(*maps))


def printable(text: str) -> str:
    """`text` on one line, with characters the fonts lack (CJK, most emoji) shown as '?' rather
    than boxes."""
    covered = _coverage()
    # Line breaks and tabs become spaces: text measuring fails on a line break.
    return "".join(" " if c.isspace() else c if ord(c) in covered else "?" for c in text)


def fit(text: str, fnt: ImageFont.FreeTypeFont, width: int) -> str:
    """`text` made printable and cut with an ellipsis so it fits in `width` pixels."""
    text = printable(text)
    if fnt.getlength(text) <= width:
        return text
    while text and fnt.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


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
    face, shape = _die_sprite(value, x1 - x0, y1 - y0, fill, outline, width)
    # ImageDraw keeps the image it draws on; pasting needs the image itself.
    draw._image.paste(face, (x0, y0), shape)


@lru_cache(maxsize=512)
def _die_sprite(
    value: int, w: int, h: int, fill: RGB, outline: RGB, width: int
) -> tuple[Image.Image, Image.Image]:
    face = Image.new("RGB", (w + 1, h + 1), fill)
    shape = Image.new("L", (w + 1, h + 1), 0)
    radius = max(3, int(w * 0.18))
    ImageDraw.Draw(shape).rounded_rectangle((0, 0, w, h), radius=radius, fill=255)
    draw = ImageDraw.Draw(face)
    draw.rounded_rectangle((0, 0, w, h), radius=radius, fill=fill, outline=outline, width=width)
    pip = text_colour(fill)
    r = max(2.0, w * 0.085)
    for fx, fy in _PIPS[value]:
        cx, cy = fx * w, fy * h
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=pip)
    return face, shape


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
    sprite = _rounded_sprite(local, radius, fill, outline, width)
    draw._image.paste(sprite, (x0, y0), sprite)


@lru_cache(maxsize=512)
def _rounded_sprite(
    box: tuple[float, float, float, float],
    radius: int,
    fill: RGB | None,
    outline: RGB | None,
    width: int,
) -> Image.Image:
    sprite = Image.new("RGBA", (math.ceil(box[2]) + 1, math.ceil(box[3]) + 1), (0, 0, 0, 0))
    ImageDraw.Draw(sprite).rounded_rectangle(
        box,
        radius=radius,
        fill=None if fill is None else (*fill, 255),
        outline=None if outline is None else (*outline, 255),
        width=width,
    )
    return sprite


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


def canvas(
    width: int, height: int, colour: RGB = BACKGROUND
) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("RGB", (width, height), colour)
    return img, ImageDraw.Draw(img)


def png(img: Image.Image) -> bytes:
    """Encode as a 256-colour PNG: our flat drawings lose nothing visible, and one byte a pixel
    instead of three halves the file and the encoding time (bench.encoding)."""
    out = io.BytesIO()
    palette(img).save(out, format="PNG", compress_level=3)
    return out.getvalue()


def palette(img: Image.Image) -> Image.Image:
    """`img` in 256 colours: the octree palette of every other pixel of every other row, then
    each pixel's nearest entry. A flat drawing's colours all show in that quarter, and mapping
    costs a fraction of building the octree of the whole image."""
    sample = img.resize((max(1, img.width // 2), max(1, img.height // 2)), Image.Resampling.NEAREST)
    colours = sample.quantize(256, method=Image.Quantize.FASTOCTREE)
    return img.quantize(palette=colours, dither=Image.Dither.NONE)
