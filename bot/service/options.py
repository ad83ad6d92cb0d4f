"""Table options chosen when a lobby opens (the game's own rules options live in its Config)."""

from datetime import UTC, datetime, timedelta
from typing import Literal
from zoneinfo import ZoneInfo

from pydantic import BaseModel, ConfigDict, Field, model_validator

from bot.service.hours import DAY, PlayingHours
from bot.store.repo import GameRow

CLOCK_NAMES = {"move": "deadline per move", "daily": "daily deadline", "bank": "time bank"}
"""The clock models as people name them."""
DAILY_LEAST = timedelta(hours=12)
"""A round or turn under a daily deadline gets at least this long: the deadline is the first
daily time this far ahead (a round that starts at 19:30 closes at 20:00 the next day)."""


class TableOptions(BaseModel):
    """How a table runs: deadlines, reminders, size, rating, where it plays."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    deadline_minutes: int = Field(24 * 60, ge=10, le=7 * 24 * 60)
    """Per-round deadline: 10 minutes to 7 days."""
    max_players: int = Field(6, ge=1, le=12)
    rated: bool = True
    reminders: int = Field(3, ge=0, le=3)
    """At most this many reminder DMs per seat and round (half time, one hour left, last one)."""
    timeouts_before_ai: int = Field(2, ge=1, le=10)
    """Consecutive timeouts after which a seat is handed to an AI."""
    thread: bool = False
    """Play in a new thread of the channel rather than in the channel itself."""
    hours: PlayingHours | None = None
    """When deadlines may fall (the server's playing hours when the game opened)."""
    clock: Literal["move", "daily", "bank"] = "move"
    """A deadline per round or turn; one fixed time of day; or a time bank per seat."""
    daily_at: int = Field(20 * 60, ge=0, lt=DAY)
    """A daily deadline's time (minutes after midnight in the playing hours' zone, else UTC)."""
    bank_minutes: int = Field(3 * DAY, ge=60, le=30 * DAY)
    """A time-bank seat's time at the start."""
    increment_minutes: int = Field(12 * 60, ge=0, le=7 * DAY)
    """What a time-bank seat gains for each turn it ends."""
    cap_minutes: int = Field(7 * DAY, ge=60, le=60 * DAY)
    """The most a time bank may hold."""
    vacations: bool = True
    """A person on vacation stops the clocks that wait for them (tournaments refuse)."""
    min_reliability: int = Field(0, ge=0, le=100)
    """A person may join only if reliable in at least this share (percent) of their last 20
    games; 0: anyone."""

    @model_validator(mode="after")
    def _bank_fits(self) -> "TableOptions":
        if self.clock == "bank" and self.cap_minutes < self.bank_minutes:
            raise ValueError("a time bank's cap must hold at least its starting time")
        if self.clock == "bank" and self.increment_minutes < 60:
            # Out of time, a seat goes on with its increment alone: with none, it would time
            # out again at once.
            raise ValueError("a time bank needs an increment of at least an hour per turn")
        return self

    def deadline(self, now: datetime, bank: float | None = None) -> datetime:
        """A round's or turn's deadline for a clock starting now (a time-bank seat's: `bank`
        seconds from now), moved into the playing hours."""
        if self.clock == "daily":
            zone = ZoneInfo(self.hours.zone) if self.hours else UTC
            local = (now + DAILY_LEAST).astimezone(zone)
            day = local.date()
            if local.hour * 60 + local.minute > self.daily_at:
                day += timedelta(days=1)
            at = datetime(day.year, day.month, day.day, self.daily_at // 60, self.daily_at % 60)
            # Through UTC and back: a time skipped by a daylight-saving change comes an hour later.
            due = at.replace(tzinfo=zone).astimezone(UTC)
        elif self.clock == "bank":
            seconds = self.bank_minutes * 60 if bank is None else bank
            due = now + timedelta(seconds=seconds)
        else:
            due = now + timedelta(minutes=self.deadline_minutes)
        return self.hours.next_allowed(due) if self.hours else due


def clock_start(row: GameRow) -> datetime:
    """When the running clock began: as stored, or (a game from before it was stored) one full
    deadline before its deadline."""
    assert row.deadline is not None
    span = timedelta(minutes=TableOptions(**row.options).deadline_minutes)
    return row.clock_started or row.deadline - span


def reminder_marks(started: datetime, deadline: datetime) -> list[datetime]:
    """When reminders are due within a clock from `started` to `deadline`: half time, then one
    hour left (a mark before the clock began is none)."""
    marks = [started + (deadline - started) / 2, deadline - timedelta(hours=1)]
    return [m for m in marks if m > started]


def next_due(started: datetime, deadline: datetime | None, after: datetime) -> datetime | None:
    """When a game with this clock next needs the tick: its first reminder mark after `after`,
    else the deadline itself."""
    if deadline is None:
        return None
    return min((m for m in reminder_marks(started, deadline) if after < m), default=deadline)
