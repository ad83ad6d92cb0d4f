"""Shared helpers for the Powerline tests: scripted games, state edits and random plans."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from random import Random
from typing import Any

from engine import registry
from engine.core import CHANCE, IllegalAction
from engine.powerline import autopilot
from engine.powerline.actions import Placement, Plan
from engine.powerline.board import COLORS, layout
from engine.powerline.game import seat_context
from engine.powerline.planning import Draft, add_placement, can_submit, legal_next
from engine.powerline.state import PlayerState, State

G = registry.get("powerline")

ALL_VARIANTS = ("construction_limits", "adventure_island", "contracts", "special_contracts")


# --------------------------------------------------------------------------- actions as dicts


def roll(
    red: int = 1, yellow: int = 1, blue: int = 1, green: int = 1, white: int = 1, black: int = 1
) -> dict[str, Any]:
    """A roll action dict for the chance seat."""
    return {
        "type": "roll",
        "dice": {
            "red": red,
            "yellow": yellow,
            "blue": blue,
            "green": green,
            "white": white,
            "black": black,
        },
    }


def dice(*faces: int) -> dict[str, Any]:
    """`dice(r, y, b, g, w, k)`: a roll action dict from six faces in dice order."""
    assert len(faces) == 6
    return roll(**dict(zip(COLORS, faces, strict=True)))


def seg(color: str, line: str, segment: int, joker: bool = False) -> dict[str, Any]:
    """A worker on a line segment."""
    return {"color": color, "line": line, "segment": segment, "joker": joker}


def isl(color: str) -> dict[str, Any]:
    """A worker on the island."""
    return {"color": color, "island": True}


def plan(*placements: dict[str, Any], vacation: bool = False) -> dict[str, Any]:
    """A plan action dict."""
    return {"type": "plan", "placements": list(placements), "vacation": vacation}


def island_plan(n: int, start: str = "red", vacation: bool = False) -> dict[str, Any]:
    """`n` workers, all sent to the island, in colour order from `start`."""
    order = COLORS if start == "red" else tuple(reversed(COLORS))
    return plan(*(isl(c) for c in order[:n]), vacation=vacation)


# --------------------------------------------------------------------------- scripted games


def config(players: int = 1, boards: Sequence[int] | None = None, **kw: Any) -> Any:
    """A Config pinning boards 1..players unless told otherwise."""
    if boards is None:
        boards = tuple(range(1, players + 1))
    kw.setdefault("variants", frozenset())
    kw["variants"] = frozenset(kw["variants"])
    return G.Config(players=players, boards=tuple(boards), **kw)


def new_game(players: int = 1, seed: int = 0, **kw: Any) -> State:
    return G.new(config(players, **kw), seed)


def do(state: State, seat: int, action: dict[str, Any]) -> State:
    """Apply an action given as a dict."""
    return G.apply(state, seat, G.parse_action(action))


def rolled(state: State, roll_action: dict[str, Any]) -> State:
    return do(state, CHANCE, roll_action)


def play_round(state: State, roll_action: dict[str, Any], *plans: dict[str, Any]) -> State:
    """Roll the given dice, then submit one plan per seat in seat order."""
    assert len(plans) == len(state.players), "one plan per seat"
    state = rolled(state, roll_action)
    for seat, p in enumerate(plans):
        state = do(state, seat, p)
    return state


def refused(state: State, seat: int, action: dict[str, Any] | Any) -> str:
    """Assert that `action` is refused and leaves `state` untouched; return the reason."""
    before = G.dump_state(state)
    try:
        act = G.parse_action(action) if isinstance(action, dict) else action
        G.apply(state, seat, act)
    except IllegalAction as exc:
        assert G.dump_state(state) == before, "a refused action changed the state"
        assert exc.reason == str(exc)
        return exc.reason
    raise AssertionError(f"{action!r} was accepted")


def edit_player(state: State, seat: int = 0, **changes: Any) -> State:
    """A copy of `state` (through dump/load, so nothing is shared) with one player's fields
    replaced. `built` may be given as {line id: tokens}; directions default to +1. A given
    `ledger` is merged onto zeros for every ledger key."""
    copy = G.load_state(G.dump_state(state))
    p = copy.players[seat]
    if isinstance(changes.get("built"), dict):
        lay = layout(p.board)
        built = [0] * len(lay.line_ids)
        direction = [0] * len(lay.line_ids)
        for line_id, n in changes["built"].items():
            i = lay.line_index[line_id]
            built[i] = n
            direction[i] = 1 if n else 0
        changes["built"] = built
        changes.setdefault("direction", direction)
    if "ledger" in changes:
        changes["ledger"] = {k: 0 for k in p.ledger} | changes["ledger"]
    new = dataclasses.replace(p, **changes)
    players = (*copy.players[:seat], new, *copy.players[seat + 1 :])
    return dataclasses.replace(copy, players=players)


def full(*line_ids: str, board: int = 1) -> dict[str, int]:
    """`built` mapping that completes the given lines."""
    lay = layout(board)
    return {line_id: lay.length[lay.line_index[line_id]] for line_id in line_ids}


def player(board: int = 1, **changes: Any) -> PlayerState:
    """A fresh PlayerState from a 1-player game on `board`, with fields replaced."""
    state = new_game(1, boards=(board,))
    return edit_player(state, 0, **changes).players[0]


# --------------------------------------------------------------------------- random plans


def random_plan(state: State, seat: int, rng: Random, stop: float = 0.3) -> Plan:
    """A random legal plan for `seat` (the engine's baseline player)."""
    return autopilot.random_plan(seat_context(state, seat), rng, stop)


def complete_plan(state: State, seat: int, prefix: Iterable[Placement], rng: Random) -> Plan:
    """Extend a legal prefix to a legal plan with random legal placements."""
    ctx = seat_context(state, seat)
    draft = Draft()
    placements = list(prefix)
    for p in placements:
        add_placement(ctx, draft, p)
    while not can_submit(ctx, draft):
        options = list(legal_next(ctx, draft))
        assert options, f"legal prefix {placements} cannot be completed"
        p = rng.choice(options)
        add_placement(ctx, draft, p)
        placements.append(p)
    return Plan(placements=tuple(placements))


def random_config(rng: Random) -> Any:
    players = rng.randint(1, 6)
    variants = frozenset(v for v in ALL_VARIANTS if rng.random() < 0.4)
    return G.Config(
        players=players,
        variants=variants,
        vacation_tile=rng.random() < 0.7,
        contract_draw=rng.choice(("by_colour", "any")),
        special_contracts=rng.choice(("mixed", "alone")),
    )


def workers_in(plan_: Plan) -> int:
    return len(plan_.placements)
