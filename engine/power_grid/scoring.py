"""Plant capacity, fuel storage and powering: what a seat's plants can hold and run."""

from functools import cache, lru_cache
from itertools import combinations

from engine.power_grid.rules import RESOURCES, plants

SINGLE = ("coal", "oil", "garbage", "uranium")


def capacities(owned: list[int]) -> tuple[dict[str, int], int]:
    """Storage per single resource, and the shared coal/oil storage of hybrids."""
    *caps, hybrid = storage(tuple(owned))
    return dict(zip(RESOURCES, caps, strict=True)), hybrid


# Cached: buying, discarding and their legal lists ask about the same few plant sets again and
# again.
@lru_cache(maxsize=4096)
def storage(owned: tuple[int, ...]) -> tuple[int, int, int, int, int]:
    """`capacities` as coal, oil, garbage, uranium, then hybrids' coal or oil."""
    coal = oil = garbage = uranium = hybrid = 0
    for n in owned:
        c, o, g, u, h = _store(n)
        coal, oil, garbage, uranium = coal + c, oil + o, garbage + g, uranium + u
        hybrid += h
    return coal, oil, garbage, uranium, hybrid


@cache
def _store(plant: int) -> tuple[int, int, int, int, int]:
    """What the plant stores: coal, oil, garbage, uranium, then a hybrid's coal or oil."""
    p = plants()[plant]
    coal, oil, garbage, uranium, hybrid = (
        p.storage if p.type == kind else 0 for kind in (*RESOURCES, "hybrid")
    )
    return coal, oil, garbage, uranium, hybrid


def excess(owned: list[int], fuel: dict[str, int]) -> int:
    """The fewest tokens that must go for the pool to fit on these plants (0 if it fits)."""
    coal_cap, oil_cap, garbage_cap, uranium_cap, hybrid = storage(tuple(owned))
    get = fuel.get
    # Conditionals, not max(): this runs for every buy and every check of one.
    coal = get("coal", 0) - coal_cap
    oil = get("oil", 0) - oil_cap
    mixed = (coal if coal > 0 else 0) + (oil if oil > 0 else 0) - hybrid
    garbage = get("garbage", 0) - garbage_cap
    uranium = get("uranium", 0) - uranium_cap
    return (
        (garbage if garbage > 0 else 0)
        + (uranium if uranium > 0 else 0)
        + (mixed if mixed > 0 else 0)
    )


def burns(owned: list[int], resource: str) -> bool:
    """Whether any of these plants burns `resource` (a hybrid burns coal and oil)."""
    kinds = {resource, "hybrid"} if resource in ("coal", "oil") else {resource}
    return any(plants()[n].type in kinds for n in owned)


def room(owned: list[int], fuel: dict[str, int], resource: str) -> int:
    """How many more tokens of `resource` fit on these plants beside the pool they hold."""
    more = 0
    while not excess(owned, {**fuel, resource: fuel.get(resource, 0) + more + 1}):
        more += 1
    return more


def fuel_need(run: list[int]) -> tuple[dict[str, int], int]:
    """Tokens burnt per single resource by running these plants, and the hybrids' total need."""
    need, hybrid = _fuel_need(tuple(run))
    return dict(need), hybrid


@lru_cache(maxsize=4096)
def _fuel_need(run: tuple[int, ...]) -> tuple[dict[str, int], int]:
    need = dict.fromkeys(RESOURCES, 0)
    hybrid = 0
    for n in run:
        p = plants()[n]
        if p.type == "hybrid":
            hybrid += p.resources
        elif p.type in need:
            need[p.type] += p.resources
    return need, hybrid


def can_run(run: list[int], fuel: dict[str, int]) -> bool:
    """Whether the pool feeds these plants, hybrids taking what the others leave."""
    need, hybrid = fuel_need(run)
    if any(need[r] > fuel.get(r, 0) for r in RESOURCES):
        return False
    left = fuel.get("coal", 0) - need["coal"] + fuel.get("oil", 0) - need["oil"]
    return hybrid <= left


def best_run(owned: list[int], fuel: dict[str, int], cities: int) -> tuple[int, list[int]]:
    """Most cities the seat can power now (capped by its cities) and a cheapest set achieving it."""
    coal, oil, garbage, uranium = (fuel.get(r, 0) for r in RESOURCES)
    best, chosen = (0, 0), ()  # (powered, -tokens burnt), plants
    for run, (c, o, g, u), hybrid, capacity, burnt in _runs(tuple(owned)):
        if c > coal or o > oil or g > garbage or u > uranium or hybrid > coal - c + oil - o:
            continue
        key = (min(cities, capacity), -burnt)
        if key > best:
            best, chosen = key, run
    return best[0], list(chosen)


@lru_cache(maxsize=4096)
def _runs(
    owned: tuple[int, ...],
) -> list[tuple[tuple[int, ...], tuple[int, ...], int, int, int]]:
    """Every subset of the plants, smallest first: its single-resource need per resource, the
    hybrids' need, the cities it powers and the tokens it burns (what `best_run` weighs)."""
    runs = []
    for k in range(len(owned) + 1):
        for run in combinations(owned, k):
            need, hybrid = _fuel_need(run)
            capacity = sum(plants()[n].cities for n in run)
            burnt = sum(plants()[n].resources for n in run)
            runs.append((run, tuple(need[r] for r in RESOURCES), hybrid, capacity, burnt))
    return runs


def allocate(owned: list[int], fuel: dict[str, int]) -> dict[int, dict[str, int]]:
    """A display split of the pool over the plants: single-fuel plants first, then hybrids."""
    left = {r: fuel.get(r, 0) for r in RESOURCES}
    out: dict[int, dict[str, int]] = {n: {} for n in owned}
    for n in owned:
        p = plants()[n]
        if p.type in left:
            k = min(p.storage, left[p.type])
            if k:
                out[n][p.type] = k
                left[p.type] -= k
    for n in owned:
        p = plants()[n]
        if p.type == "hybrid":
            room = p.storage
            for r in ("coal", "oil"):
                k = min(room, left[r])
                if k:
                    out[n][r] = k
                    left[r] -= k
                    room -= k
    return out


def hybrid_mix(run: list[int], fuel: dict[str, int]) -> dict[str, int]:
    """How hybrids among `run` burn: coal first from what the coal plants leave, then oil."""
    need, hybrid = fuel_need(run)
    if not hybrid:
        return {}
    coal = min(hybrid, fuel.get("coal", 0) - need["coal"])
    return {"coal": coal, "oil": hybrid - coal}
