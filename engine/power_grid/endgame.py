"""Building from a seat's view: the cheapest cities in turn, and whether ending the game this
Build phase wins it against what every other seat can power."""

from typing import Any, NamedTuple

from engine.power_grid.network import INF, reach, rows
from engine.power_grid.rules import tables
from engine.power_grid.scoring import best_run

ALL = 99
"""A city count above any seat's: `best_run` capped by it gives what the plants and fuel run."""


class Step(NamedTuple):
    city: str
    cost: int
    total: int


def cheapest_builds(view: dict[str, Any], me: dict[str, Any], most: int) -> list[Step]:
    """Up to `most` cities built one after another, each the cheapest from the network so far
    (link plus house), with the running total; a first city prefers cheap neighbours."""
    config = view["config"]
    key = (config["map"], frozenset(view["regions"]), config["routes_through_unused_regions"])
    names, _, row = rows(*key)
    slots = tables().house_slot_costs
    limit = view["house_limit"]
    taken = {c["name"]: len(c["houses"]) for c in view["cities"] if c["in_play"]}
    network = tuple(me["cities"])
    steps: list[Step] = []
    total = 0
    while len(steps) < most:
        costs = reach(*key, network)
        best: tuple[float, int, str] | None = None
        for name, link in zip(names, costs, strict=True):
            filled = taken.get(name, limit)
            if filled >= limit or link >= INF or name in network:
                continue
            cost = link + slots[filled]
            score: float = cost
            if not network:
                near = sorted(row[name])[1:4]
                score = cost + sum(near) / 3
            if best is None or score < best[0]:
                best = (score, cost, name)
        if best is None:
            break
        total += best[1]
        steps.append(Step(best[2], best[1], total))
        network = (*network, best[2])
    return steps


def fuelled(seat: dict[str, Any], cities: int = ALL) -> int:
    """The cities this seat's plants can power with the fuel it holds, at most `cities`."""
    return best_run([p["number"] for p in seat["plants"]], seat["fuel"], cities)[0]


def still_to_build(view: dict[str, Any], seat: int) -> set[int]:
    """Seats that build after `seat` this phase (Build runs in reverse player order)."""
    order = view["order"]
    return set(order[: order.index(seat)]) if seat in order else set()


def beaten(
    view: dict[str, Any], other: dict[str, Any], later: bool, powered: int, money: int
) -> bool:
    """Whether another seat ends this phase with more cities powered than `powered`, or as many
    and at least `money` left: with what it holds now, or, if it still builds, with the cheapest
    cities it could add (its money unknown: any it likes)."""
    count, can = other["city_count"], fuelled(other)
    cash = other["money"]
    if not later:
        now = min(can, count)
        return now > powered or (now == powered and (cash is None or cash >= money))
    most = min(other["houses_left"], max(0, can - count))
    totals = [0] + [s.total for s in cheapest_builds(view, other, most)]
    paid = [t for t in totals if cash is None or t <= cash]
    best = min(can, count + len(paid) - 1)
    if best > powered:
        return True
    if best < powered:
        return False
    if cash is None:
        return True
    return cash - paid[max(0, powered - count)] >= money


def wins_ending(view: dict[str, Any], seat: int, powered: int, money: int) -> bool:
    """Whether `seat`, ending with `powered` cities and `money` left, beats every other seat
    outright, whatever the seats still to build this phase add (see `beaten`)."""
    later = still_to_build(view, seat)
    return not any(
        beaten(view, other, other["seat"] in later, powered, money)
        for other in view["seats"]
        if other["seat"] != seat
    )


def final_builds(view: dict[str, Any], me: dict[str, Any]) -> list[Step] | None:
    """The builds that end the game this phase and win it (as many as add a city powered), or
    None if ending it now would not win (or cannot be paid)."""
    count, end = me["city_count"], view["end_cities"]
    need, cap = end - count, fuelled(me)
    if need < 1 or need > me["houses_left"]:
        return None
    steps = cheapest_builds(view, me, min(me["houses_left"], max(need, cap - count)))
    paid = [s for s in steps if s.total <= me["money"]]
    if len(paid) < need:
        return None
    take = max(need, min(len(paid), cap - count))
    powered = min(cap, count + take)
    left = me["money"] - paid[take - 1].total
    return paid[:take] if wins_ending(view, me["seat"], powered, left) else None


def game_ends_anyway(view: dict[str, Any]) -> bool:
    """Whether some seat already has the end count, so this Build phase ends the game."""
    return any(s["city_count"] >= view["end_cities"] for s in view["seats"])
