"""A seat's legal moves, built from the rules' conditions instead of trying each candidate.

Each list keeps one order (regions and cities in map order, opens by market then amount, bids
by amount, done then buys in resource order, power runs from the smallest set up), as the random
baseline and the replay benchmarks draw from it by index. Actions are frozen and shared."""

from collections.abc import Callable
from functools import cache, lru_cache
from itertools import combinations
from math import inf

from pydantic import BaseModel

from engine.power_grid.actions import (
    Bid,
    Build,
    Buy,
    DiscardPlant,
    Open,
    PickRegion,
    Power,
    parse_action,
)
from engine.power_grid.market import buyable, prices
from engine.power_grid.network import reach, rows
from engine.power_grid.rules import RESOURCES, game_map, plants, tables
from engine.power_grid.scoring import storage
from engine.power_grid.setup import completable
from engine.power_grid.state import PlayerState, State

_DONE = parse_action({"type": "done"})
_PASS = parse_action({"type": "pass"})
_DROP = parse_action({"type": "drop"})
_BUY_COAL, _BUY_OIL, _BUY_GARBAGE, _BUY_URANIUM = (Buy(resources={r: 1}) for r in RESOURCES)
_BIDS: list[BaseModel] = []
_OPENS: dict[int, list[Open]] = {}


def legal_actions(state: State, seat: int, kinds: tuple[str, ...]) -> list[BaseModel]:
    """Every action the rules accept from `seat`, owed these kinds of action (`game.owed`)."""
    return _LISTS[kinds[0]](state, state.players[seat])


def _bidding(state: State, p: PlayerState) -> list[BaseModel]:
    """Each raise the seat affords, then drop."""
    a = state.auction
    assert a is not None
    moves = _bids(a.bid + 1, p.money)
    moves.append(_DROP)
    return moves


def _opening(state: State, p: PlayerState) -> list[BaseModel]:
    """Each bid the chooser affords on each plant for sale, then pass (not in round 1)."""
    money = p.money
    moves: list[BaseModel] = []
    for n in buyable(state):
        if n <= money:
            moves += _opens(n, money)
    if state.round != 1:
        moves.append(_PASS)
    return moves


def _bids(lo: int, hi: int) -> list[BaseModel]:
    """Bid(amount=k) for every k from lo to hi."""
    if hi >= len(_BIDS):
        _BIDS.extend(Bid(amount=k) for k in range(len(_BIDS), hi + 1))
    return _BIDS[lo : hi + 1]


def _opens(plant: int, money: int) -> list[Open]:
    """Open(plant, bid) for every bid from the plant's number to `money`."""
    made = _OPENS.setdefault(plant, [])
    if plant + len(made) <= money:
        made.extend(Open(plant=plant, bid=k) for k in range(plant + len(made), money + 1))
    return made[: money - plant + 1]


def _regions(state: State, p: PlayerState) -> list[BaseModel]:
    """Each region not yet picked that leaves the regions in play able to be contiguous."""
    picked = state.regions
    return [
        _region(r)
        for r in game_map(state.config.map).regions
        if r not in picked and completable(state.config, {*picked, r})
    ]


@cache
def _region(name: str) -> PickRegion:
    return PickRegion(region=name)


def _buys(state: State, p: PlayerState) -> list[BaseModel]:
    """Done, then one token of each resource the market holds, the seat affords and stores."""
    moves: list[BaseModel] = [_DONE]
    coal_cap, oil_cap, garbage_cap, uranium_cap, hybrid = storage(tuple(p.plants))
    fuel = p.fuel
    # What overflows each single store with one more token, as excess() counts it: coal and
    # oil spill into the hybrids' shared room, garbage and uranium have nowhere to go.
    coal, oil = fuel["coal"] - coal_cap, fuel["oil"] - oil_cap
    garbage, uranium = fuel["garbage"] - garbage_cap, fuel["uranium"] - uranium_cap
    if garbage > 0 or uranium > 0:
        return moves
    spill = (coal if coal > 0 else 0) + (oil if oil > 0 else 0)
    if spill > hybrid:
        return moves
    held = state.resources
    money = p.money
    coal_price, oil_price, garbage_price, uranium_price = _next_prices()
    if spill + (coal >= 0) <= hybrid and coal_price[held["coal"]] <= money:
        moves.append(_BUY_COAL)
    if spill + (oil >= 0) <= hybrid and oil_price[held["oil"]] <= money:
        moves.append(_BUY_OIL)
    if garbage < 0 and garbage_price[held["garbage"]] <= money:
        moves.append(_BUY_GARBAGE)
    if uranium < 0 and uranium_price[held["uranium"]] <= money:
        moves.append(_BUY_URANIUM)
    return moves


