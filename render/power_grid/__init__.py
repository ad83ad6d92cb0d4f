"""Power Grid images, drawn from `view(...)` dicts only."""

from render.power_grid.map import map_image
from render.power_grid.market import market, panel_box
from render.power_grid.results import results

__all__ = ["map_image", "market", "panel_box", "results"]
