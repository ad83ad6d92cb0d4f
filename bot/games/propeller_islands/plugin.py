"""Propeller Islands' half of the platform that the service uses: moves in words, autopilot."""

from typing import Any

from bot.games.propeller_islands import words
from bot.service.hosting import Hosted, NoPremoves
from data import load_text
from engine.propeller_islands import autopilot, coach


class PropellerTurns(NoPremoves):
    """A turn is many small decisions, each a move of its own; nothing is decided ahead."""

    def describe(self, before: Any, seat: int, action: dict[str, Any], after: Any) -> str:
        return words.describe(before, seat, action, after)


PLUGIN = Hosted(
    name="propeller_islands",
    command="propeller",
    measure="VP",
    choose=autopilot.choose,
    # Measured by bench/ai_propeller_islands.py (see its docstring for the seeds and baselines).
    levels={
        "casual": (
            "Plays loosely: wins 3 % of 2-player games against the previous AI, "
            "always beats random play."
        ),
        "standard": (
            "Ends the game only when ahead: wins 69 % of 2-player games against the previous AI."
        ),
        "strong": "Searches further: wins 70 % of 2-player games against the previous AI.",
    },
    coach=coach.coach,
    options_in_words=words.options_in_words,
    rules=lambda: load_text("propeller_islands", "rules_summary.md"),
    turns=PropellerTurns(),
    round_lines=words.round_lines,
    standings=words.standings_lines,
)
