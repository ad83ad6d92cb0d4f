"""Powerline's half of the platform that the service uses: plans of workers, words, autopilot."""

from collections import Counter
from typing import Any

from bot.games.powerline.words import describe, parse_key, placement_key
from bot.service.challenges import Daily
from bot.service.hosting import Hosted
from data import load_text
from engine.powerline import autopilot, coach
from engine.powerline.actions import Placement

VARIANT_WORDS = {
    "construction_limits": "construction limits",
    "adventure_island": "Adventure Island",
    "contracts": "contracts",
    "special_contracts": "special contracts",
}


class PowerlinePlanner:
    """A plan is workers placed one by one, with the vacation tile beside them."""

    def normalise(self, data: dict[str, Any]) -> dict[str, Any]:
        return Placement.model_validate(data).model_dump(mode="json")

    def describe(self, state: Any, seat: int, step: dict[str, Any]) -> str:
        return describe(state, seat, Placement.model_validate(step))

    def lines(self, state: Any, seat: int, steps: list[dict[str, Any]]) -> list[str]:
        return [self.describe(state, seat, step) for step in steps]

    def key(self, step: dict[str, Any]) -> str:
        return placement_key(Placement.model_validate(step))

    def parse_key(self, key: str) -> dict[str, Any]:
        return parse_key(key)

    def plan(self, steps: list[dict[str, Any]], vacation: bool) -> dict[str, Any]:
        return {"type": "plan", "placements": steps, "vacation": vacation}

    def unplan(self, plan: dict[str, Any]) -> tuple[list[dict[str, Any]], bool]:
        return list(plan["placements"]), bool(plan.get("vacation"))

    def flag_refusal(self, state: Any, seat: int) -> str | None:
        if not state.config.vacation_tile:
            return "The vacation tile is not in play in this game."
        if not state.players[seat].vacation:
            return "You have already used your vacation tile."
        return None


def options_in_words(config: dict[str, Any]) -> list[str]:
    variants = [VARIANT_WORDS[v] for v in sorted(config.get("variants", []))]
    lines = [f"Variants: {', '.join(variants) if variants else 'none (base game)'}"]
    if "contracts" in variants and config.get("contract_draw") == "any":
        lines.append("Contracts drawn from all nine tiles")
    if "special contracts" in variants and config.get("special_contracts") == "alone":
        lines.append("Special contracts J, K and L alone")
    if config.get("scoring_tiles"):
        lines.append(f"Scoring tiles: {' '.join(config['scoring_tiles'])}")
    lines.append(f"Vacation tile: {'yes' if config.get('vacation_tile', True) else 'no'}")
    return lines


def round_lines(view: dict[str, Any], names: list[str]) -> list[str]:
    """What each seat built in the last round and what it earned."""
    report = view["last_round"]
    lines = []
    for seat, done in enumerate(report["seats"]):
        per_line = Counter(p["line"] for p in done["plan"]["placements"] if not p["island"])
        built = ", ".join(f"{k}×{n}" if n > 1 else k for k, n in per_line.items()) or "nothing"
        extras = [f"city {c}" for c in done["cities"]] + [f"station {s}" for s in done["stations"]]
        tail = f" ({', '.join(extras)})" if extras else ""
        gained = done["vp_after"] - done["vp_before"]
        lines.append(f"{names[seat]}: {built}{tail}, {gained:+d} → {done['vp_after']} VP")
    if report["scoring"]:
        lines.append(f"Scoring {report['scoring']} done.")
    return lines


PLUGIN = Hosted(
    name="powerline",
    command="powerline",
    measure="VP",
    choose=autopilot.choose,
    # Measured by bench/ai_powerline.py (see its docstring for the seeds and baselines).
    levels={
        "casual": "Greedy with some slips: about 61 VP a solo game, never the top title.",
        "standard": (
            "About 105 VP a solo game; the top title in 60 % of games (58 % with "
            "Construction Limits)."
        ),
        "strong": (
            "Looks a round ahead: 111 VP, the top title in 72 % of solo games "
            "(59 % Limits, 50 % Contracts)."
        ),
    },
    coach=coach.coach,
    options_in_words=options_in_words,
    rules=lambda: load_text("powerline", "rules_summary.md"),
    planner=PowerlinePlanner(),
    round_lines=round_lines,
    dailies=(Daily("powerline", "Powerline solo", lambda day: {}, lambda day: "standard rules"),),
)
