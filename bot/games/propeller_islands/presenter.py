"""Propeller Islands' images and words on Discord."""

from typing import Any

import render.propeller_islands as islands
from bot.games.propeller_islands.controls import DYNAMIC_ITEMS, panel
from bot.games.propeller_islands.words import phase_name
from bot.ui.presenter import Presenter


def _panel_image(view: dict[str, Any], names: list[str]) -> bytes:
    """The forge while a die is to be drafted, the seat's own island for everything after."""
    turn = view["turn"]
    if turn is None or turn["stage"] == "draft" or view["viewer"] is None:
        return islands.forge(view, names)
    return islands.island(view, view["viewer"], names)


PRESENTER = Presenter(
    board=islands.island,
    results=islands.results,
    status_image=islands.forge,
    panel_image=_panel_image,
    turn_panel=panel,
    phase_words=phase_name,
    dynamic_items=DYNAMIC_ITEMS,
)
