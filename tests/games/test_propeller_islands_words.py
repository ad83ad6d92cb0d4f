"""Propeller Islands in words: every move of seeded games reads as a sentence that names no hidden
card, exact sentences for drafts, claims, die changes, deploys and dock rewards, options, rounds
and standings."""

import re
from random import Random
from typing import Any

import pytest

from bot.games.propeller_islands.words import (
    describe,
    options_in_words,
    phase_name,
    round_lines,
    standings_lines,
)
from bot.service.hosting import fill
from engine.core import CHANCE
from engine.propeller_islands.autopilot import choose, random_action
from engine.propeller_islands.components import blueprints
from engine.propeller_islands.state import Bonus, State, Turn
from tests.propeller_islands.helpers import G, edit, island, play, turn_state

NAMES = ["Ada", "Ben", "Cy", "Di"]
PLACEHOLDER = re.compile(r"\{seat (\d+)\}")
CARD = re.compile(r"\bI{1,2}-\d\d\b")
MOVES = {
    "keep_character",
    "claim",
    "draft",
    "adjust",
    "discard",
    "activate",
    "use",
    "done",
    "complete",
    "end_turn",
    "deploy",
    "reward",
    "place",
    "depot",
    "choose",
    "install",
    "keep",
    "take",
}


def check_words(before: State, seat: int, action: dict[str, Any], after: State) -> str:
    """A sentence, placeholders only for other seats, and no blueprint named but the one this
    move completes or takes from the offer (a card drawn face down stays hidden)."""
    text = describe(before, seat, action, after)
    assert text and text[0].islower() and not text.endswith((".", " ", ";")), text
    others = [int(n) for n in PLACEHOLDER.findall(text)]
    assert all(0 <= n < len(before.players) and n != seat for n in others), text
    bare = PLACEHOLDER.sub("", text)
    assert "{" not in bare and "}" not in bare and "None" not in bare, text
    assert set(CARD.findall(text)) <= {action.get("card")}, text
    assert set(CARD.findall(text)) <= set(blueprints()), text
    filled = fill(text, NAMES)
    assert "{" not in filled and "seat" not in filled, filled
    return text


def play_game(config: dict[str, Any], seed: int, autopilot: bool) -> list[tuple[str, str]]:
    """A whole seeded game; every seat's move goes through `check_words`: (type, words)."""
    rng = Random(seed)
    state = G.new(G.Config(**config), seed)
    said = []
    while not G.is_over(state):
        (seat,) = G.to_act(state)
        if seat == CHANCE:
            action = G.sample_chance(state, rng).model_dump(mode="json")
        elif autopilot:
            action = choose(G.view(state, seat), seat).model_dump(mode="json", by_alias=True)
        else:
            options = G.legal_actions(state, seat)
            action = random_action(options, rng).model_dump(mode="json", by_alias=True)
        after = G.apply(state, seat, action)
        if seat != CHANCE:
            said.append((action["type"], check_words(state, seat, action, after)))
            assert phase_name(G.view(after, None))
        state = after
    return said


GAMES = [
    ({"players": 2}, 1, True),
    ({"players": 3, "capitol_side": "B"}, 2, True),
    ({"players": 4}, 3, True),
    ({"players": 2, "character_deal": 2}, 4, False),
    ({"players": 3, "character_deal": 2, "capitol_side": "B"}, 5, False),
    ({"players": 4, "age_order": [3, 1, 0, 2]}, 6, False),
]


@pytest.mark.parametrize(("config", "seed", "autopilot"), GAMES)
def test_every_move_of_a_game_reads_as_a_sentence(config, seed, autopilot):
    said = play_game(config, seed, autopilot)
    types = {t for t, _ in said}
    assert {"claim", "draft", "deploy", "use", "done", "complete", "take"} <= types
    assert all(text.startswith("drafted a ") for t, text in said if t == "draft")
    assert "and so is the game: " in said[-1][1]


def test_random_games_reach_every_move_type():
    # "choose" needs Amelia or Nicola at fame 10, which random play seldom reaches: see below.
    seen: dict[str, str] = {}
    for seed in range(100, 130):
        config = {"players": 2 + seed % 3, "character_deal": 2 if seed % 3 < 2 else 1}
        for kind, text in play_game(config, seed, False):
            seen.setdefault(kind, text)
    assert set(seen) == MOVES - {"choose"}


