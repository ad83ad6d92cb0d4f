"""Setup: config checks, the setup shuffle, the turn order and WBC region picks."""

import json

import pytest
from pydantic import ValidationError

from engine.core import CHANCE
from engine.power_grid.rules import deck_plants
from tests.power_grid.helpers import G, act, refused, start


def test_config_refuses_unknown_fields_and_bad_regions() -> None:
    with pytest.raises(ValidationError):
        G.Config(players=4, colour="red")
    with pytest.raises(ValidationError, match="4 regions"):
        G.Config(players=4, regions=["green", "brown", "yellow"])
    with pytest.raises(ValidationError, match="contiguous"):
        G.Config(players=3, regions=["green", "cyan", "purple"])
    with pytest.raises(ValidationError, match="distinct"):
        G.Config(players=3, regions=["green", "green", "brown"])
    with pytest.raises(ValidationError):
        G.Config(players=7)
    assert G.Config(players=3, regions=["green", "brown", "yellow"]).bid_order == "seat"


def test_setup_shuffle_puts_13_on_top_and_step3_at_the_bottom() -> None:
    state = G.new(G.Config(players=4, regions=["green", "brown", "yellow", "red"]), 0)
    assert G.to_act(state) == {CHANCE}
    cards = deck_plants()
    assert len(cards) == 33
    refused(state, CHANCE, {"type": "shuffle", "deck": cards, "removed": []}, "4 plants")
    refused(state, CHANCE, {"type": "shuffle", "deck": cards[4:], "removed": cards[:3]}, "exactly")
    dup = [cards[0], *cards[:3]]
    refused(state, CHANCE, {"type": "shuffle", "deck": cards[4:], "removed": dup}, "twice")
    refused(state, 0, {"type": "open", "plant": 3, "bid": 3}, "shuffled")
    state = G.apply(state, CHANCE, {"type": "shuffle", "deck": cards[4:], "removed": cards[:4]})
    assert state.deck[0] == 13 and state.deck[-1] == 99 and len(state.deck) == 31
    view = G.view(state, None)
    assert view["deck_size"] == 31 and view["removed_at_setup"] == 4
    assert "deck" not in view and 11 not in view["removed_in_play"]
    refused(state, CHANCE, {"type": "turn_order", "order": [0, 1, 1, 2]}, "every seat")
    state = G.apply(state, CHANCE, {"type": "turn_order", "order": [2, 0, 3, 1]})
    assert (state.phase, state.round, state.order) == ("auction", 1, [2, 0, 3, 1])
    assert G.view(state, None)["plant_market"]["actual"][0]["number"] == 3


def test_removed_counts_by_player_count() -> None:
    for players, k in ((2, 8), (3, 8), (5, 0), (6, 0)):
        state = start(players)
        assert len(state.removed_setup) == k
        assert len(state.deck) == 33 - k + 2


def test_region_picks_cycle_through_turn_order_and_stay_completable() -> None:
    state = G.new(G.Config(players=2), 0)
    cards = deck_plants()
    state = G.apply(state, CHANCE, {"type": "shuffle", "deck": cards[8:], "removed": cards[:8]})
    state = G.apply(state, CHANCE, {"type": "turn_order", "order": [1, 0]})
    assert state.phase == "regions" and state.round == 0 and G.to_act(state) == {1}
    refused(
        state, 1, {"type": "pick_region", "region": "mars"}, "no “mars” region on the Germany map"
    )
    refused(state, 0, {"type": "pick_region", "region": "green"}, "not seat 0's turn")
    # A gap is fine before the last pick: brown and red can still be joined by green or yellow.
    state = act(state, 1, "pick_region", region="brown")
    refused(state, 0, {"type": "pick_region", "region": "brown"}, "already picked")
    state = act(state, 0, "pick_region", region="red")
    assert G.to_act(state) == {1}
    refused(state, 1, {"type": "pick_region", "region": "purple"}, "contiguous")
    refused(state, 1, {"type": "pick_region", "region": "cyan"}, "contiguous")
    legal = {a.region for a in G.legal_actions(state, 1)}
    assert legal == {"green", "yellow"}
    state = act(state, 1, "pick_region", region="yellow")
    assert state.phase == "auction" and state.round == 1 and state.order == [1, 0]
    assert state.regions == ["brown", "red", "yellow"]


def test_six_players_first_five_pick() -> None:
    state = G.new(G.Config(players=6), 0)
    cards = deck_plants()
    state = G.apply(state, CHANCE, {"type": "shuffle", "deck": cards})
    state = G.apply(state, CHANCE, {"type": "turn_order", "order": [5, 4, 3, 2, 1, 0]})
    for seat, region in zip(
        [5, 4, 3, 2, 1], ["green", "brown", "yellow", "red", "cyan"], strict=True
    ):
        assert G.to_act(state) == {seat}
        state = act(state, seat, "pick_region", region=region)
    assert state.phase == "auction"


def test_malformed_actions_are_refused() -> None:
    state = start(4)
    refused(state, 0, {"type": "open", "plant": 3, "bid": True}, "“bid” must be a whole number")
    refused(state, 0, {"type": "open", "plant": 3, "bid": 3.0}, "“bid” must be a whole number")
    refused(state, 0, {"type": "open", "plant": 3}, "“bid” is missing")
    refused(state, 0, {"type": "open", "plant": 3, "bid": 3, "x": 1}, "“x” is not something")
    refused(state, 0, {"type": "bid", "amount": 4}, "No auction is open: open one with a plant")
    refused(state, 9, {"type": "pass"}, "not at this table")
    refused(state, CHANCE, {"type": "shuffle", "deck": []}, "no shuffle")


@pytest.mark.parametrize(
    "fields",
    [
        {"players": 4.0},
        {"players": "4"},
        {"players": True},
        {"players": 4, "hidden_money": 1},
        {"players": 4, "hidden_money": "yes"},
        {"players": 4, "routes_through_unused_regions": 0},
    ],
)
def test_config_numbers_are_integers_and_flags_booleans(fields: dict) -> None:
    with pytest.raises(ValidationError):
        G.Config(**fields)
    with pytest.raises(ValidationError):
        G.Config.model_validate_json(json.dumps(fields))


def test_an_action_that_is_no_object_or_a_seat_that_is_no_integer_is_refused() -> None:
    state = start(4)
    for action in (None, "pass", ["open", 3, 3], 3):
        refused(state, 0, action, "malformed")  # type: ignore[arg-type]
    refused(state, True, {"type": "open", "plant": 3, "bid": 3}, "not at this table")  # type: ignore[arg-type]
