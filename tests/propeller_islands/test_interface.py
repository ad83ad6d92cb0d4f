"""Audit of the issue 8 interface: values outside the listed ones and the outcome contract."""

import pytest
from pydantic import ValidationError

from engine.core import shared_ranks

from .helpers import G, edit, play, refused, turn_state


@pytest.mark.parametrize(
    "bad",
    [
        {"players": "3"},
        {"players": 3.0},
        {"players": 2, "character_deal": True},
        {"players": 2, "character_deal": 2.0},
        {"players": 2, "age_order": [True, 0]},
    ],
)
def test_config_refuses_values_that_only_look_like_the_listed_ones(bad: dict) -> None:
    with pytest.raises(ValidationError):
        G.new(bad, 0)


@pytest.mark.parametrize(
    "action",
    [
        {"type": "draft", "value": "2"},
        {"type": "draft", "value": 2.0},
        {"type": "draft", "value": True},
    ],
)
def test_draft_needs_an_integer_value(action: dict) -> None:
    refused(turn_state(2, dice=[1, 2, 3, 4, 5]), 0, action, "malformed")


def test_adjust_free_must_be_a_boolean() -> None:
    s = turn_state(2, dice=[1, 2, 3, 4, 5], characters=("charles", "nelson"))
    s = play(edit(s, 0, fame=5), 0, {"type": "draft", "value": 2})
    refused(s, 0, {"type": "adjust", "to": 3, "free": "true"}, "malformed")
    refused(s, 0, {"type": "adjust", "to": 3, "free": 1}, "malformed")
    assert play(s, 0, {"type": "adjust", "to": 3, "free": True}).turn.free


def test_deploy_key_is_from_only() -> None:
    s = turn_state(2, dice=[1, 2, 3, 4, 5])
    s = play(s, 0, {"type": "draft", "value": 1}, {"type": "activate"})
    s = play(s, 0, {"type": "use", "tile": [0, 0], "option": "deploy"})
    assert s.tasks[-1].kind == "deploy"
    refused(s, 0, {"type": "deploy", "from_": [1, 1], "to": [0, -1]}, "malformed")
    refused(s, 0, {"type": "deploy", "from": [1, True], "to": [0, -1]}, "malformed")
    s = play(s, 0, {"type": "deploy", "from": [1, 1], "to": [0, -1]})
    assert not s.players[0].dock[0]


def test_outcome_tiebreak_is_the_whole_rank_key() -> None:
    s = turn_state(3)
    s = edit(s, 0, fame=10, dock=[True] * 5 + [False] * 7)
    s = edit(s, 1, fame=10, dock=[True] * 6 + [False] * 6)
    s = edit(s, 2, fame=10, dock=[True] * 6 + [False] * 6)
    s.config = G.Config(players=3, age_order=(2, 1, 0))
    out = G.outcome(s)
    # Seats 1 and 2 tie on total and dock workers; seat 2 is youngest.
    assert [o["rank"] for o in out] == [3, 2, 1]
    assert [o["tiebreak"][1:] for o in out] == [[5, 1], [6, 2], [6, 3]]
    assert shared_ranks([tuple(o["tiebreak"]) for o in out]) == [o["rank"] for o in out]
    assert [o["details"]["tiebreak"] for o in out] == ["dock_workers", "age", "age"]
    s.config = G.Config(players=3)
    assert [o["details"]["tiebreak"] for o in G.outcome(s)] == [
        "dock_workers",
        "shared",
        "shared",
    ]
