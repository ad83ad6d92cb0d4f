"""Island geometry and tile facts: neighbours, banners, hubs, links, housing, numbers."""

from engine.propeller_islands.components import capitol_ids, category, rules, tiles
from engine.propeller_islands.state import Cell, Player

NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
HOUSING = frozenset({"capitol", "guild", "hub", "landmark"})
ACTIVATED = frozenset({"capitol", "guild", "hub"})


def cell_at(p: Player, q: int, r: int) -> Cell | None:
    for c in p.cells:
        if c.q == q and c.r == r:
            return c
    return None


def neighbours(p: Player, q: int, r: int) -> list[Cell]:
    """The tiles next to hex (q, r)."""
    around = {(q + dq, r + dr) for dq, dr in NEIGHBOURS}
    return [c for c in p.cells if (c.q, c.r) in around]


def frontier(p: Player) -> list[tuple[int, int]]:
    """Empty hexes next to the island, sorted."""
    taken = {(c.q, c.r) for c in p.cells}
    return sorted({(q + dq, r + dr) for q, r in taken for dq, dr in NEIGHBOURS} - taken)


def banners(c: Cell) -> list[str]:
    """The printed banner plus a banner token's guild."""
    out = []
    if not c.tile.startswith("01") and (b := tiles()[c.tile].banner):
        out.append(b)
    if (token := c.tokens.get("B")) is not None:
        guild = rules().tokens[token].guild
        if guild:
            out.append(guild)
    return out


def hub(c: Cell) -> str | None:
    """The hub icon's guild; "*" (side-B Capitol) matches every guild."""
    if c.tile.startswith("01"):
        return capitol_ids()[c.tile].hub
    return tiles()[c.tile].hub


def _pairs(b: list[str], h: str | None) -> int:
    if h is None:
        return 0
    return len(b) if h == "*" else sum(1 for g in b if g == h)


def place_links(p: Player, c: Cell) -> int:
    """Guild links a tile just placed at c makes with its neighbours."""
    mine_b, mine_h = banners(c), hub(c)
    return sum(_pairs(mine_b, hub(n)) + _pairs(banners(n), mine_h) for n in neighbours(p, c.q, c.r))


def banner_links(p: Player, c: Cell, guild: str) -> int:
    """Links a new banner of `guild` on c makes: its neighbours' matching hubs."""
    return sum(_pairs([guild], hub(n)) for n in neighbours(p, c.q, c.r))


def houses(c: Cell) -> bool:
    return category(c.tile) in HOUSING


def vacant(p: Player) -> list[Cell]:
    """Tiles with a worker housing space and no worker."""
    return [c for c in p.cells if c.worker is None and houses(c)]


def can_deploy(p: Player) -> bool:
    return any(p.dock) and bool(vacant(p))


def any_value(c: Cell) -> bool:
    """Activates on any die value: the Capitol, a printed "?" or a WILD token."""
    return c.tile.startswith("01") or "W" in c.tokens or tiles()[c.tile].wild


def number(c: Cell) -> int | None:
    """The number that counts for landmarks (None for "?", Capitol, depots, landmarks)."""
    if c.tile.startswith("01") or "W" in c.tokens:
        return None
    return tiles()[c.tile].number


def activatable(c: Cell) -> bool:
    """A building or the Capitol with a ready worker."""
    return c.worker == "ready" and category(c.tile) in ACTIVATED


def depots(p: Player) -> list[Cell]:
    return [c for c in p.cells if category(c.tile) == "depot"]


def island_workers(p: Player) -> int:
    return sum(1 for c in p.cells if c.worker is not None)


def fame_level(fame: int) -> int:
    """0, 1 after the first trumpet, 2 after the second."""
    first, second = rules().trumpets
    return 2 if fame >= second else 1 if fame >= first else 0


def level(p: Player, character: str) -> int:
    """p's ability level if p plays `character`, else 0."""
    return fame_level(p.fame) if p.character == character else 0
