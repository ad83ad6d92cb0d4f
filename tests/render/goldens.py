"""Golden images: fixed views (JSON) of every game and the PNGs they must render to.

Regenerate both after a deliberate change of the images or of a view schema:
    .venv/bin/python -m tests.render.goldens
then look at the PNGs in tests/render/golden/ before committing them.
"""

import json
from collections.abc import Callable
from pathlib import Path
from random import Random
from typing import Any

from engine.core import step
from engine.railroad_ink import autopilot as ri_autopilot
from render import power_grid, propeller_islands, railroad_ink
from render.powerline import centre_board, final_results, player_board, round_summary
from render.preview import (
    GAME,
    NAMES,
    POWER_GRID,
    PROPELLER_ISLANDS,
    RAILROAD_INK,
    play_until,
    power_grid_state,
    propeller_islands_state,
)

HERE = Path(__file__).parent / "golden"
SEED = 42


def _powerline(players: int, variants: set[str], round_: int | None, viewer: int | None) -> Any:
    return GAME.view(play_until(players, frozenset(variants), seed=SEED, round_=round_), viewer)


def _railroad_mid() -> Any:
    """Two seats with both expansions, in round 4's planning, seen by seat 0."""
    config = RAILROAD_INK.Config(players=2, expansions=frozenset({"street_lamps", "power_grid"}))
    state, rng = RAILROAD_INK.new(config, SEED), Random(SEED)
    while not (state.round == 4 and state.phase == "plan"):
        state = step(RAILROAD_INK, state, rng, ri_autopilot.act)
    return RAILROAD_INK.view(state, 0)


VIEWS: dict[str, tuple[int, Callable[[], Any]]] = {
    "solo-mid": (1, lambda: _powerline(1, set(), 6, 0)),
    "three-adventure-mid": (
        3,
        lambda: _powerline(3, {"adventure_island", "construction_limits"}, 9, 0),
    ),
    "six-all-end": (
        6,
        lambda: _powerline(6, {"adventure_island", "contracts", "special_contracts"}, None, None),
    ),
    "ri-both-mid": (2, _railroad_mid),
    "pi-three-mid": (
        3,
        lambda: PROPELLER_ISLANDS.view(propeller_islands_state(3, "B", SEED, 5), 0),
    ),
    "pi-three-end": (
        3,
        lambda: PROPELLER_ISLANDS.view(propeller_islands_state(3, "A", SEED, None), None),
    ),
    "pg-germany-mid": (
        4,
        lambda: POWER_GRID.view(power_grid_state("germany", 4, SEED, 6, True), 0),
    ),
    "pg-usa-mid": (3, lambda: POWER_GRID.view(power_grid_state("usa", 3, SEED, 6), 0)),
    "pg-usa-end": (3, lambda: POWER_GRID.view(power_grid_state("usa", 3, SEED, None), None)),
}
"""name → (players, how to play to the view)."""

Arguments = Callable[[dict[str, Any], list[str]], tuple[Any, ...]]
"""What a renderer is given, from a view and the names at its table."""


def _public(view: dict[str, Any], names: list[str]) -> tuple[Any, ...]:
    return view, names


def _seat(seat: int) -> Arguments:
    return lambda view, names: (view, seat, names)


def _view(view: dict[str, Any], names: list[str]) -> tuple[Any, ...]:
    return (view,)


IMAGES: dict[str, tuple[str, Callable[..., bytes], Arguments]] = {
    "solo-mid-board": ("solo-mid", player_board, _seat(0)),
    "solo-mid-centre": ("solo-mid", centre_board, _public),
    "three-adventure-mid-board-own": ("three-adventure-mid", player_board, _seat(0)),
    "three-adventure-mid-board-other": ("three-adventure-mid", player_board, _seat(1)),
    "three-adventure-mid-summary": ("three-adventure-mid", round_summary, _public),
    "six-all-end-centre": ("six-all-end", centre_board, _public),
    "six-all-end-summary": ("six-all-end", round_summary, _public),
    "six-all-end-results": ("six-all-end", final_results, _public),
    "ri-both-mid-board": ("ri-both-mid", railroad_ink.board, _seat(0)),
    "ri-both-mid-scores": ("ri-both-mid", railroad_ink.score_sheet, _public),
    "ri-both-mid-roll": ("ri-both-mid", railroad_ink.roll, _view),
    "pi-three-mid-island": ("pi-three-mid", propeller_islands.island, _seat(0)),
    "pi-three-mid-forge": ("pi-three-mid", propeller_islands.forge, _public),
    "pi-three-end-results": ("pi-three-end", propeller_islands.results, _public),
    "pg-germany-mid-map": ("pg-germany-mid", power_grid.map_image, _public),
    "pg-germany-mid-market": ("pg-germany-mid", power_grid.market, _public),
    "pg-germany-mid-focus": ("pg-germany-mid", power_grid.map_focus, _public),
    "pg-usa-mid-focus": ("pg-usa-mid", power_grid.map_focus, _public),
    "pg-usa-mid-overview": ("pg-usa-mid", power_grid.map_overview, _public),
    "pg-usa-end-results": ("pg-usa-end", power_grid.results, _public),
}
"""golden PNG name → (view name, the module-level renderer that draws it, its arguments)."""


def load_view(name: str) -> tuple[dict[str, Any], list[str]]:
    data = json.loads((HERE / f"{name}.json").read_text("utf-8"))
    return data["view"], data["names"]


def call(image: str) -> tuple[Callable[..., bytes], tuple[Any, ...]]:
    """The renderer of `image` and its arguments, plain data: what the drawing pool is sent."""
    view_name, renderer, arguments = IMAGES[image]
    return renderer, arguments(*load_view(view_name))


def render(image: str) -> bytes:
    renderer, args = call(image)
    return renderer(*args)


def main() -> None:
    HERE.mkdir(exist_ok=True)
    for name, (players, build) in VIEWS.items():
        doc = {"view": build(), "names": list(NAMES[:players])}
        (HERE / f"{name}.json").write_text(json.dumps(doc, ensure_ascii=False, indent=1), "utf-8")
    for image in IMAGES:
        (HERE / f"{image}.png").write_bytes(render(image))
    print(f"wrote {len(VIEWS)} views and {len(IMAGES)} golden images to {HERE}")


if __name__ == "__main__":
    main()
