"""Round robin in pods for small groups: every pair meets as evenly as the rounds allow.

Tables all have the event's size; when the count does not divide, the rest sit out: those with
the fewest byes so far (so nobody gets a second before everyone has had one), among them whoever
has the fewest partners left to meet (they lose least by sitting out), then a seeded rotation.

Two-player tables use the circle method: everyone meets everyone once in n − 1 rounds, or in n
with one bye each when n is odd. Pods of 3 to 6 are built round by round, greedily: each round
seats as many pairs that have not met as it can, and spends its repeats on the pairs that have
met least, improved by swapping players between tables. Half of `ATTEMPTS` seeded attempts
first refuse to make any pair meet more often than the most-met pair so far (more even, slower
to cover). By default the shortest attempt covering every pair is kept; with a set number of
rounds, the most even (the lowest count for the most-met pair, then fewest pairs never met).

Default length (`rounds_needed` is the bound): a player meets at most size − 1 others a round,
so needs ⌈(n − 1) ÷ (size − 1)⌉ rounds at a table, and someone sits out ⌈rounds × byes ÷ n⌉ of
them; and the tables seat at most tables × size × (size − 1) ÷ 2 pairs a round, of n(n − 1) ÷ 2.
The default plays until every pair has met, which the bound says can take no fewer rounds (it
takes more when no schedule reaches it, e.g. 6 players in threes need 4 rounds, not 3).
"""

import random
from collections import Counter
from collections.abc import Callable, Collection, Sequence
from itertools import combinations
from math import ceil, comb

from .swiss import Round, improve, pairs_met

ATTEMPTS = 8
"""Seeded attempts at a pod schedule; the best is kept (see above)."""


def rounds_needed(n_players: int, size: int) -> int:
    """The fewest rounds in which every pair could have met at tables of `size` (a bound)."""
    _check(n_players, size)
    byes, tables = n_players % size, n_players // size
    plays = ceil((n_players - 1) / (size - 1))
    rounds = 1
    while rounds - ceil(rounds * byes / n_players) < plays or rounds * tables * comb(
        size, 2
    ) < comb(n_players, 2):
        rounds += 1
    return rounds


def round_robin(
    players: Sequence[int], size: int, rng: random.Random, rounds: int | None = None
) -> list[Round]:
    """A schedule of `rounds` rounds (default: until every pair has met) at tables of `size`."""
    _check(len(players), size, players)
    order = list(players)
    rng.shuffle(order)
    if size == 2:
        return _circle(order, rounds)
    return _pods(order, size, rounds, rng, [])


def replan(
    schedule: Sequence[Round],
    played: int,
    withdrawn: Collection[int],
    size: int,
    rng: random.Random,
) -> list[Round]:
    """The schedule with its first `played` rounds kept and the rest re-planned without the
    `withdrawn` players (an opponent they leave at a two-player table gets a bye)."""
    if not 0 <= played < len(schedule):
        raise ValueError(f"no round left to re-plan after {played} of {len(schedule)}")
    # The next round lists everyone still in, earlier withdrawals already left out.
    upcoming = schedule[played]
    order = [p for t in (*upcoming.tables, upcoming.byes) for p in t if p not in withdrawn]
    _check(len(order), size, order)
    kept, rest = list(schedule[:played]), schedule[played:]
    if size == 2:
        # Dropping the player keeps every other pair meeting exactly once.
        return kept + [
            Round(
                tables=[t for t in r.tables if not set(t) & set(withdrawn)],
                byes=[p for p in r.byes if p not in withdrawn]
                + [p for t in r.tables if set(t) & set(withdrawn) for p in t if p not in withdrawn],
            )
            for r in rest
        ]
    return kept + _pods(order, size, len(rest), rng, kept)


def _check(n_players: int, size: int, players: Sequence[int] = ()) -> None:
    if not 2 <= size <= n_players:
        raise ValueError(f"{n_players} players cannot fill tables of {size}")
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")