def said(state: State, seat: int, action: dict[str, Any]) -> tuple[str, State]:
    after = G.apply(state, seat, action)
    return describe(state, seat, action, after), after


def test_a_turn_in_words():
    state = turn_state(2, dice=[1, 2, 3, 4, 5])
    text, state = said(state, 0, {"type": "draft", "value": 1})
    assert text == "drafted a 1"
    text, state = said(state, 0, {"type": "claim", "space": 1, "at": [1, 0]})
    assert text == "claimed the Energy Depot: +3 energy"
    text, state = said(state, 0, {"type": "end_turn"})
    assert text == "ended the turn"
    text, state = said(state, 1, {"type": "draft", "value": 3})
    assert text == "drafted a 3"
    text, state = said(state, 1, {"type": "adjust", "to": 4})
    assert text == "paid 1 energy to change the die from 3 to 4"
    text, state = said(state, 1, {"type": "discard", "space": 7})
    assert text == "discarded the Supply Depot from offer space 7 for 2 energy"


def test_a_claim_with_guild_links_and_a_starting_tile():
    state = turn_state(2, dice=[1, 2, 3, 4, 5])
    # 05-4 (Tinker Shop, Culture banner) next to 02-3's Culture hub: one link.
    state = island(state, 0, [(1, 0, "02-3", None, {})])
    state = play(state, 0, {"type": "draft", "value": 1})
    text, _ = said(state, 0, {"type": "claim", "space": 12, "at": [2, 0]})
    assert text == "claimed the Tinker Shop: +1 fame (1 guild link)"
    start = G.new(G.Config(players=2), 0)
    rng = Random(0)
    while G.to_act(start) == {CHANCE}:
        start = G.apply(start, CHANCE, G.sample_chance(start, rng))
    (seat,) = G.to_act(start)
    space = next(i + 1 for i, t in enumerate(start.offer) if t and t.startswith("05"))
    text, _ = said(start, seat, {"type": "claim", "space": space, "at": [1, 0]})
    assert text == "claimed the Tinker Shop as a starting tile"


def test_free_die_changes_in_words():
    state = turn_state(2, characters=("charles", "marie"), dice=[1, 2, 3, 4, 5])
    state = play(edit(state, 0, fame=5), 0, {"type": "draft", "value": 3})
    text, _ = said(state, 0, {"type": "adjust", "to": 2, "free": True})
    assert text == "changed the die from 3 to 2 (Sir Charles's free change)"
    state = island(turn_state(2, characters=("nelson", "marie")), 0, [])
    state = edit(state, 0, fame=10)
    state.phase, state.turn, state.forge = "bonus", None, [0, 0, 1, 0, 0, 0]
    state.bonus = Bonus(3, 0, 3)
    assert phase_name(G.view(state, None)) == "Round 1 · bonus die (a 3)"
    text, state = said(state, 0, {"type": "adjust", "to": 6, "free": True})
    assert text == "counted the bonus die as 6 instead of 3 (Nelson)"
    text, _ = said(state, 0, {"type": "use", "tile": [0, 0], "option": "resources"})
    assert text == "activated the Capitol with the bonus die: +1 energy, +1 steel"


def deploying(dock: list[int], fame: int = 0) -> State:
    """Seat 0 (Marie) with workers only on the dock spaces `dock` (row-major indexes), a vacant
    Tinker Shop and Iron Foundry, about to deploy with its Capitol."""
    state = turn_state(2, dice=[1, 2, 3, 4, 5])
    tiles = [(1, 0, "05-3", None, {}), (2, 0, "07-4", None, {})]
    state = edit(island(state, 0, tiles), 0, dock=[i in dock for i in range(12)], fame=fame)
    state.turn = Turn(0, "activating", 3, 3)
    text, state = said(state, 0, {"type": "use", "tile": [0, 0], "option": "deploy"})
    assert text == "activated the Capitol to deploy a worker"
    return state


def test_a_deploy_and_its_dock_line_reward():
    state = deploying([0, 2, 3, 9, 10])
    text, state = said(state, 0, {"type": "deploy", "from": [3, 2], "to": [1, 0]})
    assert text == (
        "deployed a worker from the dock to the Tinker Shop; "
        "the dock line C2 is empty: reward +1 part"
    )
    assert state.players[0].parts == 2


