"""The coach for Powerline: each round's plan of a seat against the autopilot's, weighed by the VP
each leads to once the autopilot plays the seat's later rounds the same way after both."""

from engine.coaching import RoundCoach
from engine.core import Outcome
from engine.powerline import autopilot
from engine.powerline.game import GAME


def _detail(mine: Outcome, ai: Outcome) -> dict[str, tuple[float, float]]:
    """The figures where the two ends differ: cities supplied, station tiles, VP from the
    scoring tiles and lost to the island, lines left unfinished."""
    figures = [_figures(row) for row in (mine, ai)]
    return {name: (a, figures[1][name]) for name, a in figures[0].items() if a != figures[1][name]}


def _figures(row: Outcome) -> dict[str, float]:
    details = row["details"]
    ledger = details["breakdown"]
    return {
        "cities": details["cities_supplied"],
        "stations": details["station_tiles"],
        "scoring": sum(ledger[f"scoring_{k}"] for k in (1, 2, 3)),
        "island": ledger["island"],
        "unfinished lines": details["unfinished_lines"],
    }


coach = RoundCoach(GAME, autopilot.choose, "VP by the end", _detail)
