"""PNG encoder settings for our images: time and size of each way to encode the Powerline boards
of a 6-player mid-game, so `render.common.png` uses the fastest that is no bigger. The renderers
draw palette canvases; the RGB rows encode the same picture as an RGB image would be (before
issue 30, every image was drawn in RGB and quantised).

Run: .venv/bin/python -m bench.encoding [repeats]
"""

import io
import statistics
import sys
import time
from collections.abc import Callable
from unittest import mock

from PIL import Image

import render.powerline.board as board_module
import render.powerline.centre as centre_module
import render.powerline.summary as summary_module
from render.common import palette, png
from render.preview import GAME, NAMES, play_until

Encoder = Callable[[Image.Image], bytes]


def _save(img: Image.Image, level: int) -> bytes:
    out = io.BytesIO()
    img.save(out, format="PNG", compress_level=level)
    return out.getvalue()


ENCODERS: dict[str, Encoder] = {
    "canvas as drawn, zlib level 3 (now)": png,
    "canvas as drawn, zlib level 1": lambda img: _save(img, 1),
    "canvas as drawn, zlib level 6": lambda img: _save(img, 6),
    "RGB, zlib level 3": lambda img: _save(img.convert("RGB"), 3),
    "RGB, octree of a quarter, nearest, level 3 (before)": lambda img: _save(
        palette(img.convert("RGB")), 3
    ),
}


def drawn() -> dict[str, Image.Image]:
    """The images the renderers hand to `png`, before encoding."""
    mid = play_until(6, frozenset({"adventure_island"}), seed=7, round_=8)
    names = NAMES[:6]
    cases = {
        "player board": (board_module, lambda: board_module.player_board(GAME.view(mid, 0), 0)),
        "centre board": (centre_module, lambda: centre_module.centre_board(GAME.view(mid, None))),
        "round summary": (
            summary_module,
            lambda: summary_module.round_summary(GAME.view(mid, None), names),
        ),
    }
    found: dict[str, Image.Image] = {}
    for label, (module, render) in cases.items():

        def keep(img: Image.Image, label: str = label) -> bytes:
            found[label] = img
            return b""

        with mock.patch.object(module, "png", side_effect=keep):
            render()
    return found


def main(repeats: int = 9) -> None:
    for label, img in drawn().items():
        png(img)  # puts the canvas's palette in place, as for every encoding after
        print(f"{label} ({img.width} x {img.height}):")
        for name, encode in ENCODERS.items():
            times = []
            for _ in range(repeats):
                t = time.perf_counter()
                data = encode(img)
                times.append((time.perf_counter() - t) * 1000)
            print(f"  {name:52s} {statistics.median(times):6.1f} ms {len(data) / 1024:7.1f} KB")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 9)
