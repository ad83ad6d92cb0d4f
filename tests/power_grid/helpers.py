"""Shared helpers for the Power Grid tests: scripted setups, edits and refusal checks."""

from random import Random
from typing import Any

from engine import registry
from engine.core import CHANCE, IllegalAction
from engine.power_grid.baseline import random_action
from engine.power_grid.market import buyable
from engine.power_grid.rules import RESOURCES, deck_plants, player_count
from engine.power_grid.state import State

G = registry.get("power_grid")

GERMANY_4 = ("green", "brown", "yellow", "red")
GERMANY_3 = ("green", "brown", "yellow")


def seat_of(state: State) -> int:
    """The one seat (or chance) owed an action; in bureaucracy the lowest seat not yet powered."""
    return min(G.to_act(state))


def random_game(config: dict[str, Any], seed: int, check=None) -> tuple[State, list]:
    """Play a seeded random game; `check(state, log)` runs after every action if given."""
    rng = Random(seed)
    state = G.new(G.Config(**config), seed)
    log: list[tuple[int, dict[str, Any]]] = []
    while not G.is_over(state):
        seat = seat_of(state)
        action = random_action(state, seat, rng)
        state = G.apply(state, seat, action)
        log.append((seat, action))
        if check is not None:
            check(state, log)
    return state, log


REGIONS = {
    2: GERMANY_3,
    3: GERMANY_3,
    4: GERMANY_4,
    5: (*GERMANY_4, "cyan"),
    6: (*GERMANY_4, "cyan"),
}


def start(
    players: int = 4,
    order: list[int] | None = None,
    deck: list[int] | None = None,
    removed: list[int] | None = None,
    **config: Any,
) -> State:
    """Germany with fixed regions after setup: by default the deck ascending (the highest plants
    removed) and turn order 0, 1, 2, …"""
    options = {"players": players, "map": "germany", "regions": list(REGIONS[players]), **config}
    state = G.new(G.Config(**options), 0)
    cards = deck_plants()
    k = player_count(players).plants_removed_original
    if removed is None:
        removed = cards[len(cards) - k :] if k else []
    if deck is None:
        deck = [c for c in cards if c not in removed]
    state = G.apply(state, CHANCE, {"type": "shuffle", "deck": deck, "removed": removed})
    return G.apply(state, CHANCE, {"type": "turn_order", "order": order or list(range(players))})


def act(state: State, seat: int, type: str, **fields: Any) -> State:
    return G.apply(state, seat, {"type": type, **fields})


def refused(state: State, seat: int, action: dict[str, Any], words: str) -> str:
    """Assert the action is refused with a reason containing `words`, changing nothing."""
    before = G.dump_state(state)
    try:
        G.apply(state, seat, action)
    except IllegalAction as exc:
        assert words.lower() in exc.reason.lower(), exc.reason
        assert G.dump_state(state) == before
        return exc.reason
    raise AssertionError(f"{action} was accepted")


def buy_uncontested(state: State, seat: int, plant: int, price: int | None = None) -> State:
    """The chooser opens `plant` and everyone else drops in turn."""
    state = act(state, seat, "open", plant=plant, bid=plant if price is None else price)
    while state.auction is not None:
        state = act(state, state.auction.turn, "drop")
    return state


def edit(state: State, seat: int, **fields: Any) -> State:
    """A copy with one seat's fields replaced; `cities` also places the houses."""
    state = state.copy()
    p = state.players[seat]
    for name, value in fields.items():
        if name == "cities":
            for city in value:
                state.houses.setdefault(city, []).append(seat)
        if name == "fuel":
            value = {**dict.fromkeys(RESOURCES, 0), **value}
        setattr(p, name, list(value) if isinstance(value, tuple) else value)
    return state


def finish_phase(state: State) -> State:
    """Everyone owed a buy or build turn says done."""
    phase = state.phase
    while state.phase == phase and state.phase in ("resources", "build"):
        state = act(state, min(G.to_act(state)), "done")
    return state


def play_round1(state: State) -> State:
    """Round 1 with every chooser buying the lowest plant at face value, nothing else done."""
    while state.phase == "auction":
        seat = min(G.to_act(state))
        state = buy_uncontested(state, seat, buyable(state)[0])
    state = finish_phase(finish_phase(state))
    return power_all(state)


def power_all(state: State) -> State:
    """Every seat still owed powers nothing."""
    while state.phase == "bureaucracy":
        state = act(state, min(G.to_act(state)), "power", plants=[])
    return state
