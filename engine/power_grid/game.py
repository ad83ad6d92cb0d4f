"""Power Grid as a game object: the engine contract over the phase modules."""

from collections.abc import Callable
from random import Random
from typing import Any

from pydantic import BaseModel

from engine.core import CHANCE, Dynamics, Event, IllegalAction, Logged, Outcome, Progress, Standing
from engine.power_grid import auction, build, bureaucracy, events, legal, secrecy, setup, views
from engine.power_grid.actions import (
    Action,
    Bid,
    Build,
    Buy,
    DiscardPlant,
    Done,
    Drop,
    Open,
    Pass,
    PickRegion,
    Power,
    Shuffle,
    TurnOrder,
    parse_action,
)
from engine.power_grid.config import Config
from engine.power_grid.outcome import standings
from engine.power_grid.rules import deck_plants, player_count
from engine.power_grid.state import State
from engine.power_grid.state import dump_state as _dump
from engine.power_grid.state import load_state as _load
from engine.power_grid.turns import chooser, to_act

_NAMES = {
    "setup": "the setup",
    "regions": "a region pick",
    "auction": "the auction",
    "resources": "resource buying",
    "build": "building",
    "bureaucracy": "powering",
    "over": "the end",
}


_DISCARDING = ("discard_plant",)
_PICKING = ("pick_region",)
_BIDDING = ("bid", "drop")
_OPENING = ("open", "pass")
_BUYING = ("buy", "done")
_BUILDING = ("build", "done")
_POWERING = ("power",)


def expected(state: State, seat: int) -> tuple[str, ...]:
    """The action types the game waits for from `seat` now (it is owed an action)."""
    if seat == CHANCE:
        return ("turn_order",) if state.phase == "setup" and state.deck else ("shuffle",)
    if state.discard is not None:
        return _DISCARDING
    if state.phase == "regions":
        return _PICKING
    if state.phase == "auction":
        return _BIDDING if state.auction else _OPENING
    if state.phase == "resources":
        return _BUYING
    if state.phase == "build":
        return _BUILDING
    return _POWERING


def owed(state: State, seat: int) -> tuple[str, ...] | None:
    """`expected` if `seat` (at the table, not chance) is in `to_act`, else None: one pass over
    the state for what every move and every legal list asks first."""
    phase = state.phase
    if phase == "over" or phase == "setup" or state.shuffle_owed:
        return None
    if phase == "bureaucracy":
        if state.players[seat].powered is not None:
            return None
        return _DISCARDING if state.discard is not None else _POWERING
    if state.discard is not None:
        return _DISCARDING if state.discard == seat else None
    if phase == "auction":
        a = state.auction
        if a is not None:
            return _BIDDING if a.turn == seat else None
        return _OPENING if chooser(state) == seat else None
    if phase == "resources" or phase == "build":
        turn = state.turn
        if turn >= len(state.players) or state.order[-1 - turn] != seat:
            return None
        return _BUYING if phase == "resources" else _BUILDING
    # The region picks.
    return _PICKING if state.first_order[len(state.regions) % len(state.players)] == seat else None


def waiting_for(state: State) -> str:
    """What a seat owed a move must do now, in words: the refusal of a move of another kind (a
    slash command or a stale panel for an earlier part of the round)."""
    if state.discard is not None:
        return "First discard a plant: you have one more than you may keep."
    if state.phase == "regions":
        return "The players are picking the regions in play: pick a region."
    if state.phase == "auction" and state.auction is None:
        return "No auction is open: open one with a plant and a bid, or pass."
    if state.phase == "auction":
        a = state.auction
        assert a is not None
        return f"Plant {a.plant} is on auction at {a.bid}: bid more, or drop out."
    if state.phase == "resources":
        return "It is time to buy resources: buy some, or say you are done."
    if state.phase == "build":
        return "It is time to build: build in cities, or say you are done."
    return "It is time to power your cities: say which plants run."


