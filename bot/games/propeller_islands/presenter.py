"""Propeller Islands' images and words on Discord."""

from typing import Any

import render.propeller_islands as islands
from bot.games.propeller_islands.controls import DYNAMIC_ITEMS, panel
from bot.games.propeller_islands.stakes import CONFIRM_TYPES, confirm, stakes
from bot.games.propeller_islands.words import phase_name
from bot.ui.presenter import Presenter


def _phase_image(view: dict[str, Any], names: list[str], phase: Any) -> tuple[str, bytes] | None:
    """Once a round, when its bonus die is done: every island with fame and VP so far (the last
    round's is the results card instead)."""
    round_, name = phase
    if name != "bonus" or view["over"]:
        return None
    caption = f"Round {round_} is over: every island, with fame and VP so far."
    return caption, islands.recap(view, names, round_)


PRESENTER = Presenter(
    board=islands.island,
    results=islands.results,
    status_image=islands.forge,
    panel_image=islands.turn,
    phase_image=_phase_image,
    turn_panel=panel,
    phase_words=phase_name,
    stakes=stakes,
    confirm_types=CONFIRM_TYPES,
    confirm=confirm,
    dynamic_items=DYNAMIC_ITEMS,
)
