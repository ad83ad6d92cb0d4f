"""The final standings: cities powered, then the tiebreak that placed each player."""

from collections.abc import Sequence
from typing import Any

from render.common import (
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    RULE,
    blend,
    canvas,
    fit,
    font,
    medal,
    png,
)
from render.power_grid.pieces import header, name_chip, seat_colour
from render.power_grid.pieces import labels as seat_labels

WIDTH = 1100
HEADER_H = 96
ROW_H = 104
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
    height = HEADER_H + 44 + ROW_H * len(standings) + 2 * PAD
    img, draw = canvas(WIDTH, height)
    header(draw, view, names, WIDTH)
    top = HEADER_H
    draw.rounded_rectangle(
        (PAD, top, WIDTH - PAD, height - PAD), radius=16, fill=PANEL, outline=RULE, width=2
    )
    draw.text((PAD + 16, top + 12), "FINAL STANDINGS", font=font(16, bold=True), fill=MUTED)
    draw.text(
        (WIDTH - PAD - 16, top + 12),
        "ties: money, then cities, then highest plant",
        font=font(16),
        fill=MUTED,
        anchor="ra",
    )
    for i, entry in enumerate(standings):
        y0 = top + 44 + i * ROW_H
        box = (PAD + 10, y0, WIDTH - PAD - 10, y0 + ROW_H - 10)
        first = entry["rank"] == 1
        fill = blend(HIGHLIGHT, (255, 255, 255), 0.75) if first else (250, 248, 242)
        draw.rounded_rectangle(
            box, radius=12, fill=fill, outline=INK if first else RULE, width=2 if first else 1
        )
        draw.rectangle(
            (box[0] + 1, y0 + 12, box[0] + 8, box[3] - 12), fill=seat_colour(entry["seat"])
        )
        cy = (box[1] + box[3]) / 2
        medal(draw, (box[0] + 50, cy), entry, standings)
        name_chip(draw, (box[0] + 92, cy - 16), entry["seat"], labels[entry["seat"]], 560, size=22)
        detail = (
            f"{entry['money']} Elektro · {entry['cities']} cities · "
            f"highest plant {entry['highest_plant']}"
        )
        draw.text((box[0] + 126, cy + 16), detail, font=font(17), fill=INK, anchor="lm")
        note = TIEBREAK.get(entry["tiebreak_used"] or "")
        right = box[2] - 20
        draw.text(
            (right, cy - 8), str(entry["powered"]), font=font(40, bold=True), fill=INK, anchor="rs"
        )
        draw.text((right, cy + 4), "cities powered", font=font(15), fill=MUTED, anchor="ra")
        if note:
            small = font(15, bold=True)
            draw.text(
                (box[0] + 126, cy + 38),
                fit(note, small, 640),
                font=small,
                fill=(150, 90, 0),
                anchor="lm",
            )
    return png(img)
