"""Phase 5: powering cities and income, then the resource refill and the plant-market update."""

from functools import cache, lru_cache

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
    owned = p.plants
    for n in run:
        if n not in owned:
            raise IllegalAction(f"You do not own plant {n}.")
    coal_need, oil_need, garbage, uranium, hybrid, capacity = _running(tuple(run))
    mix = action.hybrid
    coal, oil = (mix.get("coal", 0), mix.get("oil", 0)) if mix else (0, 0)
    if hybrid == 0 and (coal or oil):
        raise IllegalAction("A coal/oil mix is only for hybrid plants, and none of these is one.")
    if hybrid and coal + oil != hybrid:
        raise IllegalAction(
            f"Your hybrid plants burn {hybrid} coal and oil in all: say how many of each."
        )
    fuel = p.fuel
    # Ecological and fusion plants (and running none) burn nothing: the pools stay as they are.
    if coal_need or oil_need or garbage or uranium or hybrid:
        burn = {
            "coal": coal_need + coal,
            "oil": oil_need + oil,
            "garbage": garbage,
            "uranium": uranium,
        }
        for r in RESOURCES:
            if burn[r] > fuel[r]:
                raise IllegalAction(f"You need {burn[r]} {r} and have {fuel[r]}.")
        p.fuel = {r: k - burn[r] for r, k in fuel.items()}
        state.supply = {r: k + burn[r] for r, k in state.supply.items()}
    cities = len(p.cities)
    p.powered = powered = capacity if capacity < cities else cities
    pay = _payments()
    p.money += pay[powered] if powered < len(pay) else pay[-1]
    for q in state.players:
        if q.powered is None:
            return
    _end_round(state)


@lru_cache(maxsize=4096)
def _running(run: tuple[int, ...]) -> tuple[int, int, int, int, int, int]:
    """What running these plants burns of coal, oil, garbage and uranium outside hybrids, the
    hybrids' need and the cities they power."""
    need, hybrid = fuel_need(list(run))
    capacity = sum(plants()[n].cities for n in run)
    return need["coal"], need["oil"], need["garbage"], need["uranium"], hybrid, capacity


@cache
def _payments() -> tuple[int, ...]:
    """The income by cities powered (the last for any more)."""
    return tables().payment_by_cities_powered


def _end_round(state: State) -> None:
    refill(state)
    if state.step3_form:
        remove_lowest(state)
    elif state.market:
        # Steps 1 and 2: the highest plant goes under the deck.
        *state.market, highest = state.market
        state.deck = [*state.deck, highest]
    settle(state)
    start_round(state)
