"""Every Powerline and Railroad Ink image for seeded mid- and end-game states.

Run: `python -m render.preview OUTDIR`.
"""

import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from random import Random
from typing import Any

from engine import registry
from engine.core import step
from engine.powerline import autopilot
from engine.railroad_ink import autopilot as ri_autopilot
from render import railroad_ink
from render.powerline import centre_board, final_results, player_board, round_summary

GAME = registry.get("powerline")

NAMES = (
    "Ludmila Wattenberg-Kilowattsdóttir of the Northern Grid",
    "Bob",
    "山田太郎",
    "Zoë 🎲⚡",
    "Анастасия",
    "x" * 70,
)

SCENARIOS: tuple[tuple[str, int, frozenset[str]], ...] = (
    ("solo", 1, frozenset()),
    ("three-limits", 3, frozenset({"construction_limits"})),
    ("three-adventure", 3, frozenset({"adventure_island"})),
    ("six-contracts", 6, frozenset({"contracts"})),
    ("six-special", 6, frozenset({"special_contracts", "adventure_island"})),
    (
        "six-all",
        6,
        frozenset({"construction_limits", "adventure_island", "contracts", "special_contracts"}),
    ),
)


@dataclass(frozen=True)
class Sample:
    """A seeded game stopped at an interesting moment, with the names at its table."""

    name: str
    state: Any
    names: tuple[str, ...]


def play_until(players: int, variants: frozenset[str], seed: int, round_: int | None) -> Any:
    """Autopilot game from `seed`, stopped in round `round_`'s planning (None: played out).

    Mid-game, seat 0 has already submitted, so its own board shows planned workers.
    """
    rng = Random(seed)
    state = GAME.new(GAME.Config(players=players, variants=variants), seed)
    while not GAME.is_over(state):
        if round_ is not None and state.round == round_ and state.phase == "plan":
            if players > 1 and state.plans[0] is None:
                state = GAME.apply(state, 0, autopilot.act(state, 0))
            return state
        state = step(GAME, state, rng, autopilot.act)
    return state


def samples() -> Iterator[Sample]:
    for i, (name, players, variants) in enumerate(SCENARIOS):
        for stage, round_ in (("mid", 8), ("end", None)):
            state = play_until(players, variants, seed=100 + i, round_=round_)
            yield Sample(f"{name}-{stage}", state, NAMES[:players])


def images(sample: Sample) -> Iterator[tuple[str, bytes]]:
    """(file name, PNG) for every image of a sample, each drawn from the proper view."""
    public = GAME.view(sample.state, None)
    names = sample.names
    yield f"{sample.name}-centre.png", centre_board(public, names)
    if public["last_round"]:
        yield f"{sample.name}-summary.png", round_summary(public, names)
    if public["over"]:
        yield f"{sample.name}-results.png", final_results(public, names)
    for seat in range(len(names)):
        own = GAME.view(sample.state, seat)
        yield f"{sample.name}-board-{seat + 1}.png", player_board(own, seat, names)


RAILROAD_INK = registry.get("railroad_ink")

RAILROAD_SCENARIOS: tuple[tuple[str, int, frozenset[str]], ...] = (
    ("solo", 1, frozenset()),
    ("three-lamps", 3, frozenset({"street_lamps"})),
    ("three-power", 3, frozenset({"power_grid"})),
    ("six-both", 6, frozenset({"street_lamps", "power_grid"})),
)


def railroad_ink_images() -> Iterator[tuple[str, bytes]]:
    """(file name, PNG) for Railroad Ink: mid-game boards with a draft and a submitted plan,
    the roll, and the final boards and score sheet, each from the proper view."""
    game = RAILROAD_INK
    for i, (name, players, expansions) in enumerate(RAILROAD_SCENARIOS):
        seed = 200 + i
        rng = Random(seed)
        state = game.new(game.Config(players=players, expansions=expansions), seed)
        names = NAMES[:players]
        while not (state.round == 4 and state.phase == "plan"):
            state = step(game, state, rng, ri_autopilot.act)
        plan = ri_autopilot.act(state, 0)
        draft = [s.model_dump(mode="json") for s in plan.steps]
        own = game.view(state, 0)
        yield f"ri-{name}-mid-draft.png", railroad_ink.board(own, 0, names, draft=draft[:-1])
        yield f"ri-{name}-mid-roll.png", railroad_ink.roll(own)
        state = game.apply(state, 0, plan)
        yield f"ri-{name}-mid-submitted.png", railroad_ink.board(game.view(state, 0), 0, names)
        if players > 1:
            public = game.view(state, None)
            yield f"ri-{name}-mid-other.png", railroad_ink.board(public, 1, names)
        while not game.is_over(state):
            state = step(game, state, rng, ri_autopilot.act)
        final = game.view(state, None)
        yield f"ri-{name}-end-board.png", railroad_ink.board(final, 0, names)
        yield f"ri-{name}-end-scores.png", railroad_ink.score_sheet(final, names)


def main(argv: list[str]) -> None:
    if len(argv) != 1:
        raise SystemExit("usage: python -m render.preview OUTDIR")
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    count = 0
    for sample in samples():
        for file_name, data in images(sample):
            (out / file_name).write_bytes(data)
            count += 1
    for file_name, data in railroad_ink_images():
        (out / file_name).write_bytes(data)
        count += 1
    print(f"wrote {count} images to {out}")


if __name__ == "__main__":
    main(sys.argv[1:])
