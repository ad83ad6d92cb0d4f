"""How a hosted game looks in a channel and in DMs: the presenter each game's package provides."""

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar

from bot.service.hosting import hosted

if TYPE_CHECKING:
    import discord

    from bot.service.service import DraftView, TurnView

Names = list[str]


@dataclass(frozen=True)
class Presenter:
    """The images (PNG bytes from views) and words of one game's posts."""

    board: Callable[[dict[str, Any], int, Names], bytes]
    """One seat's board, drawn from the viewer's view (`/game board`)."""
    results: Callable[[dict[str, Any], Names], bytes]
    status_image: Callable[[dict[str, Any], Names], bytes]
    """The whole table at a glance, for `/game status`."""
    recap_frame: Callable[[dict[str, Any], Names], bytes] | None = None
    """A round of the recap, from the public view (default: the round image, else the status
    image)."""
    # Simultaneous games: the round's roll, its summary and a seat's draft on its board.
    plan_hint: str = ""
    """One sentence on how to plan, for the round's DMs."""
    roll: Callable[[dict[str, Any], Names], bytes] | None = None
    round_image: Callable[[dict[str, Any], Names], bytes] | None = None
    draft_board: (
        Callable[[dict[str, Any], int, Names, list[dict[str, Any]], bool], bytes] | None
    ) = None
    # Turn-based games: the image of a "your turn" panel, a finished phase's image, the panel.
    panel_image: Callable[[dict[str, Any], Names], bytes] | None = None
    phase_image: Callable[[dict[str, Any], Names, Any], tuple[str, bytes] | None] | None = None
    """A caption and the board after a phase that changed it (None: that phase posts none)."""
    turn_panel: "Callable[[TurnView], discord.ui.View] | None" = None
    phase_words: Callable[[dict[str, Any]], str] | None = None
    """Where the game stands, e.g. "Round 3 · Step 2 · building"."""
    stakes: Callable[[dict[str, Any], int], str] | None = None
    """What is at stake for a seat on turn, in words, from its view: the plant on auction, the
    bid and who holds it, what this step needs; other seats as "{seat N}"."""
    confirm_types: frozenset[str] = frozenset()
    """The kinds of move that may be a slip worth one more tap (`confirm` says when)."""
    confirm: Callable[[dict[str, Any], int, dict[str, Any]], str | None] | None = None
    """The question to ask before a move of `confirm_types` from a seat's view (passing with the
    money for a plant, dropping out, ending a turn with moves left); None: make it at once."""
    empty_plan: str = "Nothing planned yet."
    """What the planner says before the first step."""
    step_prompt: str = "Choose the next step…"
    """The placeholder of the planner's select of next steps."""
    step_group: Callable[[str], str] | None = None
    """The group of a next step (by its key), when they are more than one select holds."""
    preview_each_step: bool = False
    """Answer every planning step with the board and the draft drawn on it."""
    vacation: bool = False
    """Whether plans carry an on/off flag, the vacation tile (the planner shows its button)."""
    planner_view: "Callable[[DraftView], discord.ui.View] | None" = None
    """The game's own DM planner, when one select of the next steps does not fit its plans."""
    dynamic_items: tuple[type, ...] = ()
    """Restart-proof components the game's planner uses (registered with the bot)."""

    DRAWN: ClassVar[tuple[str, ...]] = (
        "board",
        "results",
        "status_image",
        "recap_frame",
        "roll",
        "round_image",
        "draft_board",
        "panel_image",
        "phase_image",
    )
    """The renderers the drawing pool runs in its processes: module-level functions only."""


def recap_frame(show: Presenter) -> Callable[[dict[str, Any], Names], bytes]:
    """What a recap's frames are drawn with for this game."""
    return show.recap_frame or show.round_image or show.status_image


@cache
def presenters() -> dict[str, Presenter]:
    """Every hosted game's presenter, found in its package beside its plug-in."""
    return {
        name: importlib.import_module(f"bot.games.{name}.presenter").PRESENTER for name in hosted()
    }


def presenter(game: str) -> Presenter:
    return presenters()[game]
