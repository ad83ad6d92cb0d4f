"""Railroad Ink images, drawn from `view(...)` dicts only.

`board` is one seat's sheet (with an optional draft previewed on it), `roll` the shared dice of
the round, `score_sheet` the standings with every scoring line.
"""

from collections.abc import Sequence
from typing import Any

from PIL import ImageDraw

from engine.railroad_ink.views import DIE_TAGS, draft_preview, power_words
from render.common import (
    BACKGROUND,
    HIGHLIGHT,
    INK,
    MIN_TEXT,
    MUTED,
    PANEL,
    RGB,
    RULE,
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
    two_lines,
)
from render.railroad_ink_tiles import (
    LIT,
    POWER,
    POWER_TINT,
    SIDE_INDEX,
    STEP,
    arrow,
    electrified,
    piece,
    route_line,
)

CELL = 112
BOARD_X, BOARD_Y = (WIDTH - 7 * CELL) // 2, 176
PANEL_Y = BOARD_Y + 7 * CELL + 96
"""The roll, specials, score and draft sit under the board."""
PANEL_X, PANEL_R = 40, WIDTH - 40
MARGIN, GAP, PAD = 24, 20, 20
TITLE_H = 44
LINE_H = 34
CENTRE_TINT: RGB = (236, 228, 206)
DRAFT: RGB = (204, 30, 110)
"""New pieces of a previewed plan: outlined in this colour and always tagged with their die."""
SHADOW: RGB = (222, 215, 200)
DIR_WORD = {"N": "up", "E": "right", "S": "down", "W": "left", "?": "any space"}


# --------------------------------------------------------------------------- geometry


def _cell_xy(name: str) -> tuple[int, int]:
    """Top-left pixel of a cell named like `C4` (column letter, row number)."""
    return BOARD_X + (ord(name[0]) - 65) * CELL, BOARD_Y + (int(name[1:]) - 1) * CELL


def _seg_of(cell: dict[str, Any]) -> list[int]:
    seg = [-1] * 4
    for k, sides in enumerate(cell["segments"]):
        for side in sides:
            seg[SIDE_INDEX[side]] = k
    return seg


def _sides(text: str) -> list[str | None]:
    return [None if ch == "." else ch for ch in text]


# --------------------------------------------------------------------------- drafts


def _steps(plan: Any) -> list[dict[str, Any]]:
    """Plan steps as plain dicts, from a list of dicts/models or a dumped plan."""
    if plan is None:
        return []
    if isinstance(plan, dict):
        plan = plan.get("steps", [])
    return [s if isinstance(s, dict) else s.model_dump(mode="json") for s in plan]


def _line_cells(line: str) -> list[str]:
    kind, _, key = line.strip().partition(" ")
    key = key.strip().upper()
    if kind == "row" and key.isdigit() and 1 <= int(key) <= 7:
        return [f"{chr(65 + c)}{key}" for c in range(7)]
    if kind == "col" and len(key) == 1 and "A" <= key <= "G":
        return [f"{key}{r}" for r in range(1, 8)]
    return []


class _Preview:
    """A seat's board with draft steps laid on it by the engine, remembering what each changed."""

    def __init__(self, view: dict[str, Any], seat: int, steps: list[dict[str, Any]]):
        self.cells, changes = draft_preview(view, seat, steps)
        self.tags: dict[str, list[str]] = {}
        self.lines: list[str] = []
        self.charges = sum(charge for _, charge in changes)
        self.used: set[str] = set()
        self.specials: list[str] = []
        self.text: list[str] = []
        self.title = "YOUR DRAFT"
        for step, (cells, charge) in zip(steps, changes, strict=True):
            if cells or charge:
                self._describe(view, step, cells, charge)

    def _tag(self, names: list[str], tag: str) -> None:
        for name in names:
            self.tags.setdefault(name, []).append(tag)

    def _describe(
        self, view: dict[str, Any], step: dict[str, Any], cells: list[str], charge: int
    ) -> None:
        kind = step.get("step")
        if kind == "draw":
            die, name = str(step.get("die")), cells[0]
            self.used.add(die)
            if die == "special":
                self.specials.append(self.cells[name]["face"])
            tag = DIE_TAGS.get(die, "?")
            self._tag(cells, tag)
            self.text.append(f"{tag}  {self.cells[name]['name']} at {name}")
        elif kind == "activate":
            line = str(step.get("line"))
            self.lines.append(line)
            self._tag(cells, "lit")
            self.text.append(f"☼  light {line}")
        elif kind == "electrify":
            tag = f"P{step.get('die')}"
            self.used.add(f"power{step.get('die')}")
            self._tag(cells, tag)
            if charge and view.get("accumulator"):
                self._tag([view["accumulator"]], tag)
            self.text.append(f"{tag}  {power_words(cells, charge)}")


