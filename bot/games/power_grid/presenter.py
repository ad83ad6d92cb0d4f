"""Power Grid's images and words on Discord."""

from typing import Any

import render.power_grid as power_grid
from bot.games.power_grid.controls import DYNAMIC_ITEMS, panel
from bot.games.power_grid.words import phase_name
from bot.ui.presenter import Presenter

MAP_PHASES = ("regions", "build")
"""Phases whose moves change the map; the others change the markets and the players' plants."""


def _panel_image(view: dict[str, Any], names: list[str]) -> bytes:
    if view["phase"] in MAP_PHASES:
        return power_grid.map_image(view, names)
    return power_grid.market(view, names)


def _phase_image(view: dict[str, Any], names: list[str], phase: Any) -> bytes | None:
    """After the auction (the market), building and region picking (the map)."""
    _, name = phase
    if name in MAP_PHASES:
        return power_grid.map_image(view, names)
    if name == "auction":
        return power_grid.market(view, names)
    return None


PRESENTER = Presenter(
    board=lambda view, seat, names: power_grid.map_image(view, names),
    results=power_grid.results,
    status_image=power_grid.market,
    panel_image=_panel_image,
    phase_image=_phase_image,
    turn_panel=panel,
    phase_words=phase_name,
    dynamic_items=DYNAMIC_ITEMS,
)
