"""Power Grid in words: every move of seeded games reads as a sentence that leaks no hidden money,
exact sentences for an auction, a purchase, a build and powering, options, rounds and standings."""

import re
from random import Random
from typing import Any

import pytest

from bot.games.power_grid.words import (
    describe,
    options_in_words,
    phase_name,
    round_lines,
    standings_lines,
)
from bot.service.hosting import fill
from engine.core import CHANCE
from engine.power_grid.autopilot import choose
from engine.power_grid.baseline import random_action
from engine.power_grid.rules import plants
from engine.power_grid.state import State
from tests.power_grid.helpers import (
    G,
    act,
    buy_uncontested,
    edit,
    finish_phase,
    power_all,
    seat_of,
    start,
)

NAMES = ["Ada", "Ben", "Cy", "Di", "Eve", "Fay"]
PLACEHOLDER = re.compile(r"\{seat (\d+)\}")


def public_numbers(before: State, seat: int, action: dict[str, Any], after: State) -> set[int]:
    """Every number a table may hear about this move: the action's own numbers, the plant on
    auction, the price a seat paid or the income it earned (its money change), cities powered
    and a new Step. Never a money total."""
    known = {after.step}
    for key in ("plant", "bid", "amount"):
        if key in action:
            known.add(action[key])
    known |= set(action.get("plants", []))
    for key in ("resources", "return", "hybrid"):
        known |= set(action.get(key, {}).values())
    if before.auction is not None:
        known.add(before.auction.plant)
    for s in range(len(before.players)):
        known.add(abs(before.players[s].money - after.players[s].money))
    if action["type"] == "power":
        capacity = sum(plants()[n].cities for n in action["plants"])
        known.add(min(capacity, len(before.players[seat].cities)))
    return known


def check_words(before: State, seat: int, action: dict[str, Any], after: State) -> str:
    """A sentence, placeholders only for other seats, and every number in it public: so no
    seat's money total appears unless it happens to equal a number the move explains."""
    text = describe(before, seat, action, after)
    assert text and text[0].islower() and not text.endswith((".", " ")), text
    others = [int(n) for n in PLACEHOLDER.findall(text)]
    assert all(0 <= n < len(before.players) and n != seat for n in others), text
    assert "{" not in PLACEHOLDER.sub("", text) and "}" not in PLACEHOLDER.sub("", text), text
    numbers = {int(n) for n in re.findall(r"\d+", PLACEHOLDER.sub("", text))}
    unexplained = numbers - public_numbers(before, seat, action, after)
    assert not unexplained, f"{text!r} names {unexplained}"
    paid = before.players[seat].money - after.players[seat].money
    if action["type"] in ("buy", "build"):
        assert text.endswith(f" for {paid}"), text
    if action["type"] == "drop" and after.auction is None:
        winner = before.auction.leader
        price = before.players[winner].money - after.players[winner].money
        assert f"{{seat {winner}}} bought it for {price}" in text, text
    filled = fill(text, NAMES)
    assert "{" not in filled and "seat" not in filled, filled
    return text


def play(config: dict[str, Any], seed: int, autopilot: bool) -> list[str]:
    """A whole seeded game; every seat's move goes through `check_words`."""
    rng = Random(seed)
    state = G.new(G.Config(**config), seed)
    said = []
    while not G.is_over(state):
        seat = seat_of(state)
        if seat == CHANCE:
            action = G.sample_chance(state, rng).model_dump(mode="json")
        elif autopilot:
            action = choose(G.view(state, seat), seat).model_dump(mode="json", by_alias=True)
        else:
            action = random_action(state, seat, rng)
        after = G.apply(state, seat, action)
        if seat != CHANCE:
            said.append(check_words(state, seat, action, after))
        state = after
    return said


GAMES = [
    ({"players": 3, "map": "germany"}, 1, False),
    ({"players": 4, "map": "usa", "bid_order": "turn"}, 2, False),
    ({"players": 5, "map": "germany", "step3_refill": "late"}, 3, False),
    ({"players": 3, "map": "usa"}, 4, True),
    ({"players": 4, "map": "germany"}, 5, True),
    ({"players": 5, "map": "usa", "routes_through_unused_regions": True}, 6, True),
]


@pytest.mark.parametrize(("config", "seed", "autopilot"), GAMES)
def test_every_move_of_a_hidden_money_game_reads_as_a_sentence(config, seed, autopilot):
    said = play({**config, "hidden_money": True}, seed, autopilot)
    starts = {line.split(" ")[0] for line in said}
    assert {"picked", "opened", "raised", "dropped", "bought", "built", "powered"} <= starts
    assert any("bought it for" in line for line in said)
    assert said[-1].endswith("the game is over")


def test_an_auction_in_words():
    text, state = said(start(4), 0, {"type": "open", "plant": 4, "bid": 5})
    assert text == "opened plant 4 with a bid of 5"
    text, state = said(state, 1, {"type": "bid", "amount": 6})
    assert text == "raised the bid on plant 4 to 6"
    for seat in (2, 3):
        text, state = said(state, seat, {"type": "drop"})
        assert text == "dropped out of the bidding for plant 4"
    text, state = said(state, 0, {"type": "drop"})
    assert text == "dropped out of the bidding for plant 4; {seat 1} bought it for 6"
    assert fill(text, NAMES) == "dropped out of the bidding for plant 4; Ben bought it for 6"
    assert state.players[1].plants == [4]


