"""Render speed and size: Railroad Ink images of a 6-player, both-expansions mid-game view.

Run: .venv/bin/python -m bench.render_railroad_ink [repeats]
(targets: board <= 120 ms and every other image <= 80 ms median; every PNG <= 600 KB)
"""

import sys
from random import Random
from typing import Any

from bench.render import median_ms
from engine import registry
from engine.core import step
from engine.railroad_ink import autopilot
from render.preview import NAMES
from render.railroad_ink import board, roll, score_sheet

GAME = registry.get("railroad_ink")
BOTH = frozenset({"street_lamps", "power_grid"})


def play_until(players: int, seed: int, round_: int | None) -> Any:
    """Autopilot game stopped in round `round_`'s planning (None: played out)."""
    rng = Random(seed)
    state = GAME.new(GAME.Config(players=players, expansions=BOTH), seed)
    while not GAME.is_over(state):
        if round_ is not None and state.round == round_ and state.phase == "plan":
            return state
        state = step(GAME, state, rng, autopilot.act)
    return state


def main(repeats: int = 20) -> None:
    mid = play_until(6, seed=7, round_=4)
    draft = [s.model_dump(mode="json") for s in autopilot.act(mid, 0).steps]
    submitted = GAME.apply(mid, 0, autopilot.act(mid, 0))
    own = GAME.view(submitted, 0)
    plain = GAME.view(mid, 0)
    public = GAME.view(mid, None)
    final = GAME.view(play_until(6, seed=7, round_=None), None)
    cases = {
        "board (own view, plan shown)": lambda: board(own, 0, NAMES),
        "board (draft preview)": lambda: board(plain, 0, NAMES, draft=draft),
        "board (another seat)": lambda: board(public, 1, NAMES),
        "board (final)": lambda: board(final, 0, NAMES),
        "roll (both expansions)": lambda: roll(public),
        "score sheet (6 players, mid-game)": lambda: score_sheet(public, NAMES),
        "score sheet (6 players, final)": lambda: score_sheet(final, NAMES),
    }
    for label, fn in cases.items():
        ms, size = median_ms(fn, repeats)
        print(f"{label:36s} median {ms:6.1f} ms   {size / 1024:6.1f} KB")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
