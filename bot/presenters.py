"""How each game looks in a channel and in DMs: which images and texts its events get."""

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import render.powerline as powerline
import render.railroad_ink as railroad_ink


@dataclass(frozen=True)
class Presenter:
    """The images (PNG bytes from views) and words of one game's posts."""

    command: str
    """The slash-command group players plan with, e.g. "/powerline"."""
    plan_hint: str
    roll: Callable[[dict[str, Any], list[str]], bytes]
    board: Callable[[dict[str, Any], int, list[str]], bytes]
    round_image: Callable[[dict[str, Any], list[str]], bytes]
    round_text: Callable[[dict[str, Any], list[str]], str]
    results: Callable[[dict[str, Any], list[str]], bytes]
    draft_board: Callable[[dict[str, Any], int, list[str], list[dict[str, Any]], bool], bytes]
    unit: str = "points"
    preview_each_step: bool = False
    """Answer every planning step with the board and the draft drawn on it."""
    vacation: bool = False
    """Whether plans carry Powerline's vacation tile (the planner shows its button)."""


def _powerline_round_text(view: dict[str, Any], names: list[str]) -> str:
    report = view["last_round"]
    lines = [f"**Round {report['round']} built.**"]
    for seat, done in enumerate(report["seats"]):
        per_line = Counter(p["line"] for p in done["plan"]["placements"] if not p["island"])
        built = ", ".join(f"{k}×{n}" if n > 1 else k for k, n in per_line.items()) or "nothing"
        gained = done["vp_after"] - done["vp_before"]
        extras = [f"city {c}" for c in done["cities"]] + [f"station {s}" for s in done["stations"]]
        tail = f" ({', '.join(extras)})" if extras else ""
        lines.append(f"{names[seat]}: {built}{tail}, {gained:+d} → {done['vp_after']} VP")
    if report["scoring"]:
        lines.append(f"Scoring {report['scoring']} done.")
    return "\n".join(lines)[:2000]


def _powerline_draft(view, seat, names, steps, vacation) -> bytes:
    view["seats"][seat]["plan"] = {"placements": steps, "vacation": vacation}
    return powerline.player_board(view, seat, names)


def _railroad_round_text(view: dict[str, Any], names: list[str]) -> str:
    resolved = view["round"] - (0 if view["over"] else 1)
    lines = [f"**Round {resolved} built.**"]
    for standing in sorted(view["standings"], key=lambda s: s["rank"]):
        lines.append(f"{names[standing['seat']]}: {standing['score']} points so far")
    return "\n".join(lines)[:2000]


def _railroad_round_image(view: dict[str, Any], names: list[str]) -> bytes:
    return railroad_ink.score_sheet(view, names)


PRESENTERS: dict[str, Presenter] = {
    "powerline": Presenter(
        command="/powerline",
        plan_hint="Pick workers below or use `/powerline place`.",
        roll=powerline.centre_board,
        board=powerline.player_board,
        round_image=powerline.round_summary,
        round_text=_powerline_round_text,
        results=powerline.final_results,
        draft_board=_powerline_draft,
        unit="VP",
        vacation=True,
    ),
    "railroad_ink": Presenter(
        command="/railroad",
        plan_hint="Draw your routes with `/railroad draw` (and `/railroad step` for lamps and "
        "power), then `/railroad submit`.",
        roll=lambda view, names: railroad_ink.roll(view),
        board=railroad_ink.board,
        round_image=_railroad_round_image,
        round_text=_railroad_round_text,
        results=railroad_ink.score_sheet,
        draft_board=lambda view, seat, names, steps, _: railroad_ink.board(
            view, seat, names, steps
        ),
        preview_each_step=True,
    ),
}


def presenter(game: str) -> Presenter:
    return PRESENTERS[game]
