"""Railroad Ink's half of the platform that the service uses: route steps, words, autopilot."""

import json
from typing import Any

from bot.service.hosting import Hosted
from data import load_text
from engine.railroad_ink import autopilot
from engine.railroad_ink.actions import parse_step
from engine.railroad_ink.board import face_name

EXPANSION_WORDS = {"street_lamps": "Street Lamps", "power_grid": "Power Grid"}


class RailroadInkPlanner:
    """A plan is the round's steps: routes drawn, lamps lit, power dice used."""

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

    def flag_refusal(self, state: Any, seat: int) -> str | None:
        return "Railroad Ink plans have no vacation tile."


def _rolled_face(state: Any, die: str) -> str:
    roll = state.roll
    if die.startswith("route"):
        return roll.route[int(die[5:]) - 1]
    return roll.lamps[int(die[4:]) - 1]


def options_in_words(config: dict[str, Any]) -> list[str]:
    chosen = [EXPANSION_WORDS[e] for e in sorted(config.get("expansions", []))]
    dice = " and ".join(chosen) if chosen else "none (base game)"
    rounds = config.get("rounds") or (6 if "street_lamps" in config.get("expansions", []) else 7)
    return [f"Electricity dice: {dice}", f"Rounds: {rounds}"]


def round_lines(view: dict[str, Any], names: list[str]) -> list[str]:
    return [
        f"{names[s['seat']]}: {s['score']} points so far"
        for s in sorted(view["standings"], key=lambda s: (s["rank"], s["seat"]))
    ]


PLUGIN = Hosted(
    name="railroad_ink",
    command="railroad",
    measure="points",
    choose=autopilot.choose,
    options_in_words=options_in_words,
    rules=lambda: load_text("railroad_ink", "rules_summary.md"),
    max_players=12,
    planner=RailroadInkPlanner(),
    round_lines=round_lines,
)
