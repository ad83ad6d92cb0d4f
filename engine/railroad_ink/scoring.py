"""End-of-game scoring of one board: exit networks, longest routes, centre, errors, expansions.

The packed board (bitboard) gives most lines; the graph of the board's pieces decides where it
cannot be exact (loops, two pieces of one kind in a space, contacts the rules forbid).
"""

from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from engine.railroad_ink import bitboard
from engine.railroad_ink.bitboard import CENTRE_BITS, M1, inner_ends, joins, meetings, nodes, pack
from engine.railroad_ink.board import CELLS, EXIT_AT, EXITS, NEIGH, SIZE, Tile, rules, tile
from engine.railroad_ink.config import Config
from engine.railroad_ink.state import Cell

_EXIT_INDEX = {e.id: k for k, e in enumerate(EXITS)}
_NETWORK_POINTS = rules().network_points
_LONE = _NETWORK_POINTS[1]
W = bitboard.W
_DOUBLED = bitboard.DOUBLE_H
_TWO = bitboard.TWO


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


def network_exits(
    tiles: list[Tile | None], typed: bool = False, linked_only: bool = False, hub: int = -1
) -> list[int]:
    """Exit count of each network touching an exit, largest first (union-find over segments).

    `typed`: only same-type ends join (boards where highway may touch railway, A1);
    `linked_only`: leave out lone exits that no route reaches;
    `hub`: a cell (the Accumulator, A10) that joins every route end facing it into one network.
    """
    hub_node = 2 * CELLS + len(EXITS)
    parent = list(range(hub_node + 1))

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
            if n >= 0 and n == hub:
                parent[find(a)] = find(hub_node)
            elif n < 0:
                e = EXIT_AT.get((i, d))
                if e is not None and (not typed or e.type == t.sides[d]):
                    parent[find(a)] = find(2 * CELLS + _EXIT_INDEX[e.id])
            elif d in (1, 2):
                tn = tiles[n]
                o = None if tn is None else tn.sides[d ^ 2]
                if tn is not None and o is not None and (not typed or o == t.sides[d]):
                    parent[find(a)] = find(2 * n + tn.seg_of[d ^ 2])
    routed = {find(2 * i + k) for i, t in enumerate(tiles) if t for k in range(t.segments)}
    counts: dict[int, int] = {}
    for k in range(len(EXITS)):
        root = find(2 * CELLS + k)
        if linked_only and root not in routed:
            continue
        counts[root] = counts.get(root, 0) + 1
    return sorted(counts.values(), reverse=True)


def longest(tiles: list[Tile | None], kind: str, mode: str = "simple") -> int:
    """Spaces in the longest chain of `kind` ("H"/"R"); each segment passed counts once.

    Mode "trail" (A3) lets the chain cross a crossroads (a one-segment space with four sides
    of `kind`) a second time, entering and leaving by its two other sides, and counts it
    again; no other space may be entered twice, and a chain never starts or ends on a
    crossroads it crosses elsewhere.
    """
    cells = [i for i, t in enumerate(tiles) if t is not None]
    return graph_longest(*piece_graph(tiles.__getitem__, cells, kind, mode == "trail"))


def piece_graph(
    tile_at: Callable[[int], Tile | None], cells: Iterable[int], kind: str, trail: bool
) -> tuple[dict[int, list[int]], set[int]]:
    """The pieces of `kind` in `cells` (piece k of cell i is 2i+k), each with the pieces joined
    to it, and (`trail`) the crossroads among them; `cells` holds every cell joined to one of
    its cells."""
    adj: dict[int, list[int]] = {}
    cross: set[int] = set()
    for i in cells:
        t = tile_at(i)
        if t is None:
            continue
        if trail and t.segments == 1 and t.sides.count(kind) == 4:
            cross.add(2 * i)
        for d in range(4):
            if t.sides[d] != kind:
                continue
            a = 2 * i + t.seg_of[d]
            adj.setdefault(a, [])
            n = NEIGH[i][d]
            if d in (1, 2) and n >= 0:
                tn = tile_at(n)
                if tn is not None and tn.sides[d ^ 2] == kind:
                    b = 2 * n + tn.seg_of[d ^ 2]
                    adj.setdefault(b, []).append(a)
                    adj[a].append(b)
    return adj, cross


