"""Phase 2 on Germany: seat-order bidding, reopening, refills, the plant limit, Step 3 card."""

from engine.core import CHANCE
from engine.power_grid.rules import STEP3
from tests.power_grid.helpers import (
    G,
    act,
    buy_uncontested,
    edit,
    play_round1,
    refused,
    start,
)


def test_bidding_goes_clockwise_by_seat_from_the_opener() -> None:
    state = start(4, order=[2, 0, 3, 1])
    assert G.to_act(state) == {2}
    refused(state, 2, {"type": "pass"}, "round 1")
    refused(
        state,
        2,
        {"type": "open", "plant": 7, "bid": 7},
        "not for sale now: the plants are 3, 4, 5, 6",
    )
    refused(state, 2, {"type": "open", "plant": 4, "bid": 3}, "at least 4")
    refused(state, 2, {"type": "open", "plant": 4, "bid": 51}, "you have 50")
    state = act(state, 2, "open", plant=4, bid=4)
    assert G.to_act(state) == {3}
    refused(state, 3, {"type": "bid", "amount": 4}, "The bid on plant 4 is 4: bid at least 5")
    state = act(state, 3, "bid", amount=6)
    assert G.to_act(state) == {0}
    state = act(state, 0, "drop")
    assert G.to_act(state) == {1}
    state = act(state, 1, "drop")
    assert G.to_act(state) == {2}
    state = act(state, 2, "bid", amount=7)
    state = act(state, 3, "drop")
    assert state.players[2].plants == [4] and state.players[2].money == 43
    # 4 is replaced by 13, the top of the deck.
    assert state.market == [3, 5, 6, 7, 8, 9, 10, 13]
    assert G.to_act(state) == {0}


def test_turn_bid_order_follows_player_order() -> None:
    state = start(4, order=[2, 0, 3, 1], bid_order="turn")
    state = act(state, 2, "open", plant=4, bid=4)
    assert G.to_act(state) == {0}
    state = act(state, 0, "drop")
    assert G.to_act(state) == {3}


def test_opener_who_loses_opens_again() -> None:
    state = start(4)
    state = act(state, 0, "open", plant=3, bid=3)
    state = act(state, 1, "bid", amount=4)
    state = act(state, 2, "drop")
    state = act(state, 3, "drop")
    state = act(state, 0, "drop")
    assert state.players[1].plants == [3] and state.players[1].money == 46
    assert G.to_act(state) == {0} and state.auction is None
    # The dropped seats of the last auction join the next one; the buyer does not.
    state = act(state, 0, "open", plant=5, bid=5)
    assert state.auction is not None and sorted(state.auction.bidders) == [0, 2, 3]
    assert state.auction.turn == 2


def test_last_chooser_buys_at_once_and_round1_reorders() -> None:
    state = start(4)
    for seat, plant in ((0, 3), (1, 4), (2, 5)):
        state = buy_uncontested(state, seat, plant)
    state = act(state, 3, "open", plant=6, bid=9)
    assert state.players[3].plants == [6] and state.players[3].money == 41
    assert state.phase == "resources"
    # Most cities (none) then highest plant first.
    assert state.order == [3, 2, 1, 0]
    assert G.to_act(state) == {0}


def test_legal_actions_in_the_auction() -> None:
    state = start(2)
    legal = G.legal_actions(state, 0)
    opens = [a for a in legal if a.type == "open"]
    assert {a.plant for a in opens} == {3, 4, 5, 6}
    assert len(opens) == sum(51 - n for n in (3, 4, 5, 6))
    assert not [a for a in legal if a.type == "pass"]
    state = act(state, 0, "open", plant=3, bid=48)
    assert [a.model_dump() for a in G.legal_actions(state, 1)] == [
        {"type": "bid", "amount": 49},
        {"type": "bid", "amount": 50},
        {"type": "drop"},
    ]


