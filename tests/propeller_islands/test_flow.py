"""Setup, turn order, auto-steps, the bonus die, the end conditions, ranks and refusals."""

import pytest
from pydantic import ValidationError

from engine.core import CHANCE
from engine.propeller_islands.state import Bonus, Turn

from .helpers import G, edit, island, legal_dicts, play, refused, setup, turn_state


def test_config_refusals() -> None:
    for bad in (
        {"players": 1},
        {"players": 5},
        {"players": 4, "character_deal": 2},
        {"players": 2, "age_order": [0, 0]},
        {"players": 2, "colour": "red"},
        {"players": 2, "capitol_side": "C"},
    ):
        with pytest.raises(ValidationError):
            G.Config.model_validate(bad)


def test_setup_deals_in_seat_order_from_start_player() -> None:
    s = setup(3, start=2)
    assert s.offer == [f"0{t}" for t in ("2-1", "2-2", "2-3", "2-4", "3-1", "3-2", "3-3")] + [
        "04-1",
        "04-2",
        "04-3",
        "05-1",
        "05-2",
    ]
    assert s.bp_offer == {"I": ["I-01", "I-02", "I-03"], "II": ["II-01", "II-02", "II-03"]}
    assert s.players[2].hand == ["I-04", "I-05", "II-04"]
    assert s.players[0].hand == ["I-06", "I-07", "II-05"]
    assert s.players[1].hand == ["I-08", "I-09", "II-06"]
    p = s.players[0]
    assert (p.energy, p.steel, p.parts, p.fame, sum(p.dock)) == (1, 1, 1, 0, 12)
    assert s.phase == "start_tiles" and G.to_act(s) == {1}


def test_setup_refusals() -> None:
    s = G.new(G.Config(players=2), 0)
    refused(s, CHANCE, {"type": "start_player", "seat": 2}, "not at this table")
    refused(
        s, 0, {"type": "start_player", "seat": 0}, "not your move: the game waits for the setup"
    )
    s = G.apply(s, CHANCE, {"type": "start_player", "seat": 0})
    refused(s, CHANCE, {"type": "deal_characters", "characters": ["marie", "marie"]}, "different")
    refused(s, CHANCE, {"type": "deal_characters", "characters": ["marie", "bob"]}, "Unknown")
    s = G.apply(s, CHANCE, {"type": "deal_characters", "characters": ["marie", "nelson"]})
    refused(s, CHANCE, {"type": "shuffle_tiles", "order": ["02-1"]}, "permutation")
    s = G.apply(s, CHANCE, G.sample_chance(s, __import__("random").Random(1)))
    refused(s, CHANCE, {"type": "shuffle_blueprints", "level": "II", "order": []}, "level I")


def test_character_deal_two_keep_one() -> None:
    s = G.new(G.Config(players=2, character_deal=2), 0)
    s = G.apply(s, CHANCE, {"type": "start_player", "seat": 1})
    deal = [["marie", "nelson"], ["amelia", "jacques"]]
    s = G.apply(s, CHANCE, {"type": "deal_characters", "characters": deal})
    from random import Random

    rng = Random(0)
    for _ in range(3):
        s = G.apply(s, CHANCE, G.sample_chance(s, rng))
    assert s.phase == "keep_character" and G.to_act(s) == {1}
    assert G.view(s, 1)["seats"][1]["dealt"] == ["amelia", "jacques"]
    assert G.view(s, 0)["seats"][1]["dealt"] == []
    refused(s, 1, {"type": "keep_character", "character": "marie"}, "were dealt")
    s = play(s, 1, {"type": "keep_character", "character": "jacques"})
    s = play(s, 0, {"type": "keep_character", "character": "marie"})
    assert [p.character for p in s.players] == ["marie", "jacques"] and s.phase == "start_tiles"


