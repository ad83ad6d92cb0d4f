"""What one seat (or a spectator) may see, as plain JSON-ready dicts.

Shape (stable; renderers and the autopilot read it):
- top level: game, viewer, phase, waiting_for, to_act (list), round, start_player, turn_index
  (turns taken this round, or seats done in the bonus / setup orders), players, capitol_side,
  forge (value "1".."6" → dice count), dice_to_roll, offer (list of 12 {space, tile, name,
  number, wild, banner, hub, category, text (the effect)} or {space, tile: None}), reach
  (value → spaces), stack_count, discarded (tile ids), blueprint_offer {"I": [card], "II":
  [card]} (card = the blueprint dict of `card_info`), blueprint_stack_count {"I", "II"}, turn,
  bonus, tasks (pending choices, top last: {kind, seat, lines, tile, token, count, used,
  source}), seats (list, below), over, result (final breakdown per seat once over, else None).
- turn: {seat, stage, drafted, value, paid, free, extra} or None; bonus: {die, seat, value,
  adjusted, used} or None.
- seat: {seat, character, character_name, ability_level (0–2), ability ({basic, advanced (the
  texts), unlocked (= ability_level)}, None until a character is kept), dealt (own view only,
  else []), energy, steel, parts, fame, fame_tokens (⌊fame/15⌋), fame_marker (fame mod 15),
  trumpets [5, 10], dock (3 rows × 4 booleans), dock_workers, lines (per line C1–C4, R1–R3:
  {line, reward, text, cleared}), dice (values used this round), island (list of {at: [q, r],
  tile, name, category, text (the effect), number (None for "?"), printed_number, wild,
  banners (list of guilds incl. tokens), printed_banner (the tile's own guild, without tokens,
  or None), hub ("I"/"S"/"C"/"*"/None), slots ("PBW" letters), tokens (kind → token id),
  housing (bool), worker (None/"ready"/"lying")}), completed (card dicts), unused (token ids),
  hand (card dicts, own view only, else None), hand_size, island_workers, score (breakdown)}.
- decision: the viewer's pending decision (None for everyone else), what its panel and picture
  name: {point, spots (the island hexes it picks, in reading order: [{at, label ("A", "B", …),
  fame (what placing the reward tile there gains from links)}]), claims ([{space, spots (their
  labels), fame (label → fame from links, where any)}]), discards (offer spaces), dock
  ([{space: [row, column], number (1–12, row by row), empties (the lines it would empty)}]),
  activations ([q, r] of the tiles the die in play can activate now), complete (the blueprints
  in hand it can pay for now: completed at the end of the turn), discard_energy (what a discard
  gives)}.
"""

from typing import Any

from engine.propeller_islands import actions as A
from engine.propeller_islands import legal, scoring
from engine.propeller_islands.components import (
    blueprints,
    capitol_ids,
    category,
    characters,
    dock,
    rules,
    tile_name,
    tile_types,
    tiles,
)
from engine.propeller_islands.effects import line_spaces
from engine.propeller_islands.flow import expecting
from engine.propeller_islands.island import (
    banners,
    fame_level,
    houses,
    hub,
    island_workers,
    level,
    place_links,
)
from engine.propeller_islands.refusals import legal_uses
from engine.propeller_islands.state import Cell, Player, State


def card_info(card_id: str) -> dict[str, Any]:
    b = blueprints()[card_id]
    return {
        "id": b.id,
        "level": b.level,
        "energy": b.energy,
        "steel": b.steel,
        "parts": b.parts,
        "token": b.token,
        "kind": rules().tokens[b.token].kind,
        "vp": b.vp,
    }


def _capitol_text(tile: str) -> str:
    """What activating a Capitol side does, worded like the tiles' effect texts."""
    gains = ", ".join(f"+{n} {res}" for res, n in capitol_ids()[tile].resources.items())
    return f"Any number: deploy 1 worker, or {gains}"


