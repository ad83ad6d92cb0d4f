"""What an unfinished Railroad Ink board is worth: its score now, with open ends, exits reached,
the spaces where routes meet and the networks that may join there valued while rounds remain."""

from dataclasses import dataclass

from engine.railroad_ink import scoring
from engine.railroad_ink.bitboard import (
    BOARD,
    EXIT_ENDS,
    bit,
    cells_of,
    faced,
    pack,
)
from engine.railroad_ink.board import ACC, NEIGH
from engine.railroad_ink.config import Config
from engine.railroad_ink.joins import Joins
from engine.railroad_ink.state import Cell, PlayerState

ACC_BIT = 1 << bit(ACC)


@dataclass(frozen=True, slots=True)
class Weights:
    """Tuning set by hand on anchor sequences final-100..999 (the bench's strong plays
    final-0..99)."""

    open_end: float = 0.5
    """What an end facing an empty space costs with every round still to come."""
    open_end_late: float = 1.0
    """What it costs when one round remains (the cost rises in between)."""
    meeting: float = 0.7
    """Per empty space faced by two ends or more: where routes, and networks, may be joined."""
    exit: float = 1.5
    """Per exit reached by a route, with rounds to come."""
    centre: float = 1.0
    """More per central space filled, with rounds to come (routes there join more)."""
    special: float = 8.0
    """What drawing a special costs while more rounds remain than specials: held for the last
    rounds, where joins are made, as the anchor's games do (+1.82 ± 0.69 a game at strong
    against 2.5, paired on anchor sequences final-100..499)."""
    power_cell: float = 0.4
    """Per electrified space linked to the Accumulator."""
    charge: float = 2.0
    """Per charge beyond what it scores now."""
    join: float = 0.2
    """Per network point that joining networks facing one empty space would add."""
    closed_exit: float = -0.5
    """More per exit reached by a network that can grow no more (no end facing an empty space):
    `exit` promises what it will not keep (+0.53 ± 0.37 a game at strong, paired on anchor
    sequences final-100..499 and 500..999)."""


def open_ends(p: int, acc: int) -> tuple[int, int]:
    """Route ends facing an empty space (they may still be joined), and the empty spaces that
    two ends or more face (where routes, and networks, may meet)."""
    empty = BOARD & ~cells_of(p)
    if acc >= 0:
        empty &= ~ACC_BIT
    # Each end faces one space from one side: counting the spaces side by side counts the ends.
    a, b, c, d = ((h | r) & empty for h, r in zip(*faced(p), strict=True))
    live = a.bit_count() + b.bit_count() + c.bit_count() + d.bit_count()
    return live, (a & (b | c | d) | b & (c | d) | c & d).bit_count()


def board_value(
    cells: list[Cell | None],
    cfg: Config,
    rounds_left: int,
    w: Weights,
    charges: int = 0,
    powered: list[int] | None = None,
    packed: int | None = None,
    joins: Joins | None = None,
) -> float:
    """The board's score, plus what its unfinished parts promise while `rounds_left` > 0
    (`packed`: `pack(cells)`, `joins`: its Joins, if known)."""
    acc = ACC if cfg.power else -1
    p = pack(cells) if packed is None else packed
    # The joins' networks are the rules' where only ends of one kind may meet and the
    # Accumulator joins none: then they spare scoring its own search.
    exits = None
    if joins is not None and cfg.mixed_contact == "illegal" and not cfg.accumulator_joins_networks:
        exits = joins.exit_counts()
    s = scoring.score(cells, charges, acc, config=cfg, powered=powered or (), packed=p, exits=exits)
    v = float(s.total)
    if rounds_left <= 0:
        return v
    live, met = open_ends(p, acc)
    share = min(1.0, rounds_left / max(1, cfg.round_count - 1))
    cost = w.open_end_late + (w.open_end - w.open_end_late) * share
    reached = (p & EXIT_ENDS[1]).bit_count()
    v += w.centre * s.centre + w.meeting * met + w.exit * reached
    if joins is None:
        joins = Joins.of(cells, acc)
    # Networks join only where an empty space meets two ends: half the boards have none.
    if w.join and met:
        v += w.join * joins.gain()
    if w.closed_exit:
        v += w.closed_exit * joins.closed_exits()
    return v + live * (1.0 - cost)


def player_value(
    cells: list[Cell | None],
    p: PlayerState,
    cfg: Config,
    rounds_left: int,
    w: Weights,
    packed: int | None = None,
    joins: Joins | None = None,
) -> float:
    """board_value with the Power Grid's promise: linked power and charges still to score."""
    v = board_value(cells, cfg, rounds_left, w, p.charges, p.powered, packed, joins)
    if cfg.power and rounds_left > 0:
        v += w.power_cell * _linked(cells, p.powered) + w.charge * p.charges
    return v


def _linked(cells: list[Cell | None], powered: list[int]) -> int:
    """Electrified spaces linked to the Accumulator."""

    def lit(i: int) -> bool:
        c = cells[i]
        return c.electrified if c is not None else i in powered

    seen = {n for n in NEIGH[ACC] if n >= 0 and lit(n)}
    todo = list(seen)
    while todo:
        u = todo.pop()
        for n in NEIGH[u]:
            if n >= 0 and n not in seen and lit(n):
                seen.add(n)
                todo.append(n)
    return len(seen)
