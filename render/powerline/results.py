"""The final standings: winner banner (or solo title) and every player's VP breakdown."""

from collections.abc import Sequence
from typing import Any

from PIL import ImageDraw

from render.common import (
    BACKGROUND,
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    SEATS,
    Box,
    blend,
    canvas,
    fit,
    font,
    medal,
    ordinal,
    player_names,
    png,
    seat_badge,
)
from render.powerline.centre import (
    GAP,
    INNER,
    MARGIN,
    PAD,
    WIDTH,
    panel,
)

HEADER_H = 84
BANNER_H = 150
ROW_H = 86
TABLE_HEAD = 58
COLUMN_W = 64
TOTAL_W = 90

COLUMNS: tuple[tuple[str, str], ...] = (
    ("start", "Start"),
    ("cities", "Cities"),
    ("stations", "Stations"),
    ("scoring_1", "1st"),
    ("scoring_2", "2nd"),
    ("scoring_3", "3rd"),
    ("island", "Island"),
    ("end_penalty", "End\npenalty"),
)
"""Breakdown columns in table order: ledger key and header."""


def final_results(view: dict[str, Any], names: Sequence[str] | None = None) -> bytes:
    """PNG of the final standings in `view`; `names` label seats (default "Seat 1", …)."""
    standings = sorted(view["standings"], key=lambda e: (e["rank"], e["seat"]))
    labels = player_names(len(view["seats"]), names)
    table_h = 2 * PAD + 40 + TABLE_HEAD + ROW_H * len(standings)
    height = 2 * MARGIN + HEADER_H + BANNER_H + GAP + table_h
    img, draw = canvas(WIDTH, height, BACKGROUND)
    y = MARGIN
    _header(draw, y, view)
    y += HEADER_H
    banner = (MARGIN, y, WIDTH - MARGIN, y + BANNER_H)
    if len(standings) == 1:
        _solo_banner(draw, banner, standings[0], labels)
    else:
        _winner_banner(draw, banner, standings, labels)
    y += BANNER_H + GAP
    _table(draw, (MARGIN, y, WIDTH - MARGIN, y + table_h), standings, labels, view)
    return png(img)


def _header(draw: ImageDraw.ImageDraw, y: int, view: dict[str, Any]) -> None:
    """Title with the rounds played and variants."""
    draw.text((MARGIN, y), "Powerline: final results", font=font(36, bold=True), fill=INK)
    rounds = view["rounds"] if view["over"] else view["round"]
    status = f"After {rounds} rounds" if view["over"] else f"Standings in round {rounds}"
    variants = ", ".join(v.replace("_", " ") for v in view["variants"]) or "none"
    text = fit(f"{status} · variants: {variants}", font(18), INNER)
    draw.text((MARGIN + 2, y + 50), text, font=font(18), fill=MUTED, anchor="lt")


def _winner_banner(
    draw: ImageDraw.ImageDraw, box: Box, standings: list[dict[str, Any]], names: list[str]
) -> None:
    """The winner (or everyone sharing first place) in large type with the winning score."""
    panel(draw, box)
    x0, y0, x1, y1 = box
    winners = [e for e in standings if e["rank"] == 1]
    label = "★ Winner" if len(winners) == 1 else "★ Shared victory"
    draw.text((x0 + PAD + 8, y0 + PAD + 4), label.upper(), font=font(18, bold=True), fill=MUTED)
    score = f"{winners[0]['score']} VP"
    big = font(44, bold=True)
    draw.text((x1 - PAD - 8, (y0 + y1) / 2 + 14), score, font=big, fill=INK, anchor="rm")
    room = x1 - x0 - 2 * PAD - 16 - int(big.getlength(score)) - 40
    left = x0 + PAD + 8
    cy = (y0 + y1) / 2 + 14
    per = (room - 12 * (len(winners) - 1)) // len(winners)
    for e in winners:
        seat = int(e["seat"])
        seat_badge(draw, (left, int(cy - 22), left + 48, int(cy + 22)), seat)
        fnt = _largest(names[seat], (40, 34, 28, 24), per - 60)
        text = fit(names[seat], fnt, per - 60)
        draw.text((left + 60, cy), text, font=fnt, fill=INK, anchor="lm")
        left += 60 + int(fnt.getlength(text)) + 28
    note = _tiebreak_note(winners[0], standings)
    if note:
        draw.text((x0 + PAD + 8, y1 - PAD), note, font=font(16), fill=MUTED, anchor="ls")