@cache
def _next_prices() -> tuple[tuple[float, ...], ...]:
    """Per resource (RESOURCES order), what the cheapest token costs when the track holds k,
    indexed by k: infinite at 0, so that an empty track is beyond any money."""
    return tuple((inf, *reversed(prices(r))) for r in RESOURCES)


def _builds(state: State, p: PlayerState) -> list[BaseModel]:
    """Done, then each city in play, in map order, that the seat may build in next and afford:
    one connection-cost pass from its network prices them all."""
    moves: list[BaseModel] = [_DONE]
    slots, houses_per_player, limits = _house_rules()
    money = p.money
    mine = p.cities
    # The first slot is the cheapest: most turns end here, with no money to build at all.
    if money < slots[0] or len(mine) >= houses_per_player:
        return moves
    c = state.config
    regions = frozenset(state.regions)
    through = c.routes_through_unused_regions
    links = reach(c.map, regions, through, tuple(mine))
    names, actions = _builds_in_play(c.map, regions, through)
    limit = limits[state.step]
    houses = state.houses
    cheapest = money - slots[0]
    for i, link in enumerate(links):
        # An unreachable city's link (INF) is beyond any money.
        if link > cheapest:
            continue
        city = names[i]
        # The network's own cities link at 0, as a few others do (free connections).
        if not link and city in mine:
            continue
        taken = len(houses.get(city, ()))
        if taken < limit and link + slots[taken] <= money:
            moves.append(actions[i])
    return moves


@cache
def _house_rules() -> tuple[tuple[int, int, int], int, dict[int, int]]:
    """The house slots' costs, the houses a seat has and the houses a city takes per Step."""
    t = tables()
    return t.house_slot_costs, t.houses_per_player, t.max_houses_per_city_by_step


@cache
def _builds_in_play(
    map_name: str, regions: frozenset[str], through_unused: bool
) -> tuple[tuple[str, ...], tuple[Build, ...]]:
    """The cities in play, in the order of `rows`, and the actions building there."""
    names = rows(map_name, regions, through_unused)[0]
    return names, tuple(Build(cities=[city]) for city in names)


def _powers(state: State, p: PlayerState) -> list[BaseModel]:
    """Each set of the seat's plants its pool can run, with every coal/oil split for hybrids:
    smallest sets first, then by the coal the hybrids burn."""
    fuel = p.fuel
    coal, oil, garbage, uranium = fuel["coal"], fuel["oil"], fuel["garbage"], fuel["uranium"]
    moves: list[BaseModel] = []
    for c, o, g, u, hybrid, run, made in _subsets(tuple(p.plants)):
        if g > garbage or u > uranium:
            continue
        if not hybrid:
            if c <= coal and o <= oil:
                moves.append(made[0] or _make(made, 0, run, None))
            continue
        # x coal and hybrid - x oil in the hybrids: c + x <= coal and o + hybrid - x <= oil.
        low = hybrid - oil + o
        high = coal - c
        for x in range(low if low > 0 else 0, (high if high < hybrid else hybrid) + 1):
            moves.append(made[x] or _make(made, x, run, (x, hybrid - x)))
    return moves


_Run = tuple[int, int, int, int, int, tuple[int, ...], list[Power | None]]


