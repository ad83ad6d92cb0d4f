"""Daily challenges: everyone plays the day's dice alone in their DMs, once; the day closes once
per server with one leaderboard post; streaks, the week's best five, seasons and reminders."""

import logging
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import cache
from typing import Any

from bot.service import results
from bot.service.challenges import (
    REMIND_AT,
    Daily,
    at_local,
    best_days,
    daily_points,
    day_ends,
    day_of,
    game_points,
    ranks,
    season_bounds,
    season_of,
    seed_of,
    streaks,
    week_of,
)
from bot.service.errors import UserError
from bot.service.hosting import Hosted, hosted
from bot.service.loop import Loop
from bot.service.options import TableOptions
from bot.service.tables import Table
from bot.store.dailies import DailyRepo, EntryRow
from bot.store.repo import Repo

log = logging.getLogger(__name__)

CLOSINGS = 50
"""Days closed (and reminders sent) per tick at most; the rest wait for the next tick."""
DAILY_OPTIONS = TableOptions(
    deadline_minutes=7 * 24 * 60,
    max_players=1,
    rated=False,
    reminders=0,
    timeouts_before_ai=10,
    vacations=False,
)
"""An entry has no round deadline: the day's end closes it, with what it has."""
SEASON_GRACE = timedelta(days=14)
"""How far into a season the last one may still be closed and its champion announced."""


@cache
def challenges() -> dict[str, tuple[Hosted, Daily]]:
    """Every hosted game's daily challenges by key."""
    return {d.key: (h, d) for h in hosted().values() for d in h.dailies}


def challenge(key: str) -> tuple[Hosted, Daily]:
    found = challenges().get(key)
    if found is None:
        names = ", ".join(d.title for _, d in challenges().values())
        raise UserError(f"There is no daily challenge “{key}”; there are: {names}.")
    return found


@dataclass(frozen=True, slots=True)
class Placed:
    """An entry with its place among the day's scored entries (None: still under way)."""

    entry: EntryRow
    rank: int | None


@dataclass(frozen=True, slots=True)
class DayBoard:
    """A challenge's day in a server (or all servers): the entries ranked, and the asker's."""

    key: str
    title: str
    day: date
    closes_at: datetime
    placed: list[Placed]
    mine: Placed | None

    @property
    def scored(self) -> list[Placed]:
        return [p for p in self.placed if p.rank is not None]

    def beaten_by(self, placed: Placed) -> int:
        """How many scored strictly more."""
        return sum(1 for p in self.scored if (p.entry.score or 0) > (placed.entry.score or 0))


@dataclass(frozen=True, slots=True)
class Streak:
    current: int
    longest: int
    played_today: bool


@dataclass(frozen=True, slots=True)
class Standing:
    """A person's line in a week's or a season's table."""

    user_id: int
    name: str
    points: float
    rank: int
    detail: str


def place_entries(entries: list[EntryRow]) -> list[Placed]:
    """Ranks (ties share a place) of the entries with a score (finished, or ended by the day's
    close), best first; then those still under way."""
    scored = sorted((e for e in entries if e.score is not None), key=lambda e: -(e.score or 0))
    placed = [
        Placed(e, r) for e, r in zip(scored, ranks([e.score or 0 for e in scored]), strict=True)
    ]
    return placed + [Placed(e, None) for e in entries if e.score is None]


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


