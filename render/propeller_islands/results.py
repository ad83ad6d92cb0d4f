"""The final score breakdown: fame, resources, each landmark and blueprints, per seat by rank."""

from collections.abc import Sequence
from typing import Any

from PIL import ImageDraw

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
    player_names,
    png,
)
from render.propeller_islands.parts import name_line, panel_box

WIDTH = 1200
MARGIN = 16
ROW_H = 112
COLUMNS = ((560, "Fame"), (660, "Resources"), (770, "Landmarks"), (880, "Blueprints"))
TOTAL_X = 1000
DOCK_X = 1110


def results(view: dict[str, Any], names: Sequence[str] | None = None) -> bytes:
    """PNG of the score breakdown by rank: final once over, else 'if the game ended now'."""
    labels = player_names(len(view["seats"]), names)
    entries = _standings(view)
    height = 150 + 50 + ROW_H * len(entries) + 40
    img, draw = canvas(WIDTH, height)
    final = view["result"] is not None
    title = "Final scores" if final else "Scores if the game ended now"
    draw.text((MARGIN, 12), title, font=font(34, bold=True), fill=INK)
    winners = [e["seat"] for e in entries if e["rank"] == 1]
    who = ", ".join(labels[s] for s in winners)
    lead = ("Winner: " if len(winners) == 1 else "Shared win: ") if final else "Leading: "
    draw.text(
        (MARGIN + 2, 60),
        fit(lead + who, font(22, bold=True), WIDTH - 40),
        font=font(22, bold=True),
        fill=INK,
    )
    note = f"After round {view['round']} · tie-break: more workers left on the dock"
    draw.text((MARGIN + 2, 96), note, font=font(16), fill=MUTED)

    y0 = 134
    panel_box(draw, (MARGIN, y0, WIDTH - MARGIN, height - MARGIN))
    for x, head in (*COLUMNS, (TOTAL_X, "Total"), (DOCK_X, "Dock")):
        draw.text((x, y0 + 26), head, font=font(16, bold=True), fill=MUTED, anchor="mm")
    island_names = {
        c["tile"]: c["name"]
        for s in view["seats"]
        for c in s["island"]
        if c["category"] == "landmark"
    }
    for i, e in enumerate(entries):
        _row(draw, e, entries, view["seats"][e["seat"]], labels, island_names, y0 + 50 + i * ROW_H)
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
    mid = y + 36
    if e["rank"] == 1:
        draw.rounded_rectangle(
            (MARGIN + 8, y + 2, WIDTH - MARGIN - 8, y + ROW_H - 6),
            radius=12,
            fill=blend(PANEL, HIGHLIGHT, 0.25),
        )
    medal(draw, (MARGIN + 42, mid), e, entries)
    name_line(draw, (MARGIN + 84, mid - 10), e["seat"], labels, 400, 20)
    character = seat["character_name"] or "no character"
    draw.text(
        (MARGIN + 128, mid + 18),
        fit(character, font(15), 350),
        font=font(15),
        fill=MUTED,
        anchor="lm",
    )
    landmarks = sum(e["landmarks"].values())
    for (x, _), value in zip(
        COLUMNS, (e["fame"], e["resources"], landmarks, e["blueprints"]), strict=True
    ):
        draw.text((x, mid), str(value), font=font(24, bold=True), fill=INK, anchor="mm")
    draw.text((TOTAL_X, mid), str(e["total"]), font=font(34, bold=True), fill=INK, anchor="mm")
    draw.text((DOCK_X, mid), str(e["dock_workers"]), font=font(20), fill=INK, anchor="mm")
    unused = len(seat["unused"])
    parts = [
        f"E{seat['energy']} S{seat['steel']} P{seat['parts']}"
        + (f" +{unused} unused token{'s' * (unused != 1)}" if unused else ""),
        f"{len(seat['completed'])} blueprints",
    ]
    parts += [f"{landmark_names.get(t, t)} {vp}" for t, vp in e["landmarks"].items()]
    detail = " · ".join(parts)
    draw.text(
        (MARGIN + 84, y + ROW_H - 26),
        fit(detail, font(15), WIDTH - 2 * MARGIN - 100),
        font=font(15),
        fill=INK,
        anchor="lm",
    )
    draw.line((MARGIN + 16, y + ROW_H - 4, WIDTH - MARGIN - 16, y + ROW_H - 4), fill=RULE, width=1)
