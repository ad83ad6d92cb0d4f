"""Worker for bench.render_encoding: every golden image (each game's boards, cards and maps, from
the fixed views in tests/render/golden) and a leaderboard, drawn with the tree's renderers;
prints {"tree", "images": {name: {"render", "zlib", "bytes"}}}: median milliseconds of a whole
render (drawing and encoding), median milliseconds of only compressing the PNG it produced (its
paletted pixels saved again at zlib level 3, the level `png` uses), and the PNG's size.

Run: PYTHONPATH=<tree> python bench/workers/render_encoding.py [repeats]
"""

import io
import json
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from PIL import Image

import render
from render.leaderboard import leaderboard
from tests.render.goldens import IMAGES, load_view

ROWS = [
    {
        "name": name,
        "shown": 1700 - 37 * i,
        "provisional": i % 4 == 3,
        "games": 12 - i,
        "wins": 6 - i // 2,
        "avg_score": 44.5 - i,
        "best": 61 - i,
    }
    for i, name in enumerate(
        ("Ludmila Wattenberg-Kilowattsdóttir", "Bob", "山田太郎", "Zoë 🎲⚡", "Анастасия", "x" * 70)
    )
]


def cases() -> dict[str, Callable[[], bytes]]:
    """Every image to time, by name, its view read beforehand."""
    found: dict[str, Callable[[], bytes]] = {}
    for name, entry in IMAGES.items():
        view, names = load_view(entry[0])
        if len(entry) == 2:  # a tree before 30's goldens: (view name, draw(view, names))
            found[name] = partial(entry[1], view, names)
        else:  # (view name, renderer, its arguments from the view and names)
            found[name] = partial(entry[1], *entry[2](view, names))
    found["leaderboard"] = lambda: leaderboard("Powerline · this server", ROWS, 1, "6 players")
    return found


def median_ms(fn: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def zlib_only(data: bytes) -> Callable[[], bytes]:
    """Compressing the pixels of `data` again, as they are, at level 3."""
    img = Image.open(io.BytesIO(data))
    img.load()

    def save() -> bytes:
        out = io.BytesIO()
        img.save(out, format="PNG", compress_level=3)
        return out.getvalue()

    return save


def main(repeats: int) -> dict[str, dict[str, float]]:
    images = {}
    for name, draw in sorted(cases().items()):
        data = draw()  # warms the caches a live worker has warm
        images[name] = {
            "render": median_ms(draw, repeats),
            "zlib": median_ms(zlib_only(data), repeats),
            "bytes": len(data),
        }
    return images


if __name__ == "__main__":
    measured = main(int(sys.argv[1]) if len(sys.argv) > 1 else 7)
    print(json.dumps({"tree": str(Path(render.__file__).parents[1]), "images": measured}))
