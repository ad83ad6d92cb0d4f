"""Phase 5: powering cities and income, then the resource refill and the plant-market update."""

from engine.core import IllegalAction
from engine.power_grid.actions import Power
from engine.power_grid.market import refill, remove_lowest, settle
from engine.power_grid.rules import RESOURCES, plants, tables
from engine.power_grid.scoring import fuel_need
from engine.power_grid.setup import start_round
from engine.power_grid.state import State


def power(state: State, seat: int, action: Power) -> None:
    p = state.own(seat)
    run = action.plants
    if len(set(run)) != len(run):
        raise IllegalAction("A plant can run only once a round.")
    for n in run:
        if n not in p.plants:
            raise IllegalAction(f"You do not own plant {n}.")
    need, hybrid = fuel_need(run)
    mix = {"coal": action.hybrid.get("coal", 0), "oil": action.hybrid.get("oil", 0)}
    if hybrid == 0 and any(mix.values()):
        raise IllegalAction("A coal/oil mix is only for hybrid plants, and none of these is one.")
    if hybrid and sum(mix.values()) != hybrid:
        raise IllegalAction(
            f"Your hybrid plants burn {hybrid} coal and oil in all: say how many of each."
        )
    burn = {r: need[r] + mix.get(r, 0) for r in RESOURCES}
    for r in RESOURCES:
        if burn[r] > p.fuel[r]:
            raise IllegalAction(f"You need {burn[r]} {r} and have {p.fuel[r]}.")
    capacity = sum(plants()[n].cities for n in run)
    p.powered = min(capacity, len(p.cities))
    pay = tables().payment_by_cities_powered
    p.money += pay[min(p.powered, len(pay) - 1)]
    p.fuel = {r: k - burn[r] for r, k in p.fuel.items()}
    for r in RESOURCES:
        state.supply[r] += burn[r]
    if all(q.powered is not None for q in state.players):
        _end_round(state)


def _end_round(state: State) -> None:
    refill(state)
    if state.step3_form:
        remove_lowest(state)
    elif state.market:
        # Steps 1 and 2: the highest plant goes under the deck.
        state.deck.append(state.market.pop())
    settle(state)
    start_round(state)
