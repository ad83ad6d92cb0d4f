"""Propeller Islands (Stanislav Kordonskiy, Queen Games): 2–4 players build mechanical islands."""

from engine.core import CHANCE, IllegalAction
from engine.propeller_islands.game import GAME

__all__ = ["CHANCE", "GAME", "IllegalAction"]
