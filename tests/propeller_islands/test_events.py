"""What a move did, as the engine reports it: the move with its own gains (Amelia's apart), a
Crew Depot's worker, dock lines emptied and their rewards, abilities, fame levels, the end."""

from typing import Any

from engine.core import CHANCE, Event
from engine.propeller_islands.components import rules
from engine.propeller_islands.events import (
    AbilityGain,
    BlueprintCompleted,
    DieDrafted,
    FameLevel,
    GameEnded,
    LastRound,
    LinesEmptied,
    RewardChosen,
    RewardPaid,
    TileClaimed,
    TilePlaced,
    WorkerDeployed,
)
from engine.propeller_islands.state import State, Turn
from tests.games.test_propeller_islands_words import deploying
from tests.propeller_islands.helpers import G, edit, island, play, random_game, turn_state


def happened(state: State, seat: int, action: dict[str, Any]) -> tuple[list[Event], State]:
    after = G.apply(state, seat, action)
    return G.happened(state, seat, action, after), after


def linked() -> State:
    """Seat 0 to draft, with an Energy Depot (a Culture hub) at (1, 0): the Tinker Shop in offer
    space 12 (a Culture banner) links with it at (2, 0)."""
    return island(turn_state(2, dice=[1, 2, 3, 4, 5]), 0, [(1, 0, "02-3", None, {})])


def test_a_claim_with_a_guild_link_gains_fame():
    events, state = happened(linked(), 0, {"type": "draft", "value": 1})
    assert events == [DieDrafted(value=1)]
    events, _ = happened(state, 0, {"type": "claim", "space": 12, "at": [2, 0]})
    assert events == [
        TileClaimed(tile="05-4", at=(2, 0), start=False, wide_reach=False, gains={"fame": 1})
    ]


def test_amelias_energy_is_an_event_apart_from_the_claims_gains():
    state = edit(linked(), 0, character="amelia", fame=5)
    state = play(state, 0, {"type": "draft", "value": 1})
    events, after = happened(state, 0, {"type": "claim", "space": 12, "at": [2, 0]})
    assert events == [
        TileClaimed(tile="05-4", at=(2, 0), start=False, wide_reach=False, gains={"fame": 1}),
        AbilityGain(seat=0, character="amelia", choice=False),
    ]
    assert after.players[0].energy == state.players[0].energy + 1


def test_a_crew_depot_with_no_worker_on_the_dock_says_why():
    state = edit(turn_state(2, dice=[1, 2, 3, 4, 5]), 0, dock=[False] * 12)
    state.offer[0] = "04-1"
    state = play(state, 0, {"type": "draft", "value": 1})
    events, _ = happened(state, 0, {"type": "claim", "space": 1, "at": [1, 0]})
    assert events == [
        TileClaimed(
            tile="04-1", at=(1, 0), start=False, wide_reach=False, gains={}, crew="no_dock_worker"
        )
    ]


def test_a_deploy_that_empties_a_dock_line_draws_reward_c1s_tile_to_place():
    state = deploying([4, 5, 1])
    top = state.stack[0]
    events, state = happened(state, 0, {"type": "deploy", "from": [2, 1], "to": [1, 0]})
    assert events == [
        WorkerDeployed(dock=(2, 1), tile="05-3", at=(1, 0)),
        LinesEmptied(lines=["C1"], tile=top),
    ]
    events, _ = happened(state, 0, {"type": "place", "at": [-1, 0]})
    assert events == [TilePlaced(tile=top, at=(-1, 0), gains={})]


def test_two_lines_emptied_then_the_second_reward_paid_after_the_first():
    state = deploying([0, 2, 3, 4, 9])
    events, state = happened(state, 0, {"type": "deploy", "from": [3, 2], "to": [1, 0]})
    assert events[1:] == [LinesEmptied(lines=["C2", "R3"])]
    parts = state.players[0].parts
    events, state = happened(state, 0, {"type": "reward", "line": "C2"})
    assert events == [RewardChosen(line="C2"), RewardPaid(seat=0, line="R3")]
    assert state.players[0].parts == parts + 1


def test_a_reward_reaching_a_trumpet_unlocks_an_ability():
    state = deploying([0, 10, 11], fame=2)
    events, _ = happened(state, 0, {"type": "deploy", "from": [3, 4], "to": [1, 0]})
    assert events[1:] == [
        LinesEmptied(lines=["C4"]),
        FameLevel(seat=0, level=1, character="marie"),
    ]


def test_the_last_worker_off_the_dock_makes_the_round_the_last():
    state = deploying([6])
    events, _ = happened(state, 0, {"type": "deploy", "from": [2, 3], "to": [1, 0]})
    assert events[-1] == LastRound(reason="dock", seat=0)


def test_a_blueprint_completed_with_nicolas_advanced_ability():
    state = turn_state(2, characters=("nicola", "marie"))
    state = edit(state, 0, fame=10, energy=5, steel=5, parts=5, hand=["I-01"])
    state.turn = Turn(0, "blueprint", 1, 1)
    events, _ = happened(state, 0, {"type": "complete", "card": "I-01"})
    assert events == [
        BlueprintCompleted(card="I-01"),
        AbilityGain(seat=0, character="nicola", choice=True),
    ]


def test_the_last_move_ends_the_game_with_its_reasons_and_chance_reports_nothing():
    state, log = random_game(7, 3)
    now = G.new(G.Config(players=3), 7)
    for seat, action in log[:-1]:
        after = G.apply(now, seat, action)
        if seat == CHANCE:
            assert G.happened(now, seat, action, after) == []
        now = after
    seat, action = log[-1]
    ended = G.happened(now, seat, action, state)[-1]
    assert ended == GameEnded(
        round=now.round,
        stack_empty=not state.stack,
        completed=sum(1 for p in state.players if len(p.completed) >= rules().end_blueprints),
        empty_docks=sum(1 for p in state.players if not any(p.dock)),
    )
    assert ended.stack_empty or ended.completed or ended.empty_docks