def test_plant_limit_discard_with_the_resource_return() -> None:
    state = start(4)
    state = edit(state, 0, plants=[42, 44, 46], fuel={"coal": 6, "oil": 4}, money=50)
    state = buy_uncontested(state, 0, 5)
    assert state.discard == 0 and G.to_act(state) == {0}
    refused(state, 1, {"type": "open", "plant": 3, "bid": 3}, "not seat 1's turn")
    refused(state, 0, {"type": "discard_plant", "plant": 5}, "just bought")
    refused(state, 0, {"type": "discard_plant", "plant": 7}, "do not own")
    # Without 46 the pool (6 coal, 4 oil) meets 4 coal on 42 and 4 coal/oil on hybrid 5: 2 go.
    refused(state, 0, {"type": "discard_plant", "plant": 46, "return": {"coal": 1}}, "not fit")
    refused(state, 0, {"type": "discard_plant", "plant": 46, "return": {"coal": 3}}, "only")
    refused(
        state, 0, {"type": "discard_plant", "plant": 46, "return": {"garbage": 1}}, "you have 0"
    )
    legal = [a.model_dump(mode="json") for a in G.legal_actions(state, 0)]
    assert {"type": "discard_plant", "plant": 46, "return": {"coal": 1, "oil": 1}} in legal
    assert {"type": "discard_plant", "plant": 44, "return": {}} in legal
    supply = dict(state.supply)
    state = act(state, 0, "discard_plant", plant=46, **{"return": {"coal": 1, "oil": 1}})
    assert state.players[0].plants == [5, 42, 44]
    assert state.players[0].fuel == {"coal": 5, "oil": 3, "garbage": 0, "uranium": 0}
    assert state.supply["coal"] == supply["coal"] + 1 and state.supply["oil"] == supply["oil"] + 1
    assert 46 in state.removed_in_play and state.discard is None
    assert G.to_act(state) == {1}


def test_two_players_hold_four_plants() -> None:
    state = start(2)
    state = edit(state, 0, plants=[42, 44, 46])
    state = buy_uncontested(state, 0, 3)
    assert state.discard is None and state.players[0].plants == [3, 42, 44, 46]


def test_nobody_buys_removes_the_lowest_plant() -> None:
    state = play_round1(start(4))
    assert state.round == 2 and state.phase == "auction"
    market = list(state.market)
    for seat in list(state.order):
        state = act(state, seat, "pass")
    assert market[0] in state.removed_in_play
    assert state.market == sorted([*market[1:], state.market[-1]])
    assert state.phase == "resources"


def test_step3_card_drawn_in_the_auction() -> None:
    state = play_round1(start(4))
    state = state.copy()
    state.deck = [STEP3, 30, 31]
    market = list(state.market)
    first = state.order[0]
    state = buy_uncontested(state, first, market[0])
    assert state.market[-1] == STEP3 and state.shuffle_owed
    assert G.to_act(state) == {CHANCE}
    view = G.view(state, None)
    assert view["plant_market"]["future"][-1]["type"] == "step3"
    refused(state, state.order[1], {"type": "pass"}, "shuffled")
    refused(state, CHANCE, {"type": "shuffle", "deck": [30]}, "exactly")
    refused(state, CHANCE, {"type": "shuffle", "deck": [31, 30], "removed": [30]}, "no plants")
    state = G.apply(state, CHANCE, {"type": "shuffle", "deck": [31, 30]})
    assert state.deck == [31, 30] and state.step == 1
    second = state.order[1]
    state = buy_uncontested(state, second, state.market[0])
    assert 31 in state.market
    for seat in state.order[2:]:
        state = act(state, seat, "pass")
    # The phase ends: the card and the lowest plant leave; Step 3's six-plant market.
    assert state.phase == "resources" and state.step == 3 and state.step3_form
    assert STEP3 not in state.market and len(state.market) == 6
    assert len(G.view(state, None)["plant_market"]["actual"]) == 6
