"""A player's island image: the hex island, resources and fame, the dock and the blueprints."""

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    RULE,
    SEATS,
    canvas,
    die,
    fit,
    font,
    player_names,
    png,
    seat_badge,
    text_colour,
)
from render.propeller_islands.parts import (
    LINE_H,
    PAD,
    SQRT3,
    axial_xy,
    card,
    draw_labelled,
    empty_hex,
    labelled_lines,
    legend,
    legend_columns,
    legend_height,
    panel_box,
    resource_icon,
    tile,
    token_label,
    token_mark,
    worker,
)
from render.propeller_islands.status import die_note, status

MIN_WIDTH = 1200
MARGIN = 16
HEX_MIN, HEX_MAX = 62, 80
ISLAND_MAX_H = 720
NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
ABILITY_Y = 84
REWARD_LABEL = {
    "place_top_tile": "Top tile to island",
    "activate_two": "Activate any 2",
    "depots": "2 depots again",
    "deploy": "Deploy 1 worker",
}


def island(view: dict[str, Any], seat: int, names: Sequence[str] | None = None) -> bytes:
    """PNG of `seat`'s island and boards as the viewer of `view` may see them (hand: owner only)."""
    me = view["seats"][seat]
    labels = player_names(len(view["seats"]), names)
    cells = {tuple(c["at"]): c for c in me["island"]}
    spots = {
        (q + dq, r + dr) for q, r in cells for dq, dr in NEIGHBOURS if (q + dq, r + dr) not in cells
    }
    every = list(cells) + list(spots)
    qs = [q for q, _ in every]
    ys = [r + q / 2 for q, r in every]
    span_x = 1.5 * (max(qs) - min(qs)) + 2
    span_y = SQRT3 * (max(ys) - min(ys) + 1)
    inner = MIN_WIDTH - 2 * MARGIN - 2 * PAD
    s = max(HEX_MIN, min(HEX_MAX, inner / span_x, (ISLAND_MAX_H - 2 * PAD) / span_y))
    width = max(MIN_WIDTH, int(span_x * s) + 2 * MARGIN + 2 * PAD)
    island_h = int(span_y * s) + 2 * PAD + 52
    label, ability = _ability(me)
    ability_lines = labelled_lines(label, ability, width - 2 * MARGIN - 68, 16) if label else []
    top = max(96, ABILITY_Y + LINE_H * len(ability_lines) + 14)
    boards_y = top + island_h + 16
    cards_y = boards_y + 306
    legend_y = cards_y + 236
    here = legend_columns(me["island"], width - 2 * MARGIN - 2 * PAD)
    height = legend_y + legend_height(here) + MARGIN
    img, draw = canvas(width, height)

    _header(draw, view, me, seat, labels, width)
    if ability_lines:
        fill = INK if me["ability"]["unlocked"] else MUTED
        draw_labelled(draw, (MARGIN + 68, ABILITY_Y), label, ability_lines, 16, fill)
    panel_box(draw, (MARGIN, top, width - MARGIN, top + island_h), "Island")
    now = " · ".join(x for x in (status(view, labels), die_note(view)) if x)
    fnt = font(16, bold=True)
    draw.text(
        (width - MARGIN - 16, top + 12), fit(now, fnt, width - 300), font=fnt, fill=INK, anchor="ra"
    )
    draw.text(
        (MARGIN + 16, top + island_h - 12),
        "Standing worker: ready · lying: used this round · ★ landmark VP now · "
        "dashed hex: free spot (q,r)",
        font=font(14),
        fill=MUTED,
        anchor="ld",
    )
    ox = (width - span_x * s) / 2 + s - 1.5 * min(qs) * s
    oy = top + 30 + PAD
    oy += SQRT3 * s * (0.5 - min(ys))
    for q, r in sorted(spots):
        x, y = axial_xy(q, r, s)
        empty_hex(draw, (ox + x, oy + y), s, f"{q},{r}")
    landmark_vp = me["score"]["landmarks"]
    for (q, r), cell in cells.items():
        x, y = axial_xy(q, r, s)
        tile(img, (ox + x, oy + y), s, cell, seat, landmark_vp.get(cell["tile"]))

    split = width - MARGIN - 620
    _resources(img, draw, me, (MARGIN, boards_y, split - 12, boards_y + 290))
    _dock(img, draw, me, seat, (split, boards_y, width - MARGIN, boards_y + 290))
    _blueprints(draw, me, (MARGIN, cards_y, width - MARGIN, legend_y - 16))
    legend(draw, (MARGIN, legend_y, width - MARGIN, height - MARGIN), "Buildings here", here)
    return png(img)


def _ability(me: dict[str, Any]) -> tuple[str, str]:
    """The header's ability line as (bold label, text); ("", "") before a character is kept."""
    ability = me["ability"]
    if ability is None:
        return "", ""
    first, second = me["trumpets"]
    if ability["unlocked"] == 0:
        return f"Unlocks at fame {first}:", ability["basic"]
    if ability["unlocked"] == 1:
        return f"Basic ability (advanced at fame {second}):", ability["basic"]
    return "Advanced ability:", f"{ability['advanced']} (upgrades the basic: {ability['basic']})"