def test_start_tiles_reverse_order_next_to_capitol() -> None:
    s = setup(3, start=1)
    assert G.to_act(s) == {0}
    refused(s, 0, {"type": "claim", "space": 3, "at": [2, 0]}, "next to your Capitol")
    s = play(s, 0, {"type": "claim", "space": 3, "at": [1, 0]})
    assert G.to_act(s) == {2} and s.offer[2] == "05-3"
    s = play(s, 2, {"type": "claim", "space": 12, "at": [0, 1]})
    s = play(s, 1, {"type": "claim", "space": 12, "at": [0, 1]})
    assert s.phase == "roll" and s.dice_to_roll == 7 and len(s.stack) == 70 - 12 - 3


def test_turn_order_and_bonus_die() -> None:
    s = turn_state(2, dice=[1, 2, 3, 4, 5])
    seats = []
    for value in (1, 2, 3, 4):
        seats.append(s.turn.seat)
        s = play(
            s,
            s.turn.seat,
            {"type": "draft", "value": value},
            {"type": "discard", "space": 2 * value},
        )
        if s.phase == "turns" and s.turn.stage == "blueprint":
            s = play(s, s.turn.seat, {"type": "end_turn"})
    assert seats == [0, 1, 0, 1]
    # The Capitols' workers are ready, so each seat gets to use the bonus 5.
    assert s.phase == "bonus" and s.bonus.die == 5 and G.to_act(s) == {0}
    refused(s, 0, {"type": "complete", "card": "I-04"}, "can't complete a blueprint now")
    s = play(s, 0, {"type": "done"})
    assert G.to_act(s) == {1}
    s = play(s, 1, {"type": "use", "tile": [0, 0], "option": "resources"})
    # Round 2: workers stand, the start player passes.
    assert s.phase == "roll" and s.round == 2 and s.start_player == 1
    assert all(c.worker == "ready" for p in s.players for c in p.cells if c.worker)


def test_auto_steps_after_activate_with_nothing() -> None:
    s = turn_state(2, dice=[1, 2, 3, 4, 5])
    s = edit(s, 0, hand=[])
    s.players[0].cells[0].worker = "lying"
    s = play(s, 0, {"type": "draft", "value": 1}, {"type": "activate"})
    assert s.turn.seat == 1 and s.players[0].dice == [1]


def test_legal_actions_in_act_stage() -> None:
    s = play(turn_state(2, dice=[1, 2, 3, 4, 5]), 0, {"type": "draft", "value": 2})
    acts = legal_dicts(s, 0)
    types = {a["type"] for a in acts}
    assert types == {"adjust", "claim", "discard", "activate"}
    assert {"type": "adjust", "to": 1} in acts and {"type": "adjust", "to": 3} in acts
    assert not [a for a in acts if a.get("free")]
    assert G.legal_actions(s, 1) == [] and G.legal_actions(s, CHANCE) == []


@pytest.mark.parametrize("trigger", ["stack", "blueprints", "dock"])
def test_end_conditions_checked_after_the_bonus(trigger: str) -> None:
    s = turn_state(2)
    if trigger == "stack":
        s.stack = []
    elif trigger == "blueprints":
        s = edit(s, 1, completed=["I-01"] * 7)
    else:
        s = edit(s, 1, dock=[False] * 12)
    s.phase, s.turn, s.forge = "bonus", None, [0, 0, 0, 0, 0, 1]
    s.bonus = Bonus(6, 0, 6)
    s = play(s, 0, {"type": "done"})
    assert not G.is_over(s)
    s = play(s, 1, {"type": "done"})
    assert G.is_over(s) and G.to_act(s) == set()
    refused(s, 0, {"type": "done"}, "over")


def test_result_ranks_and_tiebreaks() -> None:
    s = turn_state(3)
    s = edit(s, 0, fame=10, dock=[True] * 5 + [False] * 7)
    s = edit(s, 1, fame=10, dock=[True] * 6 + [False] * 6)
    s = edit(s, 2, fame=10, dock=[True] * 6 + [False] * 6)
    res = G.result(s)
    totals = [e["total"] for e in res["seats"]]
    assert totals[0] == totals[1] == totals[2]
    assert res["ranks"] == [3, 1, 1] and res["winners"] == [1, 2]
    aged = s.copy()
    aged.config = G.Config(players=3, age_order=(2, 1, 0))
    assert G.result(aged)["ranks"] == [3, 2, 1]
    out = G.outcome(s)
    assert out[1]["rank"] == 1 and out[0]["secondary"] == 5


