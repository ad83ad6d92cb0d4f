"""A board packed into one integer, a bit per route end, and scoring lines as bit operations.

The packed integer is fields of W bits (HE, RE, ... name their first bits); in a field, or in
a board of cells (one field's width), cell (r, c) is bit 8r+c: the eighth column stays empty,
so a shift by one never wraps into the next row. Route ends lie highway then railway per side,
so that one shift lines up the ends facing each other for both kinds at once. A node board is
two boards, highway then railway: each cell's piece of that kind, exact while no cell holds
two pieces of one kind (DOUBLE_H and DOUBLE_R mark those).
"""

from functools import cache

from engine.railroad_ink.board import CELLS, CENTRE, EXITS, NEIGH, SIZE, Tile, faces, tile
from engine.railroad_ink.state import Cell

W = 64
"""Bits per field."""
M1 = (1 << W) - 1
M2 = (1 << 2 * W) - 1
HE, RE, HW, RW, HS, RS, HN, RN, TWO, CROSSING, TURN, DOUBLE_H, DOUBLE_R = range(0, 13 * W, W)
"""Fields, by their first bit: route ends by side and kind; cells with two pieces: those
pieces joining N-S and E-W (CROSSING: an overpass), N-E and S-W (TURN), N-W and E-S (both),
another way (neither); both pieces of highway, of railway. A tile has ends (see unit)."""
END_FIELD = {"H": (HN, HE, HS, HW), "R": (RN, RE, RS, RW)}
"""The field of a route end, by kind, then side N E S W."""
_EW = 2 * W + 1
_NS = 2 * W + 8
"""p >> _EW lines up W ends under the E ends they face, p << _EW E ends under W ends;
p >> _NS N ends under S ends, p << _NS S ends under N ends."""
_F = [M2 << f for f in (HE, HW, HS, HN)]
"""The packed E ends, W ends, S ends, N ends."""


def bit(i: int) -> int:
    """The bit of cell `i` within a field."""
    return i // SIZE * 8 + i % SIZE


def unit(t: Tile) -> int:
    """The packed tile on cell A1 (bit 0 of each field)."""
    v = 0
    for d, kind in enumerate(t.sides):
        if kind is not None:
            v |= 1 << END_FIELD[kind][d]
    if t.segments == 2:
        v |= 1 << TWO
        n, e, s, _ = t.seg_of
        if t.seg_of.count(0) == t.seg_of.count(1) == 2:
            if n != e:
                v |= 1 << CROSSING
            if n != s:
                v |= 1 << TURN
        pieces = [{t.sides[d] for d in range(4) if t.seg_of[d] == k} for k in range(2)]
        for kind in pieces[0] & pieces[1]:
            v |= 1 << (DOUBLE_R if kind == "R" else DOUBLE_H)
    # The cells with a tile are those with ends.
    if not v & (1 << TWO) - 1:
        raise ValueError(f"{t.face} has no route end")
    return v


def _table() -> dict[str, tuple[tuple[int, ...], ...]]:
    # Tiles that pack alike (a face's turns that look the same) share their row of values.
    rows: dict[int, tuple[int, ...]] = {}
    return {
        face: tuple(
            rows.setdefault(u, tuple(u << bit(i) for i in range(CELLS)))
            for u in (unit(tile(face, o)) for o in range(8))
        )
        for face in faces()
    }


PACKED = _table()
"""PACKED[face][orientation][cell]: that tile's packed value on that cell."""
CENTRE_BITS = sum(1 << bit(i) for i in CENTRE)
COLUMN_A = sum(1 << bit(i) for i in range(0, CELLS, SIZE))
COLUMN_G = COLUMN_A << SIZE - 1
TOP_ROW = sum(1 << bit(i) for i in range(SIZE))
BOTTOM_ROW = TOP_ROW << 8 * (SIZE - 1)
BOARD = sum(1 << bit(i) for i in range(CELLS))
EXIT_CELLS = sum(1 << bit(i) for i in {e.cell for e in EXITS})
SIDE_EXITS = sum(1 << bit(e.cell) for e in EXITS if e.side in (1, 3))
"""The cells of the exits on the east and west edges."""


