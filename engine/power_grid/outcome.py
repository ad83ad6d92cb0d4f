"""The final standings: cities powered, then money, cities and highest plant (WBC)."""

from typing import Any

from engine.core import shared_ranks
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
                "tiebreak_used": _tiebreak(keys, seat),
                "details": {},
            }
        )
    return rows


def _tiebreak(keys: list[tuple[int, ...]], seat: int) -> str | None:
    """The deepest key needed to separate this seat from those with as many cities powered;
    None when none has, "shared" when some seat is equal on every key."""
    deepest = 0
    for other, key in enumerate(keys):
        if other == seat or key[0] != keys[seat][0]:
            continue
        if key == keys[seat]:
            return "shared"
        deepest = max(deepest, next(i for i in range(4) if key[i] != keys[seat][i]))
    return TIEBREAKS[deepest] if deepest else None
