"""Shared helpers for the Propeller Islands tests: scripted setups and state edits."""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Any

import pytest

from engine import registry
from engine.core import CHANCE, IllegalAction, step
from engine.propeller_islands.autopilot import act, random_action
from engine.propeller_islands.components import blueprints, tiles
from engine.propeller_islands.state import Cell, State

G = registry.get("propeller_islands")
TILES = list(tiles())
LEVEL_I = [b for b in blueprints() if b.startswith("I-")]
LEVEL_II = [b for b in blueprints() if b.startswith("II-")]


def setup(
    players: int = 2,
    characters: tuple[str, ...] = ("marie", "nelson", "amelia", "jacques"),
    tile_order: list[str] | None = None,
    start: int = 0,
    **config: Any,
) -> State:
    """A game through the chance setup with sorted decks (unless given) up to the start tiles."""
    s = G.new(G.Config(players=players, **config), 0)
    s = G.apply(s, CHANCE, {"type": "start_player", "seat": start})
    deal = list(characters[:players])
    s = G.apply(s, CHANCE, {"type": "deal_characters", "characters": deal})
    s = G.apply(s, CHANCE, {"type": "shuffle_tiles", "order": tile_order or TILES})
    s = G.apply(s, CHANCE, {"type": "shuffle_blueprints", "level": "I", "order": LEVEL_I})
    return G.apply(s, CHANCE, {"type": "shuffle_blueprints", "level": "II", "order": LEVEL_II})


def turn_state(players: int = 2, dice: list[int] | None = None, **kw: Any) -> State:
    """A game at seat 0's first draft of round 1, start tiles claimed at O12 and O11 (no links)."""
    s = setup(players, **kw)
    n = players
    for i in range(n):
        seat = (-1 - i) % n
        space = next(sp for sp in range(12, 0, -1) if s.offer[sp - 1])
        s = G.apply(s, seat, {"type": "claim", "space": space, "at": [0, -1]})
    return G.apply(
        s, CHANCE, {"type": "roll", "dice": dice or [1, 2, 3, 4, 5, 6, 1, 2, 3][: 2 * n + 1]}
    )


def island(s: State, seat: int, cells: list[tuple[int, int, str, str | None, dict]]) -> State:
    """Replace seat's island by the given (q, r, tile, worker, tokens) cells, Capitol first."""
    s = s.copy()
    p = s.players[seat].copy()
    p.cells = [Cell(0, 0, p.cells[0].tile, "ready")] + [
        Cell(q, r, t, w, dict(tok)) for q, r, t, w, tok in cells
    ]
    s.players[seat] = p
    return s


def edit(s: State, seat: int, **fields: Any) -> State:
    """A copy of s with some fields of seat's player changed."""
    s = s.copy()
    p = s.players[seat].copy()
    for k, v in fields.items():
        setattr(p, k, v)
    s.players[seat] = p
    return s


def play(s: State, seat: int, *actions: dict[str, Any]) -> State:
    for a in actions:
        s = G.apply(s, seat, a)
    return s


def refused(s: State, seat: int, action: dict[str, Any], words: str) -> None:
    """The action is refused with a message containing `words`, and s is unchanged."""
    before = G.dump_state(s)
    with pytest.raises(IllegalAction) as err:
        G.apply(s, seat, action)
    assert words in err.value.reason, err.value.reason
    assert G.dump_state(s) == before


def legal_dicts(s: State, seat: int) -> list[dict[str, Any]]:
    return [a.model_dump(mode="json") for a in G.legal_actions(s, seat)]


def random_game(seed: int, players: int, **config: Any) -> tuple[State, list[tuple[int, Any]]]:
    """A seeded game of random legal actions; returns the final state and the action log."""
    rng = Random(seed)
    s = G.new(G.Config(players=players, **config), seed)
    log = []
    while not G.is_over(s):
        (seat,) = G.to_act(s)
        a = (
            G.sample_chance(s, rng)
            if seat == CHANCE
            else random_action(G.legal_actions(s, seat), rng)
        )
        log.append((seat, a))
        s = G.apply(s, seat, a)
    return s, log


def deciding(
    point: str,
    seed: int = 11,
    also: Callable[[dict[str, Any]], bool] = bool,
    players: int = 3,
) -> tuple[State, int]:
    """A seeded autopilot game at its first decision of kind `point` whose view's decision
    satisfies `also`, and the seat deciding."""
    state, rng = G.new(G.Config(players=players), seed), Random(seed)
    while not G.is_over(state):
        (seat,) = G.to_act(state)
        decision = G.view(state, seat)["decision"] if seat != CHANCE else None
        if decision and decision["point"] == point and also(decision):
            return state, seat
        state = step(G, state, rng, act)
    raise AssertionError(f"no such {point} decision in game {seed}")
