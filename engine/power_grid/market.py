"""The plant market and the resource tracks: draws, removals, prices and refills (in place)."""

from bisect import insort
from functools import cache

from engine.power_grid.rules import RESOURCES, STEP3, player_count, tables
from engine.power_grid.state import State


def target_size(state: State) -> int:
    return 6 if state.step3_form else 8


def split(state: State) -> tuple[list[int], list[int]]:
    """The actual and the future market (the Step 3 form has no future market)."""
    if state.step3_form:
        return state.market.copy(), []
    return state.market[:4], state.market[4:]


def buyable(state: State) -> list[int]:
    """Plants a chooser may open an auction on: the actual market without the Step 3 card."""
    # `split`'s actual market, without its copies: this runs for every opening and its list.
    actual = state.market if state.step3_form else state.market[:4]
    return [p for p in actual if p != STEP3]


def max_cities(state: State) -> int:
    top = 0
    for p in state.players:
        cities = len(p.cities)
        if cities > top:
            top = cities
    return top


def without(market: list[int], plant: int) -> list[int]:
    """A new market without `plant`: a fork shares its market (see `State.fork`)."""
    out = market.copy()
    out.remove(plant)
    return out


def _lowest(market: list[int]) -> int | None:
    """The market's first plant, the Step 3 card aside."""
    for n in market:
        if n != STEP3:
            return n
    return None


def remove_lowest(state: State) -> None:
    """The lowest plant leaves the game (never the Step 3 card)."""
    lowest = _lowest(state.market)
    if lowest is not None:
        state.market = without(state.market, lowest)
        state.removed_in_play = [*state.removed_in_play, lowest]


def _step3_drawn(state: State) -> None:
    state.step3_drawn = True
    state.shuffle_owed = True
    if state.phase == "auction":
        # It waits at the end of the market, unbuyable, until the auction phase ends.
        state.market = [*state.market, STEP3]
        return
    remove_lowest(state)
    state.step3_form = True
    if state.phase == "build" and state.config.step3_refill == "rules":
        state.step3_next = "bureaucracy"
    else:
        state.step3_next = "round"


def settle(state: State) -> None:
    """Remove plants at or below the largest city count and fill the market from the deck."""
    top = max_cities(state)
    while True:
        lowest = _lowest(state.market)
        if lowest is not None and lowest <= top:
            state.market = without(state.market, lowest)
            state.removed_in_play = [*state.removed_in_play, lowest]
            continue
        # Draws wait for the shuffle owed after the Step 3 card; removals above do not.
        if len(state.market) >= target_size(state) or not state.deck or state.shuffle_owed:
            return
        card, *rest = state.deck
        state.deck = rest
        if card == STEP3:
            _step3_drawn(state)
        elif card <= top:
            state.removed_in_play = [*state.removed_in_play, card]
        else:
            market = state.market = state.market.copy()
            insort(market, card)


@cache
def prices(resource: str) -> tuple[int, ...]:
    """One price per token slot of the track, cheapest first."""
    return tables().resource_market[resource].prices  # type: ignore[index]


def buy_cost(state: State, resource: str, k: int) -> int | None:
    """What the k cheapest tokens on the track cost, or None if it holds fewer."""
    track = prices(resource)
    n = state.resources[resource]
    if k > n:
        return None
    start = len(track) - n
    return sum(track[start : start + k])


def refill(state: State) -> None:
    """Bureaucracy: move tokens from the supply to the tracks by the refill table."""
    table = player_count(state.config.players).resupply[f"step{state.step}"]  # type: ignore[index]
    tracks = state.resources = state.resources.copy()
    supply = state.supply = state.supply.copy()
    for r in RESOURCES:
        room = len(prices(r)) - tracks[r]
        k = min(table[r], supply[r], room)  # type: ignore[index]
        tracks[r] += k
        supply[r] -= k