def _header(
    draw: ImageDraw.ImageDraw,
    view: dict[str, Any],
    me: dict[str, Any],
    seat: int,
    labels: list[str],
    width: int,
) -> None:
    seat_badge(draw, (MARGIN, 14, MARGIN + 52, 68), seat)
    title = font(32, bold=True)
    draw.text((MARGIN + 66, 14), fit(labels[seat], title, width - 420), font=title, fill=INK)
    if me["character_name"]:
        who = me["character_name"]
    elif me["dealt"]:
        who = "Character to keep: " + " or ".join(d.capitalize() for d in me["dealt"])
    else:
        who = "Character not chosen yet"
    draw.text((MARGIN + 68, 56), fit(who, font(18), width - 330), font=font(18), fill=MUTED)
    total = me["score"]["total"]
    draw.text((width - MARGIN, 10), f"{total} VP", font=font(44, bold=True), fill=INK, anchor="ra")
    note = "final score" if view["over"] else "if the game ended now"
    draw.text((width - MARGIN, 64), note, font=font(15), fill=MUTED, anchor="ra")


def _resources(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    me: dict[str, Any],
    box: tuple[int, int, int, int],
) -> None:
    """Energy, steel, parts; the fame track with its trumpets; the dice used this round."""
    x0, y0, x1, _ = box
    panel_box(draw, box, "Resources and fame")
    y = y0 + 66
    x = x0 + PAD
    for kind in ("energy", "steel", "parts"):
        resource_icon(draw, (x + 22, y), 22, kind)
        draw.text((x + 52, y), str(me[kind]), font=font(30, bold=True), fill=INK, anchor="lm")
        draw.text((x + 52, y + 26), kind, font=font(14), fill=MUTED, anchor="lm")
        x += 120
    y += 58
    draw.text((x0 + PAD, y), f"Fame {me['fame']}", font=font(22, bold=True), fill=INK, anchor="lm")
    if me["fame_tokens"]:
        tokens = f"15+ token ×{me['fame_tokens']}, marker on {me['fame_marker']}"
        draw.text((x0 + PAD + 120, y), tokens, font=font(15), fill=MUTED, anchor="lm")
    y += 22
    cell = min(34, (x1 - x0 - 2 * PAD) // 15)
    marker = me["fame_marker"]
    colour = SEATS[me["seat"] % len(SEATS)]
    for v in range(15):
        cx0 = x0 + PAD + v * cell
        fill = colour if v == marker else PANEL
        draw.rectangle((cx0, y, cx0 + cell - 2, y + 34), fill=fill, outline=RULE, width=2)
        ink = text_colour(fill) if v == marker else INK
        draw.text(
            (cx0 + cell / 2 - 1, y + 17),
            str(v),
            font=font(14, bold=v == marker),
            fill=ink,
            anchor="mm",
        )
    for v, label in zip(me["trumpets"], ("basic", "advanced"), strict=False):
        tx = x0 + PAD + v * cell
        _trumpet(draw, (tx + 17, y + 52), me["fame"] >= v)
        draw.text((tx + 36, y + 52), label, font=font(14), fill=INK, anchor="lm")
    mx = x0 + PAD + marker * cell
    draw.rectangle((mx - 1, y - 1, mx + cell - 1, y + 35), outline=INK, width=3)
    y += 100
    draw.text((x0 + PAD, y), "Dice used this round", font=font(15), fill=MUTED, anchor="lm")
    for i in range(2):
        dx = x0 + PAD + 180 + i * 52
        if i < len(me["dice"]):
            die(draw, (dx, y - 20, dx + 40, y + 20), me["dice"][i], (250, 250, 250))
        else:
            draw.rounded_rectangle((dx, y - 20, dx + 40, y + 20), radius=7, outline=RULE, width=2)
    n = me["island_workers"]
    workers = f"{n} worker{'s' * (n != 1)} on the island"
    draw.text((x0 + PAD + 300, y), workers, font=font(15), fill=MUTED, anchor="lm")


def _trumpet(draw: ImageDraw.ImageDraw, centre: tuple[float, float], reached: bool) -> None:
    """A trumpet under fame 5 and 10 (filled once reached), so unlocks read without colour."""
    cx, cy = centre
    fill = HIGHLIGHT if reached else PANEL
    draw.rectangle((cx - 14, cy - 3, cx + 3, cy + 3), fill=fill, outline=INK, width=2)
    bell = [(cx + 2, cy - 3), (cx + 15, cy - 11), (cx + 15, cy + 11), (cx + 2, cy + 3)]
    draw.polygon(bell, fill=fill, outline=INK, width=2)
    draw.rectangle((cx - 18, cy - 6, cx - 14, cy + 6), fill=fill, outline=INK, width=2)


def _line_label(line: dict[str, Any]) -> str:
    return REWARD_LABEL.get(line["reward"], line["text"])


def _dock(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    me: dict[str, Any],
    seat: int,
    box: tuple[int, int, int, int],
) -> None:
    """The 3×4 dock: remaining workers, each line's reward, ✓ once a line was cleared."""
    x0, y0, x1, _ = box
    panel_box(draw, box, f"Dock: {me['dock_workers']} workers left")
    lines = {ln["line"]: ln for ln in me["lines"]}
    cw, ch = 80, 52
    gx, gy = x0 + PAD + 28, y0 + 72
    for c in range(4):
        ln = lines[f"C{c + 1}"]
        draw.text(
            (gx + c * cw + cw / 2, gy - 16),
            ("✓ " if ln["cleared"] else "") + ln["line"],
            font=font(15, bold=True),
            fill=MUTED if ln["cleared"] else INK,
            anchor="mm",
        )
    for r in range(3):
        ln = lines[f"R{r + 1}"]
        ry = gy + r * ch + ch / 2
        draw.text((gx - 26, ry), f"R{r + 1}", font=font(15, bold=True), fill=INK, anchor="lm")
        for c in range(4):
            bx, by = gx + c * cw, gy + r * ch
            draw.rounded_rectangle(
                (bx + 4, by + 3, bx + cw - 4, by + ch - 3),
                radius=8,
                fill=(226, 234, 240),
                outline=RULE,
                width=2,
            )
            if me["dock"][r][c]:
                worker(img, (bx + cw / 2, by + ch / 2), 36, seat, "ready")
        label = ("✓ " if ln["cleared"] else "") + _line_label(ln)
        fnt = font(15)
        draw.text(
            (gx + 4 * cw + 12, ry),
            fit(label, fnt, x1 - gx - 4 * cw - 12 - PAD),
            font=fnt,
            fill=MUTED if ln["cleared"] else INK,
            anchor="lm",
        )
    y = gy + 3 * ch + 14
    for c in range(4):
        ln = lines[f"C{c + 1}"]
        words = ("✓ " if ln["cleared"] else "") + _line_label(ln)
        _wrap(draw, (gx + c * cw + cw / 2, y), words, cw - 4, MUTED if ln["cleared"] else INK)


def _wrap(
    draw: ImageDraw.ImageDraw, top: tuple[float, float], text: str, width: int, fill: Any
) -> None:
    """`text` centred under `top`, wrapped into at most two 14 px lines."""
    fnt = font(14)
    words = text.split()
    lines = [""]
    for w in words:
        trial = (lines[-1] + " " + w).strip()
        if fnt.getlength(trial) <= width or not lines[-1]:
            lines[-1] = trial
        elif len(lines) < 2:
            lines.append(w)
        else:
            lines[-1] = trial
    for i, line in enumerate(lines):
        draw.text(
            (top[0], top[1] + i * 18), fit(line, fnt, width), font=fnt, fill=fill, anchor="ma"
        )


def _blueprints(
    draw: ImageDraw.ImageDraw, me: dict[str, Any], box: tuple[int, int, int, int]
) -> None:
    """The hand (face up for its owner, backs for everyone else), completed cards and tokens."""
    x0, y0, x1, y1 = box
    panel_box(draw, box)
    hand = me["hand"]
    title = (
        "Blueprints in hand"
        if hand is not None
        else f"Blueprints in hand: {me['hand_size']} (hidden)"
    )
    draw.text((x0 + 16, y0 + 12), title.upper(), font=font(16, bold=True), fill=MUTED)
    cw, chh = 190, 130
    cy = y0 + 44
    shown = hand if hand is not None else [None] * me["hand_size"]
    for i, info in enumerate(shown):
        cx = x0 + PAD + i * (cw + 12)
        card(draw, (cx, cy, cx + cw, cy + chh), info)
    if not shown:
        draw.text((x0 + PAD, cy + 20), "none", font=font(16), fill=MUTED)
    done_x = x0 + PAD + 3 * (cw + 12) + 16
    done = me["completed"]
    draw.text(
        (done_x, y0 + 12),
        f"COMPLETED {len(done)} OF 7",
        font=font(16, bold=True),
        fill=MUTED,
    )
    y = cy + 4
    col_w = 150
    per_col = 5
    for i, info in enumerate(done):
        cx = done_x + (i // per_col) * col_w
        yy = y + (i % per_col) * 26
        token_mark(draw, (cx, yy, cx + 22, yy + 22), info["kind"], info["token"])
        draw.text(
            (cx + 30, yy + 11),
            f"{info['id']}  {info['vp']} VP",
            font=font(15, bold=True),
            fill=INK,
            anchor="lm",
        )
    if me["unused"]:
        unused = "Set aside: " + ", ".join(" ".join(token_label(t)) for t in me["unused"])
        text = fit(unused + f" ({len(me['unused']) // 2} VP)", font(15), x1 - x0 - 2 * PAD)
        draw.text((x0 + PAD, y1 - 28), text, font=font(15), fill=INK)
