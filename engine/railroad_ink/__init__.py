"""Railroad Ink (Hach & Silva, Horrible Guild) with the Electricity expansions."""

from engine.railroad_ink.game import GAME

__all__ = ["GAME"]
