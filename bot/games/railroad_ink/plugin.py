"""Railroad Ink's half of the platform that the service uses: route steps, words, autopilot."""

import json
from datetime import date
from typing import Any

from bot.service.challenges import Daily
from bot.service.hosting import Hosted
from data import load_text
from engine.railroad_ink import GAME, autopilot, coach
from engine.railroad_ink.actions import parse_step
from engine.railroad_ink.board import SIDES, face_name, tile
from engine.railroad_ink.views import DIE_TAGS, draft_preview, power_words

EXPANSION_WORDS = {"street_lamps": "Street Lamps", "power_grid": "Power Grid"}
ELECTRIC_WEEK = (("power_grid",), ("street_lamps",), ("power_grid", "street_lamps"))
"""The Electricity dice of the daily, by weekday (Monday first, then around again)."""


def _electric(day: date) -> tuple[str, ...]:
    return ELECTRIC_WEEK[day.weekday() % len(ELECTRIC_WEEK)]


def _electric_words(day: date) -> str:
    return "with the " + " and ".join(EXPANSION_WORDS[e] for e in _electric(day)) + " dice"


DAILIES = (
    Daily("railroad_ink", "Railroad Ink", lambda day: {}, lambda day: "the base game"),
    Daily(
        "railroad_ink_electric",
        "Railroad Ink with Electricity",
        lambda day: {"expansions": list(_electric(day))},
        _electric_words,
    ),
)


class RailroadInkPlanner:
    """A plan is the round's steps: routes drawn, lamps lit, power dice used."""

    def normalise(self, data: dict[str, Any]) -> dict[str, Any]:
        return parse_step(data).model_dump(mode="json", exclude_none=True)

    def describe(self, state: Any, seat: int, step: dict[str, Any]) -> str:
        kind = step["step"]
        if kind == "draw":
            face = step.get("face") or _rolled_face(state, step["die"])
            where = f"{step['cell']}, {turn_words(face, step['orientation'])}"
            return f"{die_words(step['die'], face)} → {where}"
        if kind == "activate":
            return f"light the lamps of {step['line']}"
        where = step.get("cell") or step.get("exit") or step.get("start") or "the Accumulator"
        return f"power die {step['die']} → {where}" + (" (+1 charge)" if step.get("charge") else "")

    def lines(self, state: Any, seat: int, steps: list[dict[str, Any]]) -> list[str]:
        """The same words as the board's preview: "R1 railway curve at C3, …", "P2 power E2,
        F2, G2 then charge the Accumulator", "☼ light R3"."""
        _, changes = draft_preview(GAME.view(state, seat), seat, steps)
        said = []
        for step, (cells, charge) in zip(steps, changes, strict=True):
            kind, tag = step["step"], DIE_TAGS.get(str(step.get("die")), "?")
            if kind == "draw":
                face = step.get("face") or _rolled_face(state, step["die"])
                turned = turn_words(face, step["orientation"])
                said.append(f"{tag} {face_name(face)} at {step['cell']}, {turned}")
            elif kind == "activate":
                said.append(f"☼ light {step['line']}")
            else:
                said.append(f"P{step['die']} {power_words(cells, charge)}")
        return said

    def key(self, step: dict[str, Any]) -> str:
        return json.dumps(step, separators=(",", ":"), sort_keys=True)

    def parse_key(self, key: str) -> dict[str, Any]:
        data = json.loads(key)
        if not isinstance(data, dict):
            raise ValueError(key)
        return data

    def plan(self, steps: list[dict[str, Any]], vacation: bool) -> dict[str, Any]:
        return {"type": "plan", "steps": steps}

    def unplan(self, plan: dict[str, Any]) -> tuple[list[dict[str, Any]], bool]:
        return list(plan["steps"]), False

    def flag_refusal(self, state: Any, seat: int) -> str | None:
        return "Railroad Ink plans have no vacation tile."


DIRECTIONS = {"N": "north", "E": "east", "S": "south", "W": "west"}
KINDS = {"H": "highway", "R": "railway"}


def turn_words(face: str, orientation: int) -> str:
    """A turned face as its route ends read: "railway north and east"."""
    sides = tile(face, orientation).sides
    parts = []
    for kind, name in KINDS.items():
        ends = [DIRECTIONS[SIDES[d]] for d in range(4) if sides[d] == kind]
        if ends:
            parts.append(f"{name} {' and '.join(ends) if len(ends) < 3 else ', '.join(ends)}")
    return "; ".join(parts)


def die_words(die: str, face: str) -> str:
    """A die as a person names it: "route die 2 (railway curve)", "special route (…)"."""
    if die == "special" or die.startswith("special:"):
        return f"special route ({face_name(face)})"
    kind, number = die.rstrip("0123456789"), die[len(die.rstrip("0123456789")) :]
    return f"{kind} die {number} ({face_name(face)})"


def face_of(state: Any, die: str) -> str:
    """The face a die value of the planner shows ("route1", "special:<face>")."""
    if die.startswith("special:"):
        return die.split(":", 1)[1]
    return _rolled_face(state, die)


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
    measure_one="point",
    choose=autopilot.choose,
    # Measured by bench/ai_railroad_ink.py (see its docstring for the seeds and baselines).
    levels={
        "casual": "Greedy, one die at a time: 18 points a game on average (base game).",
        "standard": "Weighs the round's dice together: 40 points a game on average (base game).",
        "strong": (
            "Also looks a round ahead: 50 points a game (base game), 53 with the Power Grid dice."
        ),
    },
    coach=coach.coach,
    options_in_words=options_in_words,
    rules=lambda: load_text("railroad_ink", "rules_summary.md"),
    planner=RailroadInkPlanner(),
    round_lines=round_lines,
    dailies=DAILIES,
)
