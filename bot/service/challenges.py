"""Daily challenges without a database: what a challenge is, its day in a time zone, its secret
seed, ranks with shared places, streaks, the week's best five and a season's quarter."""

import hashlib
import hmac
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

WEEK_BEST = 5
"""A week's challenge sums each person's best five days of the seven."""
REMIND_AT = 20 * 60
"""The reminder's time (minutes after midnight in the server's zone): late, with time to play."""


@dataclass(frozen=True)
class Daily:
    """One of a game's daily challenges: everyone plays the same dice alone, within the day."""

    key: str
    """Unique across games (a game's own name, or it with a suffix); stored with each entry."""
    title: str
    """As people name it (the game's title, and what sets this challenge apart)."""
    config: Callable[[date], dict[str, Any]]
    """The engine config of that day's challenge (one seat), such as the week's rotating die."""
    today: Callable[[date], str] = lambda day: ""
    """What is special about that day's challenge, in words ("with the Street Lamps dice")."""


def zone_of(name: str | None) -> ZoneInfo:
    return ZoneInfo(name or "UTC")


def day_of(now: datetime, zone: str | None) -> date:
    """The challenge day at `now` in `zone` (None: UTC)."""
    return now.astimezone(zone_of(zone)).date()


def day_ends(day: date, zone: str | None) -> datetime:
    """When `day` ends in `zone`, in UTC (midnight of the next day there)."""
    nxt = day + timedelta(days=1)
    return datetime.combine(nxt, time(0), zone_of(zone)).astimezone(UTC)


def at_local(day: date, minutes: int, zone: str | None) -> datetime:
    """`minutes` after midnight of `day` in `zone`, in UTC."""
    local = datetime.combine(day, time(minutes // 60, minutes % 60), zone_of(zone))
    return local.astimezone(UTC)


def seed_of(secret: bytes, key: str, day: date) -> int:
    """The day's seed: the same for everyone, and nobody without the secret can foresee it."""
    digest = hmac.new(secret, f"{key}:{day.isoformat()}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:6], "big")


def ranks(scores: Sequence[float]) -> list[int]:
    """Competition ranks of scores sorted from best: ties share a place (1, 2, 2, 4)."""
    out: list[int] = []
    for i, score in enumerate(scores):
        out.append(out[-1] if i and score == scores[i - 1] else i + 1)
    return out


def streaks(days: Iterable[date], today: date) -> tuple[int, int]:
    """(current, longest) runs of consecutive days played; a run is still current if its last
    day is today or yesterday (today may yet be played)."""
    ordered = sorted(set(days))
    longest = run = 0
    previous: date | None = None
    for day in ordered:
        run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
        longest = max(longest, run)
        previous = day
    alive = previous is not None and today - previous <= timedelta(days=1)
    return (run if alive else 0), longest


def week_of(day: date) -> tuple[date, date]:
    """The Monday and Sunday of `day`'s week."""
    monday = day - timedelta(days=day.weekday())
    return monday, monday + timedelta(days=6)


def best_days(scores: Iterable[float]) -> float:
    """A week's total: the best `WEEK_BEST` days."""
    return sum(sorted(scores, reverse=True)[:WEEK_BEST])


def season_of(day: date) -> str:
    """The quarter `day` is in, as "2026-Q4"."""
    return f"{day.year}-Q{(day.month - 1) // 3 + 1}"


def season_bounds(season: str) -> tuple[date, date]:
    """A season's first day and the first day after it."""
    year, quarter = int(season[:4]), int(season[-1])
    first = date(year, 3 * quarter - 2, 1)
    after = date(year + 1, 1, 1) if quarter == 4 else date(year, 3 * quarter + 1, 1)
    return first, after


DAILY_POINTS = (3, 2, 1)
"""Season points for a server's top three of a day's challenge, beyond one for taking part."""


def daily_points(rank: int) -> int:
    """Season points for a day's entry placed `rank` in its server."""
    return 1 + (DAILY_POINTS[rank - 1] if rank <= len(DAILY_POINTS) else 0)


def game_points(players: int, rank: int) -> int:
    """Season points for a rated game: one per seat finished behind."""
    return max(0, players - rank)


SEASON_RULES = (
    "Season points: a rated game gives one point per player you finished ahead of; a daily "
    "gives one for taking part and 3, 2 or 1 more for the server's top three that day."
)
