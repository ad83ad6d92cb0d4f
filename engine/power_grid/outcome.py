"""The final standings: cities powered, then money, cities and highest plant (WBC)."""

from typing import Any

from engine.core import shared_ranks, tiebreak_used
from engine.power_grid.scoring import best_run
from engine.power_grid.state import State

TIEBREAKS = ("powered", "money", "cities", "highest_plant")


def standings(state: State) -> list[dict[str, Any]]:
    """Per seat: the engine contract's rows plus powered, money, cities, highest_plant and the
    tiebreak that placed it."""
    keys = []
    for p in state.players:
        powered, _ = best_run(p.plants, p.fuel, len(p.cities))
        keys.append((powered, p.money, len(p.cities), max(p.plants, default=0)))
    ranks = shared_ranks(keys)
    rows = []
    for seat, (key, rank) in enumerate(zip(keys, ranks, strict=True)):
        rows.append(
            {
                "seat": seat,
                "score": key[0],
                "rank": rank,
                "tiebreak": list(key),
                "primary": key[0],
                "secondary": key[1],
                "powered": key[0],
                "money": key[1],
                "cities": key[2],
                "highest_plant": key[3],
                "tiebreak_used": tiebreak_used(keys, seat, TIEBREAKS),
                "details": {},
            }
        )
    return rows
