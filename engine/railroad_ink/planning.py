"""One seat's round as steps: drawing, lighting lamps, electrifying; and their checks."""

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from functools import cache

from engine.core import IllegalAction
from engine.railroad_ink.actions import Activate, Draw, Electrify, Plan
from engine.railroad_ink.bitboard import BOARD, EXIT_CELLS, bit, cells_of, faced, pack
from engine.railroad_ink.board import (
    ACC,
    EXIT_BY_ID,
    EXIT_TYPE,
    EXITS,
    NEIGH,
    ROUTE_NAMES,
    SIDES,
    SIZE,
    Tile,
    cell_name,
    face_name,
    faces,
    orientations,
    parse_cell,
    rules,
    specials,
    tile,
)
from engine.railroad_ink.config import Config
from engine.railroad_ink.state import Cell, PlayerState

ROUTE_DICE = ("route1", "route2", "route3", "route4")
LAMP_DICE = ("lamp1", "lamp2")
LINES = tuple(f"row {r}" for r in range(1, SIZE + 1)) + tuple(
    f"col {chr(65 + c)}" for c in range(SIZE)
)
_SIDE_WORD = {"N": "top", "E": "right", "S": "bottom", "W": "left"}
_DIR_WORD = {"N": "up", "E": "right", "S": "down", "W": "left"}


@dataclass(frozen=True, slots=True)
class Ctx:
    """What a seat plans against: the rules in force, the round and the shared roll."""

    config: Config
    round: int
    route: tuple[str, ...]
    lamps: tuple[str, ...]
    power: tuple[str, ...]

    @property
    def acc(self) -> int:
        return ACC if self.config.power else -1

    @property
    def mixed(self) -> bool:
        """A1: whether highway may touch railway where the drawing joins elsewhere."""
        return self.config.mixed_contact != "illegal"


@dataclass(slots=True)
class Draft:
    """A seat's board while its plan is being built (a private copy)."""

    p: PlayerState
    used: set[str] = field(default_factory=set)
    owed: int = 0
    """Lamp activations owed for special routes drawn."""
    phase: str = "draw"
    """"draw", then "lit" (round-end lighting has begun), then "power"."""
    special: bool = False


def draft_of(player: PlayerState) -> Draft:
    return Draft(player.copy())


# --------------------------------------------------------------------------- placement


def die_face(ctx: Ctx, die: str, face: str | None = None) -> str | None:
    """The face a die shows this round (the named face for a special), None if not in play."""
    if die in ROUTE_DICE:
        return ctx.route[ROUTE_DICE.index(die)]
    if die in LAMP_DICE:
        k = LAMP_DICE.index(die)
        return ctx.lamps[k] if k < len(ctx.lamps) else None
    return face


def die_word(die: str) -> str:
    """ "Route die 2", "Lamp die 1" or "The special route"."""
    if die == "special":
        return "The special route"
    return f"{'Route' if die in ROUTE_DICE else 'Lamp'} die {die[-1]}"


def die_label(die: str, face: str) -> str:
    if die == "special":
        return f"The special route ({face_name(face)})"
    kind = "Route" if die in ROUTE_DICE else "Lamp"
    return f"{kind} die {die[-1]} ({face_name(face)})"


Facing = tuple[str | None, ...]
"""Per side N E S W of an empty cell: the kind of the exit or route end facing it, if any."""


def facings(
    cells: list[Cell | None], acc: int, packed: int | None = None
) -> list[tuple[int, Facing]]:
    """Each empty space next to an exit or a route end (the only places a route can join), with
    what faces it: read off the packed board (`packed`, if known)."""
    p = pack(cells) if packed is None else packed
    empty = BOARD & ~cells_of(p)
    if acc >= 0:
        empty &= ~(1 << bit(acc))
    highway, railway = faced(p)
    todo = EXIT_CELLS
    for h, r in zip(highway, railway, strict=True):
        todo |= h | r
    todo &= empty
    out = []
    while todo:
        low = todo & -todo
        todo ^= low
        b = low.bit_length() - 1
        i = b // 8 * SIZE + b % 8
        facing: list[str | None] = []
        for d, n in enumerate(NEIGH[i]):
            if n < 0:
                facing.append(EXIT_TYPE[i][d])
            else:
                facing.append("H" if highway[d] & low else "R" if railway[d] & low else None)
        out.append((i, tuple(facing)))
    return out


