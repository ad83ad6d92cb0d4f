"""Which moves a player may take back while still on turn (Board Game Arena's rule): nothing
turned face up, no chance, the turn not over and play not passed on."""

from collections import Counter

import pytest

from engine.core import CHANCE, Logged
from engine.propeller_islands.state import Bonus, State, Turn

from .helpers import G, edit, island, play, random_game, setup, turn_state

RICH = {"energy": 9, "steel": 9, "parts": 9, "hand": ["I-01", "I-02", "II-01"]}
"""Resources to complete a blueprint, so the turn goes on after the die is used."""


def _step(s: State, seat: int, action: dict) -> Logged:
    return Logged(s, seat, action, G.apply(s, seat, action))


def _reversible(s: State, seat: int, action: dict) -> bool:
    return G.reversible(_step(s, seat, action))


def _drafted(**player: object) -> State:
    """Seat 0 with a drafted 1 (which reaches O1, O2 and O12), player fields as given."""
    return play(
        edit(turn_state(2, dice=[1, 2, 3, 4, 5]), 0, **player), 0, {"type": "draft", "value": 1}
    )


def _no_stack(s: State) -> State:
    s = s.copy()
    s.stack = []
    return s


def test_drafting_and_changing_the_die_can_be_taken_back() -> None:
    s = turn_state(2, dice=[1, 2, 3, 4, 5])
    assert _reversible(s, 0, {"type": "draft", "value": 1})
    assert _reversible(_drafted(), 0, {"type": "adjust", "to": 2})


@pytest.mark.parametrize("player", [{}, RICH])
def test_a_claim_or_a_discard_turns_a_tile_face_up_so_it_is_final(player: dict) -> None:
    # The rules: "Replace the building tile you took with a new one from the draw stack" is part
    # of the claim (and of the discard), so the next tile is seen at once.
    s = _drafted(**player)
    step = _step(s, 0, {"type": "claim", "space": 1, "at": [1, 0]})
    assert len(step.after.stack) == len(s.stack) - 1
    assert not G.reversible(step)
    assert not _reversible(s, 0, {"type": "discard", "space": 1})


def test_with_the_stack_empty_a_claim_shows_nothing_and_is_final_only_if_it_ends_the_turn() -> None:
    claim = {"type": "claim", "space": 1, "at": [1, 0]}
    assert _reversible(_no_stack(_drafted(**RICH)), 0, claim)
    # With no blueprint to complete, the turn ends by itself after the claim.
    assert not _reversible(_no_stack(_drafted(energy=0, steel=0, parts=0)), 0, claim)


def test_activating_and_using_buildings_can_be_taken_back() -> None:
    s = _drafted(**RICH)
    assert _reversible(s, 0, {"type": "activate"})
    s = play(s, 0, {"type": "activate"})
    assert _reversible(s, 0, {"type": "use", "tile": [0, 0], "option": "resources"})
    assert _reversible(s, 0, {"type": "done"})


def test_finishing_with_no_blueprint_to_complete_ends_the_turn() -> None:
    s = play(_drafted(energy=0, steel=0, parts=0), 0, {"type": "activate"})
    step = _step(s, 0, {"type": "done"})
    assert step.after.turn is not None and step.after.turn.seat == 1
    assert not G.reversible(step)


def test_completing_and_installing_can_be_taken_back_but_not_the_new_blueprint() -> None:
    s = island(turn_state(2), 0, [(0, -1, "05-2", None, {})])
    s = edit(s, 0, energy=9, steel=9, parts=9, hand=["I-12"])
    s.turn = Turn(0, "blueprint", 1, 1)
    assert _reversible(s, 0, {"type": "complete", "card": "I-12"})
    s = play(s, 0, {"type": "complete", "card": "I-12"})
    assert _reversible(s, 0, {"type": "install", "tile": [0, -1]})
    s = play(s, 0, {"type": "install", "tile": [0, -1]})
    shown = s.bp_offer["I"][0]
    assert not _reversible(s, 0, {"type": "take", "card": shown})
    assert not _reversible(s, 0, {"type": "take", "stack": "II"})


def test_ending_the_turn_is_final() -> None:
    s = turn_state(2)
    s.turn = Turn(0, "blueprint", 1, 1)
    assert not _reversible(s, 0, {"type": "end_turn"})


def test_a_deploy_is_final_when_its_reward_draws_the_top_tile() -> None:
    s = island(turn_state(2, dice=[1, 2, 3, 4, 5]), 0, [(1, 0, "05-3", None, {})])
    s = edit(s, 0, **RICH)
    s.turn = Turn(0, "activating", 1, 1)
    s = play(s, 0, {"type": "use", "tile": [0, 0], "option": "deploy"})
    assert _reversible(s, 0, {"type": "deploy", "from": [1, 1], "to": [1, 0]})
    # Column 1 empty but for (1, 1): taking it pays reward C1, the top tile of the draw stack.
    last = edit(
        s, 0, dock=[True] + [True, True, True] + [False] + [True] * 3 + [False] + [True] * 3
    )
    step = _step(last, 0, {"type": "deploy", "from": [1, 1], "to": [1, 0]})
    assert step.after.tasks[-1].kind == "place"
    assert not G.reversible(step)


def test_the_bonus_die_can_be_used_and_taken_back_but_finishing_passes_it_on() -> None:
    s = island(turn_state(2), 0, [(1, 0, "05-2", "ready", {})])
    s.phase, s.turn, s.bonus = "bonus", None, Bonus(2, 0, 2)
    assert _reversible(s, 0, {"type": "use", "tile": [0, 0], "option": "resources"})
    # The last activation of the bonus die finishes it by itself: play passes on.
    used = play(s, 0, {"type": "use", "tile": [0, 0], "option": "resources"})
    assert not _reversible(used, 0, {"type": "use", "tile": [1, 0]})
    assert not _reversible(s, 0, {"type": "done"})


def test_setup_moves_pass_play_on_and_chance_is_never_taken_back() -> None:
    s = setup(2, characters=(("marie", "nelson"), ("amelia", "jacques")), character_deal=2)
    assert s.phase == "keep_character"
    assert not _reversible(s, 0, {"type": "keep_character", "character": "marie"})
    s = play(s, 0, {"type": "keep_character", "character": "marie"})
    s = play(s, 1, {"type": "keep_character", "character": "jacques"})
    assert not _reversible(s, 1, {"type": "claim", "space": 12, "at": [0, -1]})
    roll = turn_state(2)
    roll.phase, roll.turn, roll.dice_to_roll = "roll", None, 5
    assert not _reversible(roll, CHANCE, {"type": "roll", "dice": [1, 2, 3, 4, 5]})


@pytest.mark.parametrize("seed", range(3))
def test_along_whole_games_a_move_taken_back_showed_nothing_and_kept_the_turn(seed: int) -> None:
    s = G.new(G.Config(players=3), seed)
    kinds = Counter[bool]()
    for seat, action in random_game(seed, 3)[1]:
        after = G.apply(s, seat, action)
        step = Logged(s, seat, action.model_dump(mode="json", by_alias=True), after)
        if G.reversible(step):
            shown = G.redact(step, after, seat)
            assert "drawn" not in shown and "to_your_hand" not in shown, shown
            assert G.to_act(after) == {seat}
        kinds[G.reversible(step)] += 1
        s = after
    assert kinds[True] > 50 and kinds[False] > 50, kinds
