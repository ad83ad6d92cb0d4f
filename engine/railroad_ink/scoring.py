"""End-of-game scoring of one board: exit networks, longest routes, centre, errors, expansions."""

from dataclasses import asdict, dataclass, field
from typing import Any

from engine.railroad_ink.board import CELLS, CENTRE, EXIT_AT, EXITS, NEIGH, Tile, rules, tile
from engine.railroad_ink.state import Cell

_EXIT_INDEX = {e.id: k for k, e in enumerate(EXITS)}


@dataclass(slots=True)
class Score:
    """Every scoring line of one board; `total` is their sum (errors count negative)."""

    networks: list[int] = field(default_factory=list)
    """Exits in each network that joins two or more exits, largest first."""
    network_points: int = 0
    longest_highway: int = 0
    longest_railway: int = 0
    centre: int = 0
    errors: int = 0
    lamps: int = 0
    charges: int = 0
    power_exits: int = 0
    power: int = 0
    total: int = 0

    def lines(self) -> dict[str, Any]:
        return asdict(self)


def tiles_of(cells: list[Cell | None]) -> list[Tile | None]:
    return [None if c is None else tile(c.face, c.orientation) for c in cells]


def network_exits(tiles: list[Tile | None]) -> list[int]:
    """Exit count of each network touching an exit, largest first (union-find over segments)."""
    parent = list(range(2 * CELLS + len(EXITS)))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for i, t in enumerate(tiles):
        if t is None:
            continue
        for d in range(4):
            if t.sides[d] is None:
                continue
            a = 2 * i + t.seg_of[d]
            n = NEIGH[i][d]
            if n < 0:
                e = EXIT_AT.get((i, d))
                if e is not None:
                    parent[find(a)] = find(2 * CELLS + _EXIT_INDEX[e.id])
            elif d in (1, 2):
                tn = tiles[n]
                if tn is not None and tn.sides[d ^ 2] is not None:
                    parent[find(a)] = find(2 * n + tn.seg_of[d ^ 2])
    counts: dict[int, int] = {}
    for k in range(len(EXITS)):
        root = find(2 * CELLS + k)
        counts[root] = counts.get(root, 0) + 1
    return sorted(counts.values(), reverse=True)


def errors(tiles: list[Tile | None], acc: int) -> int:
    """Open route ends facing an empty space or a blank side (edge and Accumulator excused)."""
    n_err = 0
    for i, t in enumerate(tiles):
        if t is None:
            continue
        for d in range(4):
            if t.sides[d] is None:
                continue
            n = NEIGH[i][d]
            if n < 0 or n == acc:
                continue
            tn = tiles[n]
            if tn is None or tn.sides[d ^ 2] is None:
                n_err += 1
    return n_err


def longest(tiles: list[Tile | None], kind: str, mode: str = "simple") -> int:
    """Spaces in the longest chain of `kind` ("H"/"R"); each segment passed counts once."""
    adj: dict[int, list[tuple[int, int]]] = {}
    n_edges = 0
    for i, t in enumerate(tiles):
        if t is None:
            continue
        for d in range(4):
            if t.sides[d] != kind:
                continue
            a = 2 * i + t.seg_of[d]
            adj.setdefault(a, [])
            n = NEIGH[i][d]
            if d in (1, 2) and n >= 0:
                tn = tiles[n]
                if tn is not None and tn.sides[d ^ 2] == kind:
                    b = 2 * n + tn.seg_of[d ^ 2]
                    adj.setdefault(b, [])
                    adj[a].append((b, n_edges))
                    adj[b].append((a, n_edges))
                    n_edges += 1
    if not adj:
        return 0
    best = 0
    seen: set[int] = set()
    for root in adj:
        if root in seen:
            continue
        comp = [root]
        seen.add(root)
        for u in comp:
            for v, _ in adj[u]:
                if v not in seen:
                    seen.add(v)
                    comp.append(v)
        best = max(best, _component_longest(adj, comp, mode))
    return best


def _component_longest(adj: dict[int, list[tuple[int, int]]], comp: list[int], mode: str) -> int:
    size = len(comp)
    n_edges = sum(len(adj[u]) for u in comp) // 2
    # A path can never be longer than the component (or its joins + 1): stop searching there.
    cap = size if mode == "simple" else n_edges + 1
    best = 1
    # A plain chain (no junction) is longest from one of its ends, if it has ends.
    plain = mode == "simple" and all(len(adj[u]) <= 2 for u in comp)
    starts = [u for u in comp if len(adj[u]) == 1] if plain else []
    starts = starts or comp

    def simple(u: int, visited: int, length: int) -> None:
        nonlocal best
        if length > best:
            best = length
        if best >= cap:
            return
        for v, _ in adj[u]:
            if not visited >> v & 1:
                simple(v, visited | 1 << v, length + 1)

    def trail(u: int, used: int, length: int) -> None:
        nonlocal best
        if length > best:
            best = length
        if best >= cap:
            return
        for v, e in adj[u]:
            if not used >> e & 1:
                trail(v, used | 1 << e, length + 1)

    for s in starts:
        if mode == "simple":
            simple(s, 1 << s, 1)
        else:
            trail(s, 0, 1)
        if best >= cap:
            break
    return best


def power_exits(cells: list[Cell | None], acc: int) -> int:
    """Exits whose inner space is electrified and linked by power to the Accumulator."""
    comp: set[int] = set()
    todo = [n for n in NEIGH[acc] if n >= 0 and (c := cells[n]) is not None and c.electrified]
    comp.update(todo)
    while todo:
        u = todo.pop()
        for n in NEIGH[u]:
            if n >= 0 and n not in comp and (c := cells[n]) is not None and c.electrified:
                comp.add(n)
                todo.append(n)
    return sum(1 for e in EXITS if e.cell in comp)


def score(
    cells: list[Cell | None], charges: int, acc: int, mode: str = "simple", acc_centre: bool = False
) -> Score:
    """Score a board; `acc` is the Accumulator's cell (-1 without Power Grid)."""
    tiles = tiles_of(cells)
    s = Score()
    s.networks = [n for n in network_exits(tiles) if n > 1]
    table = rules().network_points
    s.network_points = sum(table[n] for n in s.networks)
    s.longest_highway = longest(tiles, "H", mode)
    s.longest_railway = longest(tiles, "R", mode)
    s.centre = sum(1 for i in CENTRE if cells[i] is not None) + (acc >= 0 and acc_centre)
    s.errors = errors(tiles, acc)
    s.lamps = sum(1 for c in cells if c is not None and c.lamp_on)
    if acc >= 0:
        s.charges = charges
        s.power_exits = power_exits(cells, acc)
        s.power = charges * s.power_exits
    s.total = (
        s.network_points
        + s.longest_highway
        + s.longest_railway
        + s.centre
        - s.errors
        + s.lamps
        + s.power
    )
    return s
