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


def join_gain(cells: list[Cell | None], acc: int) -> float:
    """Per set of two networks or more facing one empty space: the network points that
    joining them there would add (each set counted once, at its best)."""
    # Pieces are (cell, segment); a union-find joins pieces whose ends meet.
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    tiles = [None if c is None else tile(c.face, c.orientation) for c in cells]
    facing: dict[int, list[int]] = {}
    for i in range(CELLS):
        t = tiles[i]
        if t is None:
            continue
        for d in range(4):
            if t.sides[d] is None:
                continue
            a = i * 2 + t.seg_of[d]
            parent.setdefault(a, a)
            n = NEIGH[i][d]
            if n < 0 or n == acc:
                continue
            u = tiles[n]
            if u is None:
                facing.setdefault(n, []).append(a)
            elif n < i and u.sides[d ^ 2] is not None:
                b = n * 2 + u.seg_of[d ^ 2]
                parent.setdefault(b, b)
                ra, rb = find(a), find(b)
                if ra != rb:
                    parent[ra] = rb
    if not facing:
        return 0.0
    exits: dict[int, int] = {}
    for i, sides in EXIT_SIDES.items():
        t = tiles[i]
        if t is None:
            continue
        for d in sides:
            if t.sides[d] is not None:
                r = find(i * 2 + t.seg_of[d])
                exits[r] = exits.get(r, 0) + 1
    best: dict[frozenset[int], int] = {}
    for pieces in facing.values():
        if len(pieces) < 2:
            continue
        roots = frozenset(find(a) for a in pieces)
        if len(roots) < 2:
            continue
        counts = [exits.get(r, 0) for r in roots]
        gain = POINTS[min(sum(counts), len(POINTS) - 1)] - sum(POINTS[c] for c in counts)
        if gain > best.get(roots, 0):
            best[roots] = gain
    return float(sum(best.values()))
