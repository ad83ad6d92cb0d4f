"""What a move did, as the engine reports it: auctions won at a price, resources and builds with
what they cost, power and income, a new Step and the end of the game."""

from random import Random
from typing import Any

from engine.core import CHANCE, Event
from engine.power_grid.events import (
    AuctionOpened,
    BiddingDropped,
    BidRaised,
    CitiesBuilt,
    CitiesPowered,
    GameEnded,
    PlantBought,
    ResourcesBought,
    StepBegan,
    TurnFinished,
)
from engine.power_grid.market import buyable
from engine.power_grid.rules import game_map
from engine.power_grid.state import State
from tests.power_grid.helpers import G, act, buy_uncontested, edit, finish_phase, start


def happened(state: State, seat: int, type: str, **fields: Any) -> tuple[list[Event], State]:
    action = {"type": type, **fields}
    after = G.apply(state, seat, action)
    return G.happened(state, seat, action, after), after


def bought() -> State:
    """Three seats, each with the cheapest plant at face value: seat 0 plant 3 (oil), seat 1
    plant 4 (coal), seat 2 plant 5 (hybrid); resources next, seat 0 first."""
    state = start(3)
    while state.phase == "auction":
        state = buy_uncontested(state, min(G.to_act(state)), buyable(state)[0])
    return state


def test_an_auction_won_at_a_price():
    state = start(3)
    events, state = happened(state, 0, "open", plant=4, bid=5)
    assert events == [AuctionOpened(plant=4, bid=5)]
    events, state = happened(state, 1, "bid", amount=6)
    assert events == [BidRaised(plant=4, bid=6)]
    events, state = happened(state, 2, "drop")
    assert events == [BiddingDropped(plant=4)]
    money = state.players[1].money
    events, state = happened(state, 0, "drop")
    assert events == [
        BiddingDropped(plant=4),
        PlantBought(seat=1, plant=4, price=6, unopposed=False, must_discard=False),
    ]
    assert state.players[1].money == money - 6


def test_the_last_chooser_buys_unopposed():
    state = buy_uncontested(buy_uncontested(start(3), 0, 4), 1, 3)
    events, _ = happened(state, 2, "open", plant=5, bid=7)
    assert events == [PlantBought(seat=2, plant=5, price=7, unopposed=True, must_discard=False)]


def test_resources_bought_and_what_each_cost():
    state = bought()
    events, state = happened(state, 0, "buy", resources={"oil": 2})
    assert events == [ResourcesBought(resources={"oil": 2}, costs={"oil": 6})]
    events, state = happened(state, 0, "done")
    assert events == [TurnFinished(phase="resources")]
    state = act(state, 1, "done")
    money = state.players[2].money
    events, state = happened(state, 2, "buy", resources={"coal": 1, "oil": 1})
    assert events == [ResourcesBought(resources={"coal": 1, "oil": 1}, costs={"coal": 1, "oil": 3})]
    assert state.players[2].money == money - 4


def test_a_build_with_its_connection_and_house_costs():
    state = finish_phase(bought())
    money = state.players[0].money
    events, state = happened(state, 0, "build", cities=["Kiel", "Flensburg"])
    assert events == [CitiesBuilt(cities=["Kiel", "Flensburg"], connections=4, houses=20)]
    assert state.players[0].money == money - 24


def test_power_and_income():
    state = act(bought(), 0, "buy", resources={"oil": 2})
    state = act(finish_phase(state), 0, "build", cities=["Kiel", "Flensburg"])
    state = finish_phase(state)
    money = state.players[0].money
    events, state = happened(state, 0, "power", plants=[3])
    assert events == [CitiesPowered(plants=[3], hybrid={}, cities=1, income=22)]
    assert state.players[0].money == money + 22


def test_a_new_step_and_the_end_of_the_game():
    state = finish_phase(bought())
    state = act(state, 0, "done")
    state = act(state, 1, "done")
    cities = [c.name for c in game_map("germany").cities if c.region in state.regions]
    events, _ = happened(edit(state, 2, cities=cities[:7]), 2, "done")
    assert events == [TurnFinished(phase="build"), StepBegan(step=2)]
    events, _ = happened(edit(state, 2, cities=cities[:17]), 2, "done")
    assert events == [TurnFinished(phase="build"), GameEnded()]


def test_chance_reports_nothing():
    state = G.new(G.Config(players=3), 0)
    shuffle = G.sample_chance(state, Random(0))
    assert G.happened(state, CHANCE, shuffle, G.apply(state, CHANCE, shuffle)) == []
