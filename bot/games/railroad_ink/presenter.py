"""Railroad Ink's images and words on Discord."""

from typing import Any

import render.railroad_ink as railroad_ink
from bot.games.railroad_ink.controls import DYNAMIC_ITEMS, railroad_planner_view
from bot.ui.presenter import Presenter


def _roll(view: dict[str, Any], names: list[str]) -> bytes:
    return railroad_ink.roll(view)


def _draft(view: dict[str, Any], seat: int, names: list[str], steps: list, _: bool) -> bytes:
    return railroad_ink.board(view, seat, names, steps)


PRESENTER = Presenter(
    plan_hint="Draw your routes with `/railroad draw` (and `/railroad step` for lamps and power), "
    "then `/railroad submit`.",
    roll=_roll,
    board=railroad_ink.board,
    round_image=railroad_ink.score_sheet,
    results=railroad_ink.score_sheet,
    draft_board=_draft,
    status_image=railroad_ink.score_sheet,
    empty_plan="Nothing drawn yet: start with any rolled die.",
    step_prompt="Light lamps or use a power die…",
    preview_each_step=True,
    planner_view=railroad_planner_view,
    dynamic_items=DYNAMIC_ITEMS,
)
