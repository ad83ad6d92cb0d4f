"""A beam search over the order and placement of a round's route dice (and a special route):
each layer draws one more die on every kept board, and the best boards by evaluation go on;
strong then weighs its best few boards by the next round's beam on sampled rolls."""

import zlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from random import Random
from typing import cast

from engine.railroad_ink.actions import Activate, DieKey, Draw
from engine.railroad_ink.bitboard import PACKED, pack
from engine.railroad_ink.board import NEIGH, cell_name, faces, rules, specials
from engine.railroad_ink.evaluation import Weights, player_value
from engine.railroad_ink.joins import Joins
from engine.railroad_ink.planning import (
    ROUTE_DICE,
    Ctx,
    Draft,
    Facing,
    activate_lines,
    facings,
    line_cells,
    placed,
)
from engine.railroad_ink.state import Cell, PlayerState

Drawn = tuple[str, int, int, str]
"""A draw as a search keeps it: die, cell, orientation, face."""


@dataclass(slots=True)
class Node:
    """A board part way through the round: its cells, the dice drawn, and how."""

    cells: list[Cell | None]
    used: frozenset[str]
    steps: tuple[Drawn | Activate, ...]
    special: str | None
    key: frozenset[tuple[int, str, int]]
    """The draws as a set: boards reached in another order are the same board."""
    value: float
    packed: int
    """`pack(cells)`, kept as each draw adds its tile's bits."""
    joins: Joins
    """Its networks and the spaces they face, grown with each draw."""


def beam_plan(
    ctx: Ctx,
    player: PlayerState,
    width: int,
    w: Weights,
    with_special: bool,
    over: Callable[[], bool],
    ahead: tuple[int, int, int] = (0, 0, 0),
) -> tuple[Draw | Activate, ...]:
    """The steps of the best finished board found with `width` boards kept per layer (with
    Street Lamps, a special's lamp line follows it); with `ahead` = (boards, rolls, width),
    the best boards are weighed instead by the next round's beam on sampled rolls."""
    cfg = ctx.config
    # A base game's board is all its packed bits say; the next round's beams meet the same
    # boards again and again (a sixth of all), so each is valued once.
    valued: dict[tuple[int, int], float] | None = None if cfg.lamps or cfg.power else {}
    done = beam_nodes(ctx, player, width, w, with_special, over, valued)
    boards, rolls, next_width = ahead
    if boards < 2 or ctx.round >= cfg.round_count or cfg.lamps or cfg.power or over():
        return _actions(done[0].steps)
    top = done[:boards]
    rng = Random(zlib.crc32(repr((ctx.round, ctx.route, _board_key(player.cells))).encode()))
    sampled = [
        tuple(rng.choice(rules().dice[d].faces) for d in rules().route_dice) for _ in range(rolls)
    ]

    def outlook(node: Node) -> float:
        specials = [*player.specials, *([node.special] if node.special else [])]
        after = PlayerState(node.cells, player.charges, specials, player.powered)
        total = 0.0
        for route in sampled:
            nxt = replace(ctx, round=ctx.round + 1, route=route)
            # An outlook, not a plan: its last-round specials go only where ends meet, as in
            # earlier rounds, which keeps the round before the last under 1 s at p95 (it cost
            # 0.15 points a game, paired on final-100..499).
            total += beam_nodes(
                nxt, after, next_width, w, with_special, over, valued, outlook=True
            )[0].value
        return total

    return _actions(max(top, key=outlook).steps)


def _actions(steps: tuple[Drawn | Activate, ...]) -> tuple[Draw | Activate, ...]:
    """The steps as actions (a search builds them only for the board it plays)."""
    return tuple(
        Draw(
            die=cast(DieKey, step[0]),
            cell=cell_name(step[1]),
            orientation=step[2],
            face=step[3] if step[0] == "special" else None,
        )
        if isinstance(step, tuple)
        else step
        for step in steps
    )


def _board_key(cells: list[Cell | None]) -> tuple[tuple[int, str, int], ...]:
    return tuple((i, c.face, c.orientation) for i, c in enumerate(cells) if c is not None)


