"""Time banks: each seat's own clock, which runs only on its turn and gains an increment for
each turn it ends, up to a cap. Out of time, the autopilot moves for it, as at any deadline."""

from datetime import datetime
from typing import Any

from bot.service.options import TableOptions
from bot.service.tables import Table
from bot.store.repo import Repo, SeatRow


def _bank(options: TableOptions, seat: SeatRow) -> float:
    return options.bank_minutes * 60.0 if seat.bank_seconds is None else seat.bank_seconds


def runs_out(options: TableOptions, seat: SeatRow) -> datetime | None:
    """When a seat on turn is out of time (moved into the playing hours); None off turn."""
    if seat.turn_since is None:
        return None
    return options.deadline(seat.turn_since, _bank(options, seat))


def out_of_time(table: Table, now: datetime) -> set[int]:
    """The seats whose bank ran out by `now`."""
    options = TableOptions(**table.row.options)
    return {s.seat for s in table.seats if (end := runs_out(options, s)) and end <= now}


async def settle(
    repo: Repo, table: Table, state: Any, now: datetime, timed_out: set[int]
) -> datetime | None:
    """At the end of a change: a seat whose turn ended, or ran out of time (`timed_out`), pays
    the time it took (not the time the game stood still for a vacation) and gains its
    increment; a seat whose turn began, or goes on after the autopilot's move, starts its clock
    on what it holds. Returns the deadline: the first bank to run out."""
    options = TableOptions(**table.row.options)
    owed = table.game.to_act(state)
    stop = table.row.paused_at or now
    cap, gain = options.cap_minutes * 60.0, options.increment_minutes * 60.0
    ends = []
    for seat in table.seats:
        on = seat.seat in owed and not seat.is_ai
        bank = _bank(options, seat)
        since = seat.turn_since
        if since is not None and (not on or seat.seat in timed_out):
            used = max(0.0, (stop - since).total_seconds())
            bank = min(cap, max(0.0, bank - used) + gain)
            since = None
        if on and since is None:
            since = now
        if (bank, since) != (seat.bank_seconds, seat.turn_since):
            await repo.update_seat(table.row.id, seat.seat, bank_seconds=bank, turn_since=since)
        if on and since is not None:
            ends.append(options.deadline(since, bank))
    return min(ends, default=None)
