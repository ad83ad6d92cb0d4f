"""How each simultaneous game's plan is built step by step: the glue between drafts and engines.

The engine decides what is legal (`legal_next`, `can_submit`, `apply`); a planner only turns
steps into words, menu keys and the plan action, and names the game's autopilot.
"""

import json
from typing import Any, Protocol

from bot.service.powerline import describe as describe_placement
from bot.service.powerline import parse_key as parse_placement_key
from bot.service.powerline import placement_key
from engine import registry
from engine.powerline import autopilot as powerline_autopilot
from engine.powerline.actions import Placement
from engine.railroad_ink import autopilot as railroad_autopilot
from engine.railroad_ink.actions import parse_step
from engine.railroad_ink.board import face_name


class Planner(Protocol):
    def normalise(self, data: dict[str, Any]) -> dict[str, Any]:
        """A step as stored: its shape validated, defaults filled in."""
        ...

    def describe(self, state: Any, seat: int, step: dict[str, Any]) -> str: ...
    def key(self, step: dict[str, Any]) -> str: ...
    def parse_key(self, key: str) -> dict[str, Any]: ...
    def plan(self, steps: list[dict[str, Any]], vacation: bool) -> dict[str, Any]: ...
    def choose(self, view: dict[str, Any], seat: int) -> Any: ...


class PowerlinePlanner:
    def normalise(self, data: dict[str, Any]) -> dict[str, Any]:
        return Placement.model_validate(data).model_dump(mode="json")

    def describe(self, state: Any, seat: int, step: dict[str, Any]) -> str:
        return describe_placement(state, seat, Placement.model_validate(step))

    def key(self, step: dict[str, Any]) -> str:
        return placement_key(Placement.model_validate(step))

    def parse_key(self, key: str) -> dict[str, Any]:
        return parse_placement_key(key)

    def plan(self, steps: list[dict[str, Any]], vacation: bool) -> dict[str, Any]:
        return {"type": "plan", "placements": steps, "vacation": vacation}

    def choose(self, view: dict[str, Any], seat: int) -> Any:
        return powerline_autopilot.choose(view, seat)


class RailroadInkPlanner:
    def normalise(self, data: dict[str, Any]) -> dict[str, Any]:
        return parse_step(data).model_dump(mode="json", exclude_none=True)

    def describe(self, state: Any, seat: int, step: dict[str, Any]) -> str:
        kind = step["step"]
        if kind == "draw":
            face = step.get("face") or _rolled_face(state, step["die"])
            return f"{step['die']} ({face_name(face)}) → {step['cell']}, turn {step['orientation']}"
        if kind == "activate":
            return f"light the lamps of {step['line']}"
        where = step.get("cell") or step.get("exit") or step.get("start") or "the Accumulator"
        return f"power die {step['die']} → {where}" + (" (+1 charge)" if step.get("charge") else "")

    def key(self, step: dict[str, Any]) -> str:
        return json.dumps(step, separators=(",", ":"), sort_keys=True)

    def parse_key(self, key: str) -> dict[str, Any]:
        data = json.loads(key)
        if not isinstance(data, dict):
            raise ValueError(key)
        return data

    def plan(self, steps: list[dict[str, Any]], vacation: bool) -> dict[str, Any]:
        return {"type": "plan", "steps": steps}

    def choose(self, view: dict[str, Any], seat: int) -> Any:
        return railroad_autopilot.choose(view, seat)


def _rolled_face(state: Any, die: str) -> str:
    roll = state.roll
    if die.startswith("route"):
        return roll.route[int(die[5:]) - 1]
    return roll.lamps[int(die[4:]) - 1]


PLANNERS: dict[str, Planner] = {
    "powerline": PowerlinePlanner(),
    "railroad_ink": RailroadInkPlanner(),
}


def planner(game: str) -> Planner:
    return PLANNERS[game]


def hosted_games() -> list[str]:
    """The registered games this bot can host on Discord (an engine alone is not enough)."""
    return [name for name in registry.names() if name in PLANNERS]
