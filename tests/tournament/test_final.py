"""The semifinal's size and the final: five semifinal winners plus the closest non-winner."""

import pytest

from bot.service.tournament import final_field, rank_alternates, replay, semifinal_size
from tests.tournament import game


@pytest.mark.parametrize(
    ("winners", "alternates", "tables"),
    [
        (25, 0, [5] * 5),  # exactly full
        (31, 4, [5] * 5),  # more than 25 winners: the top 25 play
        (18, 7, [5] * 5),  # alternates bring it to 25
        (18, 40, [5] * 5),
        (18, 6, [4] * 5),  # not enough alternates for 25: five 4-player games
        (23, 0, [4] * 5),  # 21-24 winners without alternates also play 5 x 4
        (20, 0, [4] * 5),
        (16, 3, [4] * 4),  # below 20: fewer 4-player tables ...
        (12, 3, [5] * 3),  # ... made 5-player when everyone still gets a seat
        (10, 2, [4] * 3),
        (5, 0, [5]),
        (2, 2, [4]),
    ],
)
def test_semifinal_size(winners: int, alternates: int, tables: list[int]) -> None:
    assert semifinal_size(winners, alternates) == tables


def test_semifinal_size_refuses_tiny_or_negative_fields() -> None:
    with pytest.raises(ValueError, match="cannot fill"):
        semifinal_size(2, 1)
    with pytest.raises(ValueError, match="negative"):
        semifinal_size(-1, 30)


def _semifinal() -> list:
    """Five 5-player tables; the second places are 13, 12, 11, 10 and 9 of 14 cities."""
    return [
        game(
            1,
            (10 * t + 1, 14, 20),
            (10 * t + 2, 14 - t, 10),
            *[(10 * t + k, 0, 0) for k in (3, 4, 5)],
        )
        for t in range(1, 6)
    ]


def test_final_is_the_five_winners_and_the_closest_second_place() -> None:
    assert final_field(_semifinal()) == [11, 21, 31, 41, 51, 12]


def test_sixth_finalist_is_the_closest_finish_wherever_it_was() -> None:
    games = _semifinal()
    # Table 5: the 2nd place (52) is level on cities and loses on money; the 3rd place (53)
    # powers 13 of 14, as close as table 1's 2nd place and closer than tables 2-4's.
    games[4] = game(1, (51, 14, 20), (52, 14, 10), (53, 13, 9), (54, 0, 0), (55, 0, 0))
    assert final_field(games) == [11, 21, 31, 41, 51, 52]  # 14 / 14, $10 behind
    ranked = rank_alternates(games, limit=4)
    assert [e.player for e in ranked[:4]] == [52, 12, 53, 22]  # 12 on money: 10 / 20 > 9 / 20


def test_sixth_finalist_ties_fall_to_ratio_then_table_then_roll() -> None:
    a = game(1, (1, 14, 20), (2, 13, 10), (3, 0, 0), (4, 0, 0), (5, 0, 0))
    b = game(1, (6, 14, 20), (7, 13, 5), (8, 0, 0), (9, 0, 0), (10, 0, 0))
    assert final_field([a, b]) == [1, 6, 2]  # $10 of $20 beats $5 of $20
    b = game(1, (6, 14, 20), (7, 13, 10), (8, 0, 0), (9, 0, 0), (10, 0, 0), (11, 0, 0))
    assert final_field([a, b]) == [1, 6, 7]  # same margin and ratio: the larger table
    b = game(1, (6, 14, 20), (7, 13, 10), (8, 0, 0), (9, 0, 0), (10, 0, 0))
    with pytest.raises(ValueError, match="a roll is needed"):
        final_field([a, b])
    assert final_field([a, b], replay({2: [3], 7: [5]})) == [1, 6, 7]


def test_ties_below_the_sixth_place_need_no_roll() -> None:
    # Every 3rd-5th place scores 0 and ties, but only the top non-winner matters.
    assert final_field(_semifinal()) == [11, 21, 31, 41, 51, 12]
    ranked = rank_alternates(_semifinal(), limit=1)
    assert ranked[0].player == 12 and all(not e.rolls for e in ranked)


def test_player_at_two_semifinal_tables_is_refused() -> None:
    a = game(1, (1, 14, 20), (2, 13, 10))
    b = game(1, (3, 14, 20), (2, 13, 10))
    with pytest.raises(ValueError, match="two semifinal tables"):
        final_field([a, b])
