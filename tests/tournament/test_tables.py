"""Heat tables: 5s first, then 4s or 6s, 3s only when nothing else seats everyone."""

import random
from collections import Counter
from itertools import product

import pytest

from bot.service.tournament import assign_tables, form_tables


def _partitions(n: int, sizes: tuple[int, ...]) -> list[Counter[int]]:
    """Every multiset of table sizes from `sizes` summing to n (brute force, for checking)."""
    out = []
    ranges = [range(n // s + 1) for s in sizes]
    for counts in product(*ranges):
        if sum(c * s for c, s in zip(counts, sizes, strict=True)) == n:
            out.append(Counter(dict(zip(sizes, counts, strict=True))))
    return out


@pytest.mark.parametrize("allow_six", [True, False])
@pytest.mark.parametrize("n", range(3, 61))
def test_everyone_seated_and_as_many_fives_as_possible(n: int, allow_six: bool) -> None:
    tables = form_tables(n, allow_six)
    assert sum(tables) == n
    assert all(3 <= t <= (6 if allow_six else 5) for t in tables)
    assert tables == sorted(tables, reverse=True)
    big = (4, 5, 6) if allow_six else (4, 5)
    options = _partitions(n, big) or _partitions(n, (*big, 3))
    got = Counter(tables)
    fewest_threes = min(o[3] for o in options)
    assert got[3] == fewest_threes
    best = [o for o in options if o[3] == fewest_threes]
    assert got[5] == max(o[5] for o in best)
    assert got[4] == min(o[4] for o in best if o[5] == got[5])


@pytest.mark.parametrize(
    ("n", "with_six", "without_six"),
    [
        (3, [3], [3]),
        (4, [4], [4]),
        (5, [5], [5]),
        (6, [6], [3, 3]),
        (7, [4, 3], [4, 3]),
        (8, [4, 4], [4, 4]),
        (9, [5, 4], [5, 4]),
        (11, [6, 5], [4, 4, 3]),
        (12, [6, 6], [4, 4, 4]),
        (16, [6, 5, 5], [4, 4, 4, 4]),
        (21, [6, 5, 5, 5], [5, 4, 4, 4, 4]),
        (23, [5, 5, 5, 4, 4], [5, 5, 5, 4, 4]),
        (25, [5] * 5, [5] * 5),
        (26, [6, 5, 5, 5, 5], [5, 5, 4, 4, 4, 4]),
    ],
)
def test_documented_awkward_counts(n: int, with_six: list[int], without_six: list[int]) -> None:
    assert form_tables(n) == with_six
    assert form_tables(n, allow_six=False) == without_six


@pytest.mark.parametrize("n", [-1, 0, 1, 2])
def test_too_few_players_is_an_error(n: int) -> None:
    with pytest.raises(ValueError, match="cannot form a table"):
        form_tables(n)


def test_assignment_seats_everyone_once_and_depends_only_on_the_rng() -> None:
    players = list(range(1, 24))
    sizes = form_tables(len(players))
    random.seed(1)
    first = assign_tables(players, sizes, random.Random(42))
    random.seed(2)  # the global generator must play no part
    again = assign_tables(players, sizes, random.Random(42))
    other = assign_tables(players, sizes, random.Random(43))
    assert first == again != other
    assert [len(t) for t in first] == sizes == [5, 5, 5, 4, 4]
    assert sorted(p for t in first for p in t) == players
    assert players == list(range(1, 24))  # the caller's list is not shuffled in place


def test_assignment_refuses_bad_input() -> None:
    with pytest.raises(ValueError, match="3 players for 4 seats"):
        assign_tables([1, 2, 3], [4], random.Random(0))
    with pytest.raises(ValueError, match="listed twice"):
        assign_tables([1, 1, 2], [3], random.Random(0))