@cache
def _fitting(facing: Facing, face: str, mixed: bool) -> tuple[int, ...]:
    """The orientations of `face` that fit a cell faced so: a board meets few of these, and a
    search asks about each many times."""
    return tuple(o for o in orientations(face) if _mismatch(facing, tile(face, o), mixed) is None)


_UNJOINED = -1
_NOTHING: Facing = (None, None, None, None)


def _mismatch(facing: Facing, t: Tile, mixed: bool) -> int | None:
    """Placement rules 2–3 for `t` in an empty cell faced so: None if it fits; else the first
    side touching an end of the other kind, or `_UNJOINED` when nothing joins. `mixed` (A1
    "if_joined"): such contact does not join, but is allowed."""
    joined = False
    for d, (s, o) in enumerate(zip(t.sides, facing, strict=True)):
        if s is None or o is None:
            continue
        if o != s:
            if mixed:
                continue
            return d
        joined = True
    return None if joined else _UNJOINED


def why_not(
    cells: list[Cell | None], acc: int, i: int, t: Tile, label: str, mixed: bool = False
) -> str | None:
    """The sentence explaining why `t` may not go in cell `i`, or None if it may (A1: `mixed`)."""
    where = cell_name(i)
    if i == acc:
        return f"{label} cannot go on {where}: the Accumulator fills that space."
    if cells[i] is not None:
        return f"{label} cannot go on {where}: that space already holds a route."
    # A space nothing faces is no frontier space: no side of it joins.
    facing = dict(facings(cells, acc)).get(i, _NOTHING)
    d = _mismatch(facing, t, mixed)
    if d is None:
        return None
    if d == _UNJOINED:
        return f"{label} at {where} would not join any exit or route of its kind."
    mine, other, n = t.sides[d], facing[d], NEIGH[i][d]
    assert mine is not None and other is not None
    if n < 0:
        return (
            f"{label} at {where} would run its {ROUTE_NAMES[mine]} into the "
            f"{ROUTE_NAMES[other]} exit at the {_SIDE_WORD[SIDES[d]]} edge."
        )
    return (
        f"{label} at {where} would touch the {ROUTE_NAMES[other]} at {cell_name(n)} "
        "without a station."
    )


def placements(
    cells: list[Cell | None], acc: int, face: str, mixed: bool = False
) -> Iterator[tuple[int, int]]:
    """Every (cell, orientation) where `face` may be drawn, one orientation per distinct tile."""
    return placed(facings(cells, acc), face, mixed)


def placed(spots: list[tuple[int, Facing]], face: str, mixed: bool) -> Iterator[tuple[int, int]]:
    """`placements` on a board whose `facings` are `spots` (a search asks for several faces)."""
    for i, facing in spots:
        for o in _fitting(facing, face, mixed):
            yield i, o


def _light(p: PlayerState, line: str) -> None:
    for i in line_cells(line):
        c = p.cells[i]
        if c is not None and faces()[c.face].lamp and not c.lamp_on:
            p.cells[i] = replace(c, lamp_on=True)


def line_cells(line: str) -> list[int]:
    """Cells of "row 3" or "col C"; empty for anything else."""
    kind, _, key = line.strip().partition(" ")
    key = key.strip().upper()
    if kind == "row" and key.isdigit() and 1 <= int(key) <= SIZE:
        return [(int(key) - 1) * SIZE + c for c in range(SIZE)]
    if kind == "col" and len(key) == 1 and "A" <= key < chr(65 + SIZE):
        return [r * SIZE + ord(key) - 65 for r in range(SIZE)]
    return []