def test_turn_refusals_leave_state_unchanged() -> None:
    s = turn_state(2, dice=[1, 2, 3, 4, 5])
    s = edit(s, 0, energy=0, hand=["I-01"])
    refused(s, 0, {"type": "draft", "value": 6}, "no 6 left")
    refused(
        s,
        1,
        {"type": "draft", "value": 1},
        "not your move: the game waits for a player to draft a die",
    )
    refused(s, 0, {"type": "claim", "space": 1, "at": [1, 0]}, "can't claim a tile now")
    refused(s, 0, {"type": "draft", "value": 1, "extra": 1}, "malformed")
    refused(s, 0, {"type": "draft"}, "malformed")
    s = play(s, 0, {"type": "draft", "value": 2})
    refused(s, 0, {"type": "adjust", "to": 3}, "costs 1 energy")
    refused(s, 0, {"type": "adjust", "to": 3, "free": True}, "Only Sir Charles")
    refused(
        s,
        0,
        {"type": "claim", "space": 9, "at": [1, 0]},
        "out of your die's reach: a 2 reaches O2, O3 or O4",
    )
    refused(s, 0, {"type": "claim", "space": 2, "at": [0, -1]}, "already holds a tile")
    refused(s, 0, {"type": "claim", "space": 2, "at": [5, 5]}, "not next to your island")
    refused(
        s, 0, {"type": "discard", "space": 7}, "out of your die's reach: a 2 reaches O2, O3 or O4"
    )
    s.offer[2] = None
    refused(s, 0, {"type": "discard", "space": 3}, "is empty")
    s = play(s, 0, {"type": "activate"})
    refused(s, 0, {"type": "use", "tile": [3, 3]}, "Your island has no tile there")
    refused(s, 0, {"type": "use", "tile": [0, -1]}, "no ready worker")
    refused(s, 0, {"type": "use", "tile": [0, 0], "option": "energy_to_steel"}, "can't do that")
    s = island(
        s, 0, [(1, 0, "02-1", None, {}), (2, 0, "14-1", "ready", {}), (0, 1, "05-1", "ready", {})]
    )
    refused(s, 0, {"type": "use", "tile": [1, 0]}, "cannot be activated")
    refused(s, 0, {"type": "use", "tile": [2, 0]}, "cannot be activated")
    refused(s, 0, {"type": "use", "tile": [0, 1]}, "needs a 1, not a 2")
    refused(s, 0, {"type": "use", "tile": [0, 1], "option": "deploy"}, "has no choice to make")
    s.turn = Turn(0, "blueprint", 2, 2)
    refused(s, 0, {"type": "complete", "card": "I-09"}, "not in your hand")
    refused(s, 0, {"type": "complete", "card": "I-01"}, "you lack energy")


def test_task_refusals() -> None:
    s = island(turn_state(2), 0, [(0, -1, "05-2", None, {})])
    s = edit(s, 0, energy=9, steel=9, parts=9, hand=["I-12"])
    s.turn = Turn(0, "blueprint", 1, 1)
    s = play(s, 0, {"type": "complete", "card": "I-12"})
    refused(s, 0, {"type": "install", "tile": [0, 0]}, "no space for a banner")
    refused(s, 0, {"type": "install", "tile": [4, 4]}, "Your island has no tile there")
    refused(s, 0, {"type": "take", "card": "I-01"}, "can't take a blueprint now")
    s = play(s, 0, {"type": "keep"})
    refused(s, 0, {"type": "take", "card": "I-09"}, "not face up")
    refused(s, 0, {"type": "take"}, "either a face-up card")
    refused(s, 0, {"type": "take", "card": "I-01", "stack": "I"}, "either a face-up card")
    s.bp_stack["II"] = []
    refused(s, 0, {"type": "take", "stack": "II"}, "stack is empty")
    s = play(s, 0, {"type": "take", "card": "I-02"})
    assert s.bp_offer["I"] == ["I-01", s.bp_offer["I"][1], "I-03"] and s.turn.seat == 1