def pack(cells: list[Cell | None]) -> int:
    # The cells' bits never overlap, so their sum is their union.
    return sum([PACKED[c.face][c.orientation][i] for i, c in enumerate(cells) if c is not None])


def nodes(p: int) -> int:
    """The node board of packed ends: the cells with ends of each kind."""
    return (p | p >> HW | p >> HS | p >> HN) & M2


def cells_of(p: int) -> int:
    """The cells with any of the packed ends."""
    p |= p >> HS
    p |= p >> HW
    return (p | p >> W) & M1


def faced(p: int) -> tuple[list[int], list[int]]:
    """Per kind (highway, railway), per side N E S W of a cell: the cells whose neighbour on
    that side has an end of that kind facing them (empty or not)."""
    return (
        [(p >> HS & M1) << 8, (p >> HW & M1) >> 1, (p >> HN & M1) >> 8, (p >> HE & M1) << 1],
        [(p >> RS & M1) << 8, (p >> RW & M1) >> 1, (p >> RN & M1) >> 8, (p >> RE & M1) << 1],
    )


def joins(p: int) -> tuple[int, int]:
    """Node boards of the pieces joined to their east neighbour's, and to their south one's."""
    return p & p >> _EW & M2, p >> HS & p >> HN + 8 & M2


def _ends(cells_by_side: list[list[int]], kinds: str) -> int:
    """Packed ends of `kinds` on side d of the cells cells_by_side[d]."""
    return sum(
        1 << END_FIELD[k][d] + bit(i)
        for d, cells in enumerate(cells_by_side)
        for i in cells
        for k in kinds
    )


@cache
def may_be_open(acc: int, excused: bool, typed: bool) -> int:
    """Packed ends that are errors unless met: all but those facing the board edge or the
    excused Accumulator; untyped, only the highway fields (see errors)."""
    facing = [
        [i for i in range(CELLS) if NEIGH[i][d] >= 0 and not (NEIGH[i][d] == acc and excused)]
        for d in range(4)
    ]
    return _ends(facing, "HR" if typed else "H")


def errors(p: int, acc: int, excused: bool, typed: bool) -> int:
    """Route ends facing an empty space or a blank side (typed: or an end of the other kind)."""
    if not typed:
        # Each highway field then holds the ends of both kinds, railway fields are ignored.
        p |= p >> W
    met = p >> _EW & _F[0] | p << _EW & _F[1] | p >> _NS & _F[2] | p << _NS & _F[3]
    return (p & ~met & may_be_open(acc, excused, typed)).bit_count()


@cache
def inner_ends(skip: int) -> int:
    """Packed ends facing another cell, other than cell `skip`: with `meetings`, the open
    ends while `skip` holds no tile (each meeting closes two of them)."""
    return _ends(
        [[i for i in range(CELLS) if NEIGH[i][d] not in (-1, skip)] for d in range(4)], "HR"
    )


def meetings(p: int) -> tuple[int, int]:
    """Boards of the cells whose east end, whose south end, faces an end of whichever kind
    (more than the joins if a highway end faces a railway end)."""
    q = p | p >> W
    return q & q >> _EW & M1, q >> HS & q >> HN + 8 & M1


def _exit_ends(typed: bool) -> int:
    """Packed ends that reach an exit: of its type, or untyped of either."""
    out = 0
    for e in EXITS:
        for k in e.type if typed else "HR":
            out |= 1 << END_FIELD[k][e.side] + bit(e.cell)
    return out


EXIT_ENDS = (_exit_ends(False), _exit_ends(True))


@cache
def hub_ends(hub: int) -> int:
    """Packed ends facing cell `hub`."""
    return _ends([[i for i in range(CELLS) if NEIGH[i][d] == hub] for d in range(4)], "HR")


PLANE = W
"""Bits per board of cells when many are flooded at once, one beside the other."""
_STARTS: dict[int, tuple[int, int, int, int]] = {}
"""Memo of _start, a pure function of a set of at most twelve cells by the exits."""


def _start(seeds: int) -> tuple[int, int, int, int]:
    """For seeds (a board of cells): each seed in its own copy of the board, side by side; the
    copies' count; the number whose product with a board is that many copies of it; and
    every seed in every copy."""
    got = _STARTS.get(seeds)
    if got is None:
        bits = [b for b in range(PLANE) if seeds >> b & 1]
        spread = sum(1 << j * PLANE for j in range(len(bits)))
        start = sum(1 << j * PLANE + b for j, b in enumerate(bits))
        got = start, len(bits), spread, seeds * spread
        # Boards of the game meet a few thousand sets; others could meet many more.
        if len(_STARTS) < 8192:
            _STARTS[seeds] = got
    return got


