"""Phases 3–5 on Germany: prices, storage, connection costs, removals, Steps, refills, income."""

from engine.core import CHANCE
from engine.power_grid.rules import STEP3
from tests.power_grid.helpers import G, act, edit, finish_phase, play_round1, refused, start


def resources_phase(players: int = 4, **config) -> tuple:
    """Round 1 bought at face value (seat s has plant 3+s), now in resources."""
    state = start(players, **config)
    while state.phase == "auction":
        seat = min(G.to_act(state))
        state = act(state, seat, "open", plant=state.market[0], bid=state.market[0])
        while state.auction is not None:
            state = act(state, state.auction.turn, "drop")
    return state


def test_resource_prices_and_storage() -> None:
    state = resources_phase()
    assert [p.plants for p in state.players] == [[3], [4], [5], [6]]
    # Reverse order: seat 0 (plant 3, lowest) buys first.
    assert state.order == [3, 2, 1, 0] and G.to_act(state) == {0}
    refused(state, 0, {"type": "buy", "resources": {"oil": 5}}, "room for only 4 more oil")
    refused(state, 0, {"type": "buy", "resources": {"coal": 1}}, "None of your plants burns coal")
    refused(state, 0, {"type": "buy", "resources": {}}, "at least one")
    state = act(state, 0, "buy", resources={"oil": 2})
    assert state.players[0].money == 47 - 6 and state.resources["oil"] == 16
    state = act(state, 0, "buy", resources={"oil": 2})
    assert state.players[0].money == 41 - 7  # the third 3 and a 4
    refused(state, 0, {"type": "buy", "resources": {"oil": 1}}, "no room for more oil")
    state = act(state, 0, "done")
    # Seat 1 (coal 4): four coal cost 1+1+1+2.
    state = act(state, 1, "buy", resources={"coal": 4})
    assert state.players[1].money == 46 - 5
    state = act(state, 1, "done")
    # Seat 2, hybrid 5: any mix of 4 coal and oil.
    state = act(state, 2, "buy", resources={"coal": 2, "oil": 2})
    assert state.players[2].money == 45 - (2 + 2) - (4 + 4)
    refused(state, 2, {"type": "buy", "resources": {"coal": 1}}, "no room for more coal")
    refused(state, 2, {"type": "buy", "resources": {"garbage": 1}}, "None of your plants burns")
    state = act(state, 2, "done")
    legal = [a.model_dump() for a in G.legal_actions(state, 3)]
    assert legal == [{"type": "done"}, {"type": "buy", "resources": {"garbage": 1}}]
    state = act(state, 3, "buy", resources={"garbage": 2})
    assert state.players[3].money == 44 - 14 and state.resources["garbage"] == 4
    state = edit(state, 3, plants=[6, 11])
    refused(state, 3, {"type": "buy", "resources": {"uranium": 3}}, "holds only 2")
    state = act(state, 3, "buy", resources={"uranium": 2})
    assert state.players[3].money == 30 - 30


def test_connection_costs_and_house_slots() -> None:
    state = finish_phase(resources_phase())
    assert state.phase == "build" and G.to_act(state) == {0}
    state = edit(state, 0, money=200)
    # Berlin 10; Frankfurt-O 6 + 10; Halle via Berlin 17 + 10 (cheaper than 21 via Leipzig).
    state = act(state, 0, "build", cities=["Berlin", "Frankfurt-O", "Halle"])
    assert state.players[0].money == 200 - 10 - 16 - 27
    # Leipzig is 0 from Halle; Flensburg through others' cities: Halle-Magdeburg-Hannover...
    state = act(state, 0, "build", cities=["Leipzig"])
    assert state.players[0].money == 147 - 10
    refused(state, 0, {"type": "build", "cities": ["Berlin"]}, "already have")
    refused(state, 0, {"type": "build", "cities": ["Köln"]}, "not in a region in play")
    refused(state, 0, {"type": "build", "cities": ["Paris"]}, "no city “Paris” on the Germany map")
    refused(state, 0, {"type": "build", "cities": []}, "at least one")
    refused(state, 0, {"type": "build", "cities": ["Kiel", "Kiel"]}, "twice")
    state = act(state, 0, "done")
    state = edit(state, 1, money=30)
    refused(state, 1, {"type": "build", "cities": ["Berlin"]}, "full")
    # Kiel 10, then Flensburg 4 + 10, then Hamburg 8 + 10: 42 > 30.
    refused(state, 1, {"type": "build", "cities": ["Kiel", "Flensburg", "Hamburg"]}, "costs 42")
    state = act(state, 1, "build", cities=["Kiel", "Flensburg"])
    assert state.players[1].money == 6
    legal = G.legal_actions(edit(state, 1, money=18), 1)
    assert {a.cities[0] for a in legal if a.type == "build"} == {"Hamburg", "Lubeck"}


