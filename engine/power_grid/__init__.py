"""Power Grid (Friedemann Friese, 2F-Spiele): original edition with the WBC house rules."""

from engine.power_grid.game import GAME

__all__ = ["GAME"]
