"""Table sizes for a heat and a seeded random assignment of players to them."""

import random
from collections.abc import Sequence


def form_tables(n_players: int, allow_six: bool = True) -> list[int]:
    """Table sizes, largest first: fewest 3-player tables, then most 5s, then fewest 4s.

    3-player tables appear only when nothing else seats everyone (3, 7; and 6, 11 without 6s).
    """
    if n_players < 3:
        raise ValueError(f"{n_players} players cannot form a table of 3 or more")
    best: tuple[tuple[int, int, int], list[int]] | None = None
    # Small bounds suffice: five 4s (or 6s) always trade for four 5s (or six 5s), which is
    # better, and two 3s are the most any count needs (three 3s are a 4 and a 5).
    for sixes in range(5 if allow_six else 1):
        for fours in range(5):
            for threes in range(3):
                rest = n_players - 6 * sixes - 4 * fours - 3 * threes
                if rest < 0 or rest % 5:
                    continue
                fives = rest // 5
                score = (threes, -fives, fours)
                if best is None or score < best[0]:
                    best = (score, [6] * sixes + [5] * fives + [4] * fours + [3] * threes)
    assert best is not None  # every n >= 3 is a sum of 3s, 4s and 5s within the bounds above
    return best[1]


def assign_tables(
    players: Sequence[int], sizes: Sequence[int], rng: random.Random
) -> list[list[int]]:
    """Shuffle the players with `rng` and deal them to the tables in order; seat 1 is first."""
    if sum(sizes) != len(players):
        raise ValueError(f"{len(players)} players for {sum(sizes)} seats")
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    order = list(players)
    rng.shuffle(order)
    tables: list[list[int]] = []
    start = 0
    for size in sizes:
        tables.append(order[start : start + size])
        start += size
    return tables
