"""Render speed and size: Power Grid images of 6-player mid-game and final views on both maps.

Run: .venv/bin/python -m bench.render_power_grid [repeats]
(target: every image <= 200 ms median and <= 600 KB)
"""

import sys

from bench.render import median_ms
from render.power_grid import map_image, market, results
from render.preview import NAMES, POWER_GRID, power_grid_state


def main(repeats: int = 20) -> None:
    names = NAMES[:6]
    for map_name in ("germany", "usa"):
        own = POWER_GRID.view(power_grid_state(map_name, 6, seed=7, round_=6), 0)
        final = POWER_GRID.view(power_grid_state(map_name, 6, seed=7, round_=None), None)
        cases = {
            f"{map_name} map (mid-game)": lambda v=own: map_image(v, names),
            f"{map_name} map (final)": lambda v=final: map_image(v, names),
            f"{map_name} market (6 players, mid-game)": lambda v=own: market(v, names),
            f"{map_name} results (6 players)": lambda v=final: results(v, names),
        }
        for label, fn in cases.items():
            ms, size = median_ms(fn, repeats)
            print(f"{label:40s} median {ms:6.1f} ms   {size / 1024:6.1f} KB")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
