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


class Joins:
    """The networks of a board's pieces (2 * cell + segment) with their exits and how many of
    their ends face an empty space, and the pieces facing each empty space: built once, then
    grown a tile at a time as a search draws."""

    __slots__ = ("acc", "exits", "facing", "open", "parent", "segs")

    def __init__(
        self,
        acc: int,
        segs: list[tuple[int, ...] | None],
        parent: list[int],
        facing: dict[int, list[int]],
        exits: dict[int, int],
        open_: dict[int, int],
    ) -> None:
        self.acc, self.segs, self.parent, self.facing = acc, segs, parent, facing
        self.exits, self.open = exits, open_

    @classmethod
    def of(cls, cells: list[Cell | None], acc: int) -> "Joins":
        found = cls(acc, [None] * CELLS, list(range(2 * CELLS)), {}, {}, {})
        for i, c in enumerate(cells):
            if c is not None:
                found._put(i, tile(c.face, c.orientation).seg_of)
        return found

    def grown(self, i: int, face: str, orientation: int) -> "Joins":
        """These joins with a tile drawn on the empty space `i`."""
        found = Joins(
            self.acc,
            self.segs.copy(),
            self.parent.copy(),
            self.facing.copy(),
            self.exits.copy(),
            self.open.copy(),
        )
        found._put(i, tile(face, orientation).seg_of)
        return found

    def gain(self) -> float:
        """Per set of two networks or more facing one empty space: the network points that
        joining them there would add (each set counted once, at its best)."""
        best: dict[frozenset[int], int] = {}
        exits = self.exits
        for pieces in self.facing.values():
            if len(pieces) < 2:
                continue
            roots = frozenset([self._find(a) for a in pieces])
            if len(roots) < 2:
                continue
            counts = [exits.get(r, 0) for r in roots]
            gain = POINTS[min(sum(counts), _TOP)] - sum([POINTS[c] for c in counts])
            if gain > best.get(roots, 0):
                best[roots] = gain
        return float(sum(best.values()))

    def closed_exits(self) -> int:
        """Exits reached by networks with no end facing an empty space: they can grow no more."""
        open_ = self.open
        return sum([n for r, n in self.exits.items() if not open_.get(r)])

    def exit_counts(self) -> list[int]:
        """The exits each network reaches, those reaching none left out (any two ends that
        meet join here, and the Accumulator joins nothing)."""
        return list(self.exits.values())

    def _find(self, x: int) -> int:
        parent = self.parent
        while (up := parent[x]) != x:
            parent[x] = x = parent[up]
        return x

    def _put(self, i: int, seg: tuple[int, ...]) -> None:
        """Tile `seg` on the empty space `i`: joined to its neighbours' ends, its own ends
        facing empty spaces, its exits counted. Lists of `facing` are replaced, never changed:
        a grown copy shares them."""
        segs, facing, open_ = self.segs, self.facing, self.open
        segs[i] = seg
        for a in facing.pop(i, ()):
            open_[self._find(a)] -= 1
        for d, n in _LINKS[i]:
            k = seg[d]
            if k < 0 or n == self.acc:
                continue
            other = segs[n]
            if other is None:
                facing[n] = [*facing.get(n, ()), 2 * i + k]
                r = self._find(2 * i + k)
                open_[r] = open_.get(r, 0) + 1
            elif (m := other[d ^ 2]) >= 0:
                self._union(2 * i + k, 2 * n + m)
        for d in EXIT_SIDES.get(i, ()):
            if seg[d] >= 0:
                r = self._find(2 * i + seg[d])
                self.exits[r] = self.exits.get(r, 0) + 1

    def _union(self, x: int, y: int) -> None:
        a, b = self._find(x), self._find(y)
        if a != b:
            self.parent[a] = b
            if a in self.exits:
                self.exits[b] = self.exits.get(b, 0) + self.exits.pop(a)
            if a in self.open:
                self.open[b] = self.open.get(b, 0) + self.open.pop(a)


def join_gain(cells: list[Cell | None], acc: int) -> float:
    """Per set of two networks or more facing one empty space: the network points that
    joining them there would add (each set counted once, at its best)."""
    return Joins.of(cells, acc).gain()
