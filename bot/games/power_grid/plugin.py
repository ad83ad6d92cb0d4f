"""Power Grid's half of the platform that the service uses: moves in words, autopilot, options."""

from typing import Any

from bot.games.power_grid import words
from bot.service.hosting import Hosted
from data import load_text
from engine.power_grid import autopilot


class PowerGridTurns:
    """Power Grid is played turn by turn (bureaucracy by everyone at once)."""

    def describe(self, before: Any, seat: int, action: dict[str, Any], after: Any) -> str:
        return words.describe(before, seat, action, after)


PLUGIN = Hosted(
    name="power_grid",
    command="powergrid",
    measure="cities powered",
    choose=autopilot.choose,
    options_in_words=words.options_in_words,
    rules=lambda: load_text("power_grid", "rules_summary.md"),
    max_players=6,
    turns=PowerGridTurns(),
    round_lines=words.round_lines,
)
