"""Render speed and size: Propeller Islands images of a 4-player mid-game and final view.

Run: .venv/bin/python -m bench.render_propeller_islands [repeats]
(target: every image <= 150 ms median and <= 600 KB)
"""

import sys

from bench.render import median_ms
from render.preview import NAMES, PROPELLER_ISLANDS, propeller_islands_state
from render.propeller_islands import forge, island, results


def main(repeats: int = 20) -> None:
    game = PROPELLER_ISLANDS
    mid = propeller_islands_state(4, "B", seed=7, round_=6)
    end = propeller_islands_state(4, "B", seed=7, round_=None)
    own = game.view(mid, 0)
    public = game.view(mid, None)
    final = game.view(end, None)
    biggest = max(range(4), key=lambda s: len(final["seats"][s]["island"]))
    names = NAMES[:4]
    cases = {
        "island (own view, hand shown)": lambda: island(own, 0, names),
        "island (another seat, hand hidden)": lambda: island(own, 1, names),
        f"island (final, {len(final['seats'][biggest]['island'])} tiles)": lambda: island(
            final, biggest, names
        ),
        "forge (mid-game)": lambda: forge(public, names),
        "forge (final)": lambda: forge(final, names),
        "results (4 players, final)": lambda: results(final, names),
    }
    for label, fn in cases.items():
        ms, size = median_ms(fn, repeats)
        print(f"{label:38s} median {ms:6.1f} ms   {size / 1024:6.1f} KB")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