@lru_cache(maxsize=4096)
def _subsets(owned: tuple[int, ...]) -> tuple[_Run, ...]:
    """`_run` for each set of these plants, smallest first."""
    return tuple(_run(tuple([owned[i] for i in picks])) for picks in _picks(len(owned)))


@cache
def _picks(n: int) -> tuple[tuple[int, ...], ...]:
    """Every set of places among n plants, smallest first, in `combinations` order."""
    return tuple(picks for k in range(n + 1) for picks in combinations(range(n), k))


# Runs recur across plant sets (a seat that buys a plant keeps its old plants' runs).
@lru_cache(maxsize=16384)
def _run(run: tuple[int, ...]) -> _Run:
    """The coal, oil, garbage and uranium these plants burn outside hybrids, the hybrids' coal
    or oil, the plants, and their power actions by the coal the hybrids burn (each made when
    first legal)."""
    c = o = g = u = hybrid = 0
    for n in run:
        bc, bo, bg, bu, bh = _burn(n)
        c, o, g, u, hybrid = c + bc, o + bo, g + bg, u + bu, hybrid + bh
    return c, o, g, u, hybrid, run, [None] * (hybrid + 1)


def _make(
    made: list[Power | None], x: int, run: tuple[int, ...], mix: tuple[int, int] | None
) -> Power:
    """The power action for `made`'s slot x, kept there."""
    if mix is None:
        action = Power(plants=list(run))
    else:
        action = Power(plants=list(run), hybrid={"coal": mix[0], "oil": mix[1]})
    made[x] = action
    return action


@cache
def _burn(plant: int) -> tuple[int, int, int, int, int]:
    """What running the plant burns: coal, oil, garbage, uranium, then a hybrid's coal or oil."""
    p = plants()[plant]
    coal, oil, garbage, uranium, hybrid = (
        p.resources if p.type == kind else 0 for kind in (*RESOURCES, "hybrid")
    )
    return coal, oil, garbage, uranium, hybrid


def _discards(state: State, p: PlayerState) -> list[BaseModel]:
    """Each plant but the one just bought, with each way of returning exactly what no longer
    fits that leaves the pool storable on the plants kept."""
    fuel = p.fuel
    coal, oil, garbage, uranium = fuel["coal"], fuel["oil"], fuel["garbage"], fuel["uranium"]
    owned = p.plants
    moves: list[BaseModel] = []
    for i, n in enumerate(owned):
        if n == state.new_plant:
            continue
        coal_cap, oil_cap, garbage_cap, uranium_cap, room = storage((*owned[:i], *owned[i + 1 :]))
        over_coal, over_oil = coal - coal_cap, oil - oil_cap
        mixed = (over_coal if over_coal > 0 else 0) + (over_oil if over_oil > 0 else 0) - room
        mixed = mixed if mixed > 0 else 0
        singles = max(0, garbage - garbage_cap), max(0, uranium - uranium_cap)
        # x coal and mixed - x oil go back. The rest fits (excess() == 0) iff neither overflows
        # its own store by more than the hybrids' room: coal - x - coal_cap <= room and
        # oil - (mixed - x) - oil_cap <= room; both overflows together then fit as well, since
        # returning `mixed` tokens is what brings them within the room.
        low = max(0, mixed - oil, over_coal - room)
        high = min(mixed, coal, room - over_oil + mixed)
        for x in range(low, high + 1):
            moves.append(_discard(n, (x, mixed - x, *singles)))
    return moves


@lru_cache(maxsize=4096)
def _discard(plant: int, back: tuple[int, ...]) -> DiscardPlant:
    returned = {r: k for r, k in zip(RESOURCES, back, strict=True) if k}
    return DiscardPlant.model_validate({"plant": plant, "return": returned})


_LISTS: dict[str, Callable[[State, PlayerState], list[BaseModel]]] = {
    "discard_plant": _discards,
    "pick_region": _regions,
    "bid": _bidding,
    "open": _opening,
    "buy": _buys,
    "build": _builds,
    "power": _powers,
}