@cache
def around(hub: int) -> int:
    """The cells next to cell `hub`."""
    return sum(1 << bit(n) for n in NEIGH[hub] if n >= 0)


def networks(p: int, beam: int, down: int, typed: bool, hub: int) -> tuple[list[int], int] | None:
    """Exits in each network joining two or more, largest first, and the networks reaching one
    exit; `hub` joins every end facing it; `beam`, `down`: the boards of the cells joined to
    their east neighbour, to their south one (by ends of one kind, or untyped of any).

    A network is a flood over cells, each cell one piece. A crossing is its N-S piece, its
    E-W piece a bridge between its west and east neighbours; or, joined to a crossing beside
    it, the other way round. Both pieces of a double curve are bridges, between the cells
    they join. None (not exact) with cells of two pieces joined to each other (but crossings
    side by side), with two exits leading through bridges to one cell, with another kind of
    cell of two pieces, or with a tile or a cell of two pieces by the hub.
    """
    two = p >> TWO & M1
    if hub >= 0 and (cells_of(p) >> bit(hub) & 1 or two & around(hub)):
        return None
    seeds = p & EXIT_ENDS[typed]
    seeds |= seeds >> HS
    seeds |= seeds >> HW
    seeds = (seeds | seeds >> W) & M1
    singles = 0
    # Bridges: (cells joined to the cell `shift` bits on through a piece, shift).
    links = []
    if two:
        crossing = p >> CROSSING & M1
        curl = p >> TURN & M1
        if two ^ (crossing | curl):
            return None
        nw = crossing & curl
        ne = curl ^ nw
        crossing ^= nw
        if curl and (two & curl >> 1 & beam or curl & two >> 1 & beam):
            return None
        if curl and (two & curl >> 8 & down or curl & two >> 8 & down):
            return None
        paired = crossing & crossing >> 1 & beam
        flat = paired | paired << 1
        upright = crossing ^ flat
        if flat & flat >> 8 & down:
            return None
        # An exit reaching a bridge piece counts in the network of the cell at the piece's
        # other end, if joined to it.
        hop = seeds & two and seeds & (upright & SIDE_EXITS | flat & ~SIDE_EXITS | curl)
        if hop:
            moves = (
                (upright & COLUMN_A | nw & BOTTOM_ROW | ne & TOP_ROW, beam, 1),
                (upright & COLUMN_G | nw & TOP_ROW | ne & BOTTOM_ROW, beam << 1, -1),
                (flat & TOP_ROW | nw & COLUMN_G | ne & COLUMN_A, down, 8),
                (flat & BOTTOM_ROW | nw & COLUMN_A | ne & COLUMN_G, down << 8, -8),
            )
            landed = 0
            for cells, joined, shift in moves:
                found = hop & cells & joined
                found = found << shift if shift > 0 else found >> -shift
                if landed & found:
                    return None
                landed |= found
            singles = hop.bit_count() - landed.bit_count()
            seeds ^= hop | landed
        if bridges := beam & beam >> 1 & upright >> 1:
            links.append((bridges, 2))
        beam &= ~(upright | upright >> 1)
        if flat:
            links.append((down & down >> 8 & flat >> 8, 16))
            down &= ~(flat | flat >> 8)
        if curl:
            # A double curve's N-W piece joins its north and west neighbours, its E-S piece
            # its east and south ones; or, turned, N-E and S-W.
            north, west = down << 8, beam << 1
            links.append(((nw & north & west) >> 8 | (nw & beam & down) << 1, 7))
            links.append(((ne & north & beam) >> 8 | (ne & west & down) >> 1, 9))
            beam &= ~(curl | curl >> 1)
            down &= ~(curl | curl >> 8)
    linked = beam | beam << 1 | down | down << 8
    at_hub = 0
    if hub >= 0:
        at_hub = cells_of(p & hub_ends(hub))
        linked |= at_hub
    for m, shift in links:
        linked |= m | m << shift
    todo = seeds & linked
    singles += (seeds ^ todo).bit_count()
    if not todo:
        return [], singles
    # Each other exit floods its own copy of the board: all networks grow in the same steps.
    net, k, spread, every = _start(todo)
    beam *= spread
    down *= spread
    links = [(m * spread, shift) for m, shift in links]
    hub_bits = [b for b in range(PLANE) if at_hub >> b & 1] if at_hub else []
    while True:
        grown = net | (net & beam) << 1 | net >> 1 & beam | (net & down) << 8 | net >> 8 & down
        for m, shift in links:
            grown |= (grown & m) << shift | grown >> shift & m
        if hub_bits:
            reached = 0
            for b in hub_bits:
                reached |= grown >> b
            grown |= (reached & spread) * at_hub
        if grown == net:
            break
        net = grown
    # A network of c exits is flooded c times and reaches c exits each time: the copies reach
    # others c(c-1) times in all, which tells the usual cases apart.
    others = (net & every).bit_count() - k
    if others <= 4:
        return [2] * (others // 2), singles + k - others
    counts = sorted([(net >> j & todo).bit_count() for j in range(0, k * PLANE, PLANE)])
    multi = []
    j = k - 1
    while j >= 0 and counts[j] > 1:
        multi.append(counts[j])
        j -= counts[j]
    return multi, singles + j + 1


def _peel(x: int, east: int, south: int) -> tuple[list[int], int]:
    """The longest chain of each kind in node board `x` while it has no loop, and the nodes
    left on loops or between them: leaves are peeled round by round; the longest chain of a
    tree has 2r-1 spaces if its last round takes one space, 2r if it takes two."""
    chains = [0, 0]
    highway, railway = x & M1, x >> W
    r = 1
    while x:
        e = east & x & x >> 1
        s = south & x & x >> 8
        w = e << 1
        n = s << 8
        leaves = x & ~(e & w | (e | w) & (s | n) | s & n)
        if not leaves:
            break
        x ^= leaves
        if highway and not x & M1:
            highway = 0
            chains[0] = 2 * r - (not leaves & (e & leaves >> 1 | s & leaves >> 8) & M1)
        if railway and not x >> W:
            railway = 0
            chains[1] = 2 * r - (not (leaves & (e & leaves >> 1 | s & leaves >> 8)) >> W)
        r += 1
    return chains, x


def longest(p: int, x: int, east: int, south: int) -> tuple[list[int], int]:
    """The longest highway and railway outside the components with a loop or with a cell of
    two pieces of that kind, and the node board of those components (the pieces' graph
    decides there; graph gives it where every cell is one piece); `x`: nodes(p)."""
    chains, left = _peel(x, east, south)
    doubled = p >> DOUBLE_H & M2
    if not left | doubled:
        return chains, 0
    rest = left | doubled
    while True:
        grown = (
            rest | (rest & east) << 1 | rest >> 1 & east | (rest & south) << 8 | rest >> 8 & south
        )
        if grown == rest:
            break
        rest = grown
    chains, _ = _peel(x & ~rest, east, south)
    return chains, rest


def graph(
    p: int, east: int, south: int, rest: int, k: int
) -> tuple[dict[int, list[int]], set[int]]:
    """The pieces of kind k (0 highway, 1 railway) in node board `rest`, each with its joined
    pieces, and the crossroads among them (see scoring.graph_longest); exact where each cell
    holds one piece of the kind."""
    east = east >> k * W & M1
    south = south >> k * W & M1
    west = east << 1
    north = south << 8
    adj: dict[int, list[int]] = {}
    left = rest >> k * W & M1
    while left:
        low = left & -left
        left ^= low
        i = low.bit_length() - 1
        # North, west, east, south: a filled board's chain then snakes through every row,
        # so the search reaches its cap at once instead of trying the grid's paths.
        adj[i] = [
            j
            for j, joined in ((i - 8, north), (i - 1, west), (i + 1, east), (i + 8, south))
            if joined & low
        ]
    four = p >> HE + k * W & p >> HW + k * W & p >> HS + k * W & p >> HN + k * W
    cross = four & ~(p >> TWO) & rest >> k * W & M1
    return adj, {i for i in adj if cross >> i & 1}
