"""Shared helpers for the Railroad Ink tests: hand-built boards, scripted rounds, random plans."""

from __future__ import annotations

import dataclasses
from random import Random
from typing import Any

from engine import registry
from engine.core import CHANCE, IllegalAction
from engine.railroad_ink import autopilot
from engine.railroad_ink.board import ACC, CELLS, parse_cell
from engine.railroad_ink.game import score_of, seat_context
from engine.railroad_ink.scoring import Score, score
from engine.railroad_ink.state import Cell, PlayerState, State

G = registry.get("railroad_ink")

EXPANSION_SETS = (
    frozenset(),
    frozenset({"street_lamps"}),
    frozenset({"power_grid"}),
    frozenset({"street_lamps", "power_grid"}),
)

CellSpec = tuple[str, int] | tuple[str, int, dict[str, Any]]


def cells(spec: dict[str, CellSpec]) -> list[Cell | None]:
    """A board from {"B1": (face, orientation[, {flag: value}])}; everything drawn in round 1."""
    out: list[Cell | None] = [None] * CELLS
    for name, item in spec.items():
        i = parse_cell(name)
        assert i is not None, name
        flags = item[2] if len(item) == 3 else {}  # type: ignore[misc]
        out[i] = Cell(item[0], item[1], 1, **flags)
    return out


def board_score(
    spec: dict[str, CellSpec], charges: int = 0, power: bool = False, mode: str = "simple"
) -> Score:
    return score(cells(spec), charges, ACC if power else -1, mode)


def filled(face: str, power: bool = False, **overrides: CellSpec) -> dict[str, CellSpec]:
    """Every cell holds `face` (orientation 0) except the Accumulator with Power Grid."""
    from engine.railroad_ink.board import cell_name

    spec: dict[str, CellSpec] = {
        cell_name(i): (face, 0) for i in range(CELLS) if not (power and i == ACC)
    }
    spec.update(overrides)
    return spec


def new_game(players: int = 1, expansions: frozenset[str] = frozenset(), **kw: Any) -> State:
    return G.new(G.Config(players=players, expansions=expansions, **kw), 0)


def with_board(
    state: State, spec: dict[str, CellSpec], seat: int = 0, charges: int = 0, specials=()
) -> State:
    """A copy of `state` (through dump/load) whose seat has the hand-built board."""
    copy = G.load_state(G.dump_state(state))
    p = PlayerState(cells(spec), charges, list(specials))
    players = (*copy.players[:seat], p, *copy.players[seat + 1 :])
    return dataclasses.replace(copy, players=players)


def roll(*route: str, lamps: tuple[str, ...] = (), power: tuple[str, ...] = ()) -> dict[str, Any]:
    return {"type": "roll", "route": list(route), "lamps": list(lamps), "power": list(power)}


def draw(die: str, cell: str, orientation: int = 0, face: str | None = None) -> dict[str, Any]:
    step: dict[str, Any] = {"step": "draw", "die": die, "cell": cell, "orientation": orientation}
    if face is not None:
        step["face"] = face
    return step


def light(line: str) -> dict[str, Any]:
    return {"step": "activate", "line": line}


def power(die: int, **kw: Any) -> dict[str, Any]:
    return {"step": "electrify", "die": die, **kw}


def plan(*steps: dict[str, Any]) -> dict[str, Any]:
    return {"type": "plan", "steps": list(steps)}


def do(state: State, seat: int, action: dict[str, Any]) -> State:
    return G.apply(state, seat, G.parse_action(action))


def rolled(state: State, roll_action: dict[str, Any]) -> State:
    return do(state, CHANCE, roll_action)


def refused(state: State, seat: int, action: dict[str, Any]) -> str:
    """Assert that `action` is refused and leaves `state` untouched; return the reason."""
    before = G.dump_state(state)
    try:
        G.apply(state, seat, G.parse_action(action))
    except IllegalAction as exc:
        assert G.dump_state(state) == before, "a refused action changed the state"
        return exc.reason
    raise AssertionError(f"{action!r} was accepted")


def seat_score(state: State, seat: int = 0) -> Score:
    return score_of(state, seat)


def random_plan(state: State, seat: int, rng: Random) -> Any:
    return autopilot.random_plan(seat_context(state), state.players[seat], rng)
