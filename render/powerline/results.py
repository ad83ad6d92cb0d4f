"""The final standings: winner banner (or solo title) and every player's VP breakdown."""

from collections.abc import Sequence
from typing import Any

from PIL import ImageDraw

from render.common import (
    BACKGROUND,
    HIGHLIGHT,
    INK,
    MIN_TEXT,
    MUTED,
    PANEL,
    SEATS,
    WIDTH,
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
    tally,
)
from render.powerline.centre import GAP, INNER, MARGIN, PAD, TITLE_H, panel

HEADER_H = 104
BANNER_H = 170
LINE_H = 34

BREAKDOWN: tuple[tuple[str, str], ...] = (
    ("start", "Start"),
    ("cities", "Cities"),
    ("stations", "Stations"),
    ("scoring", "Scorings"),
    ("island", "Island"),
    ("end_penalty", "End"),
)
"""VP sources in the order a row lists them: ledger key (scoring: the three summed) and word."""


def final_results(view: dict[str, Any], names: Sequence[str] | None = None) -> bytes:
    """PNG of the final standings in `view`; `names` label seats (default "Seat 1", …)."""
    standings = sorted(view["standings"], key=lambda e: (e["rank"], e["seat"]))
    labels = player_names(len(view["seats"]), names)
    heights = [_row_height(e, standings) for e in standings]
    table_h = 2 * PAD + TITLE_H + sum(heights)
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
    panel(draw, (MARGIN, y, WIDTH - MARGIN, y + table_h), "Standings", "VP by source")
    top = y + PAD + TITLE_H
    for entry, h in zip(standings, heights, strict=True):
        row = (MARGIN + 10, top, WIDTH - MARGIN - 10, top + h - 10)
        _row(draw, row, entry, standings, labels, view)
        top += h
    return png(img)


def _row_height(entry: dict[str, Any], standings: list[dict[str, Any]]) -> int:
    return 16 + 50 + LINE_H * (3 if _tiebreak_note(entry, standings) else 2) + 10


def _header(draw: ImageDraw.ImageDraw, y: int, view: dict[str, Any]) -> None:
    """Title with the rounds played and variants."""
    draw.text((MARGIN, y), "Powerline: final results", font=font(44, bold=True), fill=INK)
    rounds = view["rounds"] if view["over"] else view["round"]
    status = f"After {rounds} rounds" if view["over"] else f"Standings in round {rounds}"
    variants = ", ".join(v.replace("_", " ") for v in view["variants"]) or "none"
    text = fit(f"{status} · variants: {variants}", font(MIN_TEXT), INNER)
    draw.text((MARGIN + 2, y + 60), text, font=font(MIN_TEXT), fill=MUTED, anchor="lt")


def _winner_banner(
    draw: ImageDraw.ImageDraw, box: Box, standings: list[dict[str, Any]], names: list[str]
) -> None:
    """The winner (or everyone sharing first place) in large type with the winning score."""
    panel(draw, box)
    x0, y0, x1, y1 = box
    winners = [e for e in standings if e["rank"] == 1]
    label = "★ Winner" if len(winners) == 1 else "★ Shared victory"
    draw.text((x0 + PAD + 8, y0 + PAD), label.upper(), font=font(MIN_TEXT, bold=True), fill=MUTED)
    score = f"{winners[0]['score']} VP"
    big = font(52, bold=True)
    cy = (y0 + y1) / 2 + 12
    draw.text((x1 - PAD - 8, cy), score, font=big, fill=INK, anchor="rm")
    room = x1 - x0 - 2 * PAD - 16 - int(big.getlength(score)) - 40
    left = x0 + PAD + 8
    per = (room - 12 * (len(winners) - 1)) // len(winners)
    for e in winners:
        seat = int(e["seat"])
        seat_badge(draw, (left, int(cy - 24), left + 50, int(cy + 24)), seat)
        fnt = _largest(names[seat], (46, 40, 34, 28), per - 62)
        text = fit(names[seat], fnt, per - 62)
        draw.text((left + 62, cy), text, font=fnt, fill=INK, anchor="lm")
        left += 62 + int(fnt.getlength(text)) + 28
    note = _tiebreak_note(winners[0], standings)
    if note:
        note = fit(note, font(MIN_TEXT), x1 - x0 - 2 * PAD - 16)
        draw.text((x0 + PAD + 8, y1 - 14), note, font=font(MIN_TEXT), fill=MUTED, anchor="ls")


