"""Table options chosen when a lobby opens (the game's own rules options live in its Config)."""

from datetime import datetime, timedelta

from pydantic import BaseModel, ConfigDict, Field

from bot.service.hours import PlayingHours


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

    def deadline(self, now: datetime) -> datetime:
        """A round's or turn's deadline starting now, moved into the playing hours."""
        due = now + timedelta(minutes=self.deadline_minutes)
        return self.hours.next_allowed(due) if self.hours else due


def reminder_marks(options: dict, deadline: datetime) -> list[datetime]:
    """When reminders are due before `deadline`: half time, then one hour left (a mark before
    the round or turn began is none)."""
    span = timedelta(minutes=TableOptions(**options).deadline_minutes)
    marks = [deadline - span / 2, deadline - timedelta(hours=1)]
    return [m for m in marks if m > deadline - span]


def next_due(options: dict, deadline: datetime | None, after: datetime) -> datetime | None:
    """When a game with this deadline next needs the tick: its first reminder mark after
    `after`, else the deadline itself."""
    if deadline is None:
        return None
    return min((m for m in reminder_marks(options, deadline) if after < m), default=deadline)
