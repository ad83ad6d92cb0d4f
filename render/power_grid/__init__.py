"""Power Grid images, drawn from `view(...)` dicts only."""

from render.power_grid.map import map_focus, map_image, map_overview
from render.power_grid.market import market, panel_box
from render.power_grid.results import results

__all__ = ["map_focus", "map_image", "map_overview", "market", "panel_box", "results"]