class Dailies(Loop):
    """The daily challenges, as transactions on the repository."""

    async def _zone(self, repo: Repo, guild_id: int | None) -> str | None:
        """A server's time zone (None: UTC; in DMs, UTC)."""
        if not guild_id:
            return None
        hours = await repo.server_hours(guild_id)
        return str(hours["zone"]) if hours else None

    async def play_daily(
        self,
        key: str,
        user_id: int,
        name: str,
        guild_id: int | None,
        channel_id: int,
        dm_channel_id: int,
    ) -> tuple[Table, bool]:
        """The person's entry of today's challenge (in the server's zone), started in their DMs
        if they have none yet; and whether it was started now."""
        host, daily = challenge(key)
        now = self.clock.now()
        async with self.repo.transaction() as repo:
            store = DailyRepo(repo)
            zone = await self._zone(repo, guild_id)
            day = day_of(now, zone)
            if not await store.claim(
                key, day, user_id, name, guild_id or 0, channel_id, day_ends(day, zone)
            ):
                entry = await store.entry(key, day, user_id)
                if entry is None or entry.game_id is None:
                    raise UserError("Your entry is being set up; try again in a moment.")
                return await self._table(entry.game_id), False
            engine = host.engine
            config = engine.Config(**{**daily.config(day), "players": 1})
            seed = seed_of(await store.secret(), key, day)
            game_id = await repo.insert_game(
                game=host.name,
                guild_id=None,
                channel_id=dm_channel_id,
                thread_id=None,
                host_id=user_id,
                status="lobby",
                config=config.model_dump(mode="json"),
                options=DAILY_OPTIONS.model_dump(),
                seed=seed,
                challenge=key,
                created_at=now.isoformat(),
                updated_at=now.isoformat(),
            )
            await repo.add_seat(game_id, 0, user_id, name)
            await store.set_game(key, day, user_id, game_id)
            table = await self._table(game_id)
            state = engine.new(config, seed)
            await self._commit(table, state, status="active")
            return await self._table(game_id), True

    async def daily_day(
        self, key: str, guild_id: int | None, user_id: int | None, day: date | None = None
    ) -> DayBoard:
        """A day of a challenge (default: today in the server's zone) in a server (None: every
        server), ranked; the asker's entry placed."""
        _, daily = challenge(key)
        async with self.repo.reading() as repo:
            zone = await self._zone(repo, guild_id)
            day = day or day_of(self.clock.now(), zone)
            entries = await DailyRepo(repo).of_day(key, day, guild_id)
        placed = place_entries(entries)
        mine = next((p for p in placed if p.entry.user_id == user_id), None)
        return DayBoard(key, daily.title, day, day_ends(day, zone), placed, mine)

    async def daily_entry(self, game_id: int) -> EntryRow | None:
        """The entry a game is played for (None: a table of its own)."""
        async with self.repo.reading() as repo:
            return await DailyRepo(repo).entry_of_game(game_id)

    async def daily_compare(
        self, key: str, user_id: int, other_id: int, guild_id: int | None
    ) -> Table:
        """Another finisher's game of today's challenge, for one who has finished it."""
        _, daily = challenge(key)
        async with self.repo.reading() as repo:
            store = DailyRepo(repo)
            day = day_of(self.clock.now(), await self._zone(repo, guild_id))
            mine = await store.entry(key, day, user_id)
            if mine is None or not (mine.finished or mine.closed):
                raise UserError(
                    f"Finish today's {daily.title} daily first: boards are compared only by "
                    "those who have played the same dice to the end."
                )
            theirs = await store.entry(key, mine.day, other_id)
            if theirs is None or theirs.game_id is None or not (theirs.finished or theirs.closed):
                raise UserError(f"They have not finished today's {daily.title} daily.")
            return await self._table(theirs.game_id)

    async def streak(self, user_id: int, guild_id: int | None) -> Streak:
        """Consecutive days with a daily played (any challenge), as of today in the zone."""
        async with self.repo.reading() as repo:
            today = day_of(self.clock.now(), await self._zone(repo, guild_id))
            days = [e.day for e in await DailyRepo(repo).of_person(user_id)]
        current, longest = streaks(days, today)
        return Streak(current, longest, today in days)

    async def daily_week(self, key: str, guild_id: int) -> tuple[date, list[Standing]]:
        """The server's week of a challenge: each person's best five days of seven."""
        async with self.repo.reading() as repo:
            today = day_of(self.clock.now(), await self._zone(repo, guild_id))
            monday, sunday = week_of(today)
            entries = [
                e
                for e in await DailyRepo(repo).between(guild_id, monday, sunday + timedelta(1))
                if e.challenge == key and e.score is not None
            ]
        by_person: dict[int, list[EntryRow]] = {}
        for e in entries:
            by_person.setdefault(e.user_id, []).append(e)
        rows = sorted(
            ((best_days(e.score or 0 for e in es), es) for es in by_person.values()),
            key=lambda r: -r[0],
        )
        places = ranks([points for points, _ in rows])
        return monday, [
            Standing(es[-1].user_id, es[-1].name, points, rank, f"{len(es)} of 7 days played")
            for (points, es), rank in zip(rows, places, strict=True)
        ]

    async def season_ladder(self, guild_id: int, season: str | None = None) -> list[Standing]:
        """The server's season (default: the current one) from its dailies and rated games."""
        async with self.repo.reading() as repo:
            zone = await self._zone(repo, guild_id)
            season = season or season_of(day_of(self.clock.now(), zone))
            first, after = season_bounds(season)
            store = DailyRepo(repo)
            entries = await store.between(guild_id, first, after)
            games = await store.rated_results(guild_id, first, after)
        points: dict[int, float] = {}
        names: dict[int, str] = {}
        dailies: dict[int, int] = {}
        days: dict[tuple[str, date], list[EntryRow]] = {}
        for e in entries:
            days.setdefault((e.challenge, e.day), []).append(e)
        for group in days.values():
            for p in place_entries(group):
                if p.rank is not None:
                    user = p.entry.user_id
                    points[user] = points.get(user, 0) + daily_points(p.rank)
                    names[user] = p.entry.name
                    dailies[user] = dailies.get(user, 0) + 1
        played: dict[int, int] = {}
        for row in games:
            user = row["user_id"]
            points[user] = points.get(user, 0) + game_points(row["players"], row["rank"] or 0)
            names.setdefault(user, row["name"])
            played[user] = played.get(user, 0) + 1
        order = sorted(points, key=lambda u: (-points[u], names[u]))
        places = ranks([points[u] for u in order])
        return [
            Standing(
                u,
                names[u],
                points[u],
                rank,
                f"{_count(dailies.get(u, 0), 'daily', 'dailies')}, "
                f"{_count(played.get(u, 0), 'rated game', 'rated games')}",
            )
            for u, rank in zip(order, places, strict=True)
        ]

    async def set_daily_server(self, guild_id: int, **fields: Any) -> None:
        """A moderator's choice: the leaderboard's channel, the season leader's role."""
        async with self.repo.transaction() as repo:
            await DailyRepo(repo).set_server(guild_id, **fields)

    async def daily_server(self, guild_id: int) -> dict[str, Any]:
        async with self.repo.reading() as repo:
            row = await DailyRepo(repo).server(guild_id)
        return dict(row) if row else {}

    async def set_reminder(self, user_id: int, guild_id: int | None, on: bool) -> datetime | None:
        """Start (at REMIND_AT in the server's zone) or stop the reminder; when it next comes."""
        async with self.repo.transaction() as repo:
            store = DailyRepo(repo)
            if not on:
                await store.remind(user_id, 0, "UTC", None)
                return None
            zone = await self._zone(repo, guild_id)
            due = self._next_reminder(self.clock.now(), zone)
            await store.remind(user_id, guild_id or 0, zone or "UTC", due)
            return due

    @staticmethod
    def _next_reminder(now: datetime, zone: str | None) -> datetime:
        day = day_of(now, zone)
        due = at_local(day, REMIND_AT, zone)
        return due if due > now else at_local(day + timedelta(days=1), REMIND_AT, zone)

    # ---- the tick ------------------------------------------------------------------------------

    async def _dailies(self, now: datetime) -> int:
        """In the tick: close the days that ended, send due reminders, close ended seasons;
        returns how many were handled. Each is claimed in its own transaction, once."""
        done = 0
        async with self.repo.reading() as repo:
            due = await DailyRepo(repo).due_closings(now, CLOSINGS)
        for guild_id, key, day in due:
            done += await self._close_day(guild_id, key, day, now)
        done += await self._reminders(now)
        done += await self._seasons(now)
        return done

    async def _close_day(self, guild_id: int, key: str, day: date, now: datetime) -> int:
        """Close a server's day of a challenge: entries under way end with what they have, and
        the day's leaderboard is queued once (on the outbox of one of its games)."""
        async with self.repo.transaction() as repo:
            store = DailyRepo(repo)
            # An entry made after its day closed (the server's zone moved back) still ends,
            # without a second post.
            claimed = await store.claim_closing(guild_id, key, day, now)
            entries = await store.of_day(key, day, guild_id)
            for entry in entries:
                if entry.closed:
                    continue
                score = None
                if entry.game_id is not None:
                    score = await self._end_entry(repo, entry.game_id, now)
                await store.close(entry, score)
            games = sorted(e.game_id for e in entries if e.game_id is not None)
            if claimed and guild_id and games:
                server = await store.server(guild_id)
                channel = (server and server["channel_id"]) or max(
                    entries, key=lambda e: e.game_id or 0
                ).channel_id
                payload = {"guild": guild_id, "key": key, "day": day.isoformat(), "to": channel}
                await repo.queue(games[0], "daily_board", payload, now)
            return int(claimed)

    async def _end_entry(self, repo: Repo, game_id: int, now: datetime) -> float | None:
        """An entry still under way when its day closes ends as it stands; its score."""
        table = await self._table(game_id)
        if table.row.status != "active" or table.state is None:
            entry = await DailyRepo(repo).entry_of_game(game_id)
            return entry.score if entry else None
        outcome = table.game.outcome(table.state)
        await repo.update_game(table.row, now, status="finished", deadline=None, next_due=None)
        await results.record(repo, table.row, table.seats, outcome, "abandoned", now)
        score = float(outcome[0]["score"])
        await repo.queue(game_id, "daily_late", {"score": score}, now)
        return score

    async def _reminders(self, now: datetime) -> int:
        async with self.repo.reading() as repo:
            due = await DailyRepo(repo).reminders_due(now, CLOSINGS)
        sent = 0
        for row in due:
            async with self.repo.transaction() as repo:
                store = DailyRepo(repo)
                zone = row["zone"]
                if not await store.move_reminder(
                    row["user_id"], row["due"], self._next_reminder(now, zone)
                ):
                    continue
                today = day_of(now, zone)
                mine = await store.of_person(row["user_id"], today - timedelta(days=400))
                if not mine or mine[-1].day >= today or mine[-1].game_id is None:
                    continue  # played today, or never: nothing to keep going
                current, _ = streaks([e.day for e in mine], today)
                payload = {"streak": current, "closes": day_ends(today, zone).isoformat()}
                await repo.queue(mine[-1].game_id, "daily_reminder", payload, now)
                sent += 1
        return sent

    async def _seasons(self, now: datetime) -> int:
        """Close the season before today's in every server that plays dailies and has not, in
        the new season's first weeks (after that, a bot that was down so long lets it be)."""
        first, _ = season_bounds(season_of(now.date()))
        if now.date() - first > SEASON_GRACE:
            return 0
        previous = season_of(first - timedelta(days=1))
        start, after = season_bounds(previous)
        async with self.repo.reading() as repo:
            servers = await DailyRepo(repo).season_servers(previous, start, after)
        closed = 0
        for guild_id in servers:
            async with self.repo.reading() as repo:
                zone = await self._zone(repo, guild_id)
            if day_of(now, zone) < after:
                continue  # the season is not over yet in this server's zone
            ladder = await self.season_ladder(guild_id, previous)
            async with self.repo.transaction() as repo:
                store = DailyRepo(repo)
                champion = ladder[0].user_id if ladder else None
                if not await store.claim_season(guild_id, previous, champion, now):
                    continue
                closed += 1
                entries = await store.between(guild_id, start, after)
                games = [e.game_id for e in entries if e.game_id is not None]
                if not ladder or not games:
                    continue
                server = await store.server(guild_id)
                channel = (server and server["channel_id"]) or entries[-1].channel_id
                payload = {"guild": guild_id, "season": previous, "to": channel}
                await repo.queue(max(games), "season_over", payload, now)
        return closed

    async def champion_crowned(self, guild_id: int, user_id: int) -> None:
        """The season's leader now holds the server's role (the last one's was taken away)."""
        await self.set_daily_server(guild_id, champion_id=user_id)
