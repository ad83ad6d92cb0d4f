"""What a "your turn" message says is at stake, the questions asked before a likely slip, and the
pre-moves refused when they could never be made."""

from random import Random

import pytest

from bot.games.power_grid.plugin import PLUGIN
from bot.games.power_grid.words import confirm, stakes
from engine.core import CHANCE, step
from engine.power_grid import autopilot
from engine.power_grid.state import State
from tests.power_grid.helpers import (
    G,
    act,
    buy_uncontested,
    edit,
    finish_phase,
    play_round1,
    start,
)

TURNS = PLUGIN.moves()


def _says(state: State, seat: int) -> str:
    return stakes(G.view(state, seat), seat)


def _asks(state: State, seat: int, kind: str) -> str | None:
    return confirm(G.view(state, seat), seat, {"type": kind})


def _resources(players: int = 3, **config) -> State:
    state = start(players, **config)
    while state.phase == "auction":
        state = buy_uncontested(state, min(G.to_act(state)), state.market[0])
    return state


def test_an_auction_names_the_plant_the_bid_its_holder_and_only_your_money() -> None:
    state = act(start(3, hidden_money=True), 0, "open", plant=4, bid=6)
    state = edit(edit(state, 0, money=37), 1, money=50)
    text = _says(state, 1)
    assert text == (
        "On auction: plant 4 (2 coal → 1 city); {seat 0} holds the bid at 6. You have 50 Elektro."
    )
    assert "37" not in text
    raised = act(state, 1, "bid", amount=7)
    assert G.to_act(raised) == {2}
    assert "{seat 1} holds the bid at 7" in _says(raised, 2)


def test_opening_says_what_the_seat_can_afford() -> None:
    assert _says(start(3), 0) == (
        "Round 1: every player buys a plant. You can afford plants 3, 4, 5 and 6 at their "
        "opening bids. You have 50 Elektro."
    )
    later = play_round1(start(3))
    chooser = min(G.to_act(later))
    poor = edit(later, chooser, money=2)
    assert _says(poor, chooser) == "You can afford none of the plants for sale. You have 2 Elektro."


def test_buying_says_what_the_plants_burn_and_what_is_held() -> None:
    state = _resources()
    seat = min(G.to_act(state))  # plant 3: 2 oil for 1 city
    assert _says(state, seat) == "Running all your plants burns 2 oil; you hold no fuel. " + (
        f"You have {state.players[seat].money} Elektro."
    )
    built = edit(state, seat, cities=["Berlin", "Halle"], fuel={"oil": 2})
    assert "With it they power 1 of your 2 cities." in _says(built, seat)


def test_building_names_the_cheapest_next_city() -> None:
    state = finish_phase(_resources())
    seat = min(G.to_act(state))
    assert _says(state, seat).endswith(
        "The cheapest next city is Berlin: 10 Elektro (0 to connect + 10 house)."
    )
    state = edit(state, seat, cities=["Flensburg"])
    assert "The cheapest next city is Kiel: 14 Elektro (4 to connect + 10 house)." in _says(
        state, seat
    )


def test_bureaucracy_says_how_many_cities_the_seat_powers() -> None:
    state = finish_phase(finish_phase(_resources()))
    state = edit(state, 0, cities=["Berlin", "Halle"], fuel={"oil": 2})
    assert _says(state, 0) == "You can power 1 of your 2 cities for 22 Elektro of income."


@pytest.mark.parametrize("seed", [3, 4])
def test_stakes_are_short_and_never_tell_another_seat_s_money(seed: int) -> None:
    """Along a game with hidden money, a twin where another seat's money differs reads the
    same to the seat on turn."""
    config = G.Config(players=3, hidden_money=True)
    state, rng = G.new(config, seed), Random(seed)
    said = 0
    while not G.is_over(state) and state.round < 5:
        for seat in G.to_act(state) - {CHANCE}:
            text = _says(state, seat)
            assert text and text.count(". ") <= 3 and len(text) < 240, text
            other = (seat + 1) % 3
            twin = edit(state, other, money=state.players[other].money + 17)
            assert _says(twin, seat) == text
            said += 1
        state = step(G, state, rng, lambda s, seat: autopilot.choose(G.view(s, seat), seat))
    assert said > 30


def test_passing_with_money_for_a_plant_asks_first() -> None:
    later = play_round1(start(3))
    chooser = min(G.to_act(later))
    market = later.market[:4]
    rich = edit(later, chooser, money=market[2])
    assert _asks(rich, chooser, "pass") == (
        f"Pass this round's auction? You could buy plant {market[2]} for {market[2]} Elektro."
    )
    assert _asks(edit(later, chooser, money=market[0] - 1), chooser, "pass") is None


def test_dropping_out_asks_first_unless_the_seat_cannot_raise() -> None:
    state = act(start(3), 0, "open", plant=4, bid=20)
    assert _asks(state, 1, "drop") == (
        "Drop out of the auction for plant 4? You can't bid on it again this round."
    )
    assert _asks(edit(state, 1, money=20), 1, "drop") is None


def test_buying_nothing_more_with_plants_short_of_fuel_asks_first() -> None:
    state = _resources()
    seat = min(G.to_act(state))  # plant 3: 2 oil for 1 city
    housed = edit(state, seat, cities=["Berlin", "Halle"])
    assert _asks(housed, seat, "done") == (
        "Buy nothing more? Your plants can power only 0 of your 2 cities."
    )
    assert _asks(edit(housed, seat, fuel={"oil": 2}), seat, "done") is None
    assert _asks(edit(housed, seat, money=0), seat, "done") is None
    assert _asks(state, seat, "done") is None  # no city yet: nothing to power
    building = finish_phase(housed)
    assert _asks(building, min(G.to_act(building)), "done") is None


def test_passing_every_auction_is_refused_in_round_1() -> None:
    setup = G.new(G.Config(players=3), 0)
    assert "Nobody may pass in round 1" in (TURNS.premove_refusal("auction", setup, 0, None) or "")
    first = start(3)
    assert "Nobody may pass in round 1" in (TURNS.premove_refusal("auction", first, 1, None) or "")
    buying = _resources()
    # Set while round 1 buys resources, it covers round 2's auction, where passing is allowed.
    assert TURNS.premove_refusal("auction", buying, 0, None) is None
    assert TURNS.premove_refusal("resources", buying, 0, None) is None


def test_a_pre_move_for_a_turn_already_taken_is_refused() -> None:
    later = play_round1(start(3))
    chooser = min(G.to_act(later))
    assert TURNS.premove_refusal("auction", later, chooser, None) is None
    bought = buy_uncontested(later, chooser, later.market[0])
    assert TURNS.premove_refusal("auction", bought, chooser, None) == (
        "You have bought a plant this round: no auction is left for you until the next."
    )
    buying = _resources()
    first = min(G.to_act(buying))
    done = act(buying, first, "done")
    assert TURNS.premove_refusal("resources", done, first, None) == (
        "You have finished buying resources this round."
    )
    assert TURNS.premove_refusal("resources", done, min(G.to_act(done)), None) is None
