"""What a reader of a running game's log may know: the stacks' order, the characters dealt to
others and the blueprints others drew blind stay secret; what turns face up is public."""

from typing import Any

from engine.core import HIDDEN, Logged, hide
from engine.propeller_islands.config import Config
from engine.propeller_islands.state import State


def _face_up(state: State) -> set[str]:
    """The tiles and blueprints anyone can see: the offers and the islands."""
    offers = {t for t in state.offer if t} | {c for row in state.bp_offer.values() for c in row}
    return offers | {c.tile for p in state.players for c in p.cells}


def redact(step: Logged, viewer: int | None) -> dict[str, Any]:
    """A shuffle shows only that it happened and a deal only the reader's own pair; every action
    names what it turned face up, and the blueprints it drew blind into the reader's own hand."""
    action = step.action
    if action["type"] == "deal_characters":
        dealt = action["characters"]
        shown = [d if isinstance(d, str) or i == viewer else HIDDEN for i, d in enumerate(dealt)]
        return {**action, "characters": shown}
    before: State = step.before
    after: State = step.after
    out = hide(action, keep=("level",)) if action["type"].startswith("shuffle_") else dict(action)
    was_up = _face_up(before)
    drawn = sorted(_face_up(after) - was_up)
    if drawn:
        out["drawn"] = drawn
    if viewer is not None:
        had = set(before.players[viewer].hand) | was_up
        blind = [c for c in after.players[viewer].hand if c not in had]
        if blind:
            out["to_your_hand"] = blind
    return out


def hidden(config: Config) -> list[str]:
    secrets = [
        "the order of the building-tile stack and of both blueprint stacks",
        "the blueprints others drew from a stack (each player knows their own hand)",
    ]
    if config.character_deal == 2:
        secrets.append("the characters dealt to others (the one each keeps is shown)")
    return secrets
