"""Leaderboard images: a ranked table any game's ratings can fill, drawn from plain rows."""

from collections.abc import Sequence
from typing import Any

from render.common import (
    INK,
    MIN_TEXT,
    MUTED,
    PANEL,
    RULE,
    SEATS,
    WIDTH,
    blend,
    canvas,
    fit,
    font,
    png,
    two_lines,
)

ROW_H = 62
HEAD_H = 184
COLUMNS = (
    ("#", 62),
    ("Player", 286),
    ("Rating", 160),
    ("Games", 100),
    ("Wins", 86),
    ("Win %", 96),
    ("Avg", 86),
    ("Best", 70),
)


def leaderboard(title: str, rows: Sequence[dict[str, Any]], first_rank: int, note: str) -> bytes:
    """PNG of one leaderboard page; rows carry name, conservative, provisional, games, wins,
    avg_score and best."""
    img, draw = canvas(WIDTH, HEAD_H + ROW_H * max(len(rows), 1) + 30)
    heading = font(40, bold=True)
    draw.text((30, 18), fit(title, heading, WIDTH - 60), font=heading, fill=INK)
    for i, line in enumerate(two_lines(note, font(MIN_TEXT), WIDTH - 60)):
        draw.text((30, 72 + 32 * i), line, font=font(MIN_TEXT), fill=MUTED)
    x = 30
    for label, width in COLUMNS:
        fnt = font(MIN_TEXT, bold=True, condensed=True)
        draw.text((x, HEAD_H - 34), label, font=fnt, fill=MUTED)
        x += width
    if not rows:
        draw.text((30, HEAD_H + 14), "No rated games yet.", font=font(28), fill=INK)
    for i, row in enumerate(rows):
        y = HEAD_H + i * ROW_H
        fill = blend(SEATS[i % len(SEATS)], PANEL, 0.85)
        draw.rounded_rectangle(
            (20, y, WIDTH - 20, y + ROW_H - 6), radius=10, fill=fill, outline=RULE
        )
        rating = f"{row['shown']}" + (" (prov.)" if row["provisional"] else "")
        games = row["games"] or 0
        cells = (
            str(first_rank + i),
            fit(row["name"], font(28, bold=True), COLUMNS[1][1] - 16),
            rating,
            str(games),
            str(row["wins"] or 0),
            f"{100 * (row['wins'] or 0) / games:.0f}%" if games else "–",
            f"{row['avg_score']:.1f}" if row["avg_score"] is not None else "–",
            f"{row['best']:g}" if row["best"] is not None else "–",
        )
        x = 30
        for (_, width), text in zip(COLUMNS, cells, strict=True):
            name = width == COLUMNS[1][1]
            fnt = font(28 if name else MIN_TEXT, bold=name, condensed=not name)
            draw.text((x, y + (ROW_H - 6) / 2), text, font=fnt, fill=INK, anchor="lm")
            x += width
    return png(img)
