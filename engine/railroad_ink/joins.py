"""Where different networks of an unfinished board may still be joined, and what joining
them would add to the network points."""

from engine.railroad_ink.board import CELLS, EXITS, NEIGH, rules, tile
from engine.railroad_ink.state import Cell

POINTS = rules().network_points


def _exit_sides() -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for e in EXITS:
        out.setdefault(e.cell, []).append(e.side)
    return out


EXIT_SIDES = _exit_sides()
"""The sides of each exit cell that face an exit."""


_LINKS = [tuple((d, n) for d, n in enumerate(NEIGH[i]) if n >= 0) for i in range(CELLS)]
"""Per cell, its neighbours on the board with the side they lie on."""
_TOP = len(POINTS) - 1


def join_gain(cells: list[Cell | None], acc: int) -> float:
    """Per set of two networks or more facing one empty space: the network points that
    joining them there would add (each set counted once, at its best)."""
    # Pieces are 2 * cell + segment; a union-find joins pieces whose ends meet.
    segs = [None if c is None else tile(c.face, c.orientation).seg_of for c in cells]
    parent = list(range(2 * CELLS))

    def find(x: int) -> int:
        while (up := parent[x]) != x:
            parent[x] = x = parent[up]
        return x

    facing: dict[int, list[int]] = {}
    for i in range(CELLS):
        seg = segs[i]
        if seg is None:
            continue
        for d, n in _LINKS[i]:
            k = seg[d]
            if k < 0 or n == acc:
                continue
            other = segs[n]
            if other is None:
                if n in facing:
                    facing[n].append(2 * i + k)
                else:
                    facing[n] = [2 * i + k]
            elif n < i and (m := other[d ^ 2]) >= 0:
                a, b = find(2 * i + k), find(2 * n + m)
                if a != b:
                    parent[a] = b
    meeting = [pieces for pieces in facing.values() if len(pieces) > 1]
    if not meeting:
        return 0.0
    exits: dict[int, int] = {}
    for i, sides in EXIT_SIDES.items():
        seg = segs[i]
        if seg is None:
            continue
        for d in sides:
            if seg[d] >= 0:
                r = find(2 * i + seg[d])
                exits[r] = exits.get(r, 0) + 1
    best: dict[frozenset[int], int] = {}
    for pieces in meeting:
        roots = frozenset([find(a) for a in pieces])
        if len(roots) < 2:
            continue
        counts = [exits.get(r, 0) for r in roots]
        gain = POINTS[min(sum(counts), _TOP)] - sum([POINTS[c] for c in counts])
        if gain > best.get(roots, 0):
            best[roots] = gain
    return float(sum(best.values()))
