"""Power Grid's images and words on Discord."""

from typing import Any

import render.power_grid as power_grid
from bot.games.power_grid.controls import DYNAMIC_ITEMS, panel
from bot.games.power_grid.words import CONFIRM_TYPES, PHASES, confirm, phase_name, stakes
from bot.ui.presenter import Presenter

MAP_PHASES = ("regions", "build")
"""Phases whose moves change the map; the others change the markets and the players' plants."""


def _board(view: dict[str, Any], seat: int, names: list[str]) -> bytes:
    return power_grid.map_image(view, names)


def _panel_image(view: dict[str, Any], names: list[str]) -> bytes:
    """The part of the map around the seat's network while the map changes, else the market
    (the whole map is too big for a phone: `/game board` sends it)."""
    if view["phase"] in MAP_PHASES:
        return power_grid.map_focus(view, names)
    return power_grid.market(view, names)


def _phase_image(view: dict[str, Any], names: list[str], phase: Any) -> tuple[str, bytes] | None:
    """After region picking and building (the map's overview) and the auction (the plants
    bought)."""
    round_, name = phase
    when = f"Round {round_}: " if round_ else ""
    if name in MAP_PHASES:
        caption = f"{when}{PHASES[name]} is over; the map now (names and costs: `/game board`)."
        return caption, power_grid.map_overview(view, names)
    if name == "auction":
        return f"{when}the auction is over; the market now.", power_grid.market(view, names)
    return None


PRESENTER = Presenter(
    board=_board,
    results=power_grid.results,
    status_image=power_grid.market,
    recap_frame=power_grid.map_overview,
    panel_image=_panel_image,
    phase_image=_phase_image,
    turn_panel=panel,
    phase_words=phase_name,
    stakes=stakes,
    confirm_types=CONFIRM_TYPES,
    confirm=confirm,
    dynamic_items=DYNAMIC_ITEMS,
)