def test_two_dock_lines_at_once_and_the_reward_order():
    # Dock space (3, 2) holds the last worker of column C2 and of row R3.
    state = deploying([0, 2, 3, 4, 9])
    text, state = said(state, 0, {"type": "deploy", "from": [3, 2], "to": [1, 0]})
    assert text == (
        "deployed a worker from the dock to the Tinker Shop; "
        "the dock lines C2 and R3 are empty: both rewards, in an order to pick"
    )
    assert phase_name(G.view(state, 0)) == "Round 1 · turn 1 of 4 · picking the first dock reward"
    text, state = said(state, 0, {"type": "reward", "line": "C2"})
    assert text == "chose the C2 reward first: +1 part; then the R3 reward: deploy 1 more worker"
    text, _ = said(state, 0, {"type": "deploy", "from": [1, 1], "to": [2, 0]})
    assert text == "deployed a worker from the dock to the Iron Foundry"


def test_fame_from_a_reward_unlocks_an_ability():
    state = deploying([0, 10, 11], fame=2)
    text, _ = said(state, 0, {"type": "deploy", "from": [3, 4], "to": [1, 0]})
    assert text == (
        "deployed a worker from the dock to the Tinker Shop; "
        "the dock line C4 is empty: reward +3 fame; "
        "reached 5 fame: Marie's basic ability is unlocked"
    )


def test_the_last_worker_off_the_dock_ends_the_game_after_the_round():
    state = deploying([6])
    text, _ = said(state, 0, {"type": "deploy", "from": [2, 3], "to": [1, 0]})
    assert text.endswith("; their dock is empty: the game ends after this round")


def test_activating_and_marie_in_words():
    state = turn_state(2, dice=[1, 2, 3, 4, 5])
    tiles = [(1, 0, "05-3", "ready", {}), (2, 0, "06-5", "ready", {})]
    state = edit(island(state, 0, tiles), 0, fame=5, energy=1)
    state = play(state, 0, {"type": "draft", "value": 3})
    text, state = said(state, 0, {"type": "activate"})
    assert text == "chose to activate buildings with the 3"
    assert phase_name(G.view(state, 0)) == "Round 1 · turn 1 of 4 · activating (a 3)"
    text, state = said(state, 0, {"type": "use", "tile": [1, 0]})
    assert text == "activated the Tinker Shop: +1 part"
    text, _ = said(state, 0, {"type": "use", "tile": [2, 0]})
    assert text == "activated the Refinery with Marie's extra activation: +1 energy"


def test_a_blueprint_in_words():
    state = turn_state(2, characters=("nicola", "marie"))
    state = edit(state, 0, fame=5, energy=5, steel=5, parts=5, hand=["I-01"])
    state = island(state, 0, [(1, 0, "05-3", None, {})])
    state.turn = Turn(0, "blueprint", 1, 1)
    text, state = said(state, 0, {"type": "complete", "card": "I-01"})
    assert text == (
        "completed blueprint I-01 (2 VP, an energy production upgrade) for 2 energy and 1 steel; "
        "Nicola's ability: +1 energy"
    )
    text, state = said(state, 0, {"type": "install", "tile": [1, 0]})
    assert text == "installed the energy production upgrade on the Tinker Shop"
    card = state.bp_offer["II"][0]
    text, _ = said(state, 0, {"type": "take", "card": card})
    assert text == f"took blueprint {card} from the offer"
    text, _ = said(state, 0, {"type": "take", "stack": "I"})
    assert text == "drew a level I blueprint from the stack"


def test_an_advanced_ability_choice_in_words():
    state = turn_state(2, characters=("nicola", "marie"))
    state = edit(state, 0, fame=10, energy=5, steel=5, parts=5, hand=["I-01"])
    state.turn = Turn(0, "blueprint", 1, 1)
    text, state = said(state, 0, {"type": "complete", "card": "I-01"})
    assert text.endswith("; Nicola's ability: +1 energy or +1 steel, to choose")
    text, state = said(state, 0, {"type": "keep"})
    assert text == "set the energy production upgrade aside"
    text, _ = said(state, 0, {"type": "choose", "resource": "steel"})
    assert text == "chose +1 steel (Nicola's advanced ability)"