def tile_info(tile: str) -> dict[str, Any]:
    """Static facts of a building tile or Capitol."""
    if tile.startswith("01"):
        return {
            "tile": tile,
            "name": capitol_ids()[tile].name,
            "category": "capitol",
            "text": _capitol_text(tile),
            "number": None,
            "printed_number": None,
            "wild": True,
            "banner": None,
            "hub": capitol_ids()[tile].hub,
            "slots": "",
        }
    t = tiles()[tile]
    return {
        "tile": tile,
        "name": tile_name(tile),
        "category": category(tile),
        "text": tile_types()[t.type].text,
        "number": t.number,
        "printed_number": t.number,
        "wild": t.wild,
        "banner": t.banner,
        "hub": t.hub,
        "slots": t.slots,
    }


def _cell(c: Cell) -> dict[str, Any]:
    info = tile_info(c.tile)
    wild = info["wild"] or "W" in c.tokens
    info.update(
        at=[c.q, c.r],
        wild=wild,
        number=None if wild else info["number"],
        banners=banners(c),
        hub=hub(c),
        tokens=dict(c.tokens),
        housing=houses(c),
        worker=c.worker,
        printed_banner=info.pop("banner"),
    )
    return info


def _lines(p: Player) -> list[dict[str, Any]]:
    out = []
    for r in dock().rewards:
        k = int(r.line[1]) - 1
        idx = [k + 4 * i for i in range(3)] if r.line[0] == "C" else [4 * k + i for i in range(4)]
        out.append(
            {
                "line": r.line,
                "reward": r.kind,
                "text": r.text,
                "cleared": not any(p.dock[i] for i in idx),
            }
        )
    return out


def _ability(p: Player) -> dict[str, Any] | None:
    """The kept character's two ability texts and how many are unlocked by fame."""
    if not p.character:
        return None
    c = characters()[p.character]
    return {"basic": c.basic, "advanced": c.advanced, "unlocked": fame_level(p.fame)}


def _seat(state: State, seat: int, viewer: int | None) -> dict[str, Any]:
    p = state.players[seat]
    own = seat == viewer
    return {
        "seat": seat,
        "character": p.character,
        "character_name": characters()[p.character].name if p.character else None,
        "ability_level": fame_level(p.fame),
        "ability": _ability(p),
        "dealt": list(p.dealt) if own else [],
        "energy": p.energy,
        "steel": p.steel,
        "parts": p.parts,
        "fame": p.fame,
        "fame_tokens": p.fame // 15,
        "fame_marker": p.fame % 15,
        "trumpets": list(rules().trumpets),
        "dock": [p.dock[4 * r : 4 * r + 4] for r in range(3)],
        "dock_workers": sum(p.dock),
        "lines": _lines(p),
        "dice": list(p.dice),
        "island": [_cell(c) for c in p.cells],
        "island_workers": island_workers(p),
        "completed": [card_info(b) for b in p.completed],
        "unused": list(p.unused),
        "hand": [card_info(b) for b in p.hand] if own else None,
        "hand_size": len(p.hand),
        "score": scoring.breakdown(p),
    }


def spot_label(index: int) -> str:
    """The short name of the index-th spot of a decision: A … Z, then AA, AB, …"""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def _picked(a: A.Action) -> tuple[int, int] | None:
    """The island hex an action picks (a spot to fill or a tile to use), if any."""
    if isinstance(a, A.Claim | A.Place):
        return a.at
    if isinstance(a, A.Deploy):
        return a.to
    if isinstance(a, A.Use | A.Install | A.DepotChoice):
        return a.tile
    return None


def _links(p: Player, tile: str, at: tuple[int, int]) -> int:
    """The fame `tile` placed at `at` would make from guild links."""
    return place_links(p, Cell(at[0], at[1], tile))


def _emptied(p: Player, space: tuple[int, int]) -> list[str]:
    """The dock lines that taking the worker on `space` (row, column) would empty."""
    row, column = space
    taken = 4 * (row - 1) + column - 1
    return [
        line
        for line in (f"C{column}", f"R{row}")
        if not any(p.dock[i] for i in line_spaces(line) if i != taken)
    ]


