"""What one seat (or a spectator) may see: every board, the roll, and only its own draft plan."""

from typing import Any

from engine.core import IllegalAction, Outcome
from engine.railroad_ink.actions import parse_step
from engine.railroad_ink.board import (
    ACC,
    CELLS,
    CENTRE,
    EXITS,
    SIDES,
    SIZE,
    cell_name,
    face_name,
    faces,
    parse_cell,
    rules,
    specials,
    tile,
)
from engine.railroad_ink.config import Config
from engine.railroad_ink.planning import LAMP_DICE, ROUTE_DICE, Ctx, Draft, add_step, draft_of
from engine.railroad_ink.state import Cell, PlayerState, State


def _cell(i: int, c: Cell | None, acc: bool, powered: bool) -> dict[str, Any] | None:
    if c is None:
        if powered:
            return {"cell": cell_name(i), "electrified": True}
        return {"cell": cell_name(i), "accumulator": True} if acc else None
    t = tile(c.face, c.orientation)
    return {
        "cell": cell_name(i),
        "face": c.face,
        "name": face_name(c.face),
        "orientation": c.orientation,
        "sides": "".join(s or "." for s in t.sides),
        "segments": [
            "".join(SIDES[d] for d in range(4) if t.seg_of[d] == k) for k in range(t.segments)
        ],
        "station": t.station,
        "overpass": t.segments > 1,
        "lamp": t.lamp,
        "lamp_on": c.lamp_on,
        "electrified": c.electrified,
        "special": c.special,
        "round": c.round,
    }


def _roll(roll: Any) -> dict[str, Any] | None:
    if roll is None:
        return None
    return {
        "route": [
            {"die": d, "face": f, "name": face_name(f)}
            for d, f in zip(ROUTE_DICE, roll.route, strict=True)
        ],
        "lamps": [
            {"die": d, "face": f, "name": face_name(f)}
            for d, f in zip(LAMP_DICE, roll.lamps, strict=False)
        ],
        "power": [{"die": k, "face": f} for k, f in enumerate(roll.power, start=1)],
    }


def _seat(state: State, seat: int, viewer: int | None, standing: Outcome) -> dict[str, Any]:
    p = state.players[seat]
    plan = state.plans[seat]
    power = state.config.power
    return {
        "seat": seat,
        "submitted": plan is not None,
        "plan": plan.model_dump(mode="json") if plan is not None and seat == viewer else None,
        "board": [
            [
                _cell(
                    r * SIZE + c,
                    p.cells[r * SIZE + c],
                    power and r * SIZE + c == ACC,
                    r * SIZE + c in p.powered,
                )
                for c in range(SIZE)
            ]
            for r in range(SIZE)
        ],
        "charges": p.charges if power else None,
        "specials_used": list(p.specials),
        "score": standing["details"]["breakdown"],
        "total": standing["score"],
        "rank": standing["rank"],
    }


def view(state: State, seat: int | None, standings: list[Outcome]) -> dict[str, Any]:
    """A JSON-ready picture of the game for `seat` (None: a spectator)."""
    cfg = state.config
    return {
        "game": "railroad_ink",
        "viewer": seat,
        "round": state.round,
        "rounds": cfg.round_count,
        "phase": state.phase,
        "over": state.phase == "over",
        "config": cfg.model_dump(mode="json"),
        "expansions": sorted(cfg.expansions),
        "roll": _roll(state.roll),
        "size": SIZE,
        "exits": [
            {"id": e.id, "cell": cell_name(e.cell), "side": SIDES[e.side], "type": e.type}
            for e in EXITS
        ],
        "centre": sorted(cell_name(i) for i in CENTRE),
        "accumulator": cell_name(ACC) if cfg.power else None,
        "max_charges": rules().max_charges,
        "network_points": list(rules().network_points),
        "faces": {
            name: {
                "name": f.name,
                "sides": f.sides,
                "segments": list(f.segments),
                "station": f.station,
                "lamp": f.lamp,
            }
            for name, f in faces().items()
        },
        "specials": [
            {"face": f, "name": face_name(f), "sides": faces()[f].sides} for f in specials()
        ],
        "specials_per_game": rules().specials_per_game,
        "seats": [_seat(state, s, seat, standings[s]) for s in range(len(state.players))],
        "last_round": None
        if state.last_roll is None
        else {
            "roll": _roll(state.last_roll),
            "plans": [p.model_dump(mode="json") if p else None for p in state.last_plans],
        },
        "standings": standings,
    }


def seat_from_view(view: dict[str, Any], seat: int) -> tuple[Ctx, PlayerState]:
    """The round's rules and roll, and `seat`'s board, rebuilt from a view of the plan phase."""
    cfg = Config.model_validate(view["config"])
    roll = view["roll"]
    ctx = Ctx(
        cfg,
        view["round"],
        tuple(d["face"] for d in roll["route"]),
        tuple(d["face"] for d in roll["lamps"]),
        tuple(d["face"] for d in roll["power"]),
    )
    me = view["seats"][seat]
    cells: list[Cell | None] = [None] * CELLS
    powered: list[int] = []
    for row in me["board"]:
        for c in row:
            if c is not None and "face" not in c and c.get("electrified"):
                i = parse_cell(c["cell"])
                assert i is not None
                powered.append(i)
            elif c is not None and "face" in c:
                i = parse_cell(c["cell"])
                assert i is not None
                cells[i] = Cell(
                    c["face"],
                    c["orientation"],
                    c["round"],
                    c["special"],
                    c["lamp_on"],
                    c["electrified"],
                )
    return ctx, PlayerState(cells, me["charges"] or 0, list(me["specials_used"]), powered)


DIE_TAGS = {
    "route1": "R1",
    "route2": "R2",
    "route3": "R3",
    "route4": "R4",
    "lamp1": "L1",
    "lamp2": "L2",
    "special": "★S",
}
"""How a die is tagged on the board and named in a draft's words."""


def power_words(cells: list[str], charge: int) -> str:
    """What a power die did: "power E2, F2 then charge the Accumulator", "charge the …"."""
    parts = [f"power {', '.join(cells)}"] if cells else []
    parts += ["charge the Accumulator"] if charge else []
    return " then ".join(parts) or "power nothing"


def draft_preview(
    view: dict[str, Any], seat: int, steps: list[dict[str, Any]]
) -> tuple[dict[str, dict[str, Any]], list[tuple[list[str], int]]]:
    """`seat`'s board (cell name → cell view) after the draft `steps`, and per step the cells it
    changed and the charges it added; a malformed or refused step changes nothing."""
    ctx, player = seat_from_view(view, seat)
    draft = draft_of(player)
    changes: list[tuple[list[str], int]] = []
    for data in steps:
        trial = Draft(draft.p.copy(), set(draft.used), draft.owed, draft.phase, draft.special)
        try:
            add_step(ctx, trial, parse_step(data))
        except IllegalAction:
            changes.append(([], 0))
            continue
        before, after = draft.p, trial.p
        cells = [
            cell_name(i)
            for i in range(CELLS)
            if after.cells[i] != before.cells[i] or (i in after.powered) != (i in before.powered)
        ]
        changes.append((cells, after.charges - before.charges))
        draft = trial
    p = draft.p
    board = {
        cell_name(i): c
        for i in range(CELLS)
        if (c := _cell(i, p.cells[i], ctx.acc == i, i in p.powered)) is not None
    }
    return board, changes
