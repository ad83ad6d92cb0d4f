"""Round robin: the circle method for two-player tables, pods of 3 to 6 covering every pair,
byes spread evenly, withdrawals re-planned, and the same schedule for the same seed."""

import random
from collections import Counter
from itertools import combinations

import pytest

from bot.service.tournament.round_robin import replan, round_robin, rounds_needed
from bot.service.tournament.swiss import Round, pairs_met


def _check_rounds(schedule: list[Round], players: list[int], size: int) -> None:
    """Each round seats everyone once at tables of `size`, the rest on byes; byes rotate so
    nobody has a second before everyone has had one."""
    byes: Counter[int] = Counter({p: 0 for p in players})
    for rnd in schedule:
        everyone = [p for t in rnd.tables for p in t] + rnd.byes
        assert sorted(everyone) == sorted(players)
        assert all(len(t) == size for t in rnd.tables)
        assert len(rnd.byes) == len(players) % size
        byes.update(rnd.byes)
        assert max(byes.values()) - min(byes.values()) <= 1


def _counts(schedule: list[Round], players: list[int]) -> list[int]:
    """How many times each pair of `players` sat together."""
    met = pairs_met(t for r in schedule for t in r.tables)
    return [met[frozenset(pair)] for pair in combinations(players, 2)]


@pytest.mark.parametrize("n", range(2, 41))
def test_circle_method_meets_everyone_once(n: int) -> None:
    players = list(range(10, 10 + n))
    schedule = round_robin(players, 2, random.Random(n))
    assert len(schedule) == (n if n % 2 else n - 1) == rounds_needed(n, 2)
    _check_rounds(schedule, players, 2)
    assert set(_counts(schedule, players)) == {1}
    byes = Counter(p for r in schedule for p in r.byes)
    assert byes == (Counter(players) if n % 2 else Counter())


def test_circle_method_with_more_rounds_starts_again() -> None:
    players = list(range(6))
    schedule = round_robin(players, 2, random.Random(0), rounds=10)
    assert len(schedule) == 10 and schedule[5:] == schedule[:5]


@pytest.mark.parametrize(
    ("n", "size", "bound"),
    [(3, 3, 1), (5, 4, 3), (6, 3, 3), (7, 3, 4), (9, 3, 4), (16, 4, 5), (7, 2, 7), (8, 2, 7)],
)
def test_bound(n: int, size: int, bound: int) -> None:
    assert rounds_needed(n, size) == bound


@pytest.mark.parametrize("size", [3, 4, 5, 6])
def test_pods_cover_every_pair_within_two_rounds_of_the_bound(size: int) -> None:
    for n in range(size, 13):
        players = list(range(1, n + 1))
        schedule = round_robin(players, size, random.Random(n))
        _check_rounds(schedule, players, size)
        assert min(_counts(schedule, players)) >= 1
        assert rounds_needed(n, size) <= len(schedule) <= rounds_needed(n, size) + 2


@pytest.mark.parametrize(
    ("n", "size"), [(4, 3), (5, 3), (5, 4), (8, 4), (9, 3), (10, 6), (12, 6), (16, 4)]
)
def test_pods_reach_the_bound(n: int, size: int) -> None:
    # 9 in threes in 4 rounds and 16 in fours in 5 are perfect: every pair meets exactly once.
    schedule = round_robin(list(range(n)), size, random.Random(0))
    assert len(schedule) == rounds_needed(n, size)
    assert min(_counts(schedule, list(range(n)))) == 1


def test_six_in_threes_need_four_rounds_not_the_bound_of_three() -> None:
    # Two tables of 3 a round: each round-2 table holds two players from one round-1 table,
    # and round 3 likewise against round 2, so 3 rounds (18 seats for 15 pairs) cannot cover.
    schedule = round_robin(list(range(6)), 3, random.Random(0))
    assert rounds_needed(6, 3) == 3 and len(schedule) == 4


@pytest.mark.parametrize("size", [3, 4, 5])
def test_every_count_from_3_to_40_in_pods(size: int) -> None:
    # Three rounds each: everyone seated or on a bye, and nobody meets twice while the field
    # is large enough that three rounds can avoid it.
    for n in range(max(3, size), 41):
        players = list(range(n))
        schedule = round_robin(players, size, random.Random(n), rounds=3)
        assert len(schedule) == 3
        _check_rounds(schedule, players, size)
        if n >= size * size:
            assert max(_counts(schedule, players)) == 1


