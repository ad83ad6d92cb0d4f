"""Who acts now: chance, the chooser or bidder, the seat in (reverse) player order, or everyone."""

from engine.core import CHANCE
from engine.power_grid.state import State


def chooser(state: State) -> int | None:
    """The first seat in player order that has neither bought nor passed this round."""
    players = state.players
    for s in state.order:
        p = players[s]
        if not p.bought and not p.passed:
            return s
    return None


def current_seat(state: State) -> int | None:
    """The one seat owed an action outside chance and bureaucracy, if any."""
    if state.discard is not None:
        return state.discard
    if state.phase == "regions":
        return state.first_order[len(state.regions) % len(state.players)]
    if state.phase == "auction":
        return state.auction.turn if state.auction else chooser(state)
    if state.phase in ("resources", "build") and state.turn < len(state.players):
        return state.order[-1 - state.turn]
    return None


def to_act(state: State) -> set[int]:
    if state.phase == "over":
        return set()
    if state.phase == "setup" or state.shuffle_owed:
        return {CHANCE}
    if state.phase == "bureaucracy":
        return {s for s, p in enumerate(state.players) if p.powered is None}
    seat = current_seat(state)
    return set() if seat is None else {seat}


def player_order(state: State) -> list[int]:
    """Most cities first, ties broken by the highest plant (then seat, for a total order)."""
    keys = [
        (-len(p.cities), -max(p.plants) if p.plants else 0, s) for s, p in enumerate(state.players)
    ]
    return [key[2] for key in sorted(keys)]
