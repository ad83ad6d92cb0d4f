"""Power Grid game state: plain dataclasses, copied on write, serialised through pydantic.

The rules fork the state (`State.fork`) before each action and change a seat only through
`State.own` (its fresh copy). They never change in place a player's plants, fuel or cities, the
regions, the houses (the map of cities or a city's list), the player orders, the plant market,
the deck, the resource tracks and supply, the plants removed or the auction: they assign new
ones, so a fork shares those with the state it came from."""

from dataclasses import dataclass
from typing import Literal

from pydantic import TypeAdapter

from engine.power_grid.config import Config

Phase = Literal["setup", "regions", "auction", "resources", "build", "bureaucracy", "over"]


@dataclass(slots=True)
class PlayerState:
    """One seat: money, plants (ascending), its resource pool and its cities in building order."""

    money: int
    plants: list[int]
    fuel: dict[str, int]
    cities: list[str]
    bought: bool = False
    """Bought a plant this round."""
    passed: bool = False
    """Passed in this round's auction phase."""
    powered: int | None = None
    """Cities powered in this round's bureaucracy; None until the seat has powered."""

    def copy(self) -> "PlayerState":
        return PlayerState(
            self.money,
            self.plants.copy(),
            self.fuel.copy(),
            self.cities.copy(),
            self.bought,
            self.passed,
            self.powered,
        )

    def fork(self) -> "PlayerState":
        """A copy sharing the plants, fuel and cities (see the module docstring)."""
        return PlayerState(
            self.money, self.plants, self.fuel, self.cities, self.bought, self.passed, self.powered
        )


@dataclass(slots=True)
class Auction:
    plant: int
    bid: int
    leader: int
    bidders: list[int]
    """Seats still in this auction (the leader included)."""
    turn: int
    """The seat whose bidding turn it is."""

    def copy(self) -> "Auction":
        return Auction(self.plant, self.bid, self.leader, self.bidders.copy(), self.turn)


@dataclass(slots=True)
class State:
    config: Config
    phase: Phase
    round: int
    step: int
    regions: list[str]
    """Regions in play (during the picks: those picked so far)."""
    first_order: list[int]
    """The chance `turn_order`: round 1's player order and the region-pick order."""
    order: list[int]
    market: list[int]
    """The plant market, ascending; the Step 3 card (99) sorts last."""
    deck: list[int]
    """Top first. Secret: never in a view."""
    removed_setup: list[int]
    """Secret: only the count is shown."""
    removed_in_play: list[int]
    resources: dict[str, int]
    """Tokens on each resource track."""
    supply: dict[str, int]
    houses: dict[str, list[int]]
    """Seats per city, in slot order."""
    players: list[PlayerState]
    turn: int = 0
    """Resources and build: how many seats of the reverse order have finished."""
    auction: Auction | None = None
    discard: int | None = None
    """The seat that owes `discard_plant`."""
    new_plant: int | None = None
    """The plant the discarding seat just bought (it cannot discard that one)."""
    shuffle_owed: bool = False
    step3_drawn: bool = False
    step3_form: bool = False
    """The market is in its Step 3 form (all actual, at most 6)."""
    step3_next: Literal["bureaucracy", "round"] | None = None
    """When a pending Step 3 begins: at this round's bureaucracy or at the next round."""

    def copy(self) -> "State":
        return State(
            config=self.config,
            phase=self.phase,
            round=self.round,
            step=self.step,
            regions=self.regions.copy(),
            first_order=self.first_order.copy(),
            order=self.order.copy(),
            market=self.market.copy(),
            deck=self.deck.copy(),
            removed_setup=self.removed_setup.copy(),
            removed_in_play=self.removed_in_play.copy(),
            resources=self.resources.copy(),
            supply=self.supply.copy(),
            houses={c: s.copy() for c, s in self.houses.items()},
            players=[p.copy() for p in self.players],
            turn=self.turn,
            auction=self.auction.copy() if self.auction else None,
            discard=self.discard,
            new_plant=self.new_plant,
            shuffle_owed=self.shuffle_owed,
            step3_drawn=self.step3_drawn,
            step3_form=self.step3_form,
            step3_next=self.step3_next,
        )

    def own(self, seat: int) -> PlayerState:
        """The seat's player, replaced by a copy this state alone holds: what an action changes."""
        p = self.players[seat] = self.players[seat].fork()
        return p

    def fork(self) -> "State":
        """The copy an action changes: like `copy`, but sharing what the rules never change in
        place (see the module docstring)."""
        return State(
            self.config,
            self.phase,
            self.round,
            self.step,
            self.regions,
            self.first_order,
            self.order,
            self.market,
            self.deck,
            self.removed_setup,
            self.removed_in_play,
            self.resources,
            self.supply,
            self.houses,
            self.players.copy(),
            self.turn,
            self.auction,
            self.discard,
            self.new_plant,
            self.shuffle_owed,
            self.step3_drawn,
            self.step3_form,
            self.step3_next,
        )


_STATE = TypeAdapter(State)


def dump_state(state: State) -> str:
    return _STATE.dump_json(state).decode()


def load_state(text: str) -> State:
    return _STATE.validate_json(text)
