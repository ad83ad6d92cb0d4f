"""A heuristic Power Grid player from a seat's view: values plants by cities per fuel cost, bids
within a budget, buys the fuel it will burn, builds cheap connected cities, powers the most.
Standard and strong buy fuel for the cities they can also build (engine.power_grid.supply), end
the game only when that wins it (engine.power_grid.endgame) and bid less; strong bids more to
keep a plant from the seat ahead of all. Casual is the first version's play."""

from typing import Any

from engine.core import Level
from engine.power_grid.actions import Action, parse_action
from engine.power_grid.config import Config
from engine.power_grid.endgame import cheapest_builds, final_builds, fuelled, game_ends_anyway
from engine.power_grid.network import INF, connection_cost, distances
from engine.power_grid.rules import RESOURCES, plants, player_count, tables
from engine.power_grid.scoring import best_run, capacities, excess, fuel_need, hybrid_mix
from engine.power_grid.setup import completable
from engine.power_grid.supply import planned_fuel


def choose(
    view: dict[str, Any], seat: int, budget: float | None = None, level: Level = "standard"
) -> Action:
    """The autopilot's action for `seat`, which must be owed one in this view. The budget is
    unused: a decision is a fraction of a millisecond, with no search to cut short."""
    return parse_action(_choose(view, seat, level))


def _choose(view: dict[str, Any], seat: int, level: Level) -> dict[str, Any]:
    me = view["seats"][seat]
    if view["discard"] is not None:
        return _discard(view, me)
    phase = view["phase"]
    if phase == "regions":
        config = Config(**view["config"])
        picked = set(view["regions"])
        for c in view["cities"]:
            r = c["region"]
            if r not in picked and completable(config, {*picked, r}):
                return {"type": "pick_region", "region": r}
    if phase == "auction":
        return _auction(view, me, level)
    if phase == "resources":
        if level == "casual":
            return _resources(view, me)
        order = planned_fuel(view, me)
        return {"type": "buy", "resources": order} if order else {"type": "done"}
    if phase == "build":
        return _build(view, me) if level == "casual" else _build_to_win(view, me)
    owned = [p["number"] for p in me["plants"]]
    _, run = best_run(owned, me["fuel"], me["city_count"])
    action: dict[str, Any] = {"type": "power", "plants": run}
    mix = hybrid_mix(run, me["fuel"])
    if mix:
        action["hybrid"] = mix
    return action


def _fuel_price(view: dict[str, Any], kind: str) -> float:
    """A rough price per token of a plant's fuel (hybrids: the cheaper of coal and oil)."""
    if kind == "hybrid":
        return min(_fuel_price(view, "coal"), _fuel_price(view, "oil"))
    if kind not in RESOURCES:
        return 0.0
    price = view["resources"][kind]["next_price"]
    return float(price) if price is not None else 12.0


def plant_value(view: dict[str, Any], number: int) -> float:
    """What a plant is worth: its cities, less the fuel a run costs, in Elektro-ish units."""
    p = plants()[number]
    per_run = p.resources * _fuel_price(view, p.type)
    return p.cities * 9.0 - per_run * 1.2 + (3.0 if p.resources == 0 else 0.0)


def _capacity(numbers: list[int]) -> int:
    return sum(plants()[n].cities for n in numbers)


PREMIUM: dict[Level, float] = {"casual": 0.4, "standard": 0.2, "strong": 0.2}
"""A plant's share of its value bid above its number: above 0.2, a lone greedy seat that never
raises by more than 4 (bench.ai_power_grid) wins far more often, on plants we overpaid for."""
SPARE: dict[Level, int] = {"casual": 2, "standard": 1, "strong": 1}
"""A new plant is wanted while capacity exceeds the cities by at most this."""
DENY = 0.5
"""Strong's share when the plant would go to the seat ahead of all (most cities, then capacity):
keeping it from that seat is worth more than the plant is to us."""


def _budget(view: dict[str, Any], me: dict[str, Any], number: int, premium: float) -> int:
    """The most the seat will pay for a plant: its value plus a premium, keeping cash to build."""
    owned = [p["number"] for p in me["plants"]]
    limit = player_count(view["players"]).max_plants_per_player
    value = plant_value(view, number)
    if len(owned) >= limit:
        worst = min(owned, key=lambda n: plant_value(view, n))
        gain = value - plant_value(view, worst)
        if gain <= 8:
            return 0
    else:
        gain = value
    reserve = 20 if view["round"] > 1 else 0
    cap = me["money"] - reserve
    return int(min(cap, number + max(0, gain) * premium))


def _strength(seat: dict[str, Any]) -> tuple[int, int]:
    """How far ahead a seat is: its cities, then its plants' capacity."""
    return seat["city_count"], _capacity([p["number"] for p in seat["plants"]])


def _leading(view: dict[str, Any], leader: int | None, seat: int) -> bool:
    """Whether the auction's leader is ahead of `seat` and of every other seat."""
    if leader is None or leader == seat:
        return False
    seats = view["seats"]
    return all(_strength(seats[leader]) >= _strength(s) for s in seats)


