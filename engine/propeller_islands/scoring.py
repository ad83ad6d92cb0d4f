"""End-of-game scoring: fame, resources, landmarks, blueprints."""

from typing import Any

from engine.propeller_islands.components import blueprints, category
from engine.propeller_islands.island import (
    banners,
    depots,
    island_workers,
    neighbours,
    number,
)
from engine.propeller_islands.state import Cell, Player


def number_counts(p: Player) -> dict[int, int]:
    """c_v: counted tiles (numbered buildings without a WILD token) per activation number."""
    counts = dict.fromkeys(range(1, 7), 0)
    for c in p.cells:
        if category(c.tile) in ("guild", "hub") and (n := number(c)) is not None:
            counts[n] += 1
    return counts


def _banner_count(p: Player, guild: str) -> int:
    return sum(banners(c).count(guild) for c in p.cells)


def landmark_vp(p: Player, c: Cell, counts: dict[int, int] | None = None) -> int:
    """VP of the landmark on c at the end of the game (`counts`: number_counts(p), if known)."""
    kind = c.tile[:2]
    counts = counts or number_counts(p)
    if kind == "14":
        return 3 * (island_workers(p) // 6)
    if kind == "15":
        return 5 * (len(depots(p)) // 3)
    if kind == "16":
        return 5 if len(neighbours(p, c.q, c.r)) == 6 else 0
    if kind == "17":
        near = [g for n in neighbours(p, c.q, c.r) for g in banners(n)]
        return 5 * min(near.count("I"), near.count("S"), near.count("C"))
    if kind in ("18", "19", "20"):
        guild = {"18": "S", "19": "C", "20": "I"}[kind]
        return 4 * (_banner_count(p, guild) // 3)
    if kind == "21":
        k = 0
        while sum(min(v, k + 1) for v in counts.values()) >= 4 * (k + 1):
            k += 1
        return 5 * k
    if kind == "22":
        return 5 * min(counts[2], counts[4], counts[6])
    return 5 * min(counts[1], counts[3], counts[5])


def breakdown(p: Player) -> dict[str, Any]:
    """The final score of one player, by source."""
    resources = p.energy // 3 + p.steel // 2 + p.parts + len(p.unused) // 2
    landmarks = {c.tile: landmark_vp(p, c) for c in p.cells if category(c.tile) == "landmark"}
    cards = sum(blueprints()[b].vp for b in p.completed)
    total = p.fame + resources + sum(landmarks.values()) + cards
    return {
        "fame": p.fame,
        "resources": resources,
        "landmarks": landmarks,
        "blueprints": cards,
        "dock_workers": sum(p.dock),
        "total": total,
    }