def graph_longest(adj: dict[int, list[int]], cross: set[int]) -> int:
    """Longest chain in a graph of pieces (`adj`: each piece's joined pieces); `cross`: the
    crossroads that may be crossed a second time (if joined on all four sides)."""
    best = 0
    seen: set[int] = set()
    for root in adj:
        if root in seen:
            continue
        comp = [root]
        seen.add(root)
        for u in comp:
            for v in adj[u]:
                if v not in seen:
                    seen.add(v)
                    comp.append(v)
        best = max(best, _component_longest(adj, comp, cross))
    return best


def _component_longest(adj: dict[int, list[int]], comp: list[int], cross: set[int]) -> int:
    """Longest chain in one component of graph_longest's graph.

    The search runs on the component's junctions (spaces with other than two joins) and the
    plain stretches between them, each one step; a longest chain starts at a junction or
    with a whole stretch, next to a junction it comes back to.
    """
    junctions = [u for u in comp if len(adj[u]) != 2]
    # A loop, a lone space or a plain chain: all of it.
    if all(len(adj[u]) < 2 for u in junctions):
        return len(comp)
    index = {u: k for k, u in enumerate(junctions)}
    # links[j]: per stretch leaving junction j, its far junction, inner spaces and own bit.
    links: list[list[tuple[int, int, int]]] = [[] for _ in junctions]
    stretches: list[tuple[int, int, int, int]] = []
    seen: set[tuple[int, int]] = set()
    for u in junctions:
        for first in adj[u]:
            if (u, first) in seen:
                continue
            prev, v, inner = u, first, 0
            while len(adj[v]) == 2:
                a, b = adj[v]
                prev, v = v, b if a == prev else a
                inner += 1
            seen.add((u, first))
            seen.add((v, prev))
            e = 1 << len(stretches)
            stretches.append((index[u], index[v], inner, e))
            links[index[u]].append((index[v], inner, e))
            links[index[v]].append((index[u], inner, e))
    # A longest chain is no longer than the component with its second crossings.
    again = sum(1 << index[u] for u in junctions if u in cross and len(adj[u]) == 4)
    cap = len(comp) + again.bit_count()
    best = 1

    def walk(
        u: int, visited: int, again: int, used: int, length: int, end: bool, tail: int
    ) -> None:
        # `end`: the chain may stop at u (not on a second crossing, unless it goes on from
        # `tail` into the stretch it started in).
        nonlocal best
        if (end or u == tail) and length > best:
            best = length
        for v, inner, e in links[u]:
            if best >= cap:
                return
            if used & e:
                continue
            if not visited >> v & 1:
                walk(v, visited | 1 << v, again, used | e, length + inner + 1, True, tail)
                continue
            # Into a stretch towards a space already passed: it may stop just before it.
            if inner and length + inner > best:
                best = length + inner
            if again >> v & 1:
                walk(v, visited, again ^ 1 << v, used | e, length + inner + 1, False, tail)

    for s in range(len(junctions)):
        # A start is an end of the chain: it may not be crossed again.
        walk(s, 1 << s, again & ~(1 << s), 0, 1, True, -1)
    # Or the chain starts with all of a stretch, next to a junction it passes later (a start
    # beside a dead end would be shorter than one on it).
    for a, b, inner, e in stretches:
        if inner:
            if len(links[b]) > 1:
                walk(a, 1 << a, again, e, inner + 1, True, b)
            if len(links[a]) > 1:
                walk(b, 1 << b, again, e, inner + 1, True, a)
    return best


def power_exits(
    cells: list[Cell | None], acc: int, rule: str = "accumulator", powered: Iterable[int] = ()
) -> int:
    """Exits whose inner space is electrified and linked by power to the Accumulator (A15);
    rule "electrified": every exit whose inner space is electrified. `powered`: empty spaces
    electrified by a "?" die (A14 option)."""
    lit = {i for i, c in enumerate(cells) if c is not None and c.electrified}
    lit.update(powered)
    if rule == "electrified":
        return sum(1 for e in EXITS if e.cell in lit)
    comp = {n for n in NEIGH[acc] if n in lit}
    todo = list(comp)
    while todo:
        u = todo.pop()
        for n in NEIGH[u]:
            if n in lit and n not in comp:
                comp.add(n)
                todo.append(n)
    return sum(1 for e in EXITS if e.cell in comp)


