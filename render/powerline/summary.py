"""The round summary: a row per player with a small board (this round's dice outlined), what they
built and scored, and their VP; the leader is named at the top."""

from collections import Counter
from collections.abc import Sequence
from typing import Any

from PIL import ImageDraw

from render.common import (
    DICE,
    HIGHLIGHT,
    INK,
    MIN_TEXT,
    MUTED,
    PANEL,
    RGB,
    RULE,
    SEATS,
    WIDTH,
    canvas,
    die,
    fit,
    font,
    player_names,
    png,
)
from render.powerline.board import initials
from render.powerline.map import Frame, Marks, draw_map

HEADER_H = 168
LINE_H = 32
MAP_W, MAP_H = 250, 226
TEXT_X = 32 + MAP_W + 20


def round_summary(view: dict[str, Any], names: Sequence[str] | None = None) -> bytes:
    """PNG of the last resolved round for a channel post (public: plans are revealed by then)."""
    report = view["last_round"]
    if report is None:
        raise ValueError("no round has been resolved yet")
    seats = view["seats"]
    labels = player_names(len(seats), names)
    texts = [_lines(done) for done in report["seats"]]
    heights = [max(MAP_H + 24, 64 + LINE_H * len(t) + 14) for t in texts]
    img, draw = canvas(WIDTH, HEADER_H + sum(h + 14 for h in heights) + 6)
    _header(draw, view, report, labels)
    y = HEADER_H
    best = max(s["vp"] for s in seats)
    for seat, done, text, h in zip(seats, report["seats"], texts, heights, strict=True):
        _row(draw, view, seat, done, text, (12, y, WIDTH - 12, y + h), labels, best)
        y += h + 14
    return png(img)


def _header(
    draw: ImageDraw.ImageDraw, view: dict[str, Any], report: dict[str, Any], labels: list[str]
) -> None:
    """What was built, the roll it was built with, and who leads now."""
    title = f"Round {report['round']} built"
    if report["scoring"]:
        title += f" · scoring {report['scoring']}"
    if view["over"]:
        title += " · final round"
    draw.text(
        (20, 14), fit(title, font(40, bold=True), WIDTH - 40), font=font(40, bold=True), fill=INK
    )
    size, x = 52, 20
    for c, letter in zip(view["colors"], view["color_initials"], strict=True):
        die(draw, (x, 74, x + size, 74 + size), report["dice"][c], DICE[c])
        draw.text(
            (x + size / 2, 74 + size + 16),
            letter,
            font=font(MIN_TEXT, bold=True),
            fill=INK,
            anchor="mm",
        )
        x += size + 12
    best = max(s["vp"] for s in view["seats"])
    leaders = [labels[s["seat"]] for s in view["seats"] if s["vp"] == best]
    fnt = font(30, bold=True)
    room = WIDTH - 20 - (x + 20)
    line = _leaders(leaders, view["over"], len(view["seats"]), best)
    if fnt.getlength(line) > room and len(leaders) > 1:
        line = _leaders([f"{len(leaders)} players"], view["over"], len(view["seats"]), best, True)
    draw.text((WIDTH - 20, 100), fit(line, fnt, room), font=fnt, fill=INK, anchor="rm")


def _leaders(who: list[str], over: bool, seats: int, vp: int, shared: bool = False) -> str:
    """ "Bob leads · 29 VP", "Ada & Ben share the lead · 10 VP", "Zoë wins · 96 VP"."""
    if seats == 1:
        return f"{vp} VP"
    if len(who) > 1 or shared:
        verb = "share the win" if over else "share the lead"
    else:
        verb = "wins" if over else "leads"
    return f"{' & '.join(who)} {verb} · {vp} VP"


