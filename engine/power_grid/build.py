"""Phases 3 and 4: buying resources and building cities, in reverse player order."""

from engine.core import IllegalAction
from engine.power_grid.actions import Build as BuildAction
from engine.power_grid.actions import Buy
from engine.power_grid.market import buy_cost, max_cities, remove_lowest, settle
from engine.power_grid.network import INF, nearest, reach, rows
from engine.power_grid.rules import RESOURCES, city_regions, game_map, player_count, tables
from engine.power_grid.scoring import burns, excess, room
from engine.power_grid.state import State


def price_buy(state: State, seat: int, resources: dict[str, int]) -> tuple[int, dict[str, int]]:
    """What buying these tokens costs and the seat's fuel after; refuses an illegal buy."""
    p = state.players[seat]
    held = p.fuel
    fuel = {
        "coal": held["coal"],
        "oil": held["oil"],
        "garbage": held["garbage"],
        "uranium": held["uranium"],
    }
    total = tokens = 0
    get = resources.get
    for r in RESOURCES:
        k = get(r, 0)
        if k:
            cost = buy_cost(state, r, k)
            if cost is None:
                raise IllegalAction(f"The market holds only {state.resources[r]} {r}.")
            total += cost
            tokens += k
            fuel[r] += k
    if not tokens:
        raise IllegalAction("Buy at least one resource token.")
    if total > p.money:
        raise IllegalAction(f"Those resources cost {total} Elektro and you have {p.money}.")
    if excess(p.plants, fuel):
        want = {r: resources.get(r, 0) for r in RESOURCES}
        raise IllegalAction(_no_room(p.plants, p.fuel, want))
    return total, fuel


def _no_room(owned: list[int], fuel: dict[str, int], want: dict[str, int]) -> str:
    """Why these tokens do not fit on the seat's plants, naming the resource."""
    wanted = [r for r in RESOURCES if want[r]]
    for r in wanted:
        if not burns(owned, r):
            return f"None of your plants burns {r}."
    for r in wanted:
        left = room(owned, fuel, r)
        if want[r] > left:
            if not left:
                return f"Your plants have no room for more {r}."
            return f"Your plants have room for only {left} more {r}."
    return "Your plants cannot store all of that: coal and oil share your hybrid plants' room."


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
    tracks = state.resources = state.resources.copy()
    for r, k in action.resources.items():
        tracks[r] -= k
    p.money -= total
    p.fuel = fuel


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
    links, houses = quote_build(state, seat, cities)
    money = state.players[seat].money
    if links + houses > money:
        raise IllegalAction(f"That build costs {links + houses} Elektro and you have {money}.")
    return links, houses


def quote_build(state: State, seat: int, cities: list[str]) -> tuple[int, int]:
    """What a build would cost in connections and in houses, whether or not the seat can pay
    (a panel names the total it lacks); refuses a build the rules forbid otherwise."""
    p = state.players[seat]
    if not cities:
        raise IllegalAction("Name at least one city to build in.")
    if len(set(cities)) != len(cities):
        raise IllegalAction("A build names a city twice.")
    t = tables()
    left = t.houses_per_player - len(p.cities)
    if len(cities) > left:
        raise IllegalAction(f"You have only {_houses(left)} left.")
    c = state.config
    known = city_regions(c.map)
    regions = frozenset(state.regions)
    place = rows(c.map, regions, c.routes_through_unused_regions)[1]
    network = tuple(p.cities)
    limit = t.max_houses_per_city_by_step[state.step]
    slots = t.house_slot_costs
    links = houses = 0
    for city in cities:
        if city not in known:
            name = game_map(c.map).name
            raise IllegalAction(f"There is no city “{city}” on the {name} map.")
        if known[city] not in state.regions:
            raise IllegalAction(f"{city} is not in a region in play.")
        if city in network:
            raise IllegalAction(f"You already have a house in {city}.")
        taken = len(state.houses.get(city, []))
        if taken >= limit:
            raise IllegalAction(
                f"{city} is full: Step {state.step} allows {_houses(limit)} a city."
            )
        link = reach(c.map, regions, c.routes_through_unused_regions, network)[place[city]]
        if link >= INF:
            raise IllegalAction(f"{city} cannot be reached from your network.")
        links += link
        houses += slots[taken]
        network = (*network, city)
    return links, houses


def _houses(n: int) -> str:
    return "1 house" if n == 1 else f"{n} houses"


def build(state: State, seat: int, action: BuildAction) -> None:
    p = state.own(seat)
    p.money -= price_build(state, seat, action.cities)
    houses = state.houses = state.houses.copy()
    for city in action.cities:
        houses[city] = [*houses.get(city, ()), seat]
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