def decision(state: State, seat: int | None) -> dict[str, Any] | None:
    """What `seat` decides now, for its panel and picture: the spots it picks (labelled in a
    stable order), claims with their fame, the dock spaces, the buildings the die activates."""
    who, point, _ = expecting(state)
    if seat is None or who != seat:
        return None
    p = state.players[seat]
    acts = legal.legal(state, seat)
    # Reading order on the picture (top to bottom, then left to right), so A is found first.
    hexes = sorted(
        {h for a in acts if (h := _picked(a)) is not None}, key=lambda h: (2 * h[1] + h[0], h[0])
    )
    labels = {h: spot_label(i) for i, h in enumerate(hexes)}
    task = state.tasks[-1] if state.tasks else None
    placing = task.tile if task is not None and task.kind == "place" else None
    if point in ("act", "activating", "bonus", "c3", "radio"):
        mode = "free" if point in ("c3", "radio") else "bonus" if point == "bonus" else "turn"
        active = sorted({u.tile for u in legal_uses(state, seat, mode)})
    else:
        active = []
    claims: dict[int, set[tuple[int, int]]] = {}
    for a in acts:
        if isinstance(a, A.Claim):
            claims.setdefault(a.space, set()).add(a.at)
    return {
        "point": point,
        "spots": [
            {
                "at": list(h),
                "label": labels[h],
                "fame": _links(p, placing, h) if placing else 0,
            }
            for h in hexes
        ],
        "claims": [
            {
                "space": space,
                "spots": [labels[h] for h in hexes if h in at],
                "fame": {
                    labels[h]: fame
                    for h in hexes
                    if h in at and (fame := _links(p, state.offer[space - 1] or "", h))
                },
            }
            for space, at in claims.items()
        ],
        "discards": [a.space for a in acts if isinstance(a, A.Discard)],
        "dock": [
            {"space": list(d), "number": 4 * (d[0] - 1) + d[1], "empties": _emptied(p, d)}
            for d in sorted({a.from_ for a in acts if isinstance(a, A.Deploy)})
        ],
        "discard_energy": 3 if level(p, "jacques") else 2,
        "activations": [list(h) for h in active],
        "complete": [b for b in p.hand if legal.payable(p, b)],
    }


def view(state: State, seat: int | None, result: dict[str, Any] | None) -> dict[str, Any]:
    """A JSON-ready picture of the game for `seat` (None: a spectator)."""
    who, point, _ = expecting(state)
    t, b = state.turn, state.bonus
    return {
        "game": "propeller_islands",
        "viewer": seat,
        "phase": state.phase,
        "waiting_for": point,
        "to_act": [] if who is None else [who],
        "round": state.round,
        "start_player": state.start_player,
        "turn_index": state.order_index,
        "players": state.config.players,
        "capitol_side": state.config.capitol_side,
        "forge": {str(v + 1): n for v, n in enumerate(state.forge)},
        "dice_to_roll": state.dice_to_roll,
        "offer": [
            {"space": i + 1, **tile_info(tile)} if tile else {"space": i + 1, "tile": None}
            for i, tile in enumerate(state.offer)
        ],
        "reach": {str(v): list(s) for v, s in rules().offer_spaces.items()},
        "stack_count": len(state.stack),
        "discarded": list(state.discarded),
        "blueprint_offer": {lv: [card_info(c) for c in cs] for lv, cs in state.bp_offer.items()},
        "blueprint_stack_count": {lv: len(cs) for lv, cs in state.bp_stack.items()},
        "turn": None
        if t is None
        else {
            "seat": t.seat,
            "stage": t.stage,
            "drafted": t.drafted,
            "value": t.value,
            "paid": t.paid,
            "free": t.free,
            "extra": t.extra,
        },
        "bonus": None
        if b is None
        else {
            "die": b.die,
            "seat": b.seat,
            "value": b.value,
            "adjusted": b.adjusted,
            "used": b.used,
        },
        "tasks": [
            {
                "kind": k.kind,
                "seat": k.seat,
                "lines": list(k.lines),
                "tile": k.tile,
                "token": k.token,
                "count": k.count,
                "used": [list(h) for h in k.used],
                "source": k.source,
            }
            for k in state.tasks
        ],
        "seats": [_seat(state, s, seat) for s in range(state.config.players)],
        "over": state.phase == "over",
        "result": result,
        "decision": decision(state, seat),
    }