def beam_nodes(
    ctx: Ctx,
    player: PlayerState,
    width: int,
    w: Weights,
    with_special: bool,
    over: Callable[[], bool],
    valued: dict[tuple[int, int], float] | None = None,
    outlook: bool = False,
) -> list[Node]:
    """The finished boards found with `width` boards kept per layer, best first; `valued`: the
    values of boards met before, by packed board and rounds left, where those tell them; with
    `outlook`, a special goes only where two ends or more meet even in the last round."""
    cfg = ctx.config
    rounds_left = cfg.round_count - ctx.round
    held = [f for f in specials() if f not in player.specials]
    specials_left = rules().specials_per_game - len(player.specials)
    may_special = with_special and specials_left > 0
    # Holding a special back is worth something while more rounds remain than specials.
    special_cost = w.special if rounds_left + 1 > specials_left else 0.0
    anywhere = rounds_left <= 0 and not outlook

    def value(cells: list[Cell | None], special: str | None, packed: int, joins: Joins) -> float:
        known = None if valued is None else valued.get((packed, rounds_left))
        if known is None:
            known = player_value(cells, player, cfg, rounds_left, w, packed, joins)
            if valued is not None:
                valued[packed, rounds_left] = known
        return known - special_cost if special else known

    packed = pack(player.cells)
    joins = Joins.of(player.cells, ctx.acc)
    at_start = value(player.cells, None, packed, joins)
    root = Node(player.cells, frozenset(), (), None, frozenset(), at_start, packed, joins)
    layer = [root]
    done: list[Node] = []
    seen: set[frozenset[tuple[int, str, int]]] = set()
    while layer:
        children: list[Node] = []
        for node in layer:
            spots = facings(node.cells, ctx.acc, node.packed)
            fitted = False
            faces_tried: set[str] = set()
            for k, die in enumerate(ROUTE_DICE):
                face = ctx.route[k]
                if die in node.used or face in faces_tried:
                    continue
                # Two dice showing one face: drawing either first gives the same boards.
                faces_tried.add(face)
                for i, o in placed(spots, face, ctx.mixed):
                    fitted = True
                    child = _child(ctx, node, die, face, i, o, value, seen)
                    if child is not None:
                        children.append(child)
                if over() and children:
                    break
            if not fitted:
                done.append(node)
            if may_special and node.special is None and not over():
                # Before the last round (or in an outlook), a special goes only where two ends
                # or more meet.
                meet = None if anywhere else _meeting_cells(spots)
                for face in held:
                    for i, o in placed(spots, face, ctx.mixed):
                        if meet is not None and i not in meet:
                            continue
                        child = _child(ctx, node, "special", face, i, o, value, seen)
                        if child is not None:
                            children.append(child)
        children.sort(key=lambda n: n.value, reverse=True)
        layer = children[:width] if not over() else children[:1]
    done.sort(key=lambda n: n.value, reverse=True)
    return done


def _child(
    ctx: Ctx,
    node: Node,
    die: str,
    face: str,
    i: int,
    o: int,
    value: Callable[[list[Cell | None], str | None, int, Joins], float],
    seen: set[frozenset[tuple[int, str, int]]],
) -> Node | None:
    """`node` with one more die drawn; None if another order reached the same board."""
    key = node.key | {(i, face, o)}
    if key in seen:
        return None
    seen.add(key)
    special = face if die == "special" else node.special
    cells = node.cells.copy()
    cells[i] = Cell(face, o, ctx.round, special=die == "special")
    steps: tuple[Drawn | Activate, ...] = (*node.steps, (die, i, o, face))
    if die == "special" and ctx.config.lamps:
        steps = (*steps, _light_best(ctx, cells))
    # A tile's bits never overlap the board's, so adding them packs the new board.
    packed = node.packed + PACKED[face][o][i]
    joins = node.joins.grown(i, face, o)
    worth = value(cells, special, packed, joins)
    return Node(cells, node.used | {die}, steps, special, key, worth, packed, joins)


def _meeting_cells(spots: list[tuple[int, Facing]]) -> set[int]:
    """The spaces of `spots` (a board's `facings`) faced by two route ends or more."""
    return {
        i
        for i, facing in spots
        if sum(1 for n, kind in zip(NEIGH[i], facing, strict=True) if n >= 0 and kind) >= 2
    }


def _light_best(ctx: Ctx, cells: list[Cell | None]) -> Activate:
    """The lamp line that lights the most lamps (the first such), lit in `cells`."""
    lamp = faces()
    unlit = [
        i for i, c in enumerate(cells) if c is not None and lamp[c.face].lamp and not c.lamp_on
    ]
    lines = activate_lines(ctx, Draft(PlayerState(cells, 0, []), owed=1))
    best = lines[0]
    if unlit:
        best = max(lines, key=lambda line: len(set(line_cells(line)).intersection(unlit)))
    for i in set(line_cells(best)).intersection(unlit):
        c = cells[i]
        assert c is not None
        cells[i] = replace(c, lamp_on=True)
    return Activate(line=best)
