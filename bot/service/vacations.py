"""Vacations: a person declares a span away (within a yearly allowance of days), and every
game that allows it stops the clock that waits for them, starting it again when they are back,
moved on by the time they were away."""

import math
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

from bot.service.away import owing, resume
from bot.service.errors import UserError
from bot.service.loop import Loop
from bot.service.options import TableOptions
from bot.service.preferences import Personal
from bot.service.tables import Table
from bot.store.repo import Repo
from bot.store.vacations import VacationRow, VacationsRepo

ALLOWANCE_DAYS = 14
"""Days of vacation a person may take per calendar year (UTC), counted by the year they begin."""
DAY = timedelta(days=1)


@dataclass(frozen=True, slots=True)
class Away:
    """A person's vacations as `/vacation` shows them."""

    current: VacationRow | None
    """The span they are in now, or the next one they declared."""
    remaining: int
    """Days of this year's allowance not yet taken."""
    waits: list[str]
    """The running games whose clocks stop for them (labels)."""
    runs: list[str]
    """The running games whose hosts refused vacations: their clocks keep running."""


def days_of(vacation: VacationRow) -> int:
    """The days a span counts against the allowance: each started day."""
    return max(1, math.ceil((vacation.ends - vacation.starts) / DAY))


class Vacations(Loop, Personal):
    """Declaring, ending and honouring vacations."""

    async def take_vacation(self, user_id: int, days: int, start: date | None) -> Away:
        """Declare `days` away from `start` (midnight in their own zone, `/settings zone`) or
        from now."""
        now = self.clock.now()
        starts = now
        if start is not None:
            zone = ZoneInfo((await self.preferences(user_id)).zone)
            starts = datetime(start.year, start.month, start.day, tzinfo=zone).astimezone(UTC)
        if starts < now - DAY:
            raise UserError("A vacation can't start in the past: give today or a later date.")
        starts = max(starts, now)
        if starts > now + timedelta(days=365):
            raise UserError("A vacation can be declared at most a year ahead.")
        ends = starts + timedelta(days=days)
        async with self.repo.transaction() as repo:
            store = VacationsRepo(repo)
            left = await self._remaining(store, user_id, starts)
            if await store.overlapping([user_id], starts, ends):
                raise UserError(
                    "That overlaps a vacation you already declared: see `/vacation show`, or "
                    f"end it with `/vacation end` first. Days left for {starts.year}: {left} of "
                    f"{ALLOWANCE_DAYS}."
                )
            if days > left:
                raise UserError(
                    f"You have {left} day{'s' if left != 1 else ''} of vacation left for "
                    f"{starts.year} (of {ALLOWANCE_DAYS}); ask for fewer."
                )
            await store.add(user_id, starts, ends, now)
            await store.bring_due(user_id, starts)
            for lobby in await repo.games_of(user_id, ("lobby",)):
                await repo.queue(lobby.id, "lobby", {}, now)  # its seat line says "away"
            for table in await self._running_of(repo, user_id):
                if TableOptions(**table.row.options).vacations:
                    seat = table.seat_of(user_id)
                    assert seat is not None
                    payload = {"seat": seat.seat, "starts": starts.isoformat()}
                    await repo.queue(
                        table.row.id, "away", {**payload, "ends": ends.isoformat()}, now
                    )
        return await self.away(user_id)

    async def end_vacation(self, user_id: int) -> Away:
        """Back early: the running vacation ends now (its unused days return to the allowance);
        one declared for later is dropped."""
        now = self.clock.now()
        async with self.repo.transaction() as repo:
            store = VacationsRepo(repo)
            spans = await store.of(user_id, now)
            if not spans:
                raise UserError("You have no vacation running or declared.")
            span = spans[0]
            if span.starts <= now:
                await store.end(span.id, now)
            else:
                await store.drop(span.id)
            await store.bring_due(user_id, now)
        return await self.away(user_id)

    async def away(self, user_id: int) -> Away:
        now = self.clock.now()
        async with self.repo.reading() as repo:
            store = VacationsRepo(repo)
            spans = await store.of(user_id, now)
            current = spans[0] if spans else None
            remaining = await self._remaining(store, user_id, current.starts if current else now)
            tables = await self._running_of(repo, user_id)
        waits = [t.label for t in tables if TableOptions(**t.row.options).vacations]
        runs = [t.label for t in tables if not TableOptions(**t.row.options).vacations]
        return Away(current, remaining, waits, runs)

    async def away_in(self, table: Table) -> dict[int, datetime]:
        """When each seated person now on vacation (or about to leave) is back, by user id."""
        people = [s.user_id for s in table.seats if s.user_id is not None]
        now = self.clock.now()
        async with self.repo.reading() as repo:
            spans = await VacationsRepo(repo).overlapping(people, now, now + DAY)
        return {v.user_id: v.ends for v in spans}

    @staticmethod
    async def _remaining(store: VacationsRepo, user_id: int, when: datetime) -> int:
        year = datetime(when.year, 1, 1, tzinfo=UTC)
        taken = [v for v in await store.since(user_id, year) if v.starts.year == when.year]
        return ALLOWANCE_DAYS - sum(days_of(v) for v in taken)

    async def _running_of(self, repo: Repo, user_id: int) -> list[Table]:
        return [
            t
            for row in await repo.games_of(user_id, ("active",))
            if (t := await self._table(row.id)).seat_of(user_id) is not None
        ]

    async def _away(self, game_id: int, now: datetime) -> None:
        """In the tick: stop the clock of a game whose awaited person went away before its
        deadline; start it again when everyone it waits for is back, moved on by the pause."""
        row = await self.repo.game(game_id)
        if row is None or row.status != "active" or row.deadline is None:
            return
        if not TableOptions(**row.options).vacations:
            return
        started = row.clock_started or now
        people = [s.user_id for s in await self.repo.seats(game_id) if s.user_id is not None]
        spans = await VacationsRepo(self.repo).overlapping(people, row.paused_at or started, now)
        if not spans and row.paused_at is None:
            return  # nobody seated was away: the game's state need not be read
        table = await self._table(game_id)
        waited = owing(table, table.state)
        spans = [v for v in spans if v.user_id in waited]
        paused = row.paused_at
        if paused is None:
            left = [v for v in spans if v.starts < row.deadline]
            if not left:
                return
            paused = max(started, min(v.starts for v in left))
        still = [v for v in spans if v.starts <= now < v.ends]
        if still:
            await self.repo.update_game(
                row, now, paused_at=paused, next_due=min(v.ends for v in still)
            )
            return
        back = max((v.ends for v in spans if paused < v.ends <= now), default=now)
        await resume(self.repo, table, paused, back, now)
