"""Golden images: fixed views (JSON) and the PNGs they must render to.

Regenerate both after a deliberate change of the images or of the view schema:
    .venv/bin/python -m tests.render.goldens
then look at the PNGs in tests/render/golden/ before committing them.
"""

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from render.powerline import centre_board, final_results, player_board, round_summary
from render.preview import GAME, NAMES, play_until

HERE = Path(__file__).parent / "golden"

VIEWS: dict[str, tuple[int, frozenset[str], int | None, int | None]] = {
    "solo-mid": (1, frozenset(), 6, 0),
    "three-adventure-mid": (3, frozenset({"adventure_island", "construction_limits"}), 9, 0),
    "six-all-end": (
        6,
        frozenset({"adventure_island", "contracts", "special_contracts"}),
        None,
        None,
    ),
}
"""name → (players, variants, stop in this round's planning or None for the end, viewer)."""

IMAGES: dict[str, tuple[str, Callable[[dict[str, Any], list[str]], bytes]]] = {
    "solo-mid-board": ("solo-mid", lambda v, n: player_board(v, 0, n)),
    "solo-mid-centre": ("solo-mid", centre_board),
    "three-adventure-mid-board-own": ("three-adventure-mid", lambda v, n: player_board(v, 0, n)),
    "three-adventure-mid-board-other": ("three-adventure-mid", lambda v, n: player_board(v, 1, n)),
    "three-adventure-mid-summary": ("three-adventure-mid", round_summary),
    "six-all-end-centre": ("six-all-end", centre_board),
    "six-all-end-summary": ("six-all-end", round_summary),
    "six-all-end-results": ("six-all-end", final_results),
}
"""golden PNG name → (view name, how to draw it)."""


def load_view(name: str) -> tuple[dict[str, Any], list[str]]:
    data = json.loads((HERE / f"{name}.json").read_text("utf-8"))
    return data["view"], data["names"]


def render(image: str) -> bytes:
    view_name, draw = IMAGES[image]
    view, names = load_view(view_name)
    return draw(view, names)


def main() -> None:
    HERE.mkdir(exist_ok=True)
    for name, (players, variants, round_, viewer) in VIEWS.items():
        state = play_until(players, variants, seed=42, round_=round_)
        view = GAME.view(state, viewer)
        doc = {"view": view, "names": list(NAMES[:players])}
        (HERE / f"{name}.json").write_text(json.dumps(doc, ensure_ascii=False, indent=1), "utf-8")
    for image in IMAGES:
        (HERE / f"{image}.png").write_bytes(render(image))
    print(f"wrote {len(VIEWS)} views and {len(IMAGES)} golden images to {HERE}")


if __name__ == "__main__":
    main()
