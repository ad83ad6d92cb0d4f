"""The final standings: cities powered, then money, cities and highest plant (WBC)."""

from engine.core import Outcome, shared_ranks, tiebreak_used
from engine.power_grid.scoring import best_run
from engine.power_grid.state import State

TIEBREAKS = ("powered", "money", "cities", "highest_plant")


def standings(state: State) -> list[Outcome]:
    """Per seat: the contract's row, its details powered, money, cities, highest_plant and the
    tiebreak that placed it (`tiebreak_used`)."""
    keys = []
    for p in state.players:
        powered, _ = best_run(p.plants, p.fuel, len(p.cities))
        keys.append((powered, p.money, len(p.cities), max(p.plants, default=0)))
    ranks = shared_ranks(keys)
    rows = []
    for seat, (key, rank) in enumerate(zip(keys, ranks, strict=True)):
        rows.append(
            Outcome(
                seat=seat,
                score=key[0],
                rank=rank,
                tiebreak=list(key),
                primary=key[0],
                secondary=key[1],
                details={
                    **dict(zip(TIEBREAKS, key, strict=True)),
                    "tiebreak_used": tiebreak_used(keys, seat, TIEBREAKS),
                },
            )
        )
    return rows