def test_more_rounds_than_needed_spread_the_meetings_evenly() -> None:
    players = list(range(8))
    schedule = round_robin(players, 4, random.Random(2), rounds=7)
    counts = _counts(schedule, players)
    # 7 rounds × 2 tables × 6 pairs = 84 meetings for 28 pairs: 3 each.
    assert set(counts) == {3}


@pytest.mark.parametrize("seed", range(5))
def test_fewer_rounds_than_needed_meet_at_most_twice(seed: int) -> None:
    # 12 in fours: each round-2 table takes two from one round-1 table, so some pairs repeat.
    players = list(range(12))
    schedule = round_robin(players, 4, random.Random(seed), rounds=3)
    assert max(_counts(schedule, players)) == 2


@pytest.mark.parametrize(("n", "size"), [(7, 2), (8, 2), (9, 3), (10, 4), (11, 5), (13, 6)])
def test_same_seed_same_schedule(n: int, size: int) -> None:
    players = list(range(n))
    assert round_robin(players, size, random.Random(9)) == round_robin(
        players, size, random.Random(9)
    )
    assert round_robin(players, size, random.Random(9)) != round_robin(
        players, size, random.Random(10)
    )


def test_bad_input() -> None:
    with pytest.raises(ValueError):
        round_robin([1, 2], 3, random.Random(0))
    with pytest.raises(ValueError):
        round_robin([1, 1, 2], 2, random.Random(0))
    with pytest.raises(ValueError):
        rounds_needed(5, 1)


@pytest.mark.parametrize("n", [5, 6, 9, 12, 17])
def test_two_player_withdrawal_leaves_every_other_pair_meeting_once(n: int) -> None:
    players = list(range(n))
    schedule = round_robin(players, 2, random.Random(n))
    leaver = schedule[0].tables[0][1]
    after = replan(schedule, 1, {leaver}, 2, random.Random(1))
    assert after[:1] == schedule[:1] and len(after) == len(schedule)
    rest = [p for p in players if p != leaver]
    for rnd in after[1:]:
        assert sorted([p for t in rnd.tables for p in t] + rnd.byes) == rest
    assert set(_counts(after, rest)) == {1}


@pytest.mark.parametrize(("n", "size"), [(7, 3), (9, 3), (10, 4), (13, 4), (11, 5), (14, 6)])
def test_pod_withdrawal_after_round_1_is_never_seated_again(n: int, size: int) -> None:
    players = list(range(n))
    schedule = round_robin(players, size, random.Random(n))
    leaver = schedule[0].tables[-1][0]
    after = replan(schedule, 1, {leaver}, size, random.Random(n))
    assert after[:1] == schedule[:1] and len(after) == len(schedule)
    rest = [p for p in players if p != leaver]
    _check_rounds(after[1:], rest, size)
    for rnd in after[1:]:
        assert leaver not in {p for t in (*rnd.tables, rnd.byes) for p in t}
    again = replan(schedule, 1, {leaver}, size, random.Random(n))
    assert again == after


@pytest.mark.parametrize("size", [2, 3, 4])
def test_second_withdrawal_keeps_the_first_out(size: int) -> None:
    players = list(range(11))
    schedule = round_robin(players, size, random.Random(size))
    first, second = schedule[0].tables[0][0], schedule[1].tables[0][-1]
    once = replan(schedule, 1, {first}, size, random.Random(1))
    twice = replan(once, 2, {second}, size, random.Random(2))
    assert twice[:2] == once[:2]
    rest = [p for p in players if p not in (first, second)]
    for rnd in twice[2:]:
        assert sorted([p for t in rnd.tables for p in t] + rnd.byes) == rest
    with pytest.raises(ValueError):
        replan(schedule, len(schedule), {first}, size, random.Random(1))


def test_long_schedules_stay_even() -> None:
    # 7 players at one table of 6: a pair meets whenever neither sits out; 20 byes over 7
    # players are 3 each for six and 2 for one, so every pair meets 14 or 15 times.
    players = list(range(7))
    schedule = round_robin(players, 6, random.Random(3), rounds=20)
    _check_rounds(schedule, players, 6)
    assert set(_counts(schedule, players)) <= {14, 15}
