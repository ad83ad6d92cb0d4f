"""A seat's legal moves, built from the rules' conditions instead of trying each candidate.

Each list keeps one order (regions and cities in map order, opens by market then amount, bids
by amount, done then buys in resource order, power runs from the smallest set up), as the random
baseline and the replay benchmarks draw from it by index. Actions are frozen and shared."""

from functools import cache, lru_cache
from itertools import combinations

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
from engine.power_grid.scoring import capacities
from engine.power_grid.setup import completable
from engine.power_grid.state import PlayerState, State

_DONE = parse_action({"type": "done"})
_PASS = parse_action({"type": "pass"})
_DROP = parse_action({"type": "drop"})
_BUYS = {r: Buy(resources={r: 1}) for r in RESOURCES}
_BIDS: list[Bid] = []
_OPENS: dict[int, list[Open]] = {}


def legal_actions(state: State, seat: int) -> list[BaseModel]:
    """Every action the rules accept from `seat`, which is owed one and is not chance."""
    p = state.players[seat]
    if state.discard is not None:
        return _discards(state, p)
    phase = state.phase
    if phase == "auction":
        a = state.auction
        money = p.money
        moves: list[BaseModel] = []
        if a is not None:
            moves += _bids(a.bid + 1, money)
            moves.append(_DROP)
            return moves
        for n in buyable(state):
            if n <= money:
                moves += _opens(n, money)
        if state.round != 1:
            moves.append(_PASS)
        return moves
    if phase == "resources":
        return _buys(state, p)
    if phase == "build":
        return _builds(state, p)
    if phase == "regions":
        return _regions(state)
    return _powers(p)


def _bids(lo: int, hi: int) -> list[Bid]:
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


def _regions(state: State) -> list[BaseModel]:
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
    coal_cap, oil_cap, garbage_cap, uranium_cap, hybrid = _stores(tuple(p.plants))
    fuel = p.fuel
    # What overflows each single store with one more token, as excess() counts it: coal and
    # oil spill into the hybrids' shared room, garbage and uranium have nowhere to go.
    coal, oil = fuel["coal"] - coal_cap, fuel["oil"] - oil_cap
    garbage, uranium = fuel["garbage"] - garbage_cap, fuel["uranium"] - uranium_cap
    spill = (coal if coal > 0 else 0) + (oil if oil > 0 else 0)
    fits = (
        garbage <= 0 and uranium <= 0 and spill + (coal >= 0) <= hybrid,
        garbage <= 0 and uranium <= 0 and spill + (oil >= 0) <= hybrid,
        garbage < 0 and uranium <= 0 and spill <= hybrid,
        garbage <= 0 and uranium < 0 and spill <= hybrid,
    )
    held = state.resources
    money = p.money
    for r, fit in zip(RESOURCES, fits, strict=True):
        if fit:
            left = held[r]
            if left and _next_price(r, left) <= money:
                moves.append(_BUYS[r])
    return moves


@cache
def _next_price(resource: str, left: int) -> int:
    """What the cheapest of `left` tokens on the track costs."""
    track = prices(resource)
    return track[len(track) - left]


@lru_cache(maxsize=4096)
def _stores(owned: tuple[int, ...]) -> tuple[int, int, int, int, int]:
    """What these plants store of each single resource (RESOURCES order), then hybrids'."""
    caps, hybrid = capacities(list(owned))
    return caps["coal"], caps["oil"], caps["garbage"], caps["uranium"], hybrid


def _builds(state: State, p: PlayerState) -> list[BaseModel]:
    """Done, then each city in play, in map order, that the seat may build in next and afford:
    one connection-cost pass from its network prices them all."""
    moves: list[BaseModel] = [_DONE]
    t = tables()
    slots = t.house_slot_costs
    money = p.money
    # The first slot is the cheapest: most turns end here, with no money to build at all.
    if money < slots[0] or len(p.cities) >= t.houses_per_player:
        return moves
    c = state.config
    mine = p.cities
    regions = frozenset(state.regions)
    through = c.routes_through_unused_regions
    links = reach(c.map, regions, through, tuple(mine))
    limit = t.max_houses_per_city_by_step[state.step]
    houses = state.houses
    cheapest = money - slots[0]
    for (city, action), link in zip(_builds_in_play(c.map, regions, through), links, strict=True):
        # An unreachable city's link (INF) is beyond any money.
        if link > cheapest or city in mine:
            continue
        taken = len(houses.get(city, ()))
        if taken < limit and link + slots[taken] <= money:
            moves.append(action)
    return moves


