"""Propeller Islands images, drawn from `view(...)` dicts only."""

from render.propeller_islands.forge import forge
from render.propeller_islands.island import island
from render.propeller_islands.recap import recap
from render.propeller_islands.results import results
from render.propeller_islands.turn import turn

__all__ = ["forge", "island", "recap", "results", "turn"]