# --------------------------------------------------------------------------- the board


def board(
    view: dict[str, Any],
    seat: int,
    names: Sequence[str] | None = None,
    draft: Sequence[Any] | None = None,
) -> bytes:
    """PNG of `seat`'s board as the viewer of `view` may see it, with this round's roll.

    `draft` (plan steps, dicts or models) is previewed on the board: new pieces outlined and
    tagged with their die, new lamps and power marked. Without it, the seat's own submitted plan
    is previewed when the view holds it (only the seat's own view does).
    """
    me = view["seats"][seat]
    steps = _steps(draft if draft is not None else me.get("plan"))
    preview = _Preview(view, seat, steps) if steps else None
    if preview is not None:
        preview.title = "YOUR SUBMITTED PLAN" if draft is None else "YOUR DRAFT"
    _, scratch = canvas(1, 1)  # measuring draws nothing
    img, draw = canvas(WIDTH, _panel(scratch, view, me, preview, measure=True) + 24)
    _header(draw, view, me, seat, names)
    _grid(draw, view, me, preview)
    _panel(draw, view, me, preview)
    return png(img)


def _header(
    draw: ImageDraw.ImageDraw,
    view: dict[str, Any],
    me: dict[str, Any],
    seat: int,
    names: Sequence[str] | None,
) -> None:
    seat_badge(draw, (24, 22, 80, 78), seat)
    name = player_names(len(view["seats"]), names)[seat]
    score = f"{me['total']} pts"
    big = font(52, bold=True)
    room = int(WIDTH - 24 - big.getlength(score) - 24 - 96)
    draw.text((96, 20), fit(name, font(40, bold=True), room), font=font(40, bold=True), fill=INK)
    phase = {"roll": "waiting for the roll", "plan": "planning", "over": "game over"}
    sub = f"Round {view['round']}/{view['rounds']} · {phase.get(view['phase'], view['phase'])}"
    if view["phase"] == "plan" and len(view["seats"]) > 1:
        sub += " · submitted ✓" if me["submitted"] else " · not submitted"
    if view["expansions"]:
        sub += " · " + ", ".join(e.replace("_", " ") for e in view["expansions"])
    draw.text((98, 72), fit(sub, font(MIN_TEXT), room), font=font(MIN_TEXT), fill=MUTED)
    draw.text((WIDTH - 24, 50), score, font=big, fill=INK, anchor="rm")
    if me.get("rank") and len(view["seats"]) > 1:
        rank = f"{ordinal(int(me['rank']))} of {len(view['seats'])}"
        draw.text((WIDTH - 24, 94), rank, font=font(MIN_TEXT), fill=MUTED, anchor="rm")


