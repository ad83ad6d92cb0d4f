"""Powerline (Dirk Henn, Queen Games): 15 simultaneous rounds of dice-driven network building."""

from engine.powerline.game import GAME

__all__ = ["GAME"]
