"""Power Grid's half of the platform that the service uses: moves in words, autopilot, options."""

from typing import Any

from bot.games.power_grid import words
from bot.service.hosting import Hosted
from data import load_text
from engine.power_grid import autopilot

ORDER = ("setup", "regions", "auction", "resources", "build", "bureaucracy", "over")
PREMOVES = {"auction": "Pass every auction this round", "resources": "Buy no resources this round"}
"""Pre-moves by the phase they cover (their keys)."""


class PowerGridTurns:
    """Power Grid is played turn by turn (bureaucracy by everyone at once)."""

    premoves = PREMOVES

    def describe(self, before: Any, seat: int, action: dict[str, Any], after: Any) -> str:
        return words.describe(before, seat, action, after)

    def premove_scope(self, key: str, state: Any) -> Any:
        # The phase's next occurrence: this round's if it has not ended yet, else the next one.
        later = ORDER.index(state.phase) > ORDER.index(key)
        return [state.round + 1 if later or state.round == 0 else state.round, key]

    def premove_action(self, key: str, scope: Any, state: Any, seat: int) -> dict[str, Any] | None:
        if [state.round, state.phase] != scope or state.discard is not None:
            return None
        if key == "resources":
            return {"type": "done"}
        return {"type": "drop"} if state.auction else {"type": "pass"}


PLUGIN = Hosted(
    name="power_grid",
    command="powergrid",
    measure="cities powered",
    measure_one="city powered",
    choose=autopilot.choose,
    options_in_words=words.options_in_words,
    rules=lambda: load_text("power_grid", "rules_summary.md"),
    turns=PowerGridTurns(),
    round_lines=words.round_lines,
    standings=words.standings_lines,
    # WBC 2019 (seed 003): money hidden, bidding clockwise by seat, regions picked by the
    # players in turn order (no `regions`); the map is the engine's default.
    tournament_config={"hidden_money": True, "bid_order": "seat"},
)
