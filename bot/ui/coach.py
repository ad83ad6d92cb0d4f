"""The coach's report in words and pictures: the rounds or turns where the AI would have chosen
otherwise, as the AI's suggestion, with what each choice led to."""

import io
from typing import Any

import discord

from bot.service.hosting import fill
from bot.service.tables import Table
from bot.ui.common import said
from bot.ui.presenter import presenter
from bot.workers import draw
from engine.coaching import Advice, Coaching, Step

TABLE_ROUNDS = 12
"""Rounds of a revealed table (money, VP) shown; a longer game shows its last ones."""


def _figures(advice: Advice) -> str:
    return ", ".join(f"{name} {a:g} → {b:g}" for name, (a, b) in advice.detail.items())


def _move(table: Table, steps: list[Step], advice: Advice, action: dict[str, Any]) -> str:
    """A choice in words: a plan's steps, or a move as the game says it."""
    names = [s.name for s in table.seats]
    state = steps[advice.at].before
    seat = steps[advice.at].seat
    if table.hosted.planner is not None:
        plans = table.hosted.plans()
        parts, flag = plans.unplan(action)
        lines = plans.lines(state, seat, parts) or ["nothing"]
        return "; ".join(lines) + (" (with the vacation tile)" if flag else "")
    game = table.game
    after = game.apply(state, seat, game.parse_action(action))
    return fill(table.hosted.moves().describe(state, seat, action, after), names)


def report_lines(table: Table, coaching: Coaching, steps: list[Step]) -> list[str]:
    """The report's text: what was weighed, the advice that mattered most, the rest counted."""
    lines = [
        f"🧑‍🏫 **Coach for {table.label}**, your seat ({said(table.seats[coaching.seat].name)}). "
        "These are the AI's suggestions, weighed by its own play: not the truth about the game.",
        f"It weighed {coaching.weighed} of your {coaching.decisions} decisions"
        + (" (it ran out of time for the rest)" if coaching.weighed < coaching.decisions else "")
        + f", measuring {coaching.measure}.",
    ]
    if coaching.highlights and table.hosted.planner is not None:
        lines.append(
            "The pictures show each round below twice on your board as it stood: your plan "
            "(“yours”) and the AI's (“ai”), outlined."
        )
    if not coaching.highlights:
        lines.append("Nowhere would its own choice have done better by that measure. Well played.")
    for rank, index in enumerate(coaching.highlights, 1):
        advice = coaching.advice[index]
        lines.append("")
        lines.append(f"**{rank}. {advice.title}**")
        lines.append(f"• You: {_move(table, steps, advice, advice.played)}")
        lines.append(f"• The AI would have: {_move(table, steps, advice, advice.suggested)}")
        outcome = (
            f"{advice.played_value:g} for yours, {advice.suggested_value:g} for the AI's "
            f"({advice.gain:+g})"
            if coaching.readable
            else ""
        )
        figures = _figures(advice)
        said_measure = coaching.measure[0].upper() + coaching.measure[1:]
        lines.append(f"• {said_measure}: " + "; ".join(p for p in (outcome, figures) if p))
    rest = len(coaching.advice) - len(coaching.highlights)
    if rest > 0:
        better = sum(1 for a in coaching.advice if a.gain > 0) - len(coaching.highlights)
        lines.append("")
        lines.append(
            f"In {rest} more the AI would have chosen otherwise; {max(0, better)} of them "
            "better by its measure, the others no better."
        )
    for name, rows in coaching.table.items():
        shown = rows[-TABLE_ROUNDS:]
        first = len(rows) - len(shown) + 1
        people = [s.name for s in table.seats]
        lines.append("")
        lines.append(f"**{name.capitalize()} round by round**, now that the game is over:")
        for number, row in enumerate(shown, first):
            cells = ", ".join(f"{said(n)} {v:g}" for n, v in zip(people, row, strict=False))
            lines.append(f"R{number}: {cells}")
    return lines


async def report_files(table: Table, coaching: Coaching, steps: list[Step]) -> list[discord.File]:
    """For a planned game, each highlighted round's board with the AI's plan drawn on it, beside
    the player's; none for a turn-based one (the words carry it)."""
    show = presenter(table.row.game)
    if table.hosted.planner is None or show.draft_board is None:
        return []
    plans = table.hosted.plans()
    names = [s.name for s in table.seats]
    files = []
    for rank, index in enumerate(coaching.highlights, 1):
        advice = coaching.advice[index]
        step = steps[advice.at]
        view = table.game.view(step.before, step.seat)
        for who, action in (("yours", advice.played), ("ai", advice.suggested)):
            parts, flag = plans.unplan(action)
            image = await draw(show.draft_board, view, step.seat, names, parts, flag)
            files.append(discord.File(io.BytesIO(image), filename=f"{rank}-{who}.png"))
    return files
