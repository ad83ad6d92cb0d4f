"""Connection costs: cheapest paths over the cities a route may use, cached per map and regions."""

from functools import cache, lru_cache

from engine.power_grid.rules import game_map

INF = 10**9


@cache
def distances(
    map_name: str, regions: frozenset[str], through_unused: bool
) -> dict[str, dict[str, int]]:
    """All-pairs cheapest connection cost between cities in play (Floyd–Warshall, 42 cities)."""
    m = game_map(map_name)
    usable = [c.name for c in m.cities if through_unused or c.region in regions]
    index = {name: i for i, name in enumerate(usable)}
    n = len(usable)
    d = [[0 if i == j else INF for j in range(n)] for i in range(n)]
    for e in m.connections:
        if e.a in index and e.b in index:
            i, j = index[e.a], index[e.b]
            if e.cost < d[i][j]:
                d[i][j] = d[j][i] = e.cost
    for k in range(n):
        dk = d[k]
        for i in range(n):
            dik = d[i][k]
            if dik >= INF:
                continue
            di = d[i]
            for j in range(n):
                if dik + dk[j] < di[j]:
                    di[j] = dik + dk[j]
    in_play = [c.name for c in m.cities if c.region in regions]
    return {a: {b: d[index[a]][index[b]] for b in in_play} for a in in_play}


@cache
def rows(
    map_name: str, regions: frozenset[str], through_unused: bool
) -> tuple[tuple[str, ...], dict[str, int], dict[str, tuple[int, ...]]]:
    """The cities in play (in map order), each one's place among them, and each one's
    `distances` to them all in that order."""
    dist = distances(map_name, regions, through_unused)
    names = tuple(dist)
    return names, {c: i for i, c in enumerate(names)}, {a: tuple(dist[a].values()) for a in names}


@lru_cache(maxsize=4096)
def reach(
    map_name: str, regions: frozenset[str], through_unused: bool, network: tuple[str, ...]
) -> tuple[int, ...]:
    """`connection_cost` from the network to every city in play, in the order of `rows`; shared:
    read only. A network grows a city at a time, so each is its cached prefix plus one row."""
    names, _, row = rows(map_name, regions, through_unused)
    if len(network) <= 1:
        return row[network[0]] if network else (0,) * len(names)
    prefix = reach(map_name, regions, through_unused, network[:-1])
    # Conditionals, not map(min, ...), which takes twice as long: every city built makes a network.
    return tuple([a if a < b else b for a, b in zip(prefix, row[network[-1]], strict=True)])


@lru_cache(maxsize=4096)
def nearest(
    map_name: str, regions: frozenset[str], through_unused: bool, network: tuple[str, ...]
) -> list[tuple[int, str]]:
    """The cities in play outside the network as (`connection_cost` from it, name), cheapest
    first; shared: read only."""
    names = rows(map_name, regions, through_unused)[0]
    costs = reach(map_name, regions, through_unused, network)
    inside = set(network)
    pairs = zip(costs, names, strict=True)
    return sorted((cost, city) for cost, city in pairs if city not in inside)


def connection_cost(dist: dict[str, dict[str, int]], network: list[str], city: str) -> int:
    """Cheapest connection from any city of the network to `city`; the first city is free."""
    if not network:
        return 0
    return min(dist[c][city] for c in network)
