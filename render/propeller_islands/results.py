"""The final score breakdown: fame, resources, each landmark and blueprints, per seat by rank."""

from collections.abc import Sequence
from typing import Any

from PIL import ImageDraw

from render.common import (
    HIGHLIGHT,
    INK,
    MIN_TEXT,
    MUTED,
    PANEL,
    SEATS,
    WIDTH,
    blend,
    canvas,
    fit,
    font,
    medal,
    player_names,
    png,
    tally,
)
from render.propeller_islands.parts import name_line, panel_box

MARGIN = 16
LINE_H = 34
ROW_H = 16 + 50 + 3 * LINE_H + 14
TOP = 176


def results(view: dict[str, Any], names: Sequence[str] | None = None) -> bytes:
    """PNG of the score breakdown by rank: final once over, else 'if the game ended now'."""
    labels = player_names(len(view["seats"]), names)
    entries = _standings(view)
    height = TOP + 20 + ROW_H * len(entries) + 12 + MARGIN
    img, draw = canvas(WIDTH, height)
    final = view["result"] is not None
    title = "Final scores" if final else "Scores if the game ended now"
    draw.text((MARGIN + 4, 12), title, font=font(44, bold=True), fill=INK)
    winners = [e["seat"] for e in entries if e["rank"] == 1]
    who = ", ".join(labels[s] for s in winners)
    lead = ("Winner: " if len(winners) == 1 else "Shared win: ") if final else "Leading: "
    fnt = font(30, bold=True)
    draw.text((MARGIN + 6, 72), fit(lead + who, fnt, WIDTH - 40), font=fnt, fill=INK)
    note = f"After round {view['round']} · tie-break: more workers left on the dock"
    sub = font(MIN_TEXT)
    draw.text((MARGIN + 6, 120), fit(note, sub, WIDTH - 40), font=sub, fill=MUTED)
    panel_box(draw, (MARGIN, TOP, WIDTH - MARGIN, height - MARGIN))
    island_names = {
        c["tile"]: c["name"]
        for s in view["seats"]
        for c in s["island"]
        if c["category"] == "landmark"
    }
    for i, e in enumerate(entries):
        y = TOP + 12 + i * ROW_H
        _row(draw, e, entries, view["seats"][e["seat"]], labels, island_names, y)
    return png(img)


def _standings(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Entries with a rank, best first: the result's once over, else ranked on total VP now."""
    if view["result"] is not None:
        entries = list(view["result"]["seats"])
    else:
        scores = [{"seat": s["seat"], **s["score"]} for s in view["seats"]]
        entries = [{**e, "rank": 1 + sum(o["total"] > e["total"] for o in scores)} for e in scores]
    return sorted(entries, key=lambda e: (e["rank"], e["seat"]))


def _row(
    draw: ImageDraw.ImageDraw,
    e: dict[str, Any],
    entries: list[dict[str, Any]],
    seat: dict[str, Any],
    labels: list[str],
    landmark_names: dict[str, str],
    y: int,
) -> None:
    """One seat: rank, name and total; its character; VP by source; resources and landmarks."""
    box = (MARGIN + 10, y, WIDTH - MARGIN - 10, y + ROW_H - 10)
    fill = blend(SEATS[e["seat"] % len(SEATS)], PANEL, 0.8)
    draw.rounded_rectangle(
        box, radius=12, fill=fill, outline=HIGHLIGHT if e["rank"] == 1 else None, width=3
    )
    x0, _, x1, _ = box
    line = y + 36
    medal(draw, (x0 + 38, line), e, entries)
    total = font(44, bold=True)
    draw.text((x1 - 16, line), str(e["total"]), font=total, fill=INK, anchor="rm")
    room = int(x1 - 40 - total.getlength(str(e["total"])) - (x0 + 78))
    name_line(draw, (x0 + 78, line), e["seat"], labels, room, 30)
    left, width = x0 + 24, x1 - x0 - 40
    character = seat["character_name"] or "no character"
    draw.text(
        (left, y + 66 + LINE_H / 2),
        fit(character, font(MIN_TEXT), width),
        font=font(MIN_TEXT),
        fill=MUTED,
        anchor="lm",
    )
    landmarks = sum(e["landmarks"].values())
    items = [
        ("Fame", str(e["fame"])),
        ("Resources", str(e["resources"])),
        ("Landmarks", str(landmarks)),
        ("Blueprints", str(e["blueprints"])),
        ("dock workers", str(e["dock_workers"])),
    ]
    tally(draw, (left, y + 66 + LINE_H * 1.5), items, x1 - 16)
    unused = len(seat["unused"])
    parts = [
        f"E{seat['energy']} S{seat['steel']} P{seat['parts']}"
        + (f" +{unused} unused token{'s' * (unused != 1)}" if unused else ""),
        f"{len(seat['completed'])} blueprints",
    ]
    parts += [f"{landmark_names.get(t, t)} {vp}" for t, vp in e["landmarks"].items()]
    detail = fit(" · ".join(parts), font(MIN_TEXT), width)
    draw.text((left, y + 66 + LINE_H * 2.5), detail, font=font(MIN_TEXT), fill=INK, anchor="lm")