def _solo_banner(
    draw: ImageDraw.ImageDraw, box: Box, entry: dict[str, Any], names: list[str]
) -> None:
    """A solo game: the player and score, then the solo chart's title in large type."""
    panel(draw, box)
    x0, y0, x1, y1 = box
    seat = int(entry["seat"])
    score = f"{entry['score']} VP"
    big = font(40, bold=True)
    draw.text((x1 - PAD - 8, y0 + PAD + 20), score, font=big, fill=INK, anchor="rm")
    seat_badge(draw, (x0 + PAD + 8, y0 + PAD, x0 + PAD + 52, y0 + PAD + 40), seat)
    room = int(x1 - x0 - 2 * PAD - 100 - big.getlength(score))
    who = fit(names[seat], font(24, bold=True), room)
    draw.text((x0 + PAD + 66, y0 + PAD + 20), who, font=font(24, bold=True), fill=INK, anchor="lm")
    title = str(entry["details"].get("title") or "")
    if title:
        room = x1 - x0 - 2 * PAD - 16
        fnt = _largest(f"“{title}”", (44, 40, 34, 30, 26), room)
        quoted = fit(f"“{title}”", fnt, room)
        draw.text(((x0 + x1) / 2, y1 - PAD - 24), quoted, font=fnt, fill=INK, anchor="mm")


def _largest(text: str, sizes: Sequence[int], width: float) -> Any:
    """The biggest bold font among `sizes` that fits `text` in `width` (else the smallest)."""
    for size in sizes:
        if font(size, bold=True).getlength(text) <= width:
            return font(size, bold=True)
    return font(sizes[-1], bold=True)


def _table(
    draw: ImageDraw.ImageDraw,
    box: Box,
    standings: list[dict[str, Any]],
    names: list[str],
    view: dict[str, Any],
) -> None:
    """Standings by rank, one row per player, with the VP breakdown in columns."""
    panel(draw, box, "Standings", "VP by source")
    x0, y0, x1, _ = box
    total_x = x1 - PAD - 14
    first = total_x - TOTAL_W - COLUMN_W * len(COLUMNS) + COLUMN_W // 2
    xs = [first + i * COLUMN_W for i in range(len(COLUMNS))]
    head = y0 + PAD + 40 + TABLE_HEAD // 2
    small = font(14, bold=True)
    for (key, label), x in zip(COLUMNS, xs, strict=True):
        at = (x, head + 10) if key.startswith("scoring_") else (x, head)
        draw.multiline_text(
            at, label, font=small, fill=MUTED, anchor="mm", align="center", spacing=2
        )
    group = [x for (key, _), x in zip(COLUMNS, xs, strict=True) if key.startswith("scoring_")]
    if group:
        mid, half = (group[0] + group[-1]) / 2, (group[-1] - group[0]) / 2 + 26
        draw.text((mid, head - 14), "Scoring", font=small, fill=MUTED, anchor="mm")
        draw.line((mid - half, head - 3, mid + half, head - 3), fill=MUTED, width=1)
    draw.text((total_x, head), "Total", font=font(16, bold=True), fill=INK, anchor="rm")
    top = y0 + PAD + 40 + TABLE_HEAD
    for entry in standings:
        row = (x0 + 10, top, x1 - 10, top + ROW_H - 8)
        _row(draw, row, entry, standings, names, view, (xs, total_x))
        top += ROW_H


