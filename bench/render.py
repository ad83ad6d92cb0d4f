"""Render speed and size: Powerline images of a 6-player mid-game (and end-game) view.

Run: .venv/bin/python -m bench.render [repeats]
(targets: player board <= 120 ms and centre board <= 80 ms median; every PNG <= 600 KB)
"""

import statistics
import sys
import time
from collections.abc import Callable

from render.powerline import centre_board, final_results, player_board, round_summary
from render.preview import GAME, NAMES, images, play_until, samples


def median_ms(fn: Callable[[], bytes], repeats: int) -> tuple[float, int]:
    fn()
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        data = fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times), len(data)


def main(repeats: int = 20) -> None:
    variants = frozenset({"adventure_island", "construction_limits", "contracts"})
    mid = play_until(6, variants, seed=7, round_=8)
    end = play_until(6, variants, seed=7, round_=None)
    own = GAME.view(mid, 0)
    public = GAME.view(mid, None)
    final = GAME.view(end, None)
    names = NAMES[:6]
    cases = {
        "player board (own view, plan shown)": lambda: player_board(own, 0, names),
        "centre board": lambda: centre_board(public, names),
        "round summary (6 players)": lambda: round_summary(public, names),
        "final results (6 players)": lambda: final_results(final, names),
    }
    for label, fn in cases.items():
        ms, size = median_ms(fn, repeats)
        print(f"{label:38s} median {ms:6.1f} ms   {size / 1024:6.1f} KB")
    largest = max((len(data), name) for s in samples() for name, data in images(s))
    print(
        f"largest PNG over every preview image: {largest[0] / 1024:.1f} KB ({largest[1]}); "
        "limit 600 KB"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
