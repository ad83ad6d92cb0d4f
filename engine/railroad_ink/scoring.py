"""End-of-game scoring of one board: exit networks, longest routes, centre, errors, expansions."""

from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from engine.railroad_ink.board import CELLS, CENTRE, EXIT_AT, EXITS, NEIGH, Tile, rules, tile
from engine.railroad_ink.config import Config
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


def errors(
    tiles: list[Tile | None], acc: int, typed: bool = False, acc_excused: bool = True
) -> int:
    """Open route ends facing an empty space or a blank side (edge and Accumulator excused).

    `typed`: an end facing an end of the other type is open too (A1); `acc_excused` (A10).
    """
    n_err = 0
    for i, t in enumerate(tiles):
        if t is None:
            continue
        for d in range(4):
            if t.sides[d] is None:
                continue
            n = NEIGH[i][d]
            if n < 0 or (n == acc and acc_excused):
                continue
            tn = tiles[n]
            o = None if tn is None else tn.sides[d ^ 2]
            if o is None or (typed and o != t.sides[d]):
                n_err += 1
    return n_err


def longest(tiles: list[Tile | None], kind: str, mode: str = "simple") -> int:
    """Spaces in the longest chain of `kind` ("H"/"R"); each segment passed counts once.

    Mode "trail" (A3) lets the chain cross a crossroads (a one-segment space with four sides
    of `kind`) a second time, entering and leaving by its two other sides, and counts it
    again; no other space may be entered twice, and a chain never starts or ends on a
    crossroads it crosses elsewhere.
    """
    adj: dict[int, list[tuple[int, int]]] = {}
    cross = 0
    n_edges = 0
    for i, t in enumerate(tiles):
        if t is None:
            continue
        if t.segments == 1 and t.sides.count(kind) == 4:
            cross |= 1 << 2 * i
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
        # Only a crossroads joined on all four sides can be crossed twice.
        again = 0
        if mode == "trail":
            again = sum(1 << u for u in comp if cross >> u & 1 and len(adj[u]) == 4)
        best = max(best, _component_longest(adj, comp, again))
    return best


def _component_longest(adj: dict[int, list[tuple[int, int]]], comp: list[int], again: int) -> int:
    """Longest chain in one component; `again`: the nodes it may cross a second time."""
    # A path can never be longer than the component plus its second crossings: stop there.
    cap = len(comp) + again.bit_count()
    best = 1
    # A plain chain (no junction) is longest from one of its ends, if it has ends.
    plain = all(len(adj[u]) <= 2 for u in comp)
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

    def trail(u: int, visited: int, again: int, used: int, length: int, end: bool) -> None:
        # `end`: the chain may stop at u (False on u's second crossing, which must go on).
        nonlocal best
        if end and length > best:
            best = length
        if best >= cap:
            return
        for v, e in adj[u]:
            if used >> e & 1:
                continue
            if not visited >> v & 1:
                trail(v, visited | 1 << v, again, used | 1 << e, length + 1, True)
            elif again >> v & 1:
                trail(v, visited, again ^ 1 << v, used | 1 << e, length + 1, False)

    for s in starts:
        if again:
            # The start is an end of the chain: it may not be crossed again.
            trail(s, 1 << s, again & ~(1 << s), 0, 1, True)
        else:
            simple(s, 1 << s, 1)
        if best >= cap:
            break
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
) -> Score:
    """Score a board; `acc` is the Accumulator's cell (-1 without Power Grid).

    With `config`, its rulings apply (its longest_route and accumulator_is_centre win over
    `mode` and `acc_centre`); without, the defaults.
    """
    cfg = config or Config(longest_route=mode, accumulator_is_centre=acc_centre)
    typed = cfg.mixed_contact != "illegal"
    tiles = tiles_of(cells)
    s = Score()
    sizes = network_exits(
        tiles, typed, linked_only=True, hub=acc if cfg.accumulator_joins_networks else -1
    )
    s.networks = [n for n in sizes if n > 1]
    table = rules().network_points
    lone = table[1] if cfg.one_exit_network_points is None else cfg.one_exit_network_points
    s.network_points = sum(table[n] for n in s.networks) + lone * sizes.count(1)
    s.longest_highway = longest(tiles, "H", cfg.longest_route)
    s.longest_railway = longest(tiles, "R", cfg.longest_route)
    per = (lambda t: t.segments) if cfg.centre_counts == "segment" else (lambda t: 1)
    s.centre = sum(per(t) for i in CENTRE if (t := tiles[i]) is not None)
    s.centre += acc >= 0 and cfg.accumulator_is_centre
    s.errors = errors(tiles, acc, typed, cfg.accumulator_excuses_ends)
    s.lamps = sum(1 for c in cells if c is not None and c.lamp_on)
    if acc >= 0:
        s.charges = charges
        s.power_exits = power_exits(cells, acc, cfg.power_exit_rule, powered)
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