def _row(
    draw: ImageDraw.ImageDraw,
    box: Box,
    entry: dict[str, Any],
    standings: list[dict[str, Any]],
    names: list[str],
    view: dict[str, Any],
    cols: tuple[list[int], int],
) -> None:
    """One player: rank medal, seat badge, name with details and tiebreak, breakdown, total."""
    xs, total_x = cols
    seat = int(entry["seat"])
    winner = entry["rank"] == 1
    draw.rounded_rectangle(
        box,
        radius=12,
        fill=blend(SEATS[seat % len(SEATS)], PANEL, 0.8),
        outline=HIGHLIGHT if winner else None,
        width=3,
    )
    x0, y0, _, y1 = box
    cy = (y0 + y1) / 2
    medal(draw, (x0 + 34, cy), entry, standings)
    seat_badge(draw, (x0 + 70, int(cy - 20), x0 + 110, int(cy + 20)), seat)
    left = x0 + 124
    line = y0 + 26
    room = xs[0] - COLUMN_W // 2 - left - 10
    suffix = " (you)" if view.get("viewer") == seat else ""
    big = font(22, bold=True)
    name = fit(names[seat], big, int(room - big.getlength(suffix))) + suffix
    draw.text((left, line), name, font=big, fill=INK, anchor="lm")
    details = _details(entry["details"])
    draw.text((left, y1 - 17), details, font=font(15), fill=MUTED, anchor="lm")
    note = _tiebreak_note(entry, standings)
    if note:
        x = left + font(15).getlength(details) + 24
        note = fit(note, font(15, bold=True), int(box[2] - 16 - x))
        draw.text((x, y1 - 17), note, font=font(15, bold=True), fill=INK, anchor="lm")
    breakdown = entry["details"].get("breakdown", {})
    for (key, _), x in zip(COLUMNS, xs, strict=True):
        value = int(breakdown.get(key, 0))
        text = f"−{-value}" if value < 0 else str(value)
        fnt = font(20, bold=bool(value))
        draw.text((x, line), text, font=fnt, fill=INK if value else MUTED, anchor="mm")
    total = font(32, bold=True)
    draw.text((total_x, line + 4), str(entry["score"]), font=total, fill=INK, anchor="rm")


def _details(details: dict[str, Any]) -> str:
    """Cities supplied, station tiles and unfinished lines in words."""
    parts = [
        _count(details.get("cities_supplied", 0), "city", "cities") + " supplied",
        _count(details.get("station_tiles", 0), "station tile", "station tiles"),
    ]
    unfinished = int(details.get("unfinished_lines", 0))
    if unfinished:
        parts.append(_count(unfinished, "unfinished line", "unfinished lines"))
    return " · ".join(parts)


def _count(n: int, one: str, many: str) -> str:
    """'1 city', '3 cities'."""
    return f"{n} {one if n == 1 else many}"


def _tiebreak_note(entry: dict[str, Any], standings: list[dict[str, Any]]) -> str:
    """How a tie on VP was settled for this player, or "" when it was not tied."""
    kind = entry["details"].get("tiebreak")
    if not kind:
        return ""
    if kind == "shared":
        rank = int(entry["rank"])
        place = "victory" if rank == 1 else f"{ordinal(rank)} place"
        return f"shared {place} (tie on VP and station tiles)"
    vp, tiles = entry["tiebreak"]
    rivals = sorted(
        {int(e["tiebreak"][1]) for e in standings if e is not entry and e["tiebreak"][0] == vp},
        reverse=True,
    )
    vs = ", ".join(str(t) for t in rivals)
    if all(tiles > t for t in rivals):
        return f"tie on VP: more station tiles ({tiles} vs {vs})"
    if all(tiles < t for t in rivals):
        return f"tie on VP: fewer station tiles ({tiles} vs {vs})"
    return f"tie on VP: station tiles decided ({tiles} vs {vs})"