@cache
def _builds_in_play(
    map_name: str, regions: frozenset[str], through_unused: bool
) -> tuple[tuple[str, Build], ...]:
    """Each city in play, in the order of `rows`, with the action building there."""
    names = rows(map_name, regions, through_unused)[0]
    return tuple((city, Build(cities=[city])) for city in names)


def _powers(p: PlayerState) -> list[BaseModel]:
    """Each set of the seat's plants its pool can run, with every coal/oil split for hybrids."""
    fuel = p.fuel
    coal, oil, garbage, uranium = fuel["coal"], fuel["oil"], fuel["garbage"], fuel["uranium"]
    owned = tuple(p.plants)
    return [
        _power(owned, picks, mix)
        for picks, mix, (c, o, g, u) in _shapes(tuple(map(_burn, owned)))
        if c <= coal and o <= oil and g <= garbage and u <= uranium
    ]


@lru_cache(maxsize=4096)
def _shapes(
    burns: tuple[tuple[int, int, int, int, int], ...],
) -> list[tuple[tuple[int, ...], tuple[int, int] | None, tuple[int, int, int, int]]]:
    """Every power action over plants that burn these (`_burn`), smallest sets first and then
    by coal: the plants' places, the coal/oil mix (None without hybrids) and the tokens burnt
    per resource. Plants share their burns, so these repeat across tables."""
    out = []
    for k in range(len(burns) + 1):
        for picks in combinations(range(len(burns)), k):
            c = o = g = u = hybrid = 0
            for i in picks:
                bc, bo, bg, bu, bh = burns[i]
                c, o, g, u, hybrid = c + bc, o + bo, g + bg, u + bu, hybrid + bh
            if not hybrid:
                out.append((picks, None, (c, o, g, u)))
            for coal in range(hybrid + 1) if hybrid else ():
                oil = hybrid - coal
                out.append((picks, (coal, oil), (c + coal, o + oil, g, u)))
    return out


@cache
def _burn(plant: int) -> tuple[int, int, int, int, int]:
    """What running the plant burns: coal, oil, garbage, uranium, then a hybrid's coal or oil."""
    p = plants()[plant]
    coal, oil, garbage, uranium, hybrid = (
        p.resources if p.type == kind else 0 for kind in (*RESOURCES, "hybrid")
    )
    return coal, oil, garbage, uranium, hybrid


@lru_cache(maxsize=4096)
def _power(owned: tuple[int, ...], picks: tuple[int, ...], mix: tuple[int, int] | None) -> Power:
    run = [owned[i] for i in picks]
    if mix is None:
        return Power(plants=run)
    return Power(plants=run, hybrid={"coal": mix[0], "oil": mix[1]})


def _discards(state: State, p: PlayerState) -> list[BaseModel]:
    """Each plant but the one just bought, with each way of returning exactly what no longer
    fits that leaves the pool storable on the plants kept."""
    coal, oil, garbage, uranium = (p.fuel[r] for r in RESOURCES)
    moves: list[BaseModel] = []
    for n in p.plants:
        if n == state.new_plant:
            continue
        kept = tuple(k for k in p.plants if k != n)
        coal_cap, oil_cap, garbage_cap, uranium_cap, room = _stores(kept)
        over_coal, over_oil = max(0, coal - coal_cap), max(0, oil - oil_cap)
        mixed = max(0, over_coal + over_oil - room)
        singles = max(0, garbage - garbage_cap), max(0, uranium - uranium_cap)
        # x coal and mixed - x oil go back. The rest fits (excess() == 0) iff neither overflows
        # its own store by more than the hybrids' room: coal - x - coal_cap <= room and
        # oil - (mixed - x) - oil_cap <= room; both overflows together then fit as well, since
        # returning `mixed` tokens is what brings them within the room.
        low = max(0, mixed - oil, coal - coal_cap - room)
        high = min(mixed, coal, room + oil_cap - oil + mixed)
        moves += [_discard(n, (x, mixed - x, *singles)) for x in range(low, high + 1)]
    return moves


@lru_cache(maxsize=4096)
def _discard(plant: int, back: tuple[int, ...]) -> DiscardPlant:
    returned = {r: k for r, k in zip(RESOURCES, back, strict=True) if k}
    return DiscardPlant.model_validate({"plant": plant, "return": returned})
