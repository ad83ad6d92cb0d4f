"""What a move of Power Grid did, as events in order: the move with the prices paid (public even
when money is hidden), then a new Step or the end of the game."""

from typing import Literal

from engine.core import CHANCE, Event
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
    parse_action,
)
from engine.power_grid.build import build_costs
from engine.power_grid.market import buy_cost
from engine.power_grid.rules import Resource, plants, tables
from engine.power_grid.state import State


class RegionPicked(Event):
    kind: Literal["region_picked"] = "region_picked"
    region: str
    in_play: list[str] | None = None
    """The regions in play, once this pick was the last."""


class AuctionOpened(Event):
    kind: Literal["auction_opened"] = "auction_opened"
    plant: int
    bid: int


class AuctionPassed(Event):
    """No plant for this seat this round."""

    kind: Literal["auction_passed"] = "auction_passed"


class BidRaised(Event):
    kind: Literal["bid_raised"] = "bid_raised"
    plant: int
    bid: int


class BiddingDropped(Event):
    kind: Literal["bidding_dropped"] = "bidding_dropped"
    plant: int


class PlantBought(Event):
    """A plant won at `price`: by its opener when nobody else could bid (`unopposed`), or by
    the last bidder left."""

    kind: Literal["plant_bought"] = "plant_bought"
    seat: int
    plant: int
    price: int
    unopposed: bool
    must_discard: bool
    """The buyer now holds one plant too many."""


class PlantDiscarded(Event):
    kind: Literal["plant_discarded"] = "plant_discarded"
    plant: int
    returned: dict[Resource, int]
    """Tokens that no longer fit, back to the supply."""


class ResourcesBought(Event):
    kind: Literal["resources_bought"] = "resources_bought"
    resources: dict[Resource, int]
    costs: dict[Resource, int]
    """What each resource's tokens cost."""


class CitiesBuilt(Event):
    kind: Literal["cities_built"] = "cities_built"
    cities: list[str]
    connections: int
    """What the connections to them cost."""
    houses: int
    """What the houses in them cost."""


class TurnFinished(Event):
    """A seat done buying resources or building."""

    kind: Literal["turn_finished"] = "turn_finished"
    phase: Literal["resources", "build"]


class CitiesPowered(Event):
    kind: Literal["cities_powered"] = "cities_powered"
    plants: list[int]
    hybrid: dict[Resource, int]
    """The coal and oil mix the hybrid plants burnt, zeros left out."""
    cities: int
    income: int


class StepBegan(Event):
    kind: Literal["step_began"] = "step_began"
    step: int


class GameEnded(Event):
    kind: Literal["game_ended"] = "game_ended"


def happened(before: State, seat: int, action: object, after: State) -> list[Event]:
    """What `action` of `seat` did, in order; `after` is `before` with it applied."""
    if seat == CHANCE:
        # The deck's order is secret, and the market it fills is in the views.
        return []
    out = _move(before, seat, parse_action(action), after)
    if after.step > before.step:
        out.append(StepBegan(step=after.step))
    if after.phase == "over" and before.phase != "over":
        out.append(GameEnded())
    return out


def _move(before: State, seat: int, act: Action, after: State) -> list[Event]:
    match act:
        case PickRegion():
            in_play = list(after.regions) if after.phase != "regions" else None
            return [RegionPicked(region=act.region, in_play=in_play)]
        case Open():
            if after.auction is None:
                # Nobody else was left to bid: the opener bought at once.
                return [_bought(after, seat, act.plant, act.bid, unopposed=True)]
            return [AuctionOpened(plant=act.plant, bid=act.bid)]
        case Pass():
            return [AuctionPassed()]
        case Bid():
            assert before.auction is not None
            return [BidRaised(plant=before.auction.plant, bid=act.amount)]
        case Drop():
            auction = before.auction
            assert auction is not None
            out: list[Event] = [BiddingDropped(plant=auction.plant)]
            if after.auction is None:
                out.append(
                    _bought(after, auction.leader, auction.plant, auction.bid, unopposed=False)
                )
            return out
        case DiscardPlant():
            return [PlantDiscarded(plant=act.plant, returned=act.return_)]
        case Buy():
            costs = {r: buy_cost(before, r, k) or 0 for r, k in act.resources.items()}
            return [ResourcesBought(resources=act.resources, costs=costs)]
        case Build():
            connections, houses = build_costs(before, seat, act.cities)
            return [CitiesBuilt(cities=act.cities, connections=connections, houses=houses)]
        case Done():
            return [TurnFinished(phase=before.phase)]
        case Power():
            return [_powered(before, seat, act)]
    raise ValueError(f"No events for a {type(act).__name__}.")


def _bought(after: State, seat: int, plant: int, price: int, unopposed: bool) -> PlantBought:
    discard = after.discard == seat
    return PlantBought(
        seat=seat, plant=plant, price=price, unopposed=unopposed, must_discard=discard
    )


def _powered(before: State, seat: int, act: Power) -> CitiesPowered:
    # From `before`: the last seat's power starts a new round, which clears the powered counts.
    capacity = sum(plants()[n].cities for n in act.plants)
    cities = min(capacity, len(before.players[seat].cities))
    pay = tables().payment_by_cities_powered
    income = pay[min(cities, len(pay) - 1)]
    hybrid = {r: k for r, k in act.hybrid.items() if k}
    return CitiesPowered(plants=act.plants, hybrid=hybrid, cities=cities, income=income)
