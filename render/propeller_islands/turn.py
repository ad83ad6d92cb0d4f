"""The picture of a "your turn" panel: the forge where the choice is there (a die to draft, a
blueprint to take), else the seat's own island with its choices lettered and, for a claim or a
discard, the tiles on offer for the die with their offer spaces."""

from collections.abc import Sequence
from typing import Any

from render.common import png
from render.propeller_islands.forge import forge
from render.propeller_islands.island import island_image

AT_THE_FORGE = ("draft", "take")
"""Decisions whose choices are on the forge image (the dice, the blueprint offer)."""


def turn(view: dict[str, Any], names: Sequence[str] | None = None) -> bytes:
    """PNG for the seat of `view` deciding now (a spectator's view: the forge)."""
    seat, decision = view["viewer"], view.get("decision")
    if seat is None or decision is None or decision["point"] in AT_THE_FORGE:
        return forge(view, names)
    spaces = {c["space"] for c in decision["claims"]} | set(decision["discards"])
    offer = [o for o in view["offer"] if o["space"] in spaces]
    return png(island_image(view, seat, names, offer))
