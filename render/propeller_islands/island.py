"""A player's island image: the hex island, resources and fame, the dock and the blueprints."""

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    HIGHLIGHT,
    INK,
    MIN_TEXT,
    MUTED,
    PANEL,
    RULE,
    SEATS,
    WIDTH,
    canvas,
    die,
    fit,
    font,
    player_names,
    png,
    seat_badge,
    text_colour,
    two_lines,
)
from render.propeller_islands.parts import (
    CHOICE,
    LINE_H,
    PAD,
    SQRT3,
    axial_xy,
    card,
    choice_badge,
    draw_labelled,
    empty_hex,
    labelled_lines,
    legend,
    legend_columns,
    legend_height,
    offer_tag,
    panel_box,
    resource_icon,
    spot_mark,
    tile,
    token_label,
    token_mark,
    worker,
)
from render.propeller_islands.status import die_note, status

MARGIN = 16
HEX_MIN, HEX_MAX = 56, 100
"""Hex sizes: the island shrinks down to HEX_MIN to fit the phone-wide image, then widens it."""
ISLAND_MAX_H = 900
NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
ABILITY_Y = 116
RESOURCES_H = 330
DOCK_H = 400
CARD_W, CARD_H = 312, 166
OFFER_HEX = 84
"""The largest hex of the offer strip shown while claiming."""
OFFER_TOP, OFFER_TAG = 54, 40
"""The strip's title height, and the room above each tile for its offer space's tag."""
REWARD_LABEL = {
    "place_top_tile": "Top tile to island",
    "activate_two": "Activate any 2",
    "depots": "2 depots again",
    "deploy": "Deploy 1 worker",
}


def island(view: dict[str, Any], seat: int, names: Sequence[str] | None = None) -> bytes:
    """PNG of `seat`'s island and boards as the viewer of `view` may see them (hand: owner only);
    the viewer's own pending choices are lettered (spots, tiles) and numbered (dock spaces)."""
    return png(island_image(view, seat, names, []))


def island_image(
    view: dict[str, Any],
    seat: int,
    names: Sequence[str] | None,
    offer: list[dict[str, Any]],
) -> Image.Image:
    """`island`'s picture, with the tiles of `offer` (offer entries of the view) shown above the
    island, for a claim."""
    me = view["seats"][seat]
    labels = player_names(len(view["seats"]), names)
    decision = view.get("decision") if view["viewer"] == seat else None
    marks = {tuple(m["at"]): m["label"] for m in (decision or {}).get("spots", [])}
    cells = {tuple(c["at"]): c for c in me["island"]}
    spots = {
        (q + dq, r + dr) for q, r in cells for dq, dr in NEIGHBOURS if (q + dq, r + dr) not in cells
    }
    every = list(cells) + list(spots)
    qs = [q for q, _ in every]
    ys = [r + q / 2 for q, r in every]
    span_x = 1.5 * (max(qs) - min(qs)) + 2
    span_y = SQRT3 * (max(ys) - min(ys) + 1)
    inner = WIDTH - 2 * MARGIN - 2 * PAD
    s = max(HEX_MIN, min(HEX_MAX, inner / span_x, (ISLAND_MAX_H - 2 * PAD) / span_y))
    width = max(WIDTH, int(span_x * s) + 2 * MARGIN + 2 * PAD)
    island_h = int(span_y * s) + 2 * PAD + 112
    label, ability = _ability(me)
    ability_lines = labelled_lines(label, ability, width - 2 * MARGIN - 12) if label else []
    offer_y = ABILITY_Y + LINE_H * len(ability_lines) + 12
    offer_h = _offer_height(offer, width) + 16 if offer else 0
    top = offer_y + offer_h
    boards_y = top + island_h + 16
    dock_y = boards_y + RESOURCES_H + 16
    cards_y = dock_y + DOCK_H + 16
    cards_h = _blueprints_height(me)
    legend_y = cards_y + cards_h + 16
    here = legend_columns(me["island"] + offer, width - 2 * MARGIN - 2 * PAD)
    height = legend_y + legend_height(here) + MARGIN
    img, draw = canvas(width, height)

    _header(draw, view, me, seat, labels, width)
    if ability_lines:
        fill = INK if me["ability"]["unlocked"] else MUTED
        draw_labelled(draw, (MARGIN + 6, ABILITY_Y), label, ability_lines, MIN_TEXT, fill)
    if offer:
        box = (MARGIN, offer_y, width - MARGIN, offer_y + offer_h - 16)
        _offer(img, draw, offer, box, view["turn"])
    panel_box(draw, (MARGIN, top, width - MARGIN, top + island_h), "Island")
    now = " · ".join(x for x in (status(view, labels), die_note(view)) if x)
    fnt = font(MIN_TEXT, bold=True)
    draw.text((MARGIN + 18, top + 48), fit(now, fnt, width - 2 * MARGIN - 36), font=fnt, fill=INK)
    key = "lettered: your choices" if marks else "dashed: free spot"
    draw.text(
        (MARGIN + 18, top + island_h - 14),
        fit(f"Standing: ready · lying: used · ★ landmark VP · {key}", font(MIN_TEXT), inner),
        font=font(MIN_TEXT),
        fill=MUTED,
        anchor="ld",
    )
    ox = (width - span_x * s) / 2 + s - 1.5 * min(qs) * s
    oy = top + 84 + PAD
    oy += SQRT3 * s * (0.5 - min(ys))
    for q, r in sorted(spots):
        x, y = axial_xy(q, r, s)
        empty_hex(draw, (ox + x, oy + y), s, "")
    landmark_vp = me["score"]["landmarks"]
    for (q, r), cell in cells.items():
        x, y = axial_xy(q, r, s)
        tile(img, (ox + x, oy + y), s, cell, seat, landmark_vp.get(cell["tile"]))
    for (q, r), mark in marks.items():
        x, y = axial_xy(q, r, s)
        spot_mark(draw, (ox + x, oy + y), s, mark, (q, r) in cells)

    dock = {tuple(d["space"]): d["number"] for d in (decision or {}).get("dock", [])}
    _resources(draw, me, (MARGIN, boards_y, width - MARGIN, boards_y + RESOURCES_H))
    _dock(img, draw, me, seat, (MARGIN, dock_y, width - MARGIN, dock_y + DOCK_H), dock)
    _blueprints(draw, me, (MARGIN, cards_y, width - MARGIN, cards_y + cards_h))
    title = "Buildings here and on offer" if offer else "Buildings here"
    legend(draw, (MARGIN, legend_y, width - MARGIN, height - MARGIN), title, here)
    return img


