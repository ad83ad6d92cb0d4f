"""Refusals a player can meet (a slash command, a stale panel) speak Power Grid, and which moves
may be taken back (`reversible`)."""

import re
from random import Random
from typing import Any

import pytest

from engine.core import CHANCE, IllegalAction, Logged
from engine.power_grid.state import State
from tests.power_grid.helpers import (
    G,
    act,
    buy_uncontested,
    edit,
    finish_phase,
    play_round1,
    random_game,
    refused,
    start,
)

ENGINE_SPEAK = re.compile(r"waits for|\(s\)|'[^' ]+'|[a-z]+_[a-z]+")
"""What a sentence for a player never holds: the engine's action names, "house(s)", repr
quotes."""


def _resources(players: int = 3) -> State:
    """Round 1 bought at face value (seat s has plant 3+s), in resource buying."""
    state = start(players)
    while state.phase == "auction":
        state = buy_uncontested(state, min(G.to_act(state)), state.market[0])
    return state


def test_a_move_of_another_phase_is_refused_with_what_to_do_now() -> None:
    state = start(3)
    refused(state, 0, {"type": "bid", "amount": 4}, "No auction is open: open one with a plant")
    refused(state, 0, {"type": "done"}, "No auction is open")
    opened = act(state, 0, "open", plant=3, bid=3)
    refused(opened, 1, {"type": "pass"}, "Plant 3 is on auction at 3: bid more, or drop out.")
    buying = _resources()
    seat = min(G.to_act(buying))
    refused(buying, seat, {"type": "build", "cities": ["Berlin"]}, "It is time to buy resources")
    building = finish_phase(buying)
    seat = min(G.to_act(building))
    refused(building, seat, {"type": "buy", "resources": {"coal": 1}}, "It is time to build")
    powering = finish_phase(building)
    refused(powering, 0, {"type": "done"}, "It is time to power your cities")


def test_a_full_city_and_too_few_houses_are_said_in_words() -> None:
    state = finish_phase(_resources())
    first = min(G.to_act(state))
    state = act(act(state, first, "build", cities=["Berlin"]), first, "done")
    second = min(G.to_act(state))
    refused(state, second, {"type": "build", "cities": ["Berlin"]}, "Berlin is full")
    refused(state, second, {"type": "build", "cities": ["Berlin"]}, "Step 1 allows 1 house a city")
    names = [c["name"] for c in G.view(state, None)["cities"] if c["name"] != "Kiel"]
    crowded = edit(state, second, money=999, cities=names[:21])
    refused(crowded, second, {"type": "build", "cities": ["Kiel", "Hamburg"]}, "only 1 house left")


def test_storage_refusals_name_the_resource() -> None:
    state = _resources()
    while min(G.to_act(state)) != 2:  # seat 2 holds plant 5, a coal/oil hybrid
        state = act(state, min(G.to_act(state)), "done")
    assert state.players[2].plants == [5]
    refused(state, 2, {"type": "buy", "resources": {"uranium": 1}}, "None of your plants burns")
    refused(state, 2, {"type": "buy", "resources": {"coal": 5}}, "room for only 4 more coal")
    full = edit(state, 2, fuel={"coal": 2, "oil": 2})
    refused(full, 2, {"type": "buy", "resources": {"oil": 1}}, "no room for more oil")
    refused(
        state,
        2,
        {"type": "buy", "resources": {"coal": 3, "oil": 3}},
        "coal and oil share your hybrid plants' room",
    )


def _attempts(state: State, seat: int, rng: Random) -> list[dict[str, Any]]:
    """Moves of every kind with plausible and implausible values, as a player might type them."""
    names = ["Berlin", "Kiel", "Paris", "Köln", "Essen"]
    return [
        {"type": "pick_region", "region": rng.choice(["green", "mars", "red"])},
        {"type": "open", "plant": rng.choice([3, 13, 50, 99]), "bid": rng.randint(1, 80)},
        {"type": "bid", "amount": rng.randint(1, 90)},
        {"type": "pass"},
        {"type": "drop"},
        {"type": "discard_plant", "plant": rng.randint(3, 20), "return": {"coal": 1}},
        {"type": "buy", "resources": {rng.choice(["coal", "oil", "garbage", "uranium"]): 3}},
        {"type": "build", "cities": rng.sample(names, rng.randint(1, 3))},
        {"type": "done"},
        {"type": "power", "plants": [rng.randint(3, 20)]},
    ]


@pytest.mark.parametrize("seed", [1, 2])
def test_no_refusal_a_player_meets_reads_like_the_engine(seed: int) -> None:
    """Along random games, every refusal of a seat that owes a move is a sentence."""
    rng = Random(seed)
    seen: set[str] = set()

    def check(state: State, log: list) -> None:
        if rng.random() > 0.2:
            return
        for seat in G.to_act(state) - {CHANCE}:
            for action in _attempts(state, seat, rng):
                try:
                    G.apply(state, seat, action)
                except IllegalAction as exc:
                    seen.add(exc.reason)
                    assert not ENGINE_SPEAK.search(exc.reason), exc.reason
                    assert exc.reason[0].isupper() and exc.reason.endswith("."), exc.reason

    random_game({"players": 3, "map": "germany", "hidden_money": True}, seed, check)
    assert len(seen) >= 15


def _step(state: State, seat: int, action: dict[str, Any]) -> Logged:
    return Logged(state, seat, action, G.apply(state, seat, action))


def test_a_buy_or_a_build_may_be_taken_back_and_nothing_else() -> None:
    state = start(3)
    assert not G.reversible(_step(state, 0, {"type": "open", "plant": 3, "bid": 3}))
    opened = act(state, 0, "open", plant=3, bid=3)
    assert not G.reversible(_step(opened, 1, {"type": "bid", "amount": 4}))
    assert not G.reversible(_step(opened, 1, {"type": "drop"}))
    buying = _resources()
    seat = min(G.to_act(buying))
    assert G.reversible(_step(buying, seat, {"type": "buy", "resources": {"oil": 2}}))
    assert not G.reversible(_step(buying, seat, {"type": "done"}))
    building = finish_phase(buying)
    seat = min(G.to_act(building))
    assert G.reversible(_step(building, seat, {"type": "build", "cities": ["Berlin"]}))
    assert not G.reversible(_step(finish_phase(building), 0, {"type": "power", "plants": []}))
    later = play_round1(start(3))
    assert not G.reversible(_step(later, min(G.to_act(later)), {"type": "pass"}))
    shuffle = G.sample_chance(G.new(G.Config(players=3), 0), Random(0)).model_dump(mode="json")
    assert not G.reversible(_step(G.new(G.Config(players=3), 0), CHANCE, shuffle))


def test_a_build_that_draws_a_plant_from_the_deck_may_not_be_taken_back() -> None:
    state = finish_phase(_resources())
    seat = min(G.to_act(state))
    # Seven cities put plant 7 at the city count: it leaves and a plant is drawn from the deck.
    cities = ["Halle", "Leipzig", "Erfurt", "Magdeburg", "Berlin", "Frankfurt-O", "Dresden"]
    rich = edit(state, seat, money=500)
    step = _step(rich, seat, {"type": "build", "cities": cities})
    assert step.after.deck != step.before.deck
    assert not G.reversible(step)
