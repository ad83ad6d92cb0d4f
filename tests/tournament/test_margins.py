"""Margins of victory and defeat with the seed's worked numbers, and game validation."""

import math

import pytest
from pydantic import ValidationError

from bot.service.tournament import HeatGame, SeatResult, average_finish
from bot.service.tournament import margin_of_defeat as mod
from bot.service.tournament import margin_of_victory as mov
from tests.tournament import game


def test_outright_win_is_the_ratio_of_primaries() -> None:
    m = mov(game(1, (1, 14, 3), (2, 12, 50), (3, 9, 0)), 1)
    assert m.kind == "outright"
    assert m.value == 14 / 12
    assert round(m.value, 3) == 1.167
    assert m.explain == "14 / 12 = 1.167"


def test_tiebreak_win_is_the_secondary_difference_over_1000() -> None:
    m = mov(game(1, (1, 12, 27), (2, 12, 11), (3, 10, 40)), 1)
    assert m.kind == "tiebreak"
    assert m.value == pytest.approx(0.016)
    assert m.explain == "(27 − 11) / 1000 = 0.016"


def test_win_level_on_both_measures_has_margin_zero() -> None:
    m = mov(game(1, (1, 12, 5), (2, 12, 5), (3, 0, 0)), 1)
    assert (m.kind, m.value, m.explain) == ("tiebreak", 0.0, "(5 − 5) / 1000 = 0.000")


def test_second_place_on_zero_gives_an_infinite_margin() -> None:
    m = mov(game(1, (1, 3, 0), (2, 0, 9)), 1)
    assert m.value == math.inf and m.explain == "3 / 0 = ∞"


def test_defeat_is_own_primary_over_the_winners() -> None:
    g = game(1, (1, 14, 0), (2, 12, 0), (3, 11, 0))
    m = mod(g, 2)
    assert (m.kind, m.value, m.explain) == ("outright", 12 / 14, "12 / 14 = 0.857")


def test_defeat_on_tiebreak_is_level_and_measured_by_the_secondary_behind() -> None:
    # The seed's tiebreak numbers ($27 vs $11) from the loser's side: 12 / 12 cities powered.
    m = mod(game(1, (1, 12, 27), (2, 12, 11), (3, 12, 2)), 2)
    assert (m.kind, m.value, m.behind) == ("tiebreak", 1.0, 16)
    assert m.explain == "12 / 12 = 1.000, lost on tiebreak by 27 − 11 = 16"
    # A third place level on cities is measured against the winner too, not against 2nd.
    third = mod(game(1, (1, 12, 27), (2, 12, 11), (3, 12, 2)), 3)
    assert third.explain == "12 / 12 = 1.000, lost on tiebreak by 27 − 2 = 25"
    assert m.closeness() < third.closeness()  # less behind is closer


def test_a_level_finish_is_closer_than_any_finish_behind_on_the_primary() -> None:
    # Cities powered decide before money: level on 14 cities but $70 behind is closer than
    # 15 of 16 cities at another table (1 − 70 / 1000 = 0.930 would have ranked it below 0.938).
    level = mod(game(1, (1, 14, 80), (2, 14, 10)), 2)
    behind = mod(game(1, (1, 16, 0), (2, 15, 200)), 2)
    assert behind.explain == "15 / 16 = 0.938"
    assert level.closeness() < behind.closeness()


def test_level_on_both_measures_is_zero_behind() -> None:
    # Lost on a later tiebreak of the game (most cities, highest plant): as close as it gets.
    m = mod(game(1, (1, 12, 5), (2, 12, 5)), 2)
    assert (m.value, m.behind, m.explain) == (
        1.0,
        0,
        "12 / 12 = 1.000, lost on tiebreak by 5 − 5 = 0",
    )


def test_closer_finishes_score_higher() -> None:
    g = game(1, (1, 14, 30), (2, 14, 10), (3, 13, 50), (4, 7, 0))
    assert mod(g, 2).value > mod(g, 3).value > mod(g, 4).value


def test_fractional_measures_are_shown_as_given() -> None:
    assert mov(game(1, (1, 7.5, 0), (2, 5, 0)), 1).explain == "7.5 / 5 = 1.500"


def test_wrong_player_is_refused() -> None:
    g = game(1, (1, 14, 0), (2, 12, 0))
    with pytest.raises(ValueError, match="did not win"):
        mov(g, 2)
    with pytest.raises(ValueError, match="won this game"):
        mod(g, 1)
    with pytest.raises(ValueError, match="did not play"):
        mov(g, 99)


def test_average_finish_worked_example() -> None:
    a, a_text = average_finish([2, 3, 3])
    b, b_text = average_finish([2, 2, 5])
    assert round(a, 2) == 2.67 and a_text == "(2 + 3 + 3) / 3 = 2.67"
    assert b == 3.0 and b_text == "(2 + 2 + 5) / 3 = 3.00"
    assert a < b  # lower is better: 2.67 beats 3


def _seat(player: int, rank: int, primary: float, secondary: float = 0) -> SeatResult:
    return SeatResult(player=player, rank=rank, primary=primary, secondary=secondary)


@pytest.mark.parametrize(
    ("seats", "size", "message"),
    [
        ([_seat(1, 1, 5), _seat(2, 2, 4)], 3, "table_size 3 but 2 seats"),
        ([_seat(1, 1, 5), _seat(1, 2, 4)], 2, "sits twice"),
        ([_seat(1, 1, 5), _seat(2, 1, 4)], 2, "ranks must be"),
        ([_seat(1, 1, 5), _seat(2, 3, 4)], 2, "ranks must be"),
        ([_seat(1, 1, 4), _seat(2, 2, 5)], 2, "rank 1 has lower"),
        ([_seat(1, 1, 5, 1), _seat(2, 2, 5, 2)], 2, "rank 1 has lower"),
    ],
)
def test_inconsistent_games_are_refused(seats: list[SeatResult], size: int, message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        HeatGame(heat=1, table_size=size, seats=seats)


def test_negative_or_infinite_measures_are_refused() -> None:
    with pytest.raises(ValidationError):
        _seat(1, 1, -1)
    with pytest.raises(ValidationError):
        _seat(1, 1, math.inf)