def round_one_bought(**config: Any) -> State:
    """Round 1 after the auction: seats 0–3 own plants 3 (oil), 4 (coal), 5 (hybrid), 6
    (garbage); buying and building go 0, 1, 2, 3 (reverse player order)."""
    state = start(4, **config)
    for seat, plant in enumerate((3, 4, 5, 6)):
        state = buy_uncontested(state, seat, plant)
    assert state.phase == "resources" and state.order == [3, 2, 1, 0]
    return state


def said(state: State, seat: int, action: dict[str, Any]) -> tuple[str, State]:
    after = G.apply(state, seat, action)
    return describe(state, seat, action, after), after


def test_buying_and_building_in_words():
    state = act(act(round_one_bought(), 0, "done"), 1, "buy", resources={"coal": 2})
    state = act(state, 1, "done")
    # Coal: one token left at 1, then 2; oil starts at 3.
    text, state = said(state, 2, {"type": "buy", "resources": {"coal": 2, "oil": 1}})
    assert text == "bought 2 coal and 1 oil for 6"
    text, state = said(state, 2, {"type": "done"})
    assert text == "finished buying"
    state = finish_phase(state)
    # Hamburg 10, Kiel 8 + 10, Flensburg 4 + 10.
    text, state = said(state, 0, {"type": "build", "cities": ["Hamburg", "Kiel", "Flensburg"]})
    assert text == "built in Hamburg, Kiel and Flensburg for 42"
    text, state = said(state, 0, {"type": "done"})
    assert text == "finished building"


def bureaucracy(**config: Any) -> State:
    """Round 1's bureaucracy: Ada has Hamburg and Kiel but no oil, Cy has Berlin with 2 coal and
    1 oil for plant 5, Di 1 garbage for plant 6 and no city, Ben nothing."""
    state = act(round_one_bought(**config), 0, "done")
    state = act(act(state, 1, "done"), 2, "buy", resources={"coal": 2, "oil": 1})
    state = act(act(state, 2, "done"), 3, "buy", resources={"garbage": 1})
    state = act(state, 3, "done")
    state = act(act(state, 0, "build", cities=["Hamburg", "Kiel"]), 0, "done")
    state = act(act(state, 1, "done"), 2, "build", cities=["Berlin"])
    state = finish_phase(act(state, 2, "done"))
    assert state.phase == "bureaucracy"
    return state


def test_powering_in_words():
    state = bureaucracy()
    text, state = said(state, 3, {"type": "power", "plants": [6]})
    assert text == "powered 0 cities with plant 6 and earned 10"
    text, state = said(state, 0, {"type": "power", "plants": []})
    assert text == "powered nothing and earned 10"
    state = act(state, 1, "power", plants=[])
    # The last seat's power starts round 2, which clears every seat's powered count.
    text, after = said(state, 2, {"type": "power", "plants": [5], "hybrid": {"coal": 1, "oil": 1}})
    assert after.round == 2 and after.players[2].powered is None
    assert text == "powered 1 city with plant 5 (hybrid fuel: 1 coal and 1 oil) and earned 22"


def test_the_last_chooser_buys_at_once_and_a_pass():
    state = start(4)
    for seat in (0, 1, 2):
        state = buy_uncontested(state, seat, [3, 4, 5][seat])
    text, state = said(state, 3, {"type": "open", "plant": 6, "bid": 7})
    assert text == "bought plant 6 for 7 (nobody else could bid)"
    state = power_all(finish_phase(finish_phase(state)))
    assert state.round == 2
    text, _ = said(state, 3, {"type": "pass"})
    assert text == "passed (no plant this round)"


def test_a_discard_and_region_picks_in_words():
    state = edit(start(4), 0, plants=[20, 25, 31], fuel={"coal": 16})
    after = act(state, 0, "open", plant=3, bid=3)
    state = after
    while state.auction is not None:
        state = act(state, state.auction.turn, "drop")
    assert state.discard == 0
    text, _ = said(state, 0, {"type": "discard_plant", "plant": 20, "return": {"coal": 6}})
    assert text == "discarded plant 20 and returned 6 coal to the supply"
    state = G.new(G.Config(players=3), 0)
    rng = Random(0)
    while state.phase == "setup":
        state = G.apply(state, CHANCE, G.sample_chance(state, rng))
    picks = []
    for region in ("green", "brown", "yellow"):
        seat = seat_of(state)
        after = act(state, seat, "pick_region", region=region)
        picks.append(describe(state, seat, {"type": "pick_region", "region": region}, after))
        state = after
    assert picks == [
        "picked the green region",
        "picked the brown region",
        "picked the yellow region (in play: green, brown, yellow)",
    ]