def test_phase_names():
    state = G.new(G.Config(players=2), 0)
    assert phase_name(G.view(state, None)) == "setup"
    state = turn_state(2, dice=[1, 2, 3, 4, 5])
    assert phase_name(G.view(state, 0)) == "Round 1 · turn 1 of 4 · draft"
    state = play(state, 0, {"type": "draft", "value": 3})
    assert phase_name(G.view(state, None)) == (
        "Round 1 · turn 1 of 4 · claim, discard or activate (a 3)"
    )
    state.phase = "over"
    assert phase_name(G.view(state, None)) == "game over"


def test_options_in_words():
    default = G.Config(players=4).model_dump(mode="json")
    del default["players"]
    assert options_in_words(default) == [
        "Capitol side: A (Standard: +1 energy, +1 steel)",
        "Characters dealt: 1 each",
        "Last tiebreak: none, equal players share the place",
    ]
    assert options_in_words({}) == options_in_words(default)
    chosen = G.Config(players=3, capitol_side="B", character_deal=2, age_order=(2, 0, 1))
    assert options_in_words(chosen.model_dump(mode="json")) == [
        "Capitol side: B (Harbour Hub: +1 energy, a hub for every guild)",
        "Characters dealt: 2 each, keep one",
        "Last tiebreak: the youngest player (age order given)",
        "Dice: 7 a round",
    ]


def test_round_lines():
    state = turn_state(3, dice=[1, 2, 3, 4, 5, 6, 1])
    state.start_player = 1
    tiles = [(1, 0, "05-3", "ready", {}), (2, 0, "06-5", None, {})]
    state = edit(island(state, 2, tiles), 2, fame=7, energy=4, steel=0, completed=["I-01"])
    assert round_lines(G.view(state, None), NAMES) == [
        "Ben (Nelson): 0 fame, 1 tile, 1 worker on the island, 0 blueprints completed, "
        "1 energy, 1 steel, 1 part",
        "Cy (Amelia): 7 fame, 2 tiles, 2 workers on the island, 1 blueprint completed, "
        "4 energy, 0 steel, 1 part",
        "Ada (Marie): 0 fame, 1 tile, 1 worker on the island, 0 blueprints completed, "
        "1 energy, 1 steel, 1 part",
    ]


def scored(state: State, seat: int, fame: int, dock: int) -> State:
    """Seat with only its Capitol, no resources, `fame` and `dock` workers left on the dock."""
    state = island(state, seat, [])
    docked = [i < dock for i in range(12)]
    return edit(state, seat, fame=fame, energy=0, steel=0, parts=0, dock=docked)


def test_standings_with_the_dock_workers_tiebreak_and_a_shared_place():
    state = turn_state(4)
    for seat, (fame, dock) in enumerate([(10, 9), (10, 12), (5, 3), (5, 3)]):
        state = scored(state, seat, fame, dock)
    none = "blueprints 0, landmarks 0, resources 0"
    assert standings_lines(G.outcome(state), NAMES) == [
        f"1. Ben: 10 VP (fame 10, {none}; ahead of Ada on workers left on the dock: 12 to 9)",
        f"2. Ada: 10 VP (fame 10, {none}; behind Ben on workers left on the dock: 9 to 12)",
        f"3. Cy: 5 VP (fame 5, {none}; tied with Di on every tiebreak)",
        f"3. Di: 5 VP (fame 5, {none}; tied with Cy on every tiebreak)",
    ]


def test_standings_decided_by_age_and_without_ties():
    state = turn_state(3, age_order=(1, 2, 0))
    for seat, (fame, dock) in enumerate([(8, 4), (8, 4), (3, 12)]):
        state = scored(state, seat, fame, dock)
    none = "blueprints 0, landmarks 0, resources 0"
    assert standings_lines(G.outcome(state), NAMES) == [
        f"1. Ben: 8 VP (fame 8, {none}; ahead of Ada as the younger player)",
        f"2. Ada: 8 VP (fame 8, {none}; behind Ben, the younger player)",
        f"3. Cy: 3 VP (fame 3, {none})",
    ]
