"""The AI ends the game (builds to the end count) only when that wins it: checked on constructed
views of a Build phase, against what each other seat can power."""

from random import Random
from typing import Any

import pytest

from engine.core import CHANCE, Level
from engine.power_grid import autopilot
from engine.power_grid.rules import plants
from tests.power_grid.helpers import G


def _build_view() -> tuple[dict[str, Any], int]:
    """A real 4-player view in a Build phase of round 3 or later, and the seat to build."""
    state = G.new(G.Config(players=4), 5)
    while not (state.phase == "build" and state.round >= 3):
        seat = min(G.to_act(state))
        if seat == CHANCE:
            state = G.apply(state, seat, G.sample_chance(state, Random(0)))
        else:
            state = G.apply(state, seat, autopilot.choose(G.view(state, seat), seat))
    seat = min(G.to_act(state))
    return G.view(state, seat), seat


def _seat(
    view: dict[str, Any], seat: int, cities: int, owned: list[int], fuel: dict[str, int], money: int
) -> None:
    """Give `seat` these plants, fuel, money and its first `cities` cities in play."""
    names = [c["name"] for c in view["cities"] if c["in_play"]]
    start = 0 if seat == view["viewer"] else 8
    s = view["seats"][seat]
    s["cities"] = names[start : start + cities]
    s["city_count"] = cities
    s["houses_left"] = 22 - cities
    s["plants"] = [{**plants()[n].model_dump(), "stored": {}} for n in owned]
    s["fuel"] = {"coal": 0, "oil": 0, "garbage": 0, "uranium": 0} | fuel
    s["money"] = money


def _endgame(
    me_fuel: int, other_cities: int, other_plants: list[int], other_money: int, other_later: bool
) -> tuple[dict[str, Any], int]:
    """Me at 16 cities with 200 Elektro and plants 50, 44, 39 (17 cities with one uranium);
    one rival as given, the two others small."""
    view, seat = _build_view()
    view["end_cities"] = 17
    view["house_limit"] = 3
    for c in view["cities"]:
        c["houses"] = []
    _seat(view, seat, 16, [50, 44, 39], {"uranium": me_fuel}, 200)
    others = [s for s in range(4) if s != seat]
    rival, *small = others
    _seat(view, rival, other_cities, other_plants, {}, other_money)
    for s in small:
        _seat(view, s, 5, [13], {}, 10)
    # Build runs in reverse player order: the seats before `seat` in order build after it.
    view["order"] = [rival, seat, *small] if other_later else [seat, rival, *small]
    return view, seat


def _action(view: dict[str, Any], seat: int, level: Level) -> dict[str, Any]:
    return autopilot.choose(view, seat, level=level).model_dump(mode="json")


@pytest.mark.parametrize("level", ["standard", "strong"])
def test_ends_the_game_when_it_powers_the_most(level: Level) -> None:
    view, seat = _endgame(1, 16, [50, 44, 33], 50, other_later=False)
    assert _action(view, seat, level)["type"] == "build"


@pytest.mark.parametrize("level", ["standard", "strong"])
def test_never_ends_it_when_another_seat_powers_more(level: Level) -> None:
    # Without its uranium it powers 11; the rival powers 15 of its 16 cities.
    view, seat = _endgame(0, 16, [50, 44, 33], 50, other_later=False)
    assert _action(view, seat, level)["type"] == "done"


@pytest.mark.parametrize("level", ["standard", "strong"])
def test_never_ends_it_on_a_tie_with_a_richer_seat(level: Level) -> None:
    # The rival builds after us and could power 17 too: a tie goes to money, and it has more.
    view, seat = _endgame(1, 16, [50, 44, 33, 18], 500, other_later=True)
    assert _action(view, seat, level)["type"] == "done"
    # With 15 Elektro, whatever it adds, it keeps less money than we do: ending wins.
    view, seat = _endgame(1, 16, [50, 44, 33, 18], 15, other_later=True)
    assert _action(view, seat, level)["type"] == "build"
    # Money hidden from us: it might have any, so a possible tie is a loss.
    view["seats"][view["order"][0]]["money"] = None
    assert _action(view, seat, level)["type"] == "done"


@pytest.mark.parametrize("level", ["standard", "strong"])
def test_counts_what_a_seat_still_to_build_could_add(level: Level) -> None:
    # The rival has 12 cities but builds after us, with the plants and the money to add five
    # cities and power 17, and it would keep more money than we would.
    view, seat = _endgame(1, 12, [50, 44, 37, 18], 500, other_later=True)
    assert _action(view, seat, level)["type"] == "done"
    view, seat = _endgame(1, 12, [50, 44, 37, 18], 200, other_later=False)
    assert _action(view, seat, level)["type"] == "build"