def _row(
    draw: ImageDraw.ImageDraw,
    view: dict[str, Any],
    seat: dict[str, Any],
    done: dict[str, Any],
    text: list[str],
    box: tuple[int, int, int, int],
    labels: list[str],
    best: int,
) -> None:
    """One seat: its board with this round's dice ringed, its name, VP, gain and what it did."""
    x0, y0, x1, y1 = box
    i = seat["seat"]
    colour: RGB = SEATS[i % len(SEATS)]
    draw.rounded_rectangle(box, radius=16, fill=PANEL, outline=RULE, width=2)
    draw.rounded_rectangle((x0, y0, x0 + 12, y1), radius=6, fill=colour)
    fresh = frozenset(
        (p["line"], p["segment"]) for p in done["plan"]["placements"] if not p["island"]
    )
    map_box = (x0 + 22, y0 + 12, x0 + 22 + MAP_W, y0 + 12 + MAP_H)
    frame = Frame.inside(seat, map_box, detail=False)
    draw_map(
        draw, frame, seat, colour, Marks(highlight=False, fresh=fresh, initials=initials(view))
    )
    vp = f"{done['vp_after']} VP"
    vp_font = font(34, bold=True)
    vp_w = vp_font.getlength(vp)
    if seat["vp"] == best and len(view["seats"]) > 1:
        draw.rounded_rectangle(
            (x1 - 26 - vp_w, y0 + 12, x1 - 6, y0 + 56), radius=10, fill=HIGHLIGHT
        )
    draw.text((x1 - 16, y0 + 34), vp, font=vp_font, fill=INK, anchor="rm")
    delta = done["vp_after"] - done["vp_before"]
    gain = f"{'+' if delta >= 0 else '−'}{abs(delta)}"
    gain_font = font(28, bold=True)
    gain_x = x1 - 36 - vp_w
    draw.text(
        (gain_x, y0 + 34), gain, font=gain_font, fill=INK if delta > 0 else MUTED, anchor="rm"
    )
    # A disc of the seat's colour, not a number that reads like a place in the standings.
    draw.ellipse((TEXT_X, y0 + 20, TEXT_X + 28, y0 + 48), fill=colour, outline=INK, width=2)
    name_font = font(30, bold=True)
    room = int(gain_x - gain_font.getlength(gain) - 20 - (TEXT_X + 38))
    draw.text(
        (TEXT_X + 38, y0 + 34),
        fit(labels[i], name_font, room),
        font=name_font,
        fill=INK,
        anchor="lm",
    )
    y = y0 + 64
    for line in text:
        draw.text(
            (TEXT_X, y), fit(line, font(MIN_TEXT), x1 - 16 - TEXT_X), font=font(MIN_TEXT), fill=INK
        )
        y += LINE_H


def _lines(done: dict[str, Any]) -> list[str]:
    """What the seat did, in words: segments per line, cities, stations, island, scoring."""
    placements = done["plan"]["placements"]
    per_line = Counter(p["line"] for p in placements if not p["island"])
    island = sum(1 for p in placements if p["island"])
    jokers = sum(1 for p in placements if p["joker"])
    built = ", ".join(f"{line} ×{n}" if n > 1 else line for line, n in per_line.items())
    text = [f"Built: {built or 'nothing'}" + (f" ({jokers} joker)" if jokers else "")]
    gains = [f"city {c}" for c in done["cities"]] + [f"station {s}" for s in done["stations"]]
    if gains:
        text.append("Completed: " + ", ".join(gains))
    if island:
        loss = f"−{done['island_loss']} VP" if done["island_loss"] else "no loss (vacation)"
        text.append(f"Island: {island} worker{'s' if island > 1 else ''}, {loss}")
    if done["jokers_gained"]:
        text.append(f"Jokers gained: {done['jokers_gained']}")
    if done["scoring"]:
        text.append("Scoring: " + ", ".join(f"{t} +{vp}" for t, vp in done["scoring"].items()))
    if done["end_penalty"]:
        text.append(f"Unfinished lines: −{done['end_penalty']} VP")
    return text
