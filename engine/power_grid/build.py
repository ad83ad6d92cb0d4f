"""Phases 3 and 4: buying resources and building cities, in reverse player order."""

from engine.core import IllegalAction
from engine.power_grid.actions import Build as BuildAction
from engine.power_grid.actions import Buy
from engine.power_grid.market import buy_cost, max_cities, remove_lowest, settle
from engine.power_grid.network import INF, connection_cost, distances, nearest
from engine.power_grid.rules import RESOURCES, city_regions, player_count, tables
from engine.power_grid.scoring import excess
from engine.power_grid.state import State


def price_buy(state: State, seat: int, resources: dict[str, int]) -> tuple[int, dict[str, int]]:
    """What buying these tokens costs and the seat's fuel after; refuses an illegal buy."""
    p = state.players[seat]
    want = {r: resources.get(r, 0) for r in RESOURCES}
    if not any(want.values()):
        raise IllegalAction("Buy at least one resource token.")
    total = 0
    for r, k in want.items():
        cost = buy_cost(state, r, k) if k else 0
        if cost is None:
            raise IllegalAction(f"The market holds only {state.resources[r]} {r}.")
        total += cost
    if total > p.money:
        raise IllegalAction(f"That costs {total} and you have {p.money}.")
    fuel = {r: p.fuel[r] + want[r] for r in RESOURCES}
    if excess(p.plants, fuel):
        raise IllegalAction("Your plants cannot store that many resources.")
    return total, fuel


def can_buy(state: State, seat: int, resources: dict[str, int]) -> bool:
    """Whether the seat may buy these tokens now (in its resources turn)."""
    try:
        price_buy(state, seat, resources)
    except IllegalAction:
        return False
    return True


def buy(state: State, seat: int, action: Buy) -> None:
    total, fuel = price_buy(state, seat, action.resources)
    p = state.own(seat)
    for r, k in action.resources.items():
        state.resources[r] -= k
    p.money -= total
    p.fuel = fuel


def house_limit(state: State) -> int:
    return tables().max_houses_per_city_by_step[state.step]


def city_dist(state: State) -> dict[str, dict[str, int]]:
    c = state.config
    return distances(c.map, frozenset(state.regions), c.routes_through_unused_regions)


def nearest_cities(state: State, network: list[str]) -> list[tuple[int, str]]:
    """The cities in play outside `network` as (what connecting one to it costs, name), cheapest
    first (read only)."""
    c = state.config
    return nearest(c.map, frozenset(state.regions), c.routes_through_unused_regions, tuple(network))


def price_build(state: State, seat: int, cities: list[str]) -> int:
    """The total a build costs; refuses illegal ones."""
    return sum(build_costs(state, seat, cities))


def build_costs(state: State, seat: int, cities: list[str]) -> tuple[int, int]:
    """What a build costs in connections and in houses, city by city from the growing network;
    refuses illegal ones."""
    p = state.players[seat]
    if not cities:
        raise IllegalAction("Name at least one city to build in.")
    if len(set(cities)) != len(cities):
        raise IllegalAction("A build names a city twice.")
    if len(p.cities) + len(cities) > tables().houses_per_player:
        raise IllegalAction(f"You have only {tables().houses_per_player - len(p.cities)} houses.")
    known = city_regions(state.config.map)
    dist = city_dist(state)
    network = list(p.cities)
    limit = house_limit(state)
    links = houses = 0
    for city in cities:
        if city not in known:
            raise IllegalAction(f"There is no city called {city!r} on this map.")
        if known[city] not in state.regions:
            raise IllegalAction(f"{city} is not in a region in play.")
        if city in network:
            raise IllegalAction(f"You already have a house in {city}.")
        taken = len(state.houses.get(city, []))
        if taken >= limit:
            raise IllegalAction(f"{city} is full: Step {state.step} allows {limit} house(s).")
        link = connection_cost(dist, network, city)
        if link >= INF:
            raise IllegalAction(f"{city} cannot be reached from your network.")
        links += link
        houses += tables().house_slot_costs[taken]
        network.append(city)
    if links + houses > p.money:
        raise IllegalAction(f"That build costs {links + houses} and you have {p.money}.")
    return links, houses


def build(state: State, seat: int, action: BuildAction) -> None:
    p = state.own(seat)
    p.money -= price_build(state, seat, action.cities)
    for city in action.cities:
        state.houses[city] = [*state.houses.get(city, ()), seat]
        p.cities = [*p.cities, city]
        settle(state)


def done(state: State) -> None:
    """The seat ends its turn; after the last seat, the next phase (or the game end)."""
    state.turn += 1
    if state.turn < len(state.players):
        return
    state.turn = 0
    if state.phase == "resources":
        state.phase = "build"
        return
    count = player_count(state.config.players)
    top = max_cities(state)
    if top >= count.game_end_cities:
        state.phase = "over"
        return
    if state.step == 1 and not state.step3_drawn and top >= count.step2_trigger_cities:
        state.step = 2
        remove_lowest(state)
        settle(state)
    if state.step3_next == "bureaucracy":
        state.step = 3
        state.step3_next = None
    state.phase = "bureaucracy"
