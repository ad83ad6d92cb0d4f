"""Swiss rounds in pods: tables of players with close scores who have not sat together before.

Table sizes (`plan_tables`): as few byes as possible (none when some mix of the allowed sizes
seats everyone), then the fewest tables off the preferred size, then the sizes closest to it;
bigger tables first. So with sizes (4, 5) and 4 preferred, 17 → [5, 4, 4, 4]; 11 → [5, 5] and a
bye; with (4,) 17 → [4, 4, 4, 4] and a bye. Byes go to the lowest-ranked players who have not
had one, then to the lowest-ranked.

Round 1 shuffles everyone with the event's seeded die (so its byes fall at random). Later
rounds take the standings in order and fill the tables top-down, then swap players between
tables, neighbouring tables first, to remove repeated opponents (each earlier meeting of a pair
at one table counts) and then to keep the scores at each table close (the sum of squared
differences over its pairs). When repeats remain, a few random swaps shake the tables before
swapping down again (`KICKS` times); the die makes this the same for the same seed.
"""

import random
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

KICKS = 12
"""Shakes tried when swapping alone leaves repeated opponents; more rarely helps."""


@dataclass(frozen=True, slots=True)
class Round:
    """One round: its tables (seat order as listed) and who sits it out."""

    tables: list[list[int]]
    byes: list[int]


def pairs_met(tables: Iterable[Iterable[int]]) -> Counter[frozenset[int]]:
    """How many times each pair of players has sat at one table."""
    met: Counter[frozenset[int]] = Counter()
    for table in tables:
        met.update(frozenset(pair) for pair in combinations(table, 2))
    return met


def plan_tables(n_players: int, sizes: Collection[int], preferred: int) -> tuple[list[int], int]:
    """Table sizes (largest first) and the number of byes for `n_players`."""
    if not sizes or min(sizes) < 2:
        raise ValueError(f"table sizes {sorted(sizes)} must be 2 or more")
    if preferred not in sizes:
        raise ValueError(f"preferred size {preferred} is not among {sorted(sizes)}")
    if n_players < min(sizes):
        raise ValueError(f"{n_players} players cannot fill a table of {min(sizes)}")
    # best[m]: the cheapest mix seating exactly m, cost (tables off preferred, total distance).
    best: list[tuple[tuple[int, int], list[int]] | None] = [None] * (n_players + 1)
    best[0] = ((0, 0), [])
    for m in range(1, n_players + 1):
        for size in sorted(sizes, reverse=True):
            prev = best[m - size] if m >= size else None
            if prev is None:
                continue
            off = size != preferred
            cost = (prev[0][0] + off, prev[0][1] + abs(size - preferred))
            current = best[m]
            if current is None or cost < current[0]:
                best[m] = (cost, [*prev[1], size])
    seated = max(m for m in range(n_players + 1) if best[m] is not None)
    plan = best[seated]
    assert plan is not None  # best[0] is always set
    return sorted(plan[1], reverse=True), n_players - seated


def pick_byes(players: Sequence[int], count: int, had_bye: Collection[int]) -> list[int]:
    """The `count` lowest-ranked players without a bye, then the lowest-ranked of the rest."""
    fresh = [p for p in reversed(players) if p not in had_bye]
    again = [p for p in reversed(players) if p in had_bye]
    return (fresh + again)[:count]


def improve(
    tables: list[list[int]],
    cost: Callable[[int, int], float],
    rng: random.Random,
    good: float,
    kicks: int = KICKS,
) -> list[list[int]]:
    """Swap players between tables (nearest tables first) while the sum of `cost` over every
    pair at a table drops; while it is `good` or more, shake with random swaps and retry."""
    people = [p for t in tables for p in t]
    at = {p: i for i, p in enumerate(people)}
    # Costs by seat index in a plain matrix: the search asks for them millions of times. The
    # diagonal is an int 0 so that integer costs (round robin's powers) stay exact when summed.
    matrix = [[0 if a == b else cost(a, b) for b in people] for a in people]
    current = [[at[p] for p in t] for t in tables]
    _descend(current, matrix)
    best, best_cost = [list(t) for t in current], _total(current, matrix)
    for _ in range(kicks):
        if best_cost < good or len(best) < 2:
            break
        current = [list(t) for t in best]
        for _ in range(2):
            i, j = rng.sample(range(len(current)), 2)
            a, b = rng.randrange(len(current[i])), rng.randrange(len(current[j]))
            current[i][a], current[j][b] = current[j][b], current[i][a]
        _descend(current, matrix)
        total = _total(current, matrix)
        if total < best_cost:
            best, best_cost = [list(t) for t in current], total
    return [[people[i] for i in t] for t in best]


def _total(tables: list[list[int]], matrix: list[list[float]]) -> float:
    return sum(matrix[a][b] for t in tables for a, b in combinations(t, 2))


def _descend(tables: list[list[int]], matrix: list[list[float]]) -> None:
    """Apply the best improving swap between the nearest tables that have one, until none."""
    while True:
        for gap in range(1, len(tables)):
            move: tuple[float, int, int, int, int] | None = None
            for i in range(len(tables) - gap):
                ti, tj = tables[i], tables[i + gap]
                for a, x in enumerate(ti):
                    row = matrix[x]
                    # What x brings to (and takes from) each table, without the swapped seat.
                    x_i = sum(row[y] for y in ti)
                    x_j = sum(row[y] for y in tj)
                    for b, z in enumerate(tj):
                        col = matrix[z]
                        delta = x_j - row[z] + sum(col[y] for y in ti) - col[x] - x_i
                        delta -= sum(col[y] for y in tj)
                        if delta < 0 and (move is None or delta < move[0]):
                            move = (delta, i, a, i + gap, b)
            if move is not None:
                _, i, a, j, b = move
                tables[i][a], tables[j][b] = tables[j][b], tables[i][a]
                break
        else:
            return


def swiss_round(
    players: Sequence[int],
    met: Mapping[frozenset[int], int],
    had_bye: Collection[int],
    sizes: Collection[int],
    preferred: int,
    rng: random.Random,
    points: Mapping[int, float] | None = None,
) -> Round:
    """Pair one round of `players` (active, in standing order); `met` counts earlier meetings
    (see `pairs_met`); `points` measures how close scores are (standing order if None).
    With no meetings and no byes yet it is round 1, shuffled by `rng`."""
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    sizes_at, n_byes = plan_tables(len(players), sizes, preferred)
    order = list(players)
    first = not met and not had_bye
    if first:
        rng.shuffle(order)
    byes = pick_byes(order, n_byes, had_bye)
    seated = [p for p in order if p not in byes]
    tables, start = [], 0
    for size in sizes_at:
        tables.append(seated[start : start + size])
        start += size
    if first:
        return Round(tables=tables, byes=byes)
    value = {p: float(points[p]) if points else float(-i) for i, p in enumerate(seated)}
    spread = {
        frozenset(pair): (value[pair[0]] - value[pair[1]]) ** 2 for pair in combinations(seated, 2)
    }
    # One repeat outweighs any spread: no partition's spread can reach the sum over all pairs.
    weight = sum(spread.values()) + 1

    def cost(a: int, b: int) -> float:
        pair = frozenset((a, b))
        return met.get(pair, 0) * weight + spread[pair]

    return Round(tables=improve(tables, cost, rng, good=weight), byes=byes)