def _lit(p: PlayerState, line: str) -> int:
    return sum(1 for i in line_cells(line) if (c := p.cells[i]) is not None and c.lamp_on)


def _unlit(p: PlayerState, line: str) -> int:
    return sum(
        1
        for i in line_cells(line)
        if (c := p.cells[i]) is not None and faces()[c.face].lamp and not c.lamp_on
    )


# --------------------------------------------------------------------------- steps


def add_step(ctx: Ctx, draft: Draft, step: Draw | Activate | Electrify) -> None:
    """Apply one step to the draft, or raise IllegalAction saying why it is not allowed."""
    if isinstance(step, Draw):
        _draw(ctx, draft, step)
    elif isinstance(step, Activate):
        _activate(ctx, draft, step)
    else:
        _electrify(ctx, draft, step)


def _draw(ctx: Ctx, draft: Draft, step: Draw) -> None:
    cfg = ctx.config
    if draft.phase == "power":
        raise IllegalAction("All drawing comes before electrification.")
    if draft.phase == "lit":
        raise IllegalAction("Lamps are lit after all drawing; nothing more can be drawn.")
    if draft.owed and cfg.lamp_activation == "after_special":
        raise IllegalAction("Choose the row or column to light before drawing anything else.")
    if step.die in LAMP_DICE and not cfg.lamps:
        raise IllegalAction("There are no street lamp dice in this game.")
    if step.die in draft.used and step.die != "special":
        raise IllegalAction(f"{die_word(step.die)} has already been drawn this round.")
    if step.die == "special":
        face = step.face
        if face not in specials():
            names = ", ".join(specials())
            raise IllegalAction(f"A special route needs its face, one of: {names}.")
        if draft.special:
            raise IllegalAction("Only one special route may be drawn per round.")
        if face in draft.p.specials:
            raise IllegalAction(f"The {face_name(face)} has already been used this game.")
        if len(draft.p.specials) >= rules().specials_per_game:
            raise IllegalAction("All three special routes of the game have been used.")
    elif step.face is not None and step.face != die_face(ctx, step.die):
        raise IllegalAction(f"{die_word(step.die)} does not show {step.face} this round.")
    face = die_face(ctx, step.die, step.face)
    assert face is not None
    i = parse_cell(step.cell)
    if i is None:
        raise IllegalAction(f"There is no space {step.cell} (columns A–G, rows 1–7).")
    t = tile(face, step.orientation)
    reason = why_not(draft.p.cells, ctx.acc, i, t, die_label(step.die, face), ctx.mixed)
    if reason:
        raise IllegalAction(reason)
    # A route drawn on a space a "?" die already electrified (A14 option) carries the power.
    powered = i in draft.p.powered
    if powered:
        draft.p.powered.remove(i)
    draft.p.cells[i] = Cell(
        face, step.orientation, ctx.round, special=step.die == "special", electrified=powered
    )
    draft.used.add(step.die)
    if step.die == "special":
        draft.special = True
        draft.p.specials.append(face)
        if cfg.lamps:
            draft.owed += 1


