"""When a tournament starts, as an organiser types it in their server's time zone."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from bot.service.errors import UserError

FORMAT = "YYYY-MM-DD HH:MM"
FURTHEST = timedelta(days=365)


def start_time(text: str, zone: str | None, now: datetime) -> datetime:
    """`text` ("2026-12-05 18:00") in `zone` (None: UTC) as an aware time, refused unless it is
    in the future and within a year."""
    try:
        local = datetime.strptime(text.strip(), "%Y-%m-%d %H:%M")
    except ValueError:
        raise UserError(f"“{text}” is not a start time: write it as {FORMAT}.") from None
    at = local.replace(tzinfo=ZoneInfo(zone or "UTC"))
    if at <= now:
        raise UserError(f"{text} ({zone or 'UTC'}) has passed: choose a time to come.")
    if at - now > FURTHEST:
        raise UserError("A tournament starts within a year.")
    return at