def _grid(
    draw: ImageDraw.ImageDraw,
    view: dict[str, Any],
    me: dict[str, Any],
    preview: _Preview | None,
) -> None:
    size = view["size"]
    x1, y1 = BOARD_X + size * CELL, BOARD_Y + size * CELL
    draw.rounded_rectangle(
        (BOARD_X - 36, BOARD_Y - 36, x1 + 36, y1 + 36), radius=18, fill=PANEL, outline=RULE, width=2
    )
    for name in view["centre"]:
        x, y = _cell_xy(name)
        draw.rectangle((x, y, x + CELL, y + CELL), fill=CENTRE_TINT)
    for k in range(size + 1):
        draw.line((BOARD_X + k * CELL, BOARD_Y, BOARD_X + k * CELL, y1), fill=RULE, width=1)
        draw.line((BOARD_X, BOARD_Y + k * CELL, x1, BOARD_Y + k * CELL), fill=RULE, width=1)
    for exit_ in view["exits"]:
        _exit(draw, exit_)
    cells = preview.cells if preview else {c["cell"]: c for r in me["board"] for c in r if c}
    charges = (me["charges"] or 0) + (preview.charges if preview else 0)
    for name, cell in cells.items():
        x, y = _cell_xy(name)
        box = (x + 1, y + 1, x + CELL - 1, y + CELL - 1)
        if cell.get("accumulator"):
            _accumulator(draw, box, charges, view["max_charges"])
            continue
        if "face" not in cell:
            draw.rectangle(box, fill=POWER_TINT)
            electrified(draw, box)
            continue
        if cell.get("lamp_on"):
            draw.rectangle(box, fill=LIT)
        elif cell.get("electrified"):
            draw.rectangle(box, fill=POWER_TINT)
        piece(
            draw,
            (x + 2, y + 2, x + CELL - 2, y + CELL - 2),
            _sides(cell["sides"]),
            _seg_of(cell),
            cell["station"],
            cell["lamp"],
            bool(cell.get("lamp_on")),
        )
        if cell.get("electrified"):
            electrified(draw, box)
        _round_mark(draw, x, y, cell)
    if preview is not None:
        for line in preview.lines:
            _lit_line(draw, line)
        for name, tags in preview.tags.items():
            _draft_mark(draw, name, tags)
    for k in range(size):
        draw.text(
            (BOARD_X + k * CELL + CELL / 2, y1 + 60),
            chr(65 + k),
            font=font(MIN_TEXT, bold=True),
            fill=MUTED,
            anchor="mm",
        )
        draw.text(
            (BOARD_X - 58, BOARD_Y + k * CELL + CELL / 2),
            str(k + 1),
            font=font(MIN_TEXT, bold=True),
            fill=MUTED,
            anchor="mm",
        )


def _round_mark(draw: ImageDraw.ImageDraw, x: int, y: int, cell: dict[str, Any]) -> None:
    """The round a piece was drawn in; a special route's is a dark pill with a star."""
    if cell.get("round") is None:
        return
    special = bool(cell.get("special"))
    text = f"★{cell['round']}" if special else str(cell["round"])
    fnt = font(MIN_TEXT, bold=True)
    w = fnt.getlength(text)
    draw.rounded_rectangle(
        (x + 3, y + 3, x + 13 + w, y + 33), radius=7, fill=INK if special else PANEL
    )
    draw.text((x + 8, y + 18), text, font=fnt, fill=HIGHLIGHT if special else MUTED, anchor="lm")


def _draft_mark(draw: ImageDraw.ImageDraw, name: str, tags: list[str]) -> None:
    """A previewed change: a heavy outline and a pill naming the die (R1, L2, ★S, P1, lit)."""
    x, y = _cell_xy(name)
    draw.rectangle((x - 1, y - 1, x + CELL + 1, y + CELL + 1), outline=DRAFT, width=4)
    fnt = font(MIN_TEXT, bold=True, condensed=True)
    text = fit(" ".join(dict.fromkeys(tags)), fnt, CELL - 20)
    w = fnt.getlength(text)
    draw.rounded_rectangle(
        (x + 4, y + CELL - 36, x + 14 + w, y + CELL - 5), radius=8, fill=DRAFT, outline=PANEL
    )
    draw.text((x + 9, y + CELL - 20), text, font=fnt, fill=(255, 255, 255), anchor="lm")


def _lit_line(draw: ImageDraw.ImageDraw, line: str) -> None:
    """The row or column a previewed lamp activation lights: a dashed frame around it."""
    cells = _line_cells(line)
    if not cells:
        return
    (ax, ay), (bx, by) = _cell_xy(cells[0]), _cell_xy(cells[-1])
    x0, y0, x1, y1 = ax - 5, ay - 5, bx + CELL + 5, by + CELL + 5
    for k in range(0, int(max(x1 - x0, y1 - y0)), 24):
        if x1 - x0 > y1 - y0:
            seg = min(x0 + k + 14, x1)
            draw.line((x0 + k, y0, seg, y0), fill=DRAFT, width=3)
            draw.line((x0 + k, y1, seg, y1), fill=DRAFT, width=3)
        else:
            seg = min(y0 + k + 14, y1)
            draw.line((x0, y0 + k, x0, seg), fill=DRAFT, width=3)
            draw.line((x1, y0 + k, x1, seg), fill=DRAFT, width=3)


def _exit(draw: ImageDraw.ImageDraw, exit_: dict[str, Any]) -> None:
    """An exit: a stub of its route type leaving the board edge, outside the grid."""
    x, y = _cell_xy(exit_["cell"])
    side = SIDE_INDEX[exit_["side"]]
    ox, oy = STEP[side]
    start = (
        (x + CELL / 2, y),
        (x + CELL, y + CELL / 2),
        (x + CELL / 2, y + CELL),
        (x, y + CELL / 2),
    )[side]
    route_line(draw, start, (start[0] + ox * 32, start[1] + oy * 32), exit_["type"], CELL)