def _activate(ctx: Ctx, draft: Draft, step: Activate) -> None:
    if not ctx.config.lamps:
        raise IllegalAction("There are no street lamps in this game.")
    if draft.phase == "power":
        raise IllegalAction("Lamps are lit before electrification.")
    if not draft.owed:
        raise IllegalAction("Lamps are lit only when a special route is used.")
    if ctx.config.lamp_activation == "round_end" and (left := route_left(ctx, draft)):
        # Lighting at round end closes the drawing, so every route die must be settled first.
        raise IllegalAction(left)
    if not line_cells(step.line):
        raise IllegalAction(f"{step.line!r} is not a row or column; say e.g. 'row 3' or 'col C'.")
    if (
        not ctx.config.lamp_line_may_be_empty
        and not _unlit(draft.p, step.line)
        and any(_unlit(draft.p, line) for line in LINES)
    ):
        raise IllegalAction(f"{step.line} has no unlit street lamp; choose one that has.")
    if (
        not ctx.config.lit_lamp_in_line
        and _lit(draft.p, step.line)
        and line_cells(step.line) not in [line_cells(x) for x in activate_lines(ctx, draft)]
    ):
        raise IllegalAction(f"{step.line} holds a lamp already lit; choose a line without one.")
    _light(draft.p, step.line)
    draft.owed -= 1
    if ctx.config.lamp_activation == "round_end":
        draft.phase = "lit"


def _electrify(ctx: Ctx, draft: Draft, step: Electrify) -> None:
    if not ctx.config.power:
        raise IllegalAction("There are no power grid dice in this game.")
    if draft.owed:
        raise IllegalAction("Choose the row or column to light before electrifying.")
    key = f"power{step.die}"
    if key in draft.used:
        raise IllegalAction(f"Power die {step.die} has already been used this round.")
    missing = unplaced(ctx, draft)
    if missing:
        raise IllegalAction(missing)
    face = ctx.power[step.die - 1]
    label = f"Power die {step.die} ({'?' if face == '?' else _DIR_WORD[face]})"
    p = draft.p
    if face == "?":
        if step.exit or step.start or step.length:
            raise IllegalAction(f"{label} electrifies one space of your choice or charges.")
        if (step.cell is None) == (not step.charge):
            raise IllegalAction(f"{label}: name one space to electrify, or charge; not both.")
        if step.charge:
            _charge(ctx, p, label)
        else:
            i = parse_cell(step.cell or "")
            if i is None:
                raise IllegalAction(f"There is no space {step.cell} (columns A–G, rows 1–7).")
            _power_cell(p, i, label, empty_ok=not ctx.config.wild_power_needs_route)
        draft.used.add(key)
        draft.phase = "power"
        return
    d = SIDES.index(face)
    if step.cell is not None:
        raise IllegalAction(f"{label} runs in a line from an exit or an electrified space.")
    if (step.exit is None) == (step.start is None):
        raise IllegalAction(f"{label}: start from one exit or one electrified space.")
    if step.exit is not None:
        e = EXIT_BY_ID.get(step.exit)
        if e is None:
            ids = ", ".join(x.id for x in EXITS)
            raise IllegalAction(f"There is no exit {step.exit}; exits are {ids}.")
        if e.side != d ^ 2:
            raise IllegalAction(f"{label} cannot enter the board from exit {e.id}.")
        if ctx.config.exit_line_needs_link and step.length and not _linked(p, e.id):
            raise IllegalAction(
                f"{label}: {cell_name(e.cell)} has no route joining exit {e.id}, so power "
                "cannot enter there."
            )
        cur = e.cell
    else:
        s = parse_cell(step.start or "")
        if s is None:
            raise IllegalAction(f"There is no space {step.start} (columns A–G, rows 1–7).")
        if not p.electrified(s):
            raise IllegalAction(f"{label} must start from an exit or an electrified space.")
        cur = NEIGH[s][d]
    if step.length == 0 and not step.charge:
        raise IllegalAction(f"{label} must electrify at least one space or charge.")
    if step.charge and step.length and not ctx.config.charge_after_line:
        raise IllegalAction(
            f"{label}: charging is a move of its own from a space electrified before it."
        )
    for _ in range(step.length):
        if cur < 0:
            raise IllegalAction(f"{label} would run off the board.")
        _power_cell(p, cur, label)
        cur = NEIGH[cur][d]
    if step.charge:
        if cur != ACC:
            raise IllegalAction(f"{label} does not reach the Accumulator there.")
        _charge(ctx, p, label)
    draft.used.add(key)
    draft.phase = "power"


