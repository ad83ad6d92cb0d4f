"""Playing hours move a deadline that falls outside them to the minute they open, in the
server's time zone, across midnight and daylight-saving changes."""

from datetime import UTC, datetime

import pytest

from bot.service.hours import PlayingHours, parse_clock

PARIS = PlayingHours(zone="Europe/Paris", start=8 * 60, end=23 * 60)


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def test_a_deadline_within_the_hours_stays() -> None:
    assert PARIS.next_allowed(utc(2026, 1, 10, 12, 0)) == utc(2026, 1, 10, 12, 0)


def test_a_deadline_at_three_in_the_night_moves_to_eight() -> None:
    # 03:00 in Paris in winter is 02:00 UTC; 08:00 Paris is 07:00 UTC.
    assert PARIS.next_allowed(utc(2026, 1, 10, 2, 0)) == utc(2026, 1, 10, 7, 0)


def test_a_deadline_late_in_the_evening_moves_to_the_next_morning() -> None:
    # 23:30 Paris (22:30 UTC) is past the hours: 08:00 the next day.
    assert PARIS.next_allowed(utc(2026, 1, 10, 22, 30)) == utc(2026, 1, 11, 7, 0)


def test_summer_time_moves_the_opening_in_utc() -> None:
    # In July Paris is UTC+2: 08:00 there is 06:00 UTC.
    assert PARIS.next_allowed(utc(2026, 7, 10, 1, 0)) == utc(2026, 7, 10, 6, 0)


def test_the_night_the_clocks_go_forward() -> None:
    # 29 March 2026: Paris skips 02:00–03:00; hours opening at 02:30 open at 03:30 local.
    hours = PlayingHours(zone="Europe/Paris", start=2 * 60 + 30, end=23 * 60)
    assert hours.next_allowed(utc(2026, 3, 29, 0, 10)) == utc(2026, 3, 29, 1, 30)


def test_the_night_the_clocks_go_back() -> None:
    # 25 October 2026: 08:00 Paris is back to UTC+1, 07:00 UTC.
    assert PARIS.next_allowed(utc(2026, 10, 25, 3, 0)) == utc(2026, 10, 25, 7, 0)


def test_hours_that_run_over_midnight() -> None:
    evening = PlayingHours(zone="UTC", start=18 * 60, end=2 * 60)
    assert evening.next_allowed(utc(2026, 1, 10, 1, 0)) == utc(2026, 1, 10, 1, 0)
    assert evening.next_allowed(utc(2026, 1, 10, 3, 0)) == utc(2026, 1, 10, 18, 0)


def test_bad_zones_and_times_are_refused_in_words() -> None:
    with pytest.raises(ValueError, match="is not a time zone"):
        PlayingHours(zone="Mars/Olympus", start=0, end=60)
    with pytest.raises(ValueError, match="is not a time of day"):
        parse_clock("25:00")
    assert parse_clock("8") == 480 and parse_clock("23:30") == 1410