def score(
    cells: list[Cell | None],
    charges: int,
    acc: int,
    mode: str = "simple",
    acc_centre: bool = False,
    config: Config | None = None,
    powered: Iterable[int] = (),
    packed: int | None = None,
    exits: list[int] | None = None,
) -> Score:
    """Score a board; `acc` is the Accumulator's cell (-1 without Power Grid).

    With `config`, its rulings apply (its longest_route and accumulator_is_centre win over
    `mode` and `acc_centre`); without, the defaults. `packed`: `pack(cells)`, `exits`: the exits
    each network reaches (see joins.Joins.exit_counts), if the caller has them.
    """
    cfg = config or Config(longest_route=mode, accumulator_is_centre=acc_centre)
    typed = cfg.mixed_contact != "illegal"
    hub = acc if cfg.accumulator_joins_networks else -1
    p = pack(cells) if packed is None else packed
    east, south = joins(p)
    joined = met = east.bit_count() + south.bit_count()
    if typed:
        beam, down = (east | east >> W) & M1, (south | south >> W) & M1
    else:
        beam, down = meetings(p)
        met = beam.bit_count() + down.bit_count()
    # Untyped, a highway end facing a railway end joins their networks: the graph decides.
    if exits is not None:
        found: tuple[list[int], int] | None = (
            sorted([n for n in exits if n > 1], reverse=True),
            exits.count(1),
        )
    else:
        found = bitboard.networks(p, beam, down, typed, hub) if met == joined else None
    if found is None:
        sizes = network_exits(tiles_of(cells), typed, linked_only=True, hub=hub)
        networks = [n for n in sizes if n > 1]
        singles = len(sizes) - len(networks)
    else:
        networks, singles = found
    lone = _LONE if cfg.one_exit_network_points is None else cfg.one_exit_network_points
    points = sum([_NETWORK_POINTS[n] for n in networks]) + lone * singles
    x = nodes(p)
    chains, rest = bitboard.longest(p, x, east, south)
    if rest:
        _longest_rest(cells, p, east, south, rest, cfg.longest_route, chains)
    highway, railway = chains
    centre = ((x | x >> W) & CENTRE_BITS).bit_count()
    if cfg.centre_counts == "segment":
        centre += (p >> _TWO & CENTRE_BITS).bit_count()
    if acc >= 0 and cfg.accumulator_is_centre:
        centre += 1
    skip = acc if cfg.accumulator_excuses_ends else -1
    if 0 <= skip < CELLS and cells[skip] is not None:
        errors = bitboard.errors(p, acc, True, typed)
    else:
        errors = (p & inner_ends(skip)).bit_count() - 2 * met
    lamps = sum(1 for c in cells if c is not None and c.lamp_on)
    if acc < 0:
        total = points + highway + railway + centre - errors + lamps
        return Score(networks, points, highway, railway, centre, errors, lamps, total=total)
    linked = power_exits(cells, acc, cfg.power_exit_rule, powered)
    power = charges * linked
    total = points + highway + railway + centre - errors + lamps + power
    return Score(
        networks, points, highway, railway, centre, errors, lamps, charges, linked, power, total
    )


def _longest_rest(
    cells: list[Cell | None],
    p: int,
    east: int,
    south: int,
    rest: int,
    mode: str,
    chains: list[int],
) -> None:
    """Completes bitboard.longest's `chains` by a search of the components it left: on the
    pieces' graph where a cell holds two pieces of the kind, else on the packed board's."""
    trail = mode == "trail"

    def tile_at(i: int) -> Tile | None:
        c = cells[i]
        return None if c is None else tile(c.face, c.orientation)

    for k, kind in enumerate("HR"):
        left = rest >> k * W & M1
        if not left:
            continue
        if p >> _DOUBLED + k * W & M1:
            within = [b // 8 * SIZE + b % 8 for b in range(left.bit_length()) if left >> b & 1]
            adj, cross = piece_graph(tile_at, within, kind, trail)
        else:
            adj, cross = bitboard.graph(p, east, south, rest, k)
        chains[k] = max(chains[k], graph_longest(adj, cross if trail else set()))