class PowerGrid:
    """The rules of Power Grid (original edition, WBC house rules) behind the engine contract."""

    name = "power_grid"
    title = "Power Grid"
    dynamics: Dynamics = "sequential"
    summary = "2–6 players: auction power plants, buy fuel, build a network, power the most cities"
    Config = Config

    def new(self, config: Config, seed: int) -> State:
        """The table before setup's chance actions; the seed is unused (chance is in the log)."""
        return setup.new_state(config)

    def to_act(self, state: State) -> set[int]:
        return to_act(state)

    def sample_chance(self, state: State, rng: Random) -> Shuffle | TurnOrder:
        if state.phase == "setup" and not state.deck:
            cards = deck_plants()
            rng.shuffle(cards)
            k = player_count(state.config.players).plants_removed_original
            return Shuffle(deck=cards[k:], removed=cards[:k])
        if state.phase == "setup":
            order = list(range(state.config.players))
            rng.shuffle(order)
            return TurnOrder(order=order)
        deck = state.deck.copy()
        rng.shuffle(deck)
        return Shuffle(deck=deck)

    def apply(self, state: State, seat: int, action: Action | dict[str, Any]) -> State:
        if state.phase == "over":
            raise IllegalAction("The game is over.")
        # type(): a bool is an int, but True is no seat.
        if type(seat) is not int or (seat != CHANCE and not 0 <= seat < len(state.players)):
            raise IllegalAction(f"Seat {seat!r} is not at this table.")
        act = parse_action(action)
        # owed() answers for a seat without making to_act's set; chance and refusals need it.
        kinds = None if seat == CHANCE else owed(state, seat)
        if kinds is None:
            acting = to_act(state)
            if seat not in acting:
                if CHANCE in acting:
                    raise IllegalAction("Wait: the cards must be shuffled or dealt first.")
                if seat == CHANCE:
                    raise IllegalAction("No shuffle or draw is owed now.")
                raise IllegalAction(f"It is not seat {seat}'s turn.")
            kinds = expected(state, seat)
        if act.type not in kinds:
            raise IllegalAction(waiting_for(state))
        new = state.fork()
        _RULES[type(act)](new, seat, act)
        return new

    def happened(
        self, before: State, seat: int, action: Action | dict[str, Any], after: State
    ) -> list[Event]:
        return events.happened(before, seat, action, after)

    def reversible(self, step: Logged) -> bool:
        """A buy, and a build that drew no plant from the deck: the seat stays on turn and
        nothing hidden or left to chance came of it. Everything else ends a turn, bids against
        others, or (powering, a pick) is seen by everyone at once."""
        kind = step.action.get("type")
        return kind == "buy" or (kind == "build" and step.after.deck == step.before.deck)

    def legal_actions(self, state: State, seat: int) -> list[BaseModel]:
        """Every legal action; for buy and build, done plus each legal one-token or one-city
        step; none for chance (use sample_chance)."""
        if type(seat) is not int or not 0 <= seat < len(state.players):
            return []
        kinds = owed(state, seat)
        return [] if kinds is None else legal.legal_actions(state, seat, kinds)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return views.view(state, seat)

    def is_over(self, state: State) -> bool:
        return state.phase == "over"

    def outcome(self, state: State) -> list[Outcome]:
        """Standings per seat (final once over): cities powered, money, cities, highest plant."""
        return standings(state)

    def queue(self, state: State) -> list[int] | None:
        return _queue(state)

    def progress(self, state: State) -> Progress:
        # Regions are picked before the first round: "round 0" means nothing to a player.
        when = f"round {state.round}" if state.round else "before round 1"
        return Progress(state.round, state.phase, f"{when}, {_NAMES[state.phase]}")

    def standings(self, state: State) -> list[Standing]:
        return secrecy.running_standings(state)

    def redact(self, step: Logged, now: State, viewer: int | None) -> dict[str, Any]:
        return secrecy.redact(step, viewer)

    def hidden(self, config: Config) -> list[str]:
        return secrecy.hidden(config)

    def dump_state(self, state: State) -> str:
        return _dump(state)

    def load_state(self, text: str) -> State:
        return _load(text)

    def parse_action(self, data: dict[str, Any]) -> Action:
        return parse_action(data)


def _queue(state: State) -> list[int] | None:
    """Who moves next, in order, as far as the rules fix it: the region picks left; the auction
    (`_bidding`); the rest of resource buying then all of building, or the rest of building, in
    reverse player order. None while chance deals or everyone powers at once."""
    if state.phase in ("setup", "bureaucracy", "over") or state.shuffle_owed:
        return None
    if state.discard is not None:
        return [state.discard]
    n = len(state.players)
    if state.phase == "regions":
        picked = len(state.regions)
        left = player_count(state.config.players).regions_in_play - picked
        return [state.first_order[(picked + i) % n] for i in range(min(left, n))]
    if state.phase == "auction":
        return _bidding(state)
    rest = [state.order[-1 - t] for t in range(state.turn, n)]
    return rest + state.order[::-1] if state.phase == "resources" else rest


def _bidding(state: State) -> list[int]:
    """An open auction's bidders in bidding order from the one to bid, but its leader (who wins
    without bidding again if the others drop). Between auctions the chooser; when bids go in
    player order, every seat yet to buy or pass, in player order: the chooser's pass and the
    bidding on the plant they open reach them in that order alike."""
    a = state.auction
    if a is not None:
        seats = [a.turn]
        while len(seats) < len(a.bidders) - 1:
            seats.append(auction.next_bidder(state, seats[-1], a.bidders))
        return seats
    first = chooser(state)
    if first is None:
        return []
    if state.config.bid_order != "turn":
        return [first]
    return [s for s in state.order if not state.players[s].bought and not state.players[s].passed]


_RULES: dict[type[BaseModel], Callable[[State, int, Any], None]] = {
    Shuffle: lambda state, seat, act: setup.shuffle(state, act),
    TurnOrder: lambda state, seat, act: setup.turn_order(state, act),
    PickRegion: lambda state, seat, act: setup.pick_region(state, act),
    Open: auction.open_auction,
    Pass: lambda state, seat, act: auction.pass_turn(state, seat),
    Bid: auction.bid,
    Drop: lambda state, seat, act: auction.drop(state, seat),
    DiscardPlant: auction.discard_plant,
    Buy: build.buy,
    Build: build.build,
    Done: lambda state, seat, act: build.done(state),
    Power: bureaucracy.power,
}


GAME = PowerGrid()
