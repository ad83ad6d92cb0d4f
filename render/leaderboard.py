"""Leaderboard images: a ranked table any game's ratings can fill, drawn from plain rows."""

from collections.abc import Sequence
from typing import Any

from render.common import INK, MUTED, PANEL, RULE, SEATS, blend, canvas, fit, font, png

WIDTH = 1100
ROW_H = 52
HEAD_H = 130
COLUMNS = (
    ("#", 60),
    ("Player", 380),
    ("Rating", 150),
    ("Games", 100),
    ("Wins", 100),
    ("Win %", 100),
    ("Avg", 90),
    ("Best", 90),
)


def leaderboard(title: str, rows: Sequence[dict[str, Any]], first_rank: int, note: str) -> bytes:
    """PNG of one leaderboard page; rows carry name, conservative, provisional, games, wins,
    avg_score and best."""
    img, draw = canvas(WIDTH, HEAD_H + ROW_H * max(len(rows), 1) + 40)
    draw.text(
        (30, 22), fit(title, font(32, bold=True), WIDTH - 60), font=font(32, bold=True), fill=INK
    )
    draw.text((30, 66), fit(note, font(16), WIDTH - 60), font=font(16), fill=MUTED)
    x = 30
    for label, width in COLUMNS:
        draw.text((x, HEAD_H - 30), label, font=font(16, bold=True), fill=MUTED)
        x += width
    if not rows:
        draw.text((30, HEAD_H + 10), "No rated games yet.", font=font(20), fill=INK)
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
            fit(row["name"], font(20, bold=True), COLUMNS[1][1] - 16),
            rating,
            str(games),
            str(row["wins"] or 0),
            f"{100 * (row['wins'] or 0) / games:.0f}%" if games else "–",
            f"{row['avg_score']:.1f}" if row["avg_score"] is not None else "–",
            f"{row['best']:g}" if row["best"] is not None else "–",
        )
        x = 30
        for (_, width), text in zip(COLUMNS, cells, strict=True):
            bold = width == COLUMNS[1][1]
            draw.text(
                (x, y + (ROW_H - 6) / 2), text, font=font(20, bold=bold), fill=INK, anchor="lm"
            )
            x += width
    return png(img)
