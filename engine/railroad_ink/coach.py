"""The coach for Railroad Ink: each round's plan of a seat against the autopilot's, weighed by the
points each leads to once the autopilot plays the seat's later rounds the same way after both."""

from engine.coaching import RoundCoach
from engine.core import Outcome
from engine.railroad_ink import autopilot
from engine.railroad_ink.game import GAME

_FIGURES = {
    "networks": "network_points",
    "highway": "longest_highway",
    "railway": "longest_railway",
    "centre": "centre",
    "errors": "errors",
    "lamps": "lamps",
    "power": "power",
}
"""The detail's names for the score lines of an outcome's breakdown."""


def _detail(mine: Outcome, ai: Outcome) -> dict[str, tuple[float, float]]:
    """The score lines where the two ends differ (an expansion not in play scores 0 in both)."""
    a, b = mine["details"]["breakdown"], ai["details"]["breakdown"]
    return {name: (a[line], b[line]) for name, line in _FIGURES.items() if a[line] != b[line]}


coach = RoundCoach(GAME, autopilot.choose, "points by the end", _detail)
