"""Propeller Islands images, drawn from `view(...)` dicts only."""

from render.propeller_islands.forge import forge
from render.propeller_islands.island import island
from render.propeller_islands.results import results

__all__ = ["forge", "island", "results"]
