"""Every legal next action of a seat, built from the refusals."""

from engine.core import CHANCE
from engine.propeller_islands import actions as A
from engine.propeller_islands.components import RESOURCES, blueprints, rules, tiles
from engine.propeller_islands.flow import expecting, reach
from engine.propeller_islands.island import NEIGHBOURS, cell_at, depots, frontier, level, vacant
from engine.propeller_islands.refusals import adjust_problem, legal_uses
from engine.propeller_islands.state import State


def _claims(s: State, seat: int, start: bool) -> list[A.Action]:
    p = s.players[seat]
    if start:
        hexes = [h for h in NEIGHBOURS if cell_at(p, *h) is None]
        spaces = range(1, 13)
    else:
        assert s.turn is not None and s.turn.value is not None
        hexes = frontier(p)
        spaces = sorted(reach(s.turn.value, level(p, "jacques") >= 2))
    return [
        A.Claim.model_construct(type="claim", space=sp, at=h)
        for sp in spaces
        if s.offer[sp - 1] is not None
        for h in hexes
    ]


def _adjusts(s: State, seat: int, point: str) -> list[A.Action]:
    values = [
        A.Adjust.model_construct(type="adjust", to=v, free=free)
        for free in (None, True)
        for v in range(1, 7)
    ]
    return [a for a in values if adjust_problem(s, seat, a, point) is None]  # type: ignore[arg-type]


def legal(s: State, seat: int) -> list[A.Action]:
    """Every legal next action of `seat` (none for the chance seat)."""
    who, point, _ = expecting(s)
    if who is None or who == CHANCE or who != seat:
        return []
    p = s.players[seat]
    out: list[A.Action]
    if point == "keep_character":
        return [
            A.KeepCharacter.model_construct(type="keep_character", character=c) for c in p.dealt
        ]
    if point == "start_tiles":
        return _claims(s, seat, True)
    if point == "draft":
        return [
            A.Draft.model_construct(type="draft", value=v) for v in range(1, 7) if s.forge[v - 1]
        ]
    if point == "act":
        assert s.turn is not None and s.turn.value is not None
        out = _adjusts(s, seat, point) + _claims(s, seat, False)
        out += [
            A.Discard.model_construct(type="discard", space=sp)
            for sp in sorted(reach(s.turn.value, False))
            if s.offer[sp - 1] is not None
        ]
        out.append(A.Activate.model_construct(type="activate"))
        return out
    if point == "activating":
        return [*legal_uses(s, seat, "turn"), A.Done.model_construct(type="done")]
    if point == "blueprint":
        out = [
            A.Complete.model_construct(type="complete", card=b)
            for b in p.hand
            if all(getattr(p, r) >= getattr(blueprints()[b], r) for r in RESOURCES)
        ]
        return [*out, A.EndTurn.model_construct(type="end_turn")]
    if point == "bonus":
        out = _adjusts(s, seat, point) + legal_uses(s, seat, "bonus")
        return [*out, A.Done.model_construct(type="done")]
    task = s.tasks[-1]
    if point == "deploy":
        spots = [(c.q, c.r) for c in vacant(p)]
        return [
            A.Deploy.model_construct(type="deploy", from_=(i // 4 + 1, i % 4 + 1), to=h)
            for i in range(12)
            if p.dock[i]
            for h in spots
        ]
    if point == "rewards":
        return [A.RewardChoice.model_construct(type="reward", line=line) for line in task.lines]
    if point == "place":
        return [A.Place.model_construct(type="place", at=h) for h in frontier(p)]
    if point in ("c3", "radio"):
        uses: list[A.Action] = list(legal_uses(s, seat, "free"))
        return uses or ([A.Done.model_construct(type="done")] if point == "c3" else [])
    if point in ("r1", "warehouse"):
        out = [
            A.DepotChoice.model_construct(type="depot", tile=(c.q, c.r))
            for c in depots(p)
            if (c.q, c.r) not in task.used
        ]
        return [*out, A.Done.model_construct(type="done")] if point == "r1" else out
    if point == "choose":
        return [A.Choose.model_construct(type="choose", resource=r) for r in ("energy", "steel")]
    if point == "install":
        kind = rules().tokens[task.token or ""].kind
        out = [
            A.Install.model_construct(type="install", tile=(c.q, c.r))
            for c in p.cells
            if not c.tile.startswith("01")
            and kind in tiles()[c.tile].slots
            and kind not in c.tokens
        ]
        return [*out, A.Keep.model_construct(type="keep")]
    if point == "take":
        out = [
            A.Take.model_construct(type="take", card=b, stack=None)
            for level_ in ("I", "II")
            for b in s.bp_offer[level_]
        ]
        out += [
            A.Take.model_construct(type="take", card=None, stack=level_)
            for level_ in ("I", "II")
            if s.bp_stack[level_]
        ]
        return out
    return []