def _circle(order: list[int], rounds: int | None) -> list[Round]:
    """Berger's circle: the first seat stays, the rest rotate one place each round."""
    ring: list[int | None] = [*order, None] if len(order) % 2 else list(order)
    m = len(ring)
    out = []
    for _ in range(m - 1 if rounds is None else rounds):
        pairs = [(ring[i], ring[m - 1 - i]) for i in range(m // 2)]
        out.append(
            Round(
                tables=[[a, b] for a, b in pairs if a is not None and b is not None],
                byes=[p for a, b in pairs for p in (a, b) if p is not None and None in (a, b)],
            )
        )
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return out


def _pods(
    order: list[int], size: int, rounds: int | None, rng: random.Random, history: list[Round]
) -> list[Round]:
    """The best of `ATTEMPTS` greedy schedules, by default each played until every pair has
    met (the module docstring says which is best)."""
    bound = rounds_needed(len(order), size)
    best: tuple[tuple[int, ...], list[Round]] | None = None
    for attempt in range(ATTEMPTS):
        # 3 × the bound is far more than any schedule tried needs (up to 30 players, at most
        # the bound + 3); an attempt stopped there still counts, ranked by the pairs left unmet.
        limit = rounds if rounds is not None else 3 * bound
        if rounds is None and best is not None and not best[0][0]:
            limit = len(best[1]) - 1
        # Half the attempts refuse to raise the most-met count before seating new pairs: more
        # even, though it covers every pair more slowly.
        plan = _greedy(
            order,
            size,
            limit,
            rounds is None,
            attempt % 2 == 1,
            random.Random(rng.getrandbits(64)),
            history,
        )
        met = pairs_met(t for r in (*history, *plan) for t in r.tables)
        counts = [met[frozenset(pair)] for pair in combinations(order, 2)]
        even = (max(counts), sum(c * c for c in counts))
        key: tuple[int, ...]
        if rounds is None:
            key = (counts.count(0), len(plan), *even)
        else:
            key = (even[0], counts.count(0), even[1])
        if best is None or key < best[0]:
            best = (key, plan)
        # Nothing beats reaching the bound, or a fixed number of rounds with no pair twice.
        if len(plan) <= bound if rounds is None else best[0][0] <= 1:
            break
    assert best is not None  # ATTEMPTS is at least 1
    return best[1]


def _uncovered(order: list[int], met: Counter[frozenset[int]]) -> int:
    """How many pairs of `order` have never sat together."""
    return sum(1 for pair in combinations(order, 2) if not met[frozenset(pair)])


def _greedy(
    order: list[int],
    size: int,
    limit: int,
    until_covered: bool,
    even: bool,
    rng: random.Random,
    history: list[Round],
) -> list[Round]:
    """Up to `limit` rounds seating the least-met pairs together, stopping once every pair has
    met if `until_covered`; `even` puts not raising the most-met count before new pairs."""
    met = pairs_met(t for r in history for t in r.tables)
    byes: Counter[int] = Counter(p for r in history for p in r.byes)
    rotation = list(order)
    rng.shuffle(rotation)
    pairs_per_round = len(order) // size * comb(size, 2)
    plan: list[Round] = []
    while len(plan) < limit and not (until_covered and not _uncovered(order, met)):
        out = _sit_out(rotation, len(order) % size, byes, met)
        seated = [p for p in rotation if p not in out]
        tables = improve(_fill(seated, size, met), _costs(met, pairs_per_round, even), rng, good=1)
        plan.append(Round(tables=tables, byes=out))
        met.update(pairs_met(tables))
        byes.update(out)
    return plan


def _sit_out(
    rotation: list[int], count: int, byes: Counter[int], met: Counter[frozenset[int]]
) -> list[int]:
    """Byes for the fewest byes so far; among those level, whoever has the fewest partners
    still to meet (they lose least by sitting out), then the rotation's order."""
    unmet = {p: sum(1 for q in rotation if q != p and not met[frozenset((p, q))]) for p in rotation}
    return sorted(rotation, key=lambda p: (byes[p], unmet[p], rotation.index(p)))[:count]


def _costs(
    met: Counter[frozenset[int]], pairs_per_round: int, even: bool
) -> Callable[[int, int], float]:
    """A pair's cost this round, in tiers, each outweighing a whole round of the next: with
    `even`, meeting as often as the most-met pair already has; meeting again at all (so new
    pairs are seated first); base^(meetings − 1), a k-th meeting outweighing every (k − 1)-th."""
    base = pairs_per_round + 1
    top = max(met.values(), default=0)
    repeat = pairs_per_round * base**top + 1
    record = pairs_per_round * (repeat + base**top) + 1 if even else 0

    def cost(a: int, b: int) -> float:
        count = met[frozenset((a, b))]
        if not count:
            return 0
        return (record if count == top else 0) + repeat + base ** (count - 1)

    return cost


def _fill(seated: list[int], size: int, met: Counter[frozenset[int]]) -> list[list[int]]:
    """Tables built one at a time: each next seat goes to whoever has met the table least."""
    left = list(seated)
    tables = []
    while left:
        table = [left.pop(0)]
        while len(table) < size:
            pick = min(left, key=lambda p: sum(met[frozenset((p, q))] for q in table))
            left.remove(pick)
            table.append(pick)
        tables.append(table)
    return tables