def test_the_winner_of_a_plant_over_the_limit_must_discard():
    state = edit(start(4), 1, plants=[20, 25, 31])
    state = act(state, 0, "open", plant=3, bid=3)
    state = act(state, 1, "bid", amount=4)
    state = act(act(state, 2, "drop"), 3, "drop")
    after = act(state, 0, "drop")
    assert describe(state, 0, {"type": "drop"}, after) == (
        "dropped out of the bidding for plant 3; {seat 1} bought it for 4, "
        "and must now discard a plant"
    )


def test_phase_names():
    state = G.new(G.Config(players=3), 0)
    assert phase_name(G.view(state, None)) == "setup"
    state = start(4)
    assert phase_name(G.view(state, 0)) == "Round 1 · Step 1 · auction"
    state = round_one_bought()
    assert phase_name(G.view(state, None)) == "Round 1 · Step 1 · buying resources"
    assert phase_name(G.view(finish_phase(state), None)) == "Round 1 · Step 1 · building"


def test_options_in_words():
    default = G.Config(players=4).model_dump(mode="json")
    del default["players"]
    assert options_in_words(default) == [
        "Map: Germany",
        "Regions: picked by the players in turn order (WBC)",
        "Bidding: clockwise by seat (WBC)",
        "Money: open",
        "Step 3 card drawn while building: Step 3 refill that same round (rules)",
        "Routes through unused regions: no",
    ]
    chosen = G.Config(
        players=3,
        map="usa",
        regions=("purple", "cyan", "red"),
        bid_order="turn",
        hidden_money=True,
        step3_refill="late",
        routes_through_unused_regions=True,
    )
    assert options_in_words(chosen.model_dump(mode="json")) == [
        "Map: USA",
        "Regions: purple, cyan, red",
        "Bidding: in turn order",
        "Money: hidden (WBC)",
        "Step 3 card drawn while building: Step 3 refill from the next round",
        "Routes through unused regions: yes",
        "Step 2 at 7 cities; the game ends at 17 cities",
    ]
    assert options_in_words({}) == options_in_words(default)


def test_round_lines_show_money_only_where_the_view_does():
    state = bureaucracy(hidden_money=True)
    money = state.players[2].money
    assert round_lines(G.view(state, 2), NAMES) == [
        "Di: 0 cities, powers 0",
        f"Cy: 1 city, powers 1, {money} Elektro",
        "Ben: 0 cities, powers 0",
        "Ada: 2 cities, powers 0",
    ]
    assert all("Elektro" not in line for line in round_lines(G.view(state, None), NAMES))
    # Round 2's player order: the most cities first.
    state = bureaucracy()
    for seat in (3, 0, 1, 2):
        state = act(state, seat, "power", plants=[])
    lines = round_lines(G.view(state, None), NAMES)
    assert [line.split(":")[0] for line in lines] == ["Ada", "Cy", "Di", "Ben"]
    assert lines[0] == f"Ada: 2 cities, powers 0, {state.players[0].money} Elektro"
    assert all(line.endswith(" Elektro") for line in lines)


def test_standings_in_words_with_the_wbc_tiebreaks():
    state = start(6)
    state = edit(state, 0, plants=[20], fuel={"coal": 3}, money=12, cities=CITIES[:5])
    state = edit(state, 1, plants=[25], fuel={"coal": 2}, money=9, cities=CITIES[5:10])
    state = edit(state, 2, plants=[13, 18], fuel={}, money=30, cities=CITIES[10:13])
    state = edit(state, 3, plants=[], money=7)
    state = edit(state, 4, plants=[27], money=30, cities=CITIES[13:17])
    state = edit(state, 5, plants=[], money=7)
    assert standings_lines(G.outcome(state), NAMES) == [
        "1. Ada: 5 cities powered (ahead of Ben on money: 12 Elektro to 9)",
        "2. Ben: 5 cities powered (behind Ada on money: 9 Elektro to 12)",
        "3. Eve: 3 cities powered (ahead of Cy on cities: 4 cities to 3)",
        "4. Cy: 3 cities powered (behind Eve on cities: 3 cities to 4)",
        "5. Di: 0 cities powered (tied with Fay on every tiebreak)",
        "5. Fay: 0 cities powered (tied with Di on every tiebreak)",
    ]


def test_standings_without_ties_and_on_the_highest_plant():
    state = start(3)
    state = edit(state, 0, plants=[13], money=5, cities=CITIES[:1])
    state = edit(state, 1, plants=[18], money=5, cities=CITIES[1:2])
    state = edit(state, 2, plants=[27], money=5, cities=CITIES[2:5])
    assert standings_lines(G.outcome(state), NAMES) == [
        "1. Cy: 3 cities powered",
        "2. Ben: 1 city powered (ahead of Ada on highest plant: plant 18 to 13)",
        "3. Ada: 1 city powered (behind Ben on highest plant: plant 13 to 18)",
    ]


CITIES = [
    "Flensburg",
    "Kiel",
    "Hamburg",
    "Hannover",
    "Bremen",
    "Wilhelmshaven",
    "Cuxhaven",
    "Lubeck",
    "Rostock",
    "Schwerin",
    "Torgelow",
    "Magdeburg",
    "Berlin",
    "Halle",
    "Leipzig",
    "Dresden",
    "Erfurt",
]
