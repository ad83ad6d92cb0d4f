"""Playing hours: the times of day, in a server's time zone, at which deadlines may fall. A
deadline outside them moves to the next allowed minute, so nobody times out at 03:00."""

from datetime import UTC, datetime, timedelta
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from pydantic import BaseModel, ConfigDict, Field, field_validator

DAY = 24 * 60


class PlayingHours(BaseModel):
    """From `start` to `end` (minutes after local midnight) in time zone `zone`; an `end` before
    `start` runs over midnight (18:00–02:00)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    zone: str
    start: int = Field(ge=0, lt=DAY)
    end: int = Field(ge=0, lt=DAY)

    @field_validator("zone")
    @classmethod
    def _known(cls, zone: str) -> str:
        try:
            ZoneInfo(zone)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(f"“{zone[:40]}” is not a time zone (try e.g. Europe/Paris)") from None
        return zone

    def allows(self, minute: int) -> bool:
        """Whether a deadline may fall at this minute of the day."""
        if self.start == self.end:
            return True
        if self.start < self.end:
            return self.start <= minute < self.end
        return minute >= self.start or minute < self.end

    def next_allowed(self, when: datetime) -> datetime:
        """`when` if it falls within the hours, else the next minute at which they open (in UTC).
        A local time skipped by a daylight-saving change is taken an hour later, as clocks do."""
        zone = ZoneInfo(self.zone)
        local = when.astimezone(zone)
        if self.allows(local.hour * 60 + local.minute):
            return when
        day = local.date()
        if local.hour * 60 + local.minute >= self.start:
            day += timedelta(days=1)
        naive = datetime(day.year, day.month, day.day, self.start // 60, self.start % 60)
        opens = naive.replace(tzinfo=zone)
        # A time that does not exist that day (spring forward) round-trips to a later one.
        return opens.astimezone(UTC).astimezone(zone).astimezone(UTC)

    def words(self) -> str:
        """ "08:00–23:00 Europe/Paris"."""
        return f"{clock_text(self.start)}–{clock_text(self.end)} {self.zone}"


def clock_text(minute: int) -> str:
    """Minutes after midnight as a time of day, "08:30"."""
    return f"{minute // 60:02d}:{minute % 60:02d}"


def parse_clock(text: str) -> int:
    """ "8", "08:30" or "23:00" as minutes after midnight."""
    hours, _, minutes = text.strip().partition(":")
    if not hours.isdigit() or (minutes and not minutes.isdigit()):
        raise ValueError(f"“{text[:20]}” is not a time of day like 08:00")
    value = int(hours) * 60 + int(minutes or 0)
    if int(hours) > 23 or int(minutes or 0) > 59:
        raise ValueError(f"“{text[:20]}” is not a time of day like 08:00")
    return value


def zones_like(text: str, limit: int = 25) -> list[str]:
    """Time zone names containing `text`, shortest first (for autocomplete)."""
    needle = text.strip().lower().replace(" ", "_")
    return [z for z in _zones() if needle in z.lower()][:limit]


@cache
def _zones() -> list[str]:
    """Every zone name, shortest first: read from disk once, not at every keystroke."""
    return sorted(available_timezones(), key=len)
