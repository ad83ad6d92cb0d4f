"""Powerline plans in words: what the DM planner offers and how it reads back a draft."""

from typing import Any

from engine.powerline.actions import Placement
from engine.powerline.board import layout
from engine.powerline.state import State


def describe(state: State, seat: int, p: Placement) -> str:
    """A placement as a person reads it: "yellow → L5 seg 11 (needs 2, die 2)"."""
    dice = state.dice or {}
    die = dice.get(p.color, 0)
    if p.island:
        if "adventure_island" in state.config.variants:
            stack = state.players[seat].island_stacks[die - 1] + 1
            return f"{p.color} → island (skip the {die}; token {stack} on that stack)"
        return f"{p.color} → island (skip the {die}, −1 VP)"
    lay = layout(state.players[seat].board)
    need = lay.pips[lay.line_index[p.line or ""]][p.segment or 0]
    if p.joker:
        return f"{p.color} → {p.line} seg {p.segment} (needs {need}, die {die}: joker)"
    return f"{p.color} → {p.line} seg {p.segment} (needs {need}, die {die})"


def placement_key(p: Placement) -> str:
    """A compact, stable value for autocomplete and select options (≤ 100 characters)."""
    if p.island:
        return f"{p.color}:island"
    return f"{p.color}:{p.line}:{p.segment}:{'j' if p.joker else ''}"


def parse_key(key: str) -> dict[str, Any]:
    """The placement dict behind a `placement_key` (validated later by the engine)."""
    parts = key.split(":")
    if len(parts) == 2 and parts[1] == "island":
        return {"color": parts[0], "island": True}
    if len(parts) == 4 and parts[2].isdigit():
        return {
            "color": parts[0],
            "line": parts[1],
            "segment": int(parts[2]),
            "joker": parts[3] == "j",
        }
    raise ValueError(key)