def _solo_banner(
    draw: ImageDraw.ImageDraw, box: Box, entry: dict[str, Any], names: list[str]
) -> None:
    """A solo game: the player and score, then the solo chart's title in large type."""
    panel(draw, box)
    x0, y0, x1, y1 = box
    seat = int(entry["seat"])
    score = f"{entry['score']} VP"
    big = font(48, bold=True)
    draw.text((x1 - PAD - 8, y0 + PAD + 26), score, font=big, fill=INK, anchor="rm")
    seat_badge(draw, (x0 + PAD + 8, y0 + PAD + 2, x0 + PAD + 56, y0 + PAD + 50), seat)
    room = int(x1 - x0 - 2 * PAD - 110 - big.getlength(score))
    who = fit(names[seat], font(30, bold=True), room)
    draw.text((x0 + PAD + 70, y0 + PAD + 26), who, font=font(30, bold=True), fill=INK, anchor="lm")
    title = str(entry["details"].get("title") or "")
    if title:
        room = x1 - x0 - 2 * PAD - 16
        fnt = _largest(f"“{title}”", (48, 42, 36, 30), room)
        quoted = fit(f"“{title}”", fnt, room)
        draw.text(((x0 + x1) / 2, y1 - PAD - 28), quoted, font=fnt, fill=INK, anchor="mm")


def _largest(text: str, sizes: Sequence[int], width: float) -> Any:
    """The biggest bold font among `sizes` that fits `text` in `width` (else the smallest)."""
    for size in sizes:
        if font(size, bold=True).getlength(text) <= width:
            return font(size, bold=True)
    return font(sizes[-1], bold=True)


def _row(
    draw: ImageDraw.ImageDraw,
    box: Box,
    entry: dict[str, Any],
    standings: list[dict[str, Any]],
    names: list[str],
    view: dict[str, Any],
) -> None:
    """One player: rank medal, seat badge and name with the total; then the VP by source, the
    details and how a tie was settled, a line each."""
    seat = int(entry["seat"])
    draw.rounded_rectangle(
        box,
        radius=12,
        fill=blend(SEATS[seat % len(SEATS)], PANEL, 0.8),
        outline=HIGHLIGHT if entry["rank"] == 1 else None,
        width=3,
    )
    x0, y0, x1, _ = box
    line = y0 + 36
    medal(draw, (x0 + 38, line), entry, standings)
    seat_badge(draw, (x0 + 76, int(line - 22), x0 + 120, int(line + 22)), seat)
    left = x0 + 134
    total = font(44, bold=True)
    score = str(entry["score"])
    draw.text((x1 - 16, line), score, font=total, fill=INK, anchor="rm")
    suffix = " (you)" if view.get("viewer") == seat else ""
    big = font(30, bold=True)
    room = x1 - 40 - int(total.getlength(score)) - left
    name = fit(names[seat], big, int(room - big.getlength(suffix))) + suffix
    draw.text((left, line), name, font=big, fill=INK, anchor="lm")
    y = y0 + 66
    tally(
        draw, (x0 + 24, y + LINE_H / 2), _breakdown(entry["details"].get("breakdown", {})), x1 - 16
    )
    y += LINE_H
    details = fit(_details(entry["details"]), font(MIN_TEXT), x1 - x0 - 40)
    draw.text((x0 + 24, y + LINE_H / 2), details, font=font(MIN_TEXT), fill=MUTED, anchor="lm")
    note = _tiebreak_note(entry, standings)
    if note:
        y += LINE_H
        note = fit(note, font(MIN_TEXT, bold=True), x1 - x0 - 40)
        draw.text(
            (x0 + 24, y + LINE_H / 2), note, font=font(MIN_TEXT, bold=True), fill=INK, anchor="lm"
        )


def _breakdown(breakdown: dict[str, Any]) -> list[tuple[str, str]]:
    """The VP by source as (word, value) pairs; the three scorings as one "3+6+5"."""
    out = []
    for key, label in BREAKDOWN:
        if key == "scoring":
            text = "+".join(_vp(int(breakdown.get(f"scoring_{k}", 0))) for k in (1, 2, 3))
        else:
            text = _vp(int(breakdown.get(key, 0)))
        out.append((label, text))
    return out


def _vp(value: int) -> str:
    return f"−{-value}" if value < 0 else str(value)


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