def _auction(view: dict[str, Any], me: dict[str, Any], level: Level) -> dict[str, Any]:
    premium = PREMIUM[level]
    auction = view["auction"]
    if auction is not None:
        if level == "strong" and _leading(view, auction["leader"], me["seat"]):
            premium = DENY
        budget = _budget(view, me, auction["plant"]["number"], premium)
        if auction["bid"] + 1 <= min(budget, me["money"]):
            return {"type": "bid", "amount": auction["bid"] + 1}
        return {"type": "drop"}
    owned = [p["number"] for p in me["plants"]]
    market = [p["number"] for p in view["plant_market"]["actual"] if p["type"] != "step3"]
    affordable = [n for n in market if n <= me["money"]]
    if view["round"] == 1:
        # Everyone must buy: the best value we can pay for.
        best = max(affordable, key=lambda n: plant_value(view, n) - n * 0.5)
        return {"type": "open", "plant": best, "bid": best}
    wanted = _capacity(owned) <= me["city_count"] + SPARE[level] or len(owned) < 2
    options = [n for n in affordable if _budget(view, me, n, premium) >= n]
    if not options or not wanted:
        return {"type": "pass"}
    best = max(options, key=lambda n: plant_value(view, n))
    return {"type": "open", "plant": best, "bid": best}


def _discard(view: dict[str, Any], me: dict[str, Any]) -> dict[str, Any]:
    new = view["discard"]["new_plant"]
    owned = [p["number"] for p in me["plants"]]
    worst = min((n for n in owned if n != new), key=lambda n: plant_value(view, n))
    kept = [n for n in owned if n != worst]
    caps, room = capacities(kept)
    fuel = me["fuel"]
    over = {r: max(0, fuel[r] - caps[r]) for r in RESOURCES}
    mixed = max(0, over["coal"] + over["oil"] - room)
    back = {"garbage": over["garbage"], "uranium": over["uranium"]}
    back["coal"] = min(mixed, over["coal"])
    back["oil"] = mixed - back["coal"]
    return {"type": "discard_plant", "plant": worst, "return": {r: k for r, k in back.items() if k}}


def _resources(view: dict[str, Any], me: dict[str, Any]) -> dict[str, Any]:
    owned = [p["number"] for p in me["plants"]]
    fuel = me["fuel"]
    need, hybrid = fuel_need(owned)
    want = {r: max(0, need[r] - fuel[r]) for r in RESOURCES}
    spare = fuel["coal"] - need["coal"] + fuel["oil"] - need["oil"]
    hybrid_short = max(0, hybrid - max(0, spare))
    if hybrid_short:
        cheaper = min(("coal", "oil"), key=lambda r: _fuel_price(view, r))
        want[cheaper] += hybrid_short
    money = me["money"]
    order: dict[str, int] = {}
    for r in RESOURCES:
        track = view["resources"][r]
        prices = [s["price"] for s in track["spaces"] for _ in range(s["count"])]
        k = min(want[r], len(prices))
        while k and sum(prices[:k]) > money:
            k -= 1
        if k:
            order[r] = k
            money -= sum(prices[:k])
    # Stored fuel may already sit in hybrid room; trim what would not fit.
    while order and excess(owned, {r: fuel[r] + order.get(r, 0) for r in RESOURCES}):
        r = max(order, key=lambda k: order[k])
        order[r] -= 1
        if not order[r]:
            del order[r]
    if order:
        return {"type": "buy", "resources": order}
    return {"type": "done"}


def _build(view: dict[str, Any], me: dict[str, Any]) -> dict[str, Any]:
    owned = [p["number"] for p in me["plants"]]
    capacity = _capacity(owned)
    count = me["city_count"]
    end = view["end_cities"]
    target = max(capacity + 1, 3) if view["round"] > 1 else 1
    if count >= tables().houses_per_player or (count >= target and count < end - 2):
        return {"type": "done"}
    config = view["config"]
    dist = distances(
        config["map"], frozenset(view["regions"]), config["routes_through_unused_regions"]
    )
    slots = tables().house_slot_costs
    best: tuple[float, str] | None = None
    for c in view["cities"]:
        taken = len(c["houses"])
        if not c["in_play"] or c["name"] in me["cities"] or taken >= view["house_limit"]:
            continue
        link = connection_cost(dist, me["cities"], c["name"])
        if link >= INF:
            continue
        cost = link + slots[taken]
        if not me["cities"]:
            # A first city with cheap neighbours leaves room to grow.
            near = sorted(d for n, d in dist[c["name"]].items() if n != c["name"])[:3]
            score = cost + sum(near) / 3
        else:
            score = cost
        if best is None or score < best[0]:
            best = (score, c["name"])
    if best is None:
        return {"type": "done"}
    name = best[1]
    cost = (
        connection_cost(dist, me["cities"], name)
        + slots[len(next(c for c in view["cities"] if c["name"] == name)["houses"])]
    )
    if cost > me["money"]:
        return {"type": "done"}
    return {"type": "build", "cities": [name]}


def _build_to_win(view: dict[str, Any], me: dict[str, Any]) -> dict[str, Any]:
    """The cheapest city up to one past capacity, never to the end count unless ending the game
    then wins it; once the game ends this phase anyway, up to every city it can power."""
    count = me["city_count"]
    if view["round"] == 1:
        target = 1
    elif game_ends_anyway(view):
        target = fuelled(me)
    else:
        final = final_builds(view, me)
        if final:
            return {"type": "build", "cities": [final[0].city]}
        capacity = _capacity([p["number"] for p in me["plants"]])
        target = min(max(capacity + 1, 3), view["end_cities"] - 1)
    if count >= target or not me["houses_left"]:
        return {"type": "done"}
    steps = cheapest_builds(view, me, 1)
    if not steps or steps[0].cost > me["money"]:
        return {"type": "done"}
    return {"type": "build", "cities": [steps[0].city]}
