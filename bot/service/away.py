"""Vacations as the game clock meets them: whom a game waits for, whether its clock stands
still for someone away, and starting it again when they are back."""

from datetime import datetime
from typing import Any

from bot.service.options import TableOptions, next_due
from bot.service.tables import Table
from bot.store.repo import Repo
from bot.store.vacations import VacationsRepo


def owing(table: Table, state: Any) -> list[int]:
    """The people the game waits for in `state`."""
    acting = table.game.to_act(state)
    return [
        s.user_id
        for s in table.seats
        if s.seat in acting and s.user_id is not None and not (s.is_ai or s.left_game)
    ]


async def paused_from(
    repo: Repo, table: Table, state: Any, now: datetime
) -> tuple[datetime | None, datetime | None]:
    """Within a change that starts a clock: since when it stands still (a person it waits
    for is away now) and when to look again (the first of them back); (None, None) if not."""
    if not TableOptions(**table.row.options).vacations:
        return None, None
    spans = await VacationsRepo(repo).overlapping(owing(table, state), now, now)
    if not spans:
        return None, None
    return table.row.paused_at or now, min(v.ends for v in spans)


async def resume(repo: Repo, table: Table, paused: datetime, back: datetime, now: datetime) -> None:
    """The clock runs again from `back`: the deadline and the time-bank turns move on by the
    time it stood still. The clock counts from `back` now, so the vacations that ended by
    then are never counted again."""
    row, shift = table.row, back - paused
    assert row.deadline is not None
    options = TableOptions(**row.options)
    for seat in table.seats:
        if seat.turn_since is not None:
            await repo.update_seat(row.id, seat.seat, turn_since=seat.turn_since + shift)
    deadline = row.deadline + shift
    deadline = options.hours.next_allowed(deadline) if options.hours else deadline
    await repo.update_game(
        row,
        now,
        paused_at=None,
        deadline=deadline,
        clock_started=back,
        next_due=next_due(back, deadline, now),
    )