def test_plant_removal_rule_while_building() -> None:
    state = finish_phase(resources_phase())
    assert state.market[:3] == [7, 8, 9]
    cities = ["Halle", "Leipzig", "Erfurt", "Magdeburg", "Berlin", "Frankfurt-O", "Dresden"]
    state = edit(state, 0, money=500)
    state = act(state, 0, "build", cities=cities)
    # At 7 cities plant 7 is at the count: it leaves and 14 comes; 13 ... drawn earlier stays.
    assert 7 in state.removed_in_play and min(state.market) > 7
    assert len(state.market) == 8


def test_step2_starts_at_the_end_of_the_build_phase() -> None:
    six = ["Kiel", "Hamburg", "Lubeck", "Schwerin", "Rostock", "Bremen"]
    state = finish_phase(edit(finish_phase(resources_phase()), 2, cities=six))
    assert state.step == 1 and state.phase == "bureaucracy"
    state = finish_phase(finish_phase(pass_all(power_round(state))))
    assert state.step == 1
    state = edit(power_round(state), 2, cities=[*six, "Cuxhaven"])
    state = finish_phase(pass_all(state))
    market = list(state.market)
    state = act(state, 2, "build", cities=["Flensburg"]) if G.to_act(state) == {2} else state
    state = finish_phase(state)
    assert state.step == 2 and state.phase == "bureaucracy"
    assert state.removed_in_play[-1] == market[0] and market[0] not in state.market
    assert len(state.market) == 8 and G.view(state, None)["house_limit"] == 2
    # Step 2 refill column: 4 players refill 6 coal, 4 oil, 3 garbage, 2 uranium.
    before = dict(state.resources)
    state = power_round(state)
    assert state.resources["uranium"] == min(12, before["uranium"] + 2)


def power_round(state):
    while state.phase == "bureaucracy":
        state = act(state, min(G.to_act(state)), "power", plants=[])
    return state


def pass_all(state):
    while state.phase == "auction":
        state = act(state, min(G.to_act(state)), "pass")
    return state


def play_round1_rest(state):
    return power_round(state)


def test_game_end_and_no_bureaucracy() -> None:
    state = finish_phase(resources_phase())
    names = [c.name for c in G_cities() if c.region in state.regions][:17]
    state = edit(edit(state, 1, cities=names), 1, fuel={"coal": 2})
    state = finish_phase(state)
    assert state.phase == "over" and G.is_over(state) and G.to_act(state) == set()
    refused(state, 0, {"type": "done"}, "over")
    rows = G.outcome(state)
    assert rows[1]["details"]["cities"] == 17 and rows[1]["details"]["powered"] == 1
    assert [r["powered"] for r in G.view(state, None)["standings"]] == [
        r["details"]["powered"] for r in rows
    ]


def G_cities():
    from engine.power_grid.rules import game_map

    return game_map("germany").cities


