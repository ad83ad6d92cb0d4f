"""Rows of the people table (what each person sets for themself) and of the heads-ups given."""

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.store.backend import Row
from bot.store.repo import Repo


@dataclass(frozen=True, slots=True)
class PersonRow:
    user_id: int
    zone: str
    quiet_start: int | None
    quiet_end: int | None
    heads_up: bool
    digest: bool
    digest_at: int
    last_digest: str | None
    """The day (in their zone, "2026-03-29") of the last digest."""
    digest_due: datetime | None


def _person(row: Row) -> PersonRow:
    return PersonRow(
        user_id=row["user_id"],
        zone=row["zone"],
        quiet_start=row["quiet_start"],
        quiet_end=row["quiet_end"],
        heads_up=bool(row["heads_up"]),
        digest=bool(row["digest"]),
        digest_at=row["digest_at"],
        last_digest=row["last_digest"],
        digest_due=datetime.fromisoformat(row["digest_due"]) if row["digest_due"] else None,
    )


class PeopleRepo:
    """All SQL of the people and heads-ups tables, on the session of the `Repo` block it runs in."""

    def __init__(self, repo: Repo) -> None:
        self.repo = repo

    async def of(self, user_ids: list[int]) -> dict[int, PersonRow]:
        """The rows of those of these people who set anything, by user id."""
        if not user_ids:
            return {}
        marks = ",".join("?" * len(user_ids))
        rows = await self.repo.all(f"SELECT * FROM people WHERE user_id IN ({marks})", user_ids)
        return {r["user_id"]: _person(r) for r in rows}

    async def save(self, user_id: int, digest_due: datetime | None, **fields: Any) -> None:
        """Store a person's settings (`fields`: every column but the digest's bookkeeping)."""
        columns = ["user_id", *fields, "digest_due"]
        values = [user_id, *fields.values(), digest_due.isoformat() if digest_due else None]
        sets = ", ".join(f"{c} = excluded.{c}" for c in columns[1:])
        await self.repo.execute(
            f"INSERT INTO people ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))}) "
            f"ON CONFLICT (user_id) DO UPDATE SET {sets}",
            values,
        )

    async def digests_due(self, now: datetime, limit: int) -> list[int]:
        """People whose digest is due, longest due first."""
        rows = await self.repo.all(
            "SELECT user_id FROM people WHERE digest_due IS NOT NULL AND digest_due <= ? "
            "ORDER BY digest_due LIMIT ?",
            (now.isoformat(), limit),
        )
        return [r["user_id"] for r in rows]

    async def claim_digest(self, user_id: int, day: str, then: datetime, now: datetime) -> bool:
        """Take the due digest of `day` and schedule the next at `then`; False when another
        process took it, or that day had its digest (the bookkeeping moves on all the same)."""
        args = (day, then.isoformat(), user_id, now.isoformat())
        if await self.repo.execute(
            "UPDATE people SET last_digest = ?, digest_due = ? WHERE user_id = ? "
            "AND digest_due <= ? AND (last_digest IS NULL OR last_digest <> ?)",
            (*args, day),
        ):
            return True
        await self.repo.execute(
            "UPDATE people SET digest_due = ? WHERE user_id = ? AND digest_due <= ?", args[1:]
        )
        return False

    async def postpone_digest(self, user_id: int, then: datetime) -> None:
        await self.repo.execute(
            "UPDATE people SET digest_due = ? WHERE user_id = ?", (then.isoformat(), user_id)
        )

    async def turns_came(self, game_id: int, seats: list[int]) -> None:
        """These seats' turns have come: their heads-ups are spent."""
        marks = ",".join("?" * len(seats))
        await self.repo.execute(
            f"DELETE FROM heads_ups WHERE game_id = ? AND seat IN ({marks})", (game_id, *seats)
        )

    async def claim_heads_up(self, game_id: int, seat: int) -> bool:
        """Note that the seat was told its turn comes next; False if it was already."""
        return bool(
            await self.repo.execute(
                "INSERT INTO heads_ups (game_id, seat) VALUES (?, ?) ON CONFLICT DO NOTHING",
                (game_id, seat),
            )
        )
