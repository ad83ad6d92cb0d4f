"""The daily challenges' words: a result as its owner reads it, the day's post, the reminder."""

from datetime import date
from typing import Any

from bot.service.dailies import DayBoard, Placed, Standing, Streak, challenge
from bot.ui.common import said
from render.common import ordinal

SHOWN = 15
"""Lines of a table shown in a message."""


def day_words(day: date) -> str:
    """ "Thu 26 Nov 2026"."""
    return f"{day:%a} {day.day} {day:%b %Y}"


def standing_words(board: DayBoard, placed: Placed, where: str) -> str:
    """A result as its owner reads it: its place, among how many, and how many beat it."""
    host, _ = challenge(board.key)
    if placed.rank is None:
        return "under way (no score until it is finished or the day closes)"
    tied = sum(1 for p in board.scored if p.rank == placed.rank) > 1
    return (
        f"{host.score(placed.entry.score)}, {ordinal(placed.rank)}{' (tied)' if tied else ''} "
        f"of {len(board.scored)} {where}; {board.beaten_by(placed)} scored more"
    )


def streak_words(streak: Streak) -> str:
    days = f"{streak.current} day{'s' if streak.current != 1 else ''}"
    flame = "🔥 " if streak.current else ""
    keep = " — play today to keep it" if streak.current and not streak.played_today else ""
    return f"{flame}Daily streak: {days} (longest {streak.longest}){keep}"


def done_words(board: DayBoard, streak: Streak, where: str) -> str:
    """The DM that ends an entry: the result so far, the streak, what comes next."""
    _, daily = challenge(board.key)
    mine = board.mine
    result = standing_words(board, mine, where) if mine else ""
    closes = int(board.closes_at.timestamp())
    return "\n".join(
        [
            f"🏁 **Today's {daily.title} daily is done**: {result} so far.",
            streak_words(streak),
            f"The day's table is posted when the day closes (<t:{closes}:R>). "
            "`/daily compare` shows another finisher's board.",
        ]
    )


def board_post(board: DayBoard) -> tuple[str, str, str, list[dict[str, Any]]]:
    """The day's closing post: its text (everyone's score), the image's title, subtitle and
    rows."""
    host, daily = challenge(board.key)
    special = daily.today(board.day)
    title = f"{daily.title} daily — {day_words(board.day)}"
    played = len(board.scored)
    subtitle = " · ".join(
        part for part in (special, f"{played} played", "the same dice for everyone") if part
    )
    rows = [
        {
            "rank": p.rank,
            "name": p.entry.name,
            "score": host.score(p.entry.score),
            "note": "" if p.entry.finished else "ended unfinished",
        }
        for p in board.scored
    ]
    lines = [f"🏆 **{title}** is closed ({subtitle})."]
    lines += [
        f"{p.rank}. {said(p.entry.name)} — {host.score(p.entry.score)}"
        + ("" if p.entry.finished else " (ended unfinished)")
        for p in board.scored[:SHOWN]
    ]
    if len(rows) > SHOWN:
        lines.append(f"… and {len(rows) - SHOWN} more")
    lines.append("Tomorrow's dice: `/daily play`.")
    return "\n".join(lines)[:2000], title, subtitle, rows


def table_lines(rows: list[Standing], unit: str) -> list[str]:
    """A week's or season's table, a line per person."""
    lines = [f"{r.rank}. {said(r.name)} — {r.points:g} {unit} ({r.detail})" for r in rows[:SHOWN]]
    if len(rows) > SHOWN:
        lines.append(f"… and {len(rows) - SHOWN} more")
    return lines or ["Nobody yet."]