def test_income_fuel_and_refill_with_shortage() -> None:
    state = play_round1(start(4))
    # After round 1: coal track full (no room), oil 18+3, garbage 6+2, uranium 2+1.
    assert state.resources == {"coal": 24, "oil": 21, "garbage": 8, "uranium": 3}
    assert state.supply == {"coal": 0, "oil": 3, "garbage": 16, "uranium": 9}
    # Steps 1–2: the highest plant went under the deck, replaced from the top.
    assert state.deck[-1] == 14 or 14 in state.market
    state = state.copy()
    state.phase = "bureaucracy"
    state = edit(state, 0, plants=[5, 12], fuel={"coal": 3, "oil": 3}, cities=["Kiel", "Hamburg"])
    refused(state, 0, {"type": "power", "plants": [5, 12]}, "hybrid plants burn 4")
    refused(state, 0, {"type": "power", "plants": [5, 5]}, "only once")
    refused(state, 0, {"type": "power", "plants": [7]}, "do not own")
    refused(
        state, 0, {"type": "power", "plants": [5, 12], "hybrid": {"coal": 4, "oil": 0}}, "need 4"
    )
    money = state.players[0].money
    state = act(state, 0, "power", plants=[5, 12], hybrid={"coal": 3, "oil": 1})
    assert state.players[0].powered == 2 and state.players[0].money == money + 33
    assert state.players[0].fuel["coal"] == 0 and state.supply["coal"] == 3
    refused(state, 0, {"type": "power", "plants": []}, "not seat 0's turn")
    state = edit(state, 1, plants=[13], cities=["Berlin"])
    refused(state, 1, {"type": "power", "plants": [13], "hybrid": {"coal": 1}}, "only for hybrid")
    state = act(state, 1, "power", plants=[13])
    state = act(state, 3, "power", plants=[])
    state.resources["coal"] = 20  # room for 4
    state = act(state, 2, "power", plants=[])
    # 4 players Step 1 want 5 coal: the supply held 3.
    assert state.resources["coal"] == 23 and state.supply["coal"] == 0
    assert state.round == 3


def test_step3_card_drawn_while_building() -> None:
    for mode, step_in_bureaucracy in (("rules", 3), ("late", 1)):
        state = finish_phase(resources_phase(step3_refill=mode))
        state = state.copy()
        state.deck = [STEP3, 40]
        state = edit(state, 0, money=500)
        # Seven cities make plant 7 leave; its replacement is the Step 3 card.
        cities = ["Halle", "Leipzig", "Erfurt", "Magdeburg", "Berlin", "Frankfurt-O", "Dresden"]
        state = act(state, 0, "build", cities=cities)
        assert state.step3_form and state.shuffle_owed and len(state.market) == 6
        assert G.to_act(state) == {CHANCE}
        state = G.apply(state, CHANCE, {"type": "shuffle", "deck": [40]})
        # The old Step's house limit holds until the phase ends.
        state = act(state, 0, "done")
        refused(state, 1, {"type": "build", "cities": ["Halle"]}, "full")
        state = finish_phase(state)
        assert state.phase == "bureaucracy" and state.step == step_in_bureaucracy
        state = power_round(state)
        assert state.step == 3 and state.round == 2


def test_step3_card_drawn_in_bureaucracy() -> None:
    state = finish_phase(finish_phase(resources_phase()))
    assert state.phase == "bureaucracy" and state.step == 1
    state = state.copy()
    state.deck = [STEP3, 40]
    before = state.market.copy()
    state = power_round(state)
    # The highest plant went under the deck; the Step 3 card replaced it, then it and the
    # lowest plant left: six plants, all actual, and the shuffle is owed before anything else.
    assert state.step3_form and len(state.market) == 6
    assert state.market == before[1:-1]
    assert state.removed_in_play[-1] == before[0]
    assert G.to_act(state) == {CHANCE}
    refused(state, 0, {"type": "pass"}, "shuffled")
    state = G.apply(state, CHANCE, {"type": "shuffle", "deck": [40, before[-1]]})
    assert state.step == 3 and state.round == 2 and state.phase == "auction"
    assert G.view(state, None)["plant_market"]["future"] == []
