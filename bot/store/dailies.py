"""All SQL of the daily challenges: the secret, entries, the days and seasons closed, what servers
set, and the reminders."""

import secrets
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from bot.store.backend import Row
from bot.store.repo import Repo


@dataclass(frozen=True, slots=True)
class EntryRow:
    challenge: str
    day: date
    user_id: int
    name: str
    guild_id: int
    """0: started in DMs."""
    channel_id: int
    game_id: int | None
    closes_at: datetime
    score: float | None
    finished_at: datetime | None
    closed: bool

    @property
    def finished(self) -> bool:
        return self.finished_at is not None


def _entry(row: Row) -> EntryRow:
    return EntryRow(
        challenge=row["challenge"],
        day=date.fromisoformat(row["day"]),
        user_id=row["user_id"],
        name=row["name"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        game_id=row["game_id"],
        closes_at=datetime.fromisoformat(row["closes_at"]),
        score=row["score"],
        finished_at=datetime.fromisoformat(row["finished_at"]) if row["finished_at"] else None,
        closed=bool(row["closed"]),
    )


class DailyRepo:
    """The daily tables, on the session of the `Repo` block it runs in."""

    def __init__(self, repo: Repo) -> None:
        self.repo = repo

    async def secret(self) -> bytes:
        """The seeds' key, made once by whichever process needs it first."""
        await self.repo.execute(
            "INSERT INTO daily_secret (id, secret) VALUES (1, ?) ON CONFLICT DO NOTHING",
            (secrets.token_hex(32),),
        )
        row = await self.repo.one("SELECT secret FROM daily_secret WHERE id = 1")
        assert row is not None
        return bytes.fromhex(row["secret"])

    async def claim(
        self,
        challenge: str,
        day: date,
        user_id: int,
        name: str,
        guild_id: int,
        channel_id: int,
        closes_at: datetime,
    ) -> bool:
        """Take the person's one entry of the day; False if they have it already."""
        args = (challenge, day.isoformat(), user_id, name, guild_id, channel_id)
        return bool(
            await self.repo.execute(
                "INSERT INTO daily_entries (challenge, day, user_id, name, guild_id, channel_id, "
                "closes_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (*args, closes_at.isoformat()),
            )
        )

    async def set_game(self, challenge: str, day: date, user_id: int, game_id: int) -> None:
        await self.repo.execute(
            "UPDATE daily_entries SET game_id = ? WHERE challenge = ? AND day = ? AND user_id = ?",
            (game_id, challenge, day.isoformat(), user_id),
        )

    async def entry(self, challenge: str, day: date, user_id: int) -> EntryRow | None:
        row = await self.repo.one(
            "SELECT * FROM daily_entries WHERE challenge = ? AND day = ? AND user_id = ?",
            (challenge, day.isoformat(), user_id),
        )
        return _entry(row) if row else None

    async def entry_of_game(self, game_id: int) -> EntryRow | None:
        row = await self.repo.one("SELECT * FROM daily_entries WHERE game_id = ?", (game_id,))
        return _entry(row) if row else None

    async def finished(self, game_id: int, score: float, now: datetime) -> bool:
        """The entry played as `game_id` ended with `score`; False if it is no entry (or the
        day closed before)."""
        return bool(
            await self.repo.execute(
                "UPDATE daily_entries SET score = ?, finished_at = ? "
                "WHERE game_id = ? AND closed = 0",
                (score, now.isoformat(), game_id),
            )
        )

    async def of_day(self, challenge: str, day: date, guild_id: int | None) -> list[EntryRow]:
        """The day's entries of a challenge, best first (None: in every server); an entry still
        under way has no score yet and comes last."""
        where = "" if guild_id is None else " AND guild_id = ?"
        args: tuple[Any, ...] = (challenge, day.isoformat())
        rows = await self.repo.all(
            f"SELECT * FROM daily_entries WHERE challenge = ? AND day = ?{where} "
            "ORDER BY score IS NULL, score DESC, finished_at, user_id",
            args if guild_id is None else (*args, guild_id),
        )
        return [_entry(r) for r in rows]

    async def of_person(self, user_id: int, since: date | None = None) -> list[EntryRow]:
        rows = await self.repo.all(
            "SELECT * FROM daily_entries WHERE user_id = ? AND day >= ? ORDER BY day",
            (user_id, (since or date.min).isoformat()),
        )
        return [_entry(r) for r in rows]

    async def between(self, guild_id: int, first: date, after: date) -> list[EntryRow]:
        """A server's entries of days `first` to before `after`."""
        rows = await self.repo.all(
            "SELECT * FROM daily_entries WHERE guild_id = ? AND day >= ? AND day < ? "
            "ORDER BY day, challenge",
            (guild_id, first.isoformat(), after.isoformat()),
        )
        return [_entry(r) for r in rows]

    async def due_closings(self, now: datetime, limit: int) -> list[tuple[int, str, date]]:
        """(server, challenge, day) of days ended with entries not yet closed."""
        rows = await self.repo.all(
            "SELECT DISTINCT guild_id, challenge, day FROM daily_entries "
            "WHERE closed = 0 AND closes_at <= ? ORDER BY day LIMIT ?",
            (now.isoformat(), limit),
        )
        return [(r["guild_id"], r["challenge"], date.fromisoformat(r["day"])) for r in rows]

    async def claim_closing(self, guild_id: int, challenge: str, day: date, now: datetime) -> bool:
        """Take the closing of a server's day; False if another process did."""
        return bool(
            await self.repo.execute(
                "INSERT INTO daily_closings VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (guild_id, challenge, day.isoformat(), now.isoformat()),
            )
        )

    async def close(self, entry: EntryRow, score: float | None) -> None:
        """Close an entry, with the score of what it had if it was still under way."""
        await self.repo.execute(
            "UPDATE daily_entries SET closed = 1, score = coalesce(score, ?) "
            "WHERE challenge = ? AND day = ? AND user_id = ?",
            (score, entry.challenge, entry.day.isoformat(), entry.user_id),
        )

    async def server(self, guild_id: int) -> Row | None:
        return await self.repo.one("SELECT * FROM daily_servers WHERE guild_id = ?", (guild_id,))

    async def set_server(self, guild_id: int, **fields: Any) -> None:
        """Store what a server sets (`channel_id`, `champion_role`, `champion_id`)."""
        columns = ["guild_id", *fields]
        sets = ", ".join(f"{c} = excluded.{c}" for c in fields)
        await self.repo.execute(
            f"INSERT INTO daily_servers ({', '.join(columns)}) "
            f"VALUES ({', '.join('?' * len(columns))}) ON CONFLICT (guild_id) DO UPDATE SET {sets}",
            (guild_id, *fields.values()),
        )

    async def remind(self, user_id: int, guild_id: int, zone: str, due: datetime | None) -> None:
        """Ask for (a `due` time) or stop (None) the reminder on days not played."""
        if due is None:
            await self.repo.execute("DELETE FROM daily_reminders WHERE user_id = ?", (user_id,))
            return
        await self.repo.execute(
            "INSERT INTO daily_reminders VALUES (?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE "
            "SET guild_id = excluded.guild_id, zone = excluded.zone, due = excluded.due",
            (user_id, guild_id, zone, due.isoformat()),
        )

    async def reminder(self, user_id: int) -> Row | None:
        return await self.repo.one("SELECT * FROM daily_reminders WHERE user_id = ?", (user_id,))

    async def reminders_due(self, now: datetime, limit: int) -> list[Row]:
        return await self.repo.all(
            "SELECT * FROM daily_reminders WHERE due <= ? ORDER BY due LIMIT ?",
            (now.isoformat(), limit),
        )

    async def move_reminder(self, user_id: int, was: str, due: datetime) -> bool:
        """Move a due reminder on to `due`; False if another process moved it first."""
        return bool(
            await self.repo.execute(
                "UPDATE daily_reminders SET due = ? WHERE user_id = ? AND due = ?",
                (due.isoformat(), user_id, was),
            )
        )

    async def season_servers(self, season: str, first: date, after: date) -> list[int]:
        """Servers that play dailies (an entry in the season, or settings of their own) whose
        `season` (days `first` to before `after`) is not closed."""
        rows = await self.repo.all(
            "SELECT guild_id FROM (SELECT guild_id FROM daily_entries WHERE guild_id <> 0 "
            "AND day >= ? AND day < ? UNION SELECT guild_id FROM daily_servers) s "
            "WHERE guild_id NOT IN (SELECT guild_id FROM season_closings WHERE season = ?)",
            (first.isoformat(), after.isoformat(), season),
        )
        return [r["guild_id"] for r in rows]

    async def claim_season(
        self, guild_id: int, season: str, champion: int | None, now: datetime
    ) -> bool:
        return bool(
            await self.repo.execute(
                "INSERT INTO season_closings VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (guild_id, season, champion, now.isoformat()),
            )
        )

    async def rated_results(self, guild_id: int, first: date, after: date) -> list[Row]:
        """A server's rated results of people (not AI seats) finished in a season."""
        return await self.repo.all(
            "SELECT user_id, name, rank, players, finished_at FROM results WHERE guild_id = ? "
            "AND rated = 1 AND status = 'finished' AND user_id IS NOT NULL AND finished_at >= ? "
            "AND finished_at < ?",
            (guild_id, first.isoformat(), after.isoformat()),
        )