def _offer_layout(count: int, width: int) -> tuple[int, float]:
    """Tiles per row and hex size of the offer strip: one row of up to 6, else two."""
    per_row = count if count <= 6 else -(-count // 2)
    room = width - 2 * MARGIN - 2 * PAD
    return per_row, min(OFFER_HEX, (room / per_row - 12) / 2)


def _offer_height(offer: list[dict[str, Any]], width: int) -> int:
    per_row, s = _offer_layout(len(offer), width)
    rows = -(-len(offer) // per_row)
    return int(OFFER_TOP + rows * (SQRT3 * s + OFFER_TAG) + 8)


def _offer(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    offer: list[dict[str, Any]],
    box: tuple[int, int, int, int],
    view_turn: dict[str, Any] | None,
) -> None:
    """The tiles the die of `view_turn` reaches on the offer (any tile for a starting tile),
    each under its offer space's tag ("O4")."""
    x0, y0, x1, _ = box
    die = (view_turn or {}).get("value")
    panel_box(draw, box, f"On offer for your {die}" if die else "On offer")
    per_row, s = _offer_layout(len(offer), x1 - x0 + 2 * MARGIN)
    pitch = (x1 - x0 - 2 * PAD) / per_row
    for i, entry in enumerate(offer):
        row, col = divmod(i, per_row)
        in_row = min(per_row, len(offer) - row * per_row)
        cx = x0 + PAD + (per_row - in_row) * pitch / 2 + (col + 0.5) * pitch
        top = y0 + OFFER_TOP + row * (SQRT3 * s + OFFER_TAG)
        offer_tag(draw, (cx, top + 16), entry["space"])
        tile(img, (cx, top + OFFER_TAG + SQRT3 * s / 2), s, entry)


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
    seat_badge(draw, (MARGIN, 16, MARGIN + 58, 76), seat)
    total = f"{me['score']['total']} VP"
    big = font(52, bold=True)
    room = int(width - MARGIN - 74 - big.getlength(total) - 24)
    title = font(40, bold=True)
    draw.text((MARGIN + 74, 14), fit(labels[seat], title, room), font=title, fill=INK)
    if me["character_name"]:
        who = me["character_name"]
    elif me["dealt"]:
        who = "Character to keep: " + " or ".join(d.capitalize() for d in me["dealt"])
    else:
        who = "Character not chosen yet"
    note = "final score" if view["over"] else "if the game ended now"
    sub = font(MIN_TEXT)
    room = int(width - MARGIN - 76 - sub.getlength(note) - 24)
    draw.text((MARGIN + 76, 68), fit(who, sub, room), font=sub, fill=MUTED)
    draw.text((width - MARGIN, 10), total, font=big, fill=INK, anchor="ra")
    draw.text((width - MARGIN, 70), note, font=sub, fill=MUTED, anchor="ra")


def _resources(
    draw: ImageDraw.ImageDraw, me: dict[str, Any], box: tuple[int, int, int, int]
) -> None:
    """Energy, steel, parts; the fame track with its trumpets; the dice used this round."""
    x0, y0, x1, _ = box
    panel_box(draw, box, "Resources and fame")
    y = y0 + 84
    x = x0 + PAD
    for kind in ("energy", "steel", "parts"):
        resource_icon(draw, (x + 26, y), 26, kind)
        draw.text((x + 62, y - 8), str(me[kind]), font=font(36, bold=True), fill=INK, anchor="lm")
        draw.text((x + 62, y + 24), kind, font=font(MIN_TEXT), fill=MUTED, anchor="lm")
        x += 170
    used = x0 + PAD + 3 * 170 + 10
    draw.text((used, y - 22), "Dice used this round", font=font(MIN_TEXT), fill=MUTED, anchor="lm")
    for i in range(2):
        dx = used + i * 60
        if i < len(me["dice"]):
            die(draw, (dx, y + 2, dx + 48, y + 50), me["dice"][i], (250, 250, 250))
        else:
            draw.rounded_rectangle((dx, y + 2, dx + 48, y + 50), radius=8, outline=RULE, width=2)
    n = me["island_workers"]
    workers = f"{n} worker{'s' * (n != 1)} on the island"
    draw.text((used + 130, y + 26), workers, font=font(MIN_TEXT), fill=MUTED, anchor="lm")
    y += 84
    draw.text((x0 + PAD, y), f"Fame {me['fame']}", font=font(30, bold=True), fill=INK, anchor="lm")
    if me["fame_tokens"]:
        tokens = f"15+ token ×{me['fame_tokens']}, marker on {me['fame_marker']}"
        draw.text((x0 + PAD + 160, y), tokens, font=font(MIN_TEXT), fill=MUTED, anchor="lm")
    y += 28
    cell = (x1 - x0 - 2 * PAD) // 15
    marker = me["fame_marker"]
    colour = SEATS[me["seat"] % len(SEATS)]
    for v in range(15):
        cx0 = x0 + PAD + v * cell
        fill = colour if v == marker else PANEL
        draw.rectangle((cx0, y, cx0 + cell - 3, y + 44), fill=fill, outline=RULE, width=2)
        ink = text_colour(fill) if v == marker else INK
        draw.text(
            (cx0 + cell / 2 - 1, y + 22),
            str(v),
            font=font(MIN_TEXT, bold=v == marker),
            fill=ink,
            anchor="mm",
        )
    for v, label in zip(me["trumpets"], ("basic", "advanced"), strict=False):
        tx = x0 + PAD + v * cell
        _trumpet(draw, (tx + 20, y + 70), me["fame"] >= v)
        draw.text((tx + 44, y + 70), label, font=font(MIN_TEXT), fill=INK, anchor="lm")
    mx = x0 + PAD + marker * cell
    draw.rectangle((mx - 1, y - 1, mx + cell - 2, y + 45), outline=INK, width=3)


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
    numbers: dict[tuple[int, int], int],
) -> None:
    """The 3×4 dock: remaining workers, each line's reward, ✓ once a line was cleared; the
    spaces a deploy may take a worker from carry their `numbers` (by (row, column))."""
    x0, y0, x1, _ = box
    panel_box(draw, box, f"Dock: {me['dock_workers']} workers left")
    lines = {ln["line"]: ln for ln in me["lines"]}
    cw, ch = 130, 66
    gx, gy = x0 + PAD + 50, y0 + 96
    for c in range(4):
        ln = lines[f"C{c + 1}"]
        draw.text(
            (gx + c * cw + cw / 2, gy - 20),
            ("✓ " if ln["cleared"] else "") + ln["line"],
            font=font(MIN_TEXT, bold=True),
            fill=MUTED if ln["cleared"] else INK,
            anchor="mm",
        )
    for r in range(3):
        ln = lines[f"R{r + 1}"]
        ry = gy + r * ch + ch / 2
        fnt = font(MIN_TEXT, bold=True)
        draw.text((gx - 46, ry), f"R{r + 1}", font=fnt, fill=INK, anchor="lm")
        for c in range(4):
            bx, by = gx + c * cw, gy + r * ch
            draw.rounded_rectangle(
                (bx + 5, by + 4, bx + cw - 5, by + ch - 4),
                radius=8,
                fill=(226, 234, 240),
                outline=RULE,
                width=2,
            )
            if me["dock"][r][c]:
                worker(img, (bx + cw / 2, by + ch / 2), 50, seat, "ready")
            if (number := numbers.get((r + 1, c + 1))) is not None:
                draw.rounded_rectangle(
                    (bx + 3, by + 2, bx + cw - 3, by + ch - 2), radius=8, outline=CHOICE, width=5
                )
                choice_badge(draw, (bx + 28, by + ch / 2), str(number), MIN_TEXT)
        label = ("✓ " if ln["cleared"] else "") + _line_label(ln)
        fnt = font(MIN_TEXT)
        draw.text(
            (gx + 4 * cw + 16, ry),
            fit(label, fnt, x1 - gx - 4 * cw - 16 - PAD),
            font=fnt,
            fill=MUTED if ln["cleared"] else INK,
            anchor="lm",
        )
    y = gy + 3 * ch + 12
    fnt = font(MIN_TEXT, condensed=True)
    for c in range(4):
        ln = lines[f"C{c + 1}"]
        words = ("✓ " if ln["cleared"] else "") + _line_label(ln)
        for i, line in enumerate(two_lines(words, fnt, cw - 8)):
            at = (gx + c * cw + cw / 2, y + i * 30)
            draw.text(at, line, font=fnt, fill=MUTED if ln["cleared"] else INK, anchor="ma")


def _blueprints_height(me: dict[str, Any]) -> int:
    shown = me["hand"] if me["hand"] is not None else [None] * me["hand_size"]
    rows = max(1, -(-len(shown) // 3))
    done_rows = -(-len(me["completed"]) // 3)
    return 56 + rows * (CARD_H + 12) + 50 + done_rows * 40 + (40 if me["unused"] else 0) + 10


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
    draw.text((x0 + 18, y0 + 14), title.upper(), font=font(MIN_TEXT, bold=True), fill=MUTED)
    shown = hand if hand is not None else [None] * me["hand_size"]
    for i, info in enumerate(shown):
        cx = x0 + PAD + (i % 3) * (CARD_W + 12)
        cy = y0 + 56 + (i // 3) * (CARD_H + 12)
        card(draw, (cx, cy, cx + CARD_W, cy + CARD_H), info)
    rows = max(1, -(-len(shown) // 3))
    if not shown:
        draw.text((x0 + PAD, y0 + 80), "none", font=font(MIN_TEXT), fill=MUTED)
    y = y0 + 56 + rows * (CARD_H + 12) + 8
    done = me["completed"]
    draw.text(
        (x0 + 18, y), f"COMPLETED {len(done)} OF 7", font=font(MIN_TEXT, bold=True), fill=MUTED
    )
    y += 42
    for i, info in enumerate(done):
        cx = x0 + PAD + (i % 3) * (CARD_W + 12)
        yy = y + (i // 3) * 40
        token_mark(draw, (cx, yy, cx + 32, yy + 32), info["kind"], info["token"])
        draw.text(
            (cx + 42, yy + 16),
            f"{info['id']}  {info['vp']} VP",
            font=font(MIN_TEXT, bold=True),
            fill=INK,
            anchor="lm",
        )
    if me["unused"]:
        unused = "Set aside: " + ", ".join(" ".join(token_label(t)) for t in me["unused"])
        text = fit(unused + f" ({len(me['unused']) // 2} VP)", font(MIN_TEXT), x1 - x0 - 2 * PAD)
        draw.text((x0 + PAD, y1 - 44), text, font=font(MIN_TEXT), fill=INK)
