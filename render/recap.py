"""A finished game as one looping animation: its round-by-round images, each under a caption,
the end held longest; GIF or animated PNG, whichever is smaller."""

import io
from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from render.common import font, printable

WIDTH = 1040
"""Frames are drawn at most this wide, like every posted image (legible at 390 px)."""
BAND = 72
"""The caption band's height above each frame."""
FRAME_MS = 1400
LAST_MS = 5000
LIMIT = 9_500_000
"""Below Discord's 10 MB upload limit, with room for the message around it."""
INK = (33, 33, 33)
PAPER = (250, 247, 240)


def animate(title: str, captions: Sequence[str], frames: Sequence[bytes]) -> tuple[bytes, str]:
    """The animation and its file extension ("gif" or "png"); frames are PNG bytes, each shown
    under "title · caption"."""
    # Flat colours from a known set: an octree palette per frame, undithered, keeps them flat.
    images = [
        im.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
        for im in _framed(title, captions, frames)
    ]
    while True:
        best = min((_gif(images), "gif"), (_apng(images), "png"), key=lambda c: len(c[0]))
        if len(best[0]) <= LIMIT or len(images) <= 2:
            return best
        # Too big to post: every other round goes, the end stays.
        images = [*images[:-1:2], images[-1]]


def _framed(title: str, captions: Sequence[str], frames: Sequence[bytes]) -> list[Image.Image]:
    decoded = [Image.open(io.BytesIO(data)).convert("RGB") for data in frames]
    width = min(WIDTH, max(im.width for im in decoded))
    scaled = [
        im if im.width == width else im.resize((width, round(im.height * width / im.width)))
        for im in decoded
    ]
    height = BAND + max(im.height for im in scaled)
    bold, plain = font(34, bold=True), font(30)
    out = []
    for caption, im in zip(captions, scaled, strict=True):
        frame = Image.new("RGB", (width, height), PAPER)
        draw = ImageDraw.Draw(frame)
        draw.text((24, BAND // 2), printable(title), font=bold, fill=INK, anchor="lm")
        draw.text((width - 24, BAND // 2), printable(caption), font=plain, fill=INK, anchor="rm")
        frame.paste(im, ((width - im.width) // 2, BAND))
        out.append(frame)
    return out


def _durations(count: int) -> list[int]:
    return [FRAME_MS] * (count - 1) + [LAST_MS]


def _gif(frames: Sequence[Image.Image]) -> bytes:
    return _encode(frames, format="GIF", optimize=False, disposal=1)


def _apng(frames: Sequence[Image.Image]) -> bytes:
    return _encode(frames, format="PNG", compress_level=6)


def _encode(frames: Sequence[Image.Image], **options: Any) -> bytes:
    out = io.BytesIO()
    frames[0].save(
        out,
        save_all=True,
        append_images=frames[1:],
        duration=_durations(len(frames)),
        loop=0,
        **options,
    )
    return out.getvalue()