def _accumulator(draw: ImageDraw.ImageDraw, box: tuple, charges: int, limit: int) -> None:
    """The Accumulator: a battery with one bar per charge and the count in words."""
    x0, y0, x1, y1 = box
    draw.rectangle(box, fill=POWER_TINT)
    bx0, by0, bx1, by1 = x0 + 22, y0 + 18, x1 - 22, y1 - 36
    draw.rectangle(((x0 + x1) / 2 - 10, by0 - 8, (x0 + x1) / 2 + 10, by0), fill=INK)
    draw.rounded_rectangle((bx0, by0, bx1, by1), radius=6, fill=PANEL, outline=INK, width=3)
    limit = max(1, limit)
    h = (by1 - by0 - 8) / limit
    for k in range(limit):
        top = by1 - 4 - (k + 1) * h
        fill = (60, 160, 90) if k < charges else PANEL
        draw.rectangle((bx0 + 5, top + 2, bx1 - 5, top + h - 1), fill=fill, outline=RULE)
    draw.text(
        ((x0 + x1) / 2, y1 - 17),
        f"{min(charges, limit)}/{limit}",
        font=font(MIN_TEXT, bold=True),
        fill=INK,
        anchor="mm",
    )


# --------------------------------------------------------------------------- the side panel


def _label(draw: ImageDraw.ImageDraw, x: int, y: int, text: str, measure: bool) -> int:
    if not measure:
        draw.text((x, y), text, font=font(MIN_TEXT, bold=True), fill=MUTED)
    return y + 38


