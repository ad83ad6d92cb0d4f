"""One-line descriptions of where the game stands, shared by the headers of every image."""

from collections.abc import Sequence
from typing import Any

from render.common import printable

WAITING = {
    "setup": "setting up",
    "roll": "rolling the dice",
    "keep_character": "keeping a character",
    "start_tiles": "claiming a starting tile",
    "draft": "drafting a die",
    "act": "claiming, discarding or activating",
    "activating": "activating buildings",
    "blueprint": "completing a blueprint or ending the turn",
    "bonus": "using the bonus die",
    "deploy": "deploying a worker",
    "rewards": "picking a dock reward",
    "place": "placing the reward tile",
    "c3": "activating two buildings (C3)",
    "r1": "picking depots (R1)",
    "radio": "picking the Radio Station's target",
    "warehouse": "picking the Warehouse's depot",
    "choose": "choosing energy or steel",
    "install": "installing an upgrade token",
    "take": "taking a new blueprint",
}


def status(view: dict[str, Any], names: Sequence[str]) -> str:
    """'Round 3 · Bob: drafting a die', or the game-over line."""
    if view["over"]:
        return f"Game over after round {view['round']}"
    point = view["waiting_for"]
    doing = WAITING.get(point, point.replace("_", " "))
    who = [s for s in view["to_act"] if s >= 0]
    actor = f"{printable(names[who[0]])}: " if who else ""
    round_ = f"Round {view['round']}" if view["round"] else "Setup"
    return f"{round_} · {actor}{doing}"


def die_note(view: dict[str, Any]) -> str:
    """The die in play: the drafted die of the turn or the bonus die, or ''."""
    turn, bonus = view["turn"], view["bonus"]
    if turn and turn["value"] is not None:
        changed = "" if turn["value"] == turn["drafted"] else f" (drafted {turn['drafted']})"
        return f"die in play: {turn['value']}{changed}"
    if bonus and bonus["value"] is not None:
        return f"bonus die: {bonus['value']}"
    return ""
