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


async def settle(repo: Repo, table: Table, state: Any, now: datetime) -> datetime | None:
    """At the end of a change: a seat whose turn ended pays the time it took (not the time the
    game stood still for a vacation) and gains its increment; a seat whose turn began starts
    its clock. Returns the deadline: the first bank to run out."""
    options = TableOptions(**table.row.options)
    owed = table.game.to_act(state)
    stop = table.row.paused_at or now
    cap, gain = options.cap_minutes * 60.0, options.increment_minutes * 60.0
    ends = []
    for seat in table.seats:
        on = seat.seat in owed and not seat.is_ai
        bank = _bank(options, seat)
        if seat.turn_since is not None and not on:
            used = max(0.0, (stop - seat.turn_since).total_seconds())
            bank = min(cap, max(0.0, bank - used) + gain)
            await repo.update_seat(table.row.id, seat.seat, bank_seconds=bank, turn_since=None)
        elif on and seat.turn_since is None:
            await repo.update_seat(table.row.id, seat.seat, bank_seconds=bank, turn_since=now)
            ends.append(options.deadline(now, bank))
        elif on and (end := runs_out(options, seat)):
            ends.append(end)
    return min(ends, default=None)
