"""Powerline's images and words on Discord."""

from typing import Any

import render.powerline as powerline
from bot.ui.presenter import Presenter


def _draft(view: dict[str, Any], seat: int, names: list[str], steps: list, vacation: bool) -> bytes:
    view["seats"][seat]["plan"] = {"placements": steps, "vacation": vacation}
    return powerline.player_board(view, seat, names)


PRESENTER = Presenter(
    plan_hint="Pick workers below or use `/powerline place`.",
    roll=powerline.centre_board,
    board=powerline.player_board,
    round_image=powerline.round_summary,
    results=powerline.final_results,
    draft_board=_draft,
    status_image=powerline.centre_board,
    empty_plan="No workers placed yet: start with the red or the black worker.",
    step_prompt="Place the next worker…",
    step_group=lambda key: key.split(":", 1)[0] + " worker",
    vacation=True,
)
