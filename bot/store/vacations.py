"""Rows of the vacations table: the spans people declared they are away."""

from dataclasses import dataclass
from datetime import datetime

from bot.store.backend import Row
from bot.store.repo import Repo


@dataclass(frozen=True, slots=True)
class VacationRow:
    id: int
    user_id: int
    starts: datetime
    ends: datetime


def _vacation(row: Row) -> VacationRow:
    return VacationRow(
        id=row["id"],
        user_id=row["user_id"],
        starts=datetime.fromisoformat(row["starts"]),
        ends=datetime.fromisoformat(row["ends"]),
    )


class VacationsRepo:
    """All SQL of the vacations table, on the session of the `Repo` block it runs in."""

    def __init__(self, repo: Repo) -> None:
        self.repo = repo

    async def of(self, user_id: int, ending_after: datetime) -> list[VacationRow]:
        """A person's vacations that end after `ending_after`, earliest first."""
        rows = await self.repo.all(
            "SELECT * FROM vacations WHERE user_id = ? AND ends > ? ORDER BY starts",
            (user_id, ending_after.isoformat()),
        )
        return [_vacation(r) for r in rows]

    async def since(self, user_id: int, start: datetime) -> list[VacationRow]:
        """A person's vacations that start at or after `start` (a year's allowance)."""
        rows = await self.repo.all(
            "SELECT * FROM vacations WHERE user_id = ? AND starts >= ? ORDER BY starts",
            (user_id, start.isoformat()),
        )
        return [_vacation(r) for r in rows]

    async def overlapping(
        self, user_ids: list[int], start: datetime, end: datetime
    ) -> list[VacationRow]:
        """The vacations of these people that overlap [start, end]."""
        if not user_ids:
            return []
        marks = ",".join("?" * len(user_ids))
        rows = await self.repo.all(
            f"SELECT * FROM vacations WHERE user_id IN ({marks}) AND starts <= ? AND ends > ? "
            "ORDER BY starts",
            (*user_ids, end.isoformat(), start.isoformat()),
        )
        return [_vacation(r) for r in rows]

    async def add(self, user_id: int, starts: datetime, ends: datetime, now: datetime) -> int:
        return await self.repo.insert(
            "INSERT INTO vacations (user_id, starts, ends, created_at) VALUES (?, ?, ?, ?)",
            (user_id, starts.isoformat(), ends.isoformat(), now.isoformat()),
        )

    async def end(self, vacation_id: int, at: datetime) -> None:
        await self.repo.execute(
            "UPDATE vacations SET ends = ? WHERE id = ?", (at.isoformat(), vacation_id)
        )

    async def drop(self, vacation_id: int) -> None:
        await self.repo.execute("DELETE FROM vacations WHERE id = ?", (vacation_id,))

    async def bring_due(self, user_id: int, at: datetime) -> None:
        """The person's running games that allow vacations need the tick by `at`."""
        await self.repo.execute(
            "UPDATE games SET next_due = CASE WHEN next_due IS NULL OR next_due > ? THEN ? "
            "ELSE next_due END WHERE status = 'active' AND id IN (SELECT game_id FROM seats "
            "WHERE user_id = ? AND left_game = 0 AND is_ai = 0)",
            (at.isoformat(), at.isoformat(), user_id),
        )
