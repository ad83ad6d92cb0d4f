"""Buying fuel from a seat's view: for the plants that power the most cities the seat can also
build this round, not for every plant it owns."""

from itertools import combinations
from typing import Any

from engine.power_grid.endgame import cheapest_builds
from engine.power_grid.rules import RESOURCES, plants
from engine.power_grid.scoring import excess, fuel_need


def _on_offer(view: dict[str, Any], resource: str) -> list[int]:
    """The market's tokens of `resource` by price, cheapest first."""
    return [s["price"] for s in view["resources"][resource]["spaces"] for _ in range(s["count"])]


def fuel_order(
    view: dict[str, Any], fuel: dict[str, int], run: tuple[int, ...]
) -> tuple[dict[str, int], int] | None:
    """The tokens to buy so that `run` can run once on top of the stock, and their price; None
    if the market lacks them. Hybrids take whichever of coal and oil is cheaper token by token."""
    need, hybrid = fuel_need(list(run))
    want = {r: max(0, need[r] - fuel[r]) for r in RESOURCES}
    offer = {r: _on_offer(view, r) for r in RESOURCES}
    if any(want[r] > len(offer[r]) for r in RESOURCES):
        return None
    spare = max(0, fuel["coal"] - need["coal"]) + max(0, fuel["oil"] - need["oil"])
    for _ in range(max(0, hybrid - spare)):
        coal = offer["coal"][want["coal"]] if want["coal"] < len(offer["coal"]) else None
        oil = offer["oil"][want["oil"]] if want["oil"] < len(offer["oil"]) else None
        if coal is None and oil is None:
            return None
        pick = "oil" if coal is None or (oil is not None and oil < coal) else "coal"
        want[pick] += 1
    cost = sum(sum(offer[r][: want[r]]) for r in RESOURCES)
    return {r: k for r, k in want.items() if k}, cost


def planned_fuel(view: dict[str, Any], me: dict[str, Any]) -> dict[str, int]:
    """What to buy: fuel for the plants that, with the cities the rest of the money builds,
    power the most cities (then cost the least); trimmed to what the plants can store."""
    owned = [p["number"] for p in me["plants"]]
    fuel, money, count = me["fuel"], me["money"], me["city_count"]
    capacity = sum(plants()[n].cities for n in owned)
    steps = cheapest_builds(view, me, min(me["houses_left"], max(0, capacity - count)))
    best: tuple[tuple[int, int], dict[str, int]] | None = None
    for k in range(len(owned) + 1):
        for run in combinations(owned, k):
            got = fuel_order(view, fuel, run)
            if got is None or got[1] > money:
                continue
            order, cost = got
            built = sum(s.total <= money - cost for s in steps)
            key = (min(sum(plants()[n].cities for n in run), count + built), -cost)
            if best is None or key > best[0]:
                best = (key, order)
    order = dict(best[1]) if best else {}
    # Stored fuel may already sit in hybrid room; trim what would not fit.
    while order and excess(owned, {r: fuel[r] + order.get(r, 0) for r in RESOURCES}):
        r = max(order, key=lambda k: order[k])
        order[r] -= 1
        if not order[r]:
            del order[r]
    return order
