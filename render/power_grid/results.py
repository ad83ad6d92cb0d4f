"""The final standings: cities powered, then the tiebreak that placed each player."""

from collections.abc import Sequence
from typing import Any

from render.common import (
    HIGHLIGHT,
    INK,
    MIN_TEXT,
    MUTED,
    PANEL,
    RULE,
    WIDTH,
    blend,
    canvas,
    fit,
    font,
    medal,
    png,
)
from render.power_grid.pieces import header, name_chip, seat_colour
from render.power_grid.pieces import labels as seat_labels

HEADER_H = 112
ROW_H = 116
NOTE_H = 34
"""Rows placed by a tiebreak carry one more line that says which."""
PAD = 16

TIEBREAK = {
    "money": "tie on cities powered, placed by money left",
    "cities": "tie on cities powered and money, placed by cities connected",
    "highest_plant": "tie on powered, money and cities, placed by the highest plant",
    "shared": "shares the place: equal on every tiebreak",
}


def results(view: dict[str, Any], names: Sequence[str] | None = None) -> bytes:
    """PNG of the final standings: rank, cities powered, the tiebreak measures and the one used."""
    labels = seat_labels(view, names)
    standings = sorted(view["standings"] or [], key=lambda e: (e["rank"], e["seat"]))
    heights = [ROW_H + (NOTE_H if e["tiebreak_used"] in TIEBREAK else 0) for e in standings]
    height = HEADER_H + 96 + sum(heights) + 2 * PAD
    img, draw = canvas(WIDTH, height)
    header(draw, view, names, WIDTH)
    top = HEADER_H
    draw.rounded_rectangle(
        (PAD, top, WIDTH - PAD, height - PAD), radius=16, fill=PANEL, outline=RULE, width=2
    )
    fnt = font(MIN_TEXT, bold=True)
    draw.text((PAD + 18, top + 14), "FINAL STANDINGS", font=fnt, fill=MUTED)
    ties = "By cities powered; ties: money, then cities, then highest plant"
    ties = fit(ties, font(MIN_TEXT), WIDTH - 2 * PAD - 36)
    draw.text((PAD + 18, top + 48), ties, font=font(MIN_TEXT), fill=MUTED)
    y0 = top + 90
    for entry, h in zip(standings, heights, strict=True):
        box = (PAD + 10, y0, WIDTH - PAD - 10, y0 + h - 10)
        y0 += h
        first = entry["rank"] == 1
        fill = blend(HIGHLIGHT, (255, 255, 255), 0.75) if first else (250, 248, 242)
        draw.rounded_rectangle(
            box, radius=12, fill=fill, outline=INK if first else RULE, width=2 if first else 1
        )
        draw.rectangle(
            (box[0] + 1, box[1] + 12, box[0] + 8, box[3] - 12), fill=seat_colour(entry["seat"])
        )
        line = box[1] + 36
        medal(draw, (box[0] + 52, line), entry, standings)
        right = box[2] - 20
        powered = str(entry["powered"])
        big = font(52, bold=True)
        draw.text((right, line + 6), powered, font=big, fill=INK, anchor="rs")
        draw.text((right, line + 14), "powered", font=font(MIN_TEXT), fill=MUTED, anchor="ra")
        room = int(right - big.getlength(powered) - 24 - (box[0] + 96))
        name_chip(draw, (box[0] + 96, line), entry["seat"], labels[entry["seat"]], room, size=30)
        detail = (
            f"{entry['money']} Elektro · {entry['cities']} cities · "
            f"highest plant {entry['highest_plant']}"
        )
        width = int(right - 140 - (box[0] + 24))
        text = fit(detail, font(MIN_TEXT), width)
        draw.text((box[0] + 24, line + 46), text, font=font(MIN_TEXT), fill=INK, anchor="lm")
        note = TIEBREAK.get(entry["tiebreak_used"] or "")
        if note:
            small = font(MIN_TEXT, bold=True)
            text = fit(note, small, box[2] - box[0] - 40)
            draw.text((box[0] + 24, line + 80), text, font=small, fill=(150, 90, 0), anchor="lm")
    return png(img)