def _linked(p: PlayerState, exit_id: str) -> bool:
    """A11 variant: the exit's inner space has a route end of the exit's type facing it."""
    e = EXIT_BY_ID[exit_id]
    c = p.cells[e.cell]
    return c is not None and tile(c.face, c.orientation).sides[e.side] == e.type


def _charge(ctx: Ctx, p: PlayerState, label: str) -> None:
    """One charge (A16: on a full Accumulator illegal, or wasted)."""
    if p.charges < rules().max_charges:
        p.charges += 1
    elif ctx.config.full_charge == "illegal":
        raise IllegalAction(f"{label}: the Accumulator is already fully charged.")


def _power_cell(p: PlayerState, i: int, label: str, empty_ok: bool = False) -> None:
    where = cell_name(i)
    if i == ACC:
        raise IllegalAction(f"{label} cannot electrify the Accumulator; charge it instead.")
    if p.electrified(i):
        raise IllegalAction(f"{label} would electrify {where}, which already is.")
    c = p.cells[i]
    if c is not None:
        p.cells[i] = replace(c, electrified=True)
    elif empty_ok:
        p.powered = sorted([*p.powered, i])
    else:
        raise IllegalAction(f"{label} would electrify {where}, which holds no route.")


# --------------------------------------------------------------------------- completeness


def unplaced(ctx: Ctx, draft: Draft) -> str | None:
    """Why the drawing cannot end yet: an owed lamp choice or a route die that still fits."""
    if draft.owed:
        return "Choose a row or column to light for the special route you drew."
    return route_left(ctx, draft)


def route_left(ctx: Ctx, draft: Draft) -> str | None:
    """A route die not drawn yet that still fits somewhere (it must be drawn), as a sentence."""
    rule = ctx.config.undrawn_route_die
    if rule == "optional":
        return None
    cells = draft.p.cells
    if rule == "round_start":
        # A2 variant: judged on the board as it stood before this round's drawing.
        cells = [c if c is not None and c.round < ctx.round else None for c in cells]
    for die in ROUTE_DICE:
        if die in draft.used:
            continue
        face = die_face(ctx, die)
        assert face is not None
        spot = next(placements(cells, ctx.acc, face, ctx.mixed), None)
        if spot is not None and rule == "round_start":
            return (
                f"{die_label(die, face)} fitted the board at the start of the round (at "
                f"{cell_name(spot[0])}); every such route die must be drawn."
            )
        if spot is not None:
            return (
                f"{die_label(die, face)} can still be drawn (at {cell_name(spot[0])}); every "
                "route die must be drawn if it can be."
            )
    return None


def check_plan(ctx: Ctx, player: PlayerState, plan: Plan) -> Draft:
    """The board after `plan`, or IllegalAction with the first problem."""
    draft = draft_of(player)
    for step in plan.steps:
        add_step(ctx, draft, step)
    missing = unplaced(ctx, draft) or power_left(ctx, draft)
    if missing:
        raise IllegalAction(missing)
    return draft


def can_submit(ctx: Ctx, draft: Draft) -> bool:
    return unplaced(ctx, draft) is None and power_left(ctx, draft) is None


def power_left(ctx: Ctx, draft: Draft) -> str | None:
    """A13 variant (dice not optional): a power die that still has a legal use, as a sentence."""
    if ctx.config.power_dice_optional or not ctx.config.power:
        return None
    for step in electrify_options(ctx, draft):
        return f"Power die {step.die} can still be used; every power die must be used if it can."
    return None


# --------------------------------------------------------------------------- menus


