"""Phase 5: powering cities and income, then the resource refill and the plant-market update."""

from functools import lru_cache

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
    need, hybrid, capacity = _running(tuple(run))
    coal, oil = action.hybrid.get("coal", 0), action.hybrid.get("oil", 0)
    if hybrid == 0 and (coal or oil):
        raise IllegalAction("A coal/oil mix is only for hybrid plants, and none of these is one.")
    if hybrid and coal + oil != hybrid:
        raise IllegalAction(
            f"Your hybrid plants burn {hybrid} coal and oil in all: say how many of each."
        )
    burn = {"coal": need["coal"] + coal, "oil": need["oil"] + oil}
    burn["garbage"], burn["uranium"] = need["garbage"], need["uranium"]
    fuel = p.fuel
    for r in RESOURCES:
        if burn[r] > fuel[r]:
            raise IllegalAction(f"You need {burn[r]} {r} and have {fuel[r]}.")
    p.powered = min(capacity, len(p.cities))
    pay = tables().payment_by_cities_powered
    p.money += pay[min(p.powered, len(pay) - 1)]
    # Ecological and fusion plants (and running none) burn nothing: the pools stay as they are.
    if any(burn.values()):
        p.fuel = {r: k - burn[r] for r, k in fuel.items()}
        state.supply = {r: k + burn[r] for r, k in state.supply.items()}
    for q in state.players:
        if q.powered is None:
            return
    _end_round(state)


@lru_cache(maxsize=4096)
def _running(run: tuple[int, ...]) -> tuple[dict[str, int], int, int]:
    """What running these plants burns per single resource (read only), the hybrids' need and
    the cities they power."""
    need, hybrid = fuel_need(list(run))
    return need, hybrid, sum(plants()[n].cities for n in run)


def _end_round(state: State) -> None:
    refill(state)
    if state.step3_form:
        remove_lowest(state)
    elif state.market:
        # Steps 1 and 2: the highest plant goes under the deck.
        state.deck = [*state.deck, state.market.pop()]
    settle(state)
    start_round(state)