def _panel(
    draw: ImageDraw.ImageDraw,
    view: dict[str, Any],
    me: dict[str, Any],
    preview: _Preview | None,
    measure: bool = False,
) -> int:
    """Under the board: the roll, the special routes, the score so far and the previewed steps;
    returns where it ends."""
    x, y = PANEL_X, PANEL_Y
    roll, title = view["roll"], f"ROUND {view['round']} ROLL"
    if roll is None and view.get("last_round"):
        roll, title = view["last_round"]["roll"], "LAST ROLL"
    used = preview.used if preview else set()
    y = _label(draw, x, y, title, measure)
    if roll is None:
        if not measure:
            draw.text((x, y), "not rolled yet", font=font(MIN_TEXT), fill=INK)
        y += LINE_H
    else:
        dice = [
            *roll["route"],
            *roll["lamps"],
            *({**p, "power": True} for p in roll["power"]),
        ]
        size, step = 92, 120
        for i, die in enumerate(dice):
            if not measure:
                _small_die(draw, view, (x + i * step, y, x + i * step + size, y + size), die, used)
        y += size + 54
    taken = set(me["specials_used"]) | set(preview.specials if preview else [])
    y = _label(
        draw, x, y, f"SPECIAL ROUTES · {len(taken)}/{view['specials_per_game']} used", measure
    )
    size = 68
    for i, special in enumerate(view["specials"]):
        bx = x + i * (size + 12)
        if measure:
            continue
        gone = special["face"] in taken
        draw.rounded_rectangle(
            (bx, y, bx + size, y + size), radius=8, fill=RULE if gone else PANEL, outline=INK
        )
        piece(draw, (bx + 3, y + 3, bx + size - 3, y + size - 3), *_face(view, special["face"]))
        if gone:
            draw.line((bx + 6, y + 6, bx + size - 6, y + size - 6), fill=INK, width=3)
            draw.line((bx + 6, y + size - 6, bx + size - 6, y + 6), fill=INK, width=3)
    y += size + 24
    y = _label(draw, x, y, "SCORE SO FAR" if not view["over"] else "FINAL SCORE", measure)
    lines = _lines(view, me["score"])
    half = (len(lines) + 1) // 2
    col_w = (PANEL_R - x - 40) // 2
    for i, (label, value) in enumerate(lines):
        lx = x + (i // half) * (col_w + 40)
        ly = y + (i % half) * LINE_H
        if not measure:
            fnt = font(MIN_TEXT)
            draw.text((lx, ly), fit(label, fnt, col_w - 60), font=fnt, fill=INK)
            draw.text(
                (lx + col_w, ly), value, font=font(MIN_TEXT, bold=True), fill=INK, anchor="ra"
            )
    y += half * LINE_H
    if not measure:
        draw.line((x, y + 4, PANEL_R, y + 4), fill=RULE, width=2)
        draw.text((x, y + 12), "total", font=font(28, bold=True), fill=INK)
        draw.text(
            (PANEL_R, y + 12), str(me["total"]), font=font(28, bold=True), fill=INK, anchor="ra"
        )
    y += 60
    if preview is not None:
        y = _label(draw, x, y, f"{preview.title} · outlined on the board", measure)
        for text in preview.text or ["(nothing yet)"]:
            if not measure:
                fnt = font(MIN_TEXT)
                draw.text((x, y), fit(text, fnt, PANEL_R - x), font=fnt, fill=DRAFT)
            y += LINE_H
    return y


def _small_die(
    draw: ImageDraw.ImageDraw,
    view: dict[str, Any],
    box: Box,
    die: dict[str, Any],
    used: set[str],
) -> None:
    """One die of the roll, labelled; dice a draft has used are ticked."""
    x0, y0, x1, y1 = box
    power = die.get("power")
    key = f"power{die['die']}" if power else die["die"]
    done = key in used
    draw.rounded_rectangle(box, radius=10, fill=RULE if done else PANEL, outline=INK, width=2)
    if power:
        arrow(draw, (x0 + 8, y0 + 8, x1 - 8, y1 - 8), die["face"], POWER)
        label = f"Power {die['die']}"
    else:
        piece(draw, (x0 + 5, y0 + 5, x1 - 5, y1 - 5), *_face(view, die["face"]))
        label = DIE_TAGS.get(die["die"], str(die["die"]))
        label = f"{'Route' if label[0] == 'R' else 'Lamp'} {label[1:]}"
    fnt = font(MIN_TEXT, bold=done, condensed=True)
    draw.text(((x0 + x1) / 2, y1 + 20), label, font=fnt, fill=INK if done else MUTED, anchor="mm")
    if done:
        # A tick on the die, so "used" is never the grey alone.
        draw.ellipse((x1 - 22, y0 - 10, x1 + 10, y0 + 22), fill=DRAFT, outline=PANEL, width=2)
        draw.text((x1 - 6, y0 + 6), "✓", font=font(MIN_TEXT, bold=True), fill=PANEL, anchor="mm")


def _lines(view: dict[str, Any], score: dict[str, Any]) -> list[tuple[str, str]]:
    """Every scoring line of a breakdown as (label, value) text."""
    nets = score.get("networks") or []
    table = view["network_points"]
    net = "networks" + (
        " (" + ", ".join(f"{n} exits" for n in nets) + ")" if nets else " (none joins 2 exits)"
    )
    out = [
        (net, str(score.get("network_points", sum(table[min(n, len(table) - 1)] for n in nets)))),
        ("longest highway", str(score.get("longest_highway", 0))),
        ("longest railway", str(score.get("longest_railway", 0))),
        ("centre spaces", str(score.get("centre", 0))),
        ("errors", f"−{score['errors']}" if score.get("errors") else "0"),
    ]
    if "street_lamps" in view["expansions"]:
        out.append(("lit lamps", str(score.get("lamps", 0))))
    if "power_grid" in view["expansions"]:
        out.append(
            (
                f"power ({score.get('charges', 0)} charges × {score.get('power_exits', 0)} exits)",
                str(score.get("power", 0)),
            )
        )
    return out


def _face(view: dict[str, Any], face: str) -> tuple[list[str | None], list[int], bool, bool]:
    """A die face drawn upright, from the view's table of faces."""
    data = view["faces"][face]
    cell = {"segments": data["segments"]}
    return _sides(data["sides"]), _seg_of(cell), data["station"], data["lamp"]


# --------------------------------------------------------------------------- shared helpers


def _panel_box(draw: ImageDraw.ImageDraw, box: Box, title: str = "", note: str = "") -> None:
    """A rounded panel (house style) with an optional bold title and a muted note."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle((x0 + 2, y0 + 4, x1 + 2, y1 + 4), radius=16, fill=SHADOW)
    draw.rounded_rectangle(box, radius=16, fill=PANEL, outline=RULE, width=2)
    heading = font(30, bold=True)
    if title:
        draw.text((x0 + PAD, y0 + PAD), title, font=heading, fill=INK, anchor="lt")
    if note:
        width = x1 - x0 - 2 * PAD - int(heading.getlength(title)) - 24
        draw.text(
            (x1 - PAD, y0 + PAD + 4),
            fit(note, font(MIN_TEXT), width),
            font=font(MIN_TEXT),
            fill=MUTED,
            anchor="rt",
        )


def _title(draw: ImageDraw.ImageDraw, title: str, sub: str) -> None:
    draw.text(
        (MARGIN, MARGIN),
        fit(title, font(40, bold=True), WIDTH - 2 * MARGIN),
        font=font(40, bold=True),
        fill=INK,
    )
    draw.text(
        (MARGIN + 2, MARGIN + 56),
        fit(sub, font(MIN_TEXT), WIDTH - 2 * MARGIN),
        font=font(MIN_TEXT),
        fill=MUTED,
        anchor="lt",
    )


def _expansions(view: dict[str, Any]) -> str:
    return ", ".join(e.replace("_", " ") for e in view["expansions"]) or "base game"


# --------------------------------------------------------------------------- the roll


def roll(view: dict[str, Any]) -> bytes:
    """PNG of the shared roll: route dice, lamp dice and power dice, large and labelled."""
    current = view["roll"]
    shown, when = current, f"Round {view['round']} of {view['rounds']}"
    if shown is None and view.get("last_round"):
        shown = view["last_round"]["roll"]
        when = f"Round {max(1, view['round'] - 1)} of {view['rounds']} (last roll)"
    top = MARGIN + 100
    route_h = 2 * PAD + TITLE_H + 200 + 110
    extra = bool(shown and (shown["lamps"] or shown["power"]))
    height = top + route_h + (GAP + 2 * PAD + TITLE_H + 180 + 110 if extra else 0) + MARGIN
    if shown is None:
        height = top + 160 + MARGIN
    img, draw = canvas(WIDTH, height, BACKGROUND)
    _title(
        draw,
        f"Railroad Ink · {when}",
        "Every player draws these same dice · " + _expansions(view),
    )
    y = top
    if shown is None:
        _panel_box(draw, (MARGIN, y, WIDTH - MARGIN, y + 160), "Not rolled yet")
        return png(img)
    box = (MARGIN, y, WIDTH - MARGIN, y + route_h)
    _panel_box(draw, box, "Route dice", "draw all four this round")
    dice = shown["route"]
    w = (WIDTH - 2 * MARGIN - 2 * PAD) / len(dice)
    for i, die in enumerate(dice):
        cx = MARGIN + PAD + w * (i + 0.5)
        _big_die(draw, view, (cx, y + PAD + TITLE_H), 196, die, f"Route die {i + 1}", int(w) - 8)
    y += route_h + GAP
    if not extra:
        return png(img)
    box = (MARGIN, y, WIDTH - MARGIN, y + 2 * PAD + TITLE_H + 180 + 110)
    parts = []
    if shown["lamps"]:
        parts.append("Street lamp dice")
    if shown["power"]:
        parts.append("Power dice")
    _panel_box(draw, box, " and ".join(parts), "")
    slots: list[tuple[dict[str, Any], str]] = [
        (d, f"Lamp die {k + 1}") for k, d in enumerate(shown["lamps"])
    ] + [({**d, "power": True}, f"Power die {d['die']}") for d in shown["power"]]
    w = (WIDTH - 2 * MARGIN - 2 * PAD) / 4
    for i, (die, label) in enumerate(slots[:4]):
        cx = MARGIN + PAD + w * (i + 0.5)
        _big_die(draw, view, (cx, y + PAD + TITLE_H), 176, die, label, int(w) - 8)
    return png(img)


def _big_die(
    draw: ImageDraw.ImageDraw,
    view: dict[str, Any],
    top: tuple[float, float],
    size: int,
    die: dict[str, Any],
    label: str,
    room: int,
) -> None:
    """A die of the roll, its name under it and what it draws (cut to `room` pixels)."""
    cx, y = top
    x0 = cx - size / 2
    draw.rounded_rectangle((x0 + 3, y + 5, x0 + size + 3, y + size + 5), radius=22, fill=SHADOW)
    draw.rounded_rectangle(
        (x0, y, x0 + size, y + size), radius=22, fill=PANEL, outline=INK, width=3
    )
    inset = size * 0.1
    if die.get("power"):
        arrow(
            draw, (x0 + inset, y + inset, x0 + size - inset, y + size - inset), die["face"], POWER
        )
        what = f"electrify {DIR_WORD.get(die['face'], die['face'])}"
        if die["face"] == "?":
            what = "one space or charge"
    else:
        piece(
            draw,
            (x0 + inset, y + inset, x0 + size - inset, y + size - inset),
            *_face(view, die["face"]),
        )
        what = view["faces"][die["face"]]["name"]
    draw.text((cx, y + size + 28), label, font=font(26, bold=True), fill=INK, anchor="mm")
    fnt = font(MIN_TEXT, condensed=True)
    for i, line in enumerate(two_lines(what, fnt, room)):
        draw.text((cx, y + size + 60 + 30 * i), line, font=fnt, fill=MUTED, anchor="mm")


# --------------------------------------------------------------------------- the score sheet

COLUMNS: tuple[tuple[str, str, str | None], ...] = (
    ("network_points", "Networks", None),
    ("longest_highway", "Highway", None),
    ("longest_railway", "Railway", None),
    ("centre", "Centre", None),
    ("errors", "Errors", None),
    ("lamps", "Lamps", "street_lamps"),
    ("power", "Power", "power_grid"),
)
"""Scoring lines in the order a row lists them: breakdown key, word, the expansion it needs."""
ROW_H = 16 + 50 + 3 * LINE_H + 10
BANNER_H = 150


def score_sheet(view: dict[str, Any], names: Sequence[str] | None = None) -> bytes:
    """PNG of the standings with every seat's scoring lines, totals, ranks and tiebreaks."""
    standings = sorted(view["standings"], key=lambda e: (e["rank"], e["seat"]))
    labels = player_names(len(view["seats"]), names)
    columns = [c for c in COLUMNS if c[2] is None or c[2] in view["expansions"]]
    table_h = 2 * PAD + TITLE_H + ROW_H * len(standings)
    banner = BANNER_H + GAP if view["over"] else 0
    top = MARGIN + 100
    height = top + banner + table_h + GAP + 2 * LINE_H + MARGIN
    img, draw = canvas(WIDTH, height, BACKGROUND)
    status = (
        f"after {view['rounds']} rounds" if view["over"] else f"standings in round {view['round']}"
    )
    title = "Railroad Ink: final score sheet" if view["over"] else "Railroad Ink: score sheet"
    _title(draw, title, f"{status.capitalize()} · {_expansions(view)}")
    y = top
    if banner:
        _winner(draw, (MARGIN, y, WIDTH - MARGIN, y + BANNER_H), standings, labels)
        y += banner
    tb = view["config"].get("tiebreak", "fewer_errors")
    note = "ties: fewer errors wins" if tb == "fewer_errors" else "ties are shared"
    _panel_box(draw, (MARGIN, y, WIDTH - MARGIN, y + table_h), "Standings", note)
    row_y = y + PAD + TITLE_H
    for entry in standings:
        row = (MARGIN + 10, row_y, WIDTH - MARGIN - 10, row_y + ROW_H - 10)
        _score_row(draw, row, entry, standings, labels, view, columns)
        row_y += ROW_H
    table = view["network_points"]
    legend = (
        "Network points by exits joined:",
        " · ".join(f"{n}→{p}" for n, p in enumerate(table) if n >= 2),
    )
    fnt = font(MIN_TEXT)
    for i, line in enumerate(legend):
        text = fit(line, fnt, WIDTH - 2 * MARGIN)
        draw.text((MARGIN + 4, y + table_h + GAP + i * LINE_H), text, font=fnt, fill=MUTED)
    return png(img)


def _score_row(
    draw: ImageDraw.ImageDraw,
    box: Box,
    entry: dict[str, Any],
    standings: list[dict[str, Any]],
    names: list[str],
    view: dict[str, Any],
    columns: list[tuple[str, str, str | None]],
) -> None:
    """One seat: rank, badge, name and total; then its points by scoring line, its networks,
    and how a tie was settled with its power and special routes, a line each."""
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
    seat_badge(draw, (x0 + 76, line - 22, x0 + 120, line + 22), seat)
    left = x0 + 134
    total = font(44, bold=True)
    score = str(entry["score"])
    draw.text((x1 - 16, line), score, font=total, fill=INK, anchor="rm")
    suffix = " (you)" if view.get("viewer") == seat else ""
    big = font(30, bold=True)
    room = x1 - 40 - int(total.getlength(score)) - left
    name = fit(names[seat], big, int(room - big.getlength(suffix))) + suffix
    draw.text((left, line), name, font=big, fill=INK, anchor="lm")
    breakdown = entry["details"]["breakdown"]
    y = y0 + 66 + LINE_H / 2
    points = {key: int(breakdown.get(key, 0)) for key, _, _ in columns}
    items = [
        (label, f"−{points[key]}" if key == "errors" and points[key] else str(points[key]))
        for key, label, _ in columns
    ]
    tally(draw, (x0 + 24, y), items, x1 - 16)
    table = view["network_points"]
    nets = breakdown.get("networks") or []
    text = "Networks: " + (
        " · ".join(f"{n} exits → {table[min(n, len(table) - 1)]}" for n in nets)
        if nets
        else "none joins two exits"
    )
    used = len(entry["details"].get("specials_used", []))
    text += f" · {used} special route{'s' if used != 1 else ''}"
    width = x1 - x0 - 40
    fnt = font(MIN_TEXT)
    draw.text((x0 + 24, y + LINE_H), fit(text, fnt, width), font=fnt, fill=INK, anchor="lm")
    extra = []
    note = _tiebreak_note(entry, standings, view["over"])
    if note:
        extra.append(note)
    if "power_grid" in view["expansions"]:
        extra.append(
            f"power {breakdown.get('charges', 0)} charges × {breakdown.get('power_exits', 0)} exits"
        )
    if extra:
        text = fit(" · ".join(extra), fnt, width)
        draw.text((x0 + 24, y + 2 * LINE_H), text, font=fnt, fill=MUTED, anchor="lm")


def _winner(
    draw: ImageDraw.ImageDraw, box: Box, standings: list[dict[str, Any]], names: list[str]
) -> None:
    """The winner (or everyone sharing first place) in large type with the winning score."""
    _panel_box(draw, box)
    x0, y0, x1, y1 = box
    winners = [e for e in standings if e["rank"] == 1]
    solo = len(standings) == 1
    label = "Final score" if solo else "★ Winner" if len(winners) == 1 else "★ Shared victory"
    draw.text((x0 + PAD, y0 + PAD - 4), label.upper(), font=font(MIN_TEXT, bold=True), fill=MUTED)
    score = f"{winners[0]['score']} pts"
    big = font(52, bold=True)
    cy = (y0 + y1) / 2 + 14
    draw.text((x1 - PAD, cy), score, font=big, fill=INK, anchor="rm")
    room = x1 - x0 - 2 * PAD - int(big.getlength(score)) - 30
    left = x0 + PAD
    per = (room - 12 * (len(winners) - 1)) // len(winners)
    if per < 160:
        text = f"{len(winners)} players share first place"
        draw.text(
            (left, cy),
            fit(text, font(36, bold=True), room),
            font=font(36, bold=True),
            fill=INK,
            anchor="lm",
        )
        return
    for e in winners:
        seat = int(e["seat"])
        seat_badge(draw, (left, int(cy - 24), left + 50, int(cy + 24)), seat)
        fnt = font(42 if len(winners) == 1 else 30, bold=True)
        text = fit(names[seat], fnt, per - 62)
        draw.text((left + 62, cy), text, font=fnt, fill=INK, anchor="lm")
        left += 62 + int(fnt.getlength(text)) + 28


def _tiebreak_note(entry: dict[str, Any], standings: list[dict[str, Any]], over: bool) -> str:
    """How a tie on points was settled for this seat, or "" when it was not tied."""
    kind = entry["details"].get("tiebreak")
    if not kind:
        return ""
    rank = int(entry["rank"])
    if kind == "shared":
        place = "victory" if rank == 1 and over else f"{ordinal(rank)} place"
        key = entry.get("tiebreak") or []
        why = "points and errors" if len(key) > 1 else "points"
        return f"shared {place} (tie on {why})"
    mine = int(entry["details"]["breakdown"].get("errors", 0))
    rivals = sorted(
        {
            int(e["details"]["breakdown"].get("errors", 0))
            for e in standings
            if e is not entry and e["score"] == entry["score"]
        }
    )
    vs = ", ".join(str(r) for r in rivals)
    if all(mine < r for r in rivals):
        return f"tie on points: fewer errors wins ({mine} vs {vs})"
    if all(mine > r for r in rivals):
        return f"tie on points: more errors ({mine} vs {vs})"
    return f"tie on points: errors decided ({mine} vs {vs})"