def draw_options(ctx: Ctx, draft: Draft, die: str) -> list[Draw]:
    """Legal draws of one die (all six specials for "special") right now."""
    if draft.phase != "draw" or die in draft.used:
        return []
    if draft.owed and ctx.config.lamp_activation == "after_special":
        return []
    if die == "special":
        if draft.special or len(draft.p.specials) >= rules().specials_per_game:
            return []
        return [
            Draw(die="special", face=f, cell=cell_name(i), orientation=o)
            for f in specials()
            if f not in draft.p.specials
            for i, o in placements(draft.p.cells, ctx.acc, f, ctx.mixed)
        ]
    face = die_face(ctx, die)
    if face is None:
        return []
    return [
        Draw(die=die, cell=cell_name(i), orientation=o)
        for i, o in placements(draft.p.cells, ctx.acc, face, ctx.mixed)
    ]


def activate_options(ctx: Ctx, draft: Draft) -> list[Activate]:
    if not draft.owed or draft.phase == "power":
        return []
    if ctx.config.lamp_activation == "round_end" and route_left(ctx, draft):
        return []
    return [Activate(line=x) for x in activate_lines(ctx, draft)]


def activate_lines(ctx: Ctx, draft: Draft) -> list[str]:
    """The lines that may be lit now (A7, A8), each rule waived if it would leave none."""
    lines = list(LINES)
    if not ctx.config.lamp_line_may_be_empty and any(_unlit(draft.p, x) for x in LINES):
        lines = [x for x in LINES if _unlit(draft.p, x)]
    if not ctx.config.lit_lamp_in_line and any(not _lit(draft.p, x) for x in lines):
        lines = [x for x in lines if not _lit(draft.p, x)]
    return lines


def electrify_options(ctx: Ctx, draft: Draft) -> list[Electrify]:
    """Every legal use of each unused power die (only once drawing may end)."""
    if not ctx.config.power or unplaced(ctx, draft) is not None:
        return []
    p = draft.p
    out: list[Electrify] = []
    full = p.charges >= rules().max_charges and ctx.config.full_charge == "illegal"
    for k, face in enumerate(ctx.power, start=1):
        if f"power{k}" in draft.used:
            continue
        die = 1 if k == 1 else 2
        if face == "?":
            anywhere = not ctx.config.wild_power_needs_route
            out += [
                Electrify(die=die, cell=cell_name(i))
                for i, c in enumerate(p.cells)
                if i != ACC and not p.electrified(i) and (c is not None or anywhere)
            ]
            if not full:
                out.append(Electrify(die=die, charge=True))
            continue
        d = SIDES.index(face)
        starts: list[tuple[str | None, str | None, int]] = [
            (e.id, None, e.cell)
            for e in EXITS
            if e.side == d ^ 2 and (not ctx.config.exit_line_needs_link or _linked(p, e.id))
        ]
        starts += [
            (None, cell_name(i), NEIGH[i][d]) for i in range(len(p.cells)) if p.electrified(i)
        ]
        for exit_id, start, cur in starts:
            n = 0
            while cur >= 0 and cur != ACC and (c := p.cells[cur]) is not None and not c.electrified:
                n += 1
                out.append(Electrify(die=die, exit=exit_id, start=start, length=n))
                cur = NEIGH[cur][d]
            if cur == ACC and not full:
                # Strict: a charge is its own one-step move; lenient: a line may end in one.
                if n == 0 and start is not None:
                    out.append(Electrify(die=die, start=start, charge=True))
                elif n > 0 and ctx.config.charge_after_line:
                    out.append(Electrify(die=die, exit=exit_id, start=start, length=n, charge=True))
    return out


def legal_next(ctx: Ctx, draft: Draft) -> list[Draw | Activate | Electrify]:
    """Every step that may come next in this seat's plan."""
    steps: list[Draw | Activate | Electrify] = []
    steps += activate_options(ctx, draft)
    dice: Iterable[str] = (*ROUTE_DICE, *(LAMP_DICE if ctx.config.lamps else ()), "special")
    for die in dice:
        steps += draw_options(ctx, draft, die)
    steps += electrify_options(ctx, draft)
    return steps
