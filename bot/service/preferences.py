"""What a person sets for themself, in every server: their time zone, quiet hours, the "you're
next" heads-up and the daily digest; and what the tick and the game loop do with them."""

import logging
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from bot.service.errors import UserError
from bot.service.hours import DAY, PlayingHours, parse_clock
from bot.service.tables import Table, Tables, first_error
from bot.store.people import PeopleRepo, PersonRow
from bot.store.repo import Repo, SeatRow
from engine.core import Game, queue

log = logging.getLogger(__name__)

DIGESTS = 100
"""The most digests one tick queues; the others go at the next tick."""
BROKEN_DIGEST = timedelta(days=1)
"""How long a person whose digest could not be made waits for the next one."""


class Preferences(BaseModel):
    """A person's own settings; the defaults for one who set nothing."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    zone: str = "UTC"
    """Their time zone: the quiet hours and the digest's hour are its times of day."""
    quiet_start: int | None = Field(None, ge=0, lt=DAY)
    quiet_end: int | None = Field(None, ge=0, lt=DAY)
    """No reminder or nudge from `quiet_start` to `quiet_end` (minutes after midnight)."""
    heads_up: bool = False
    """A DM when the seat before theirs starts its turn (turn-based games)."""
    digest: bool = False
    """One DM a day listing the games that wait for them, in place of reminders and nudges."""
    digest_at: int = Field(18 * 60, ge=0, lt=DAY)

    @field_validator("zone")
    @classmethod
    def _known(cls, zone: str) -> str:
        return PlayingHours(zone=zone, start=0, end=0).zone  # refuses an unknown zone in words

    @model_validator(mode="after")
    def _whole(self) -> "Preferences":
        if (self.quiet_start is None) != (self.quiet_end is None):
            raise ValueError("quiet hours need both a start and an end")
        if self.quiet_start is not None and self.quiet_start == self.quiet_end:
            raise ValueError("quiet hours must end at another time than they start")
        return self

    @property
    def quiet(self) -> PlayingHours | None:
        """The quiet hours in their zone (their `words()`: "23:00–08:00 Europe/Paris")."""
        if self.quiet_start is None or self.quiet_end is None:
            return None
        return PlayingHours(zone=self.zone, start=self.quiet_start, end=self.quiet_end)

    def quiet_until(self, now: datetime) -> datetime | None:
        """When the quiet hours that `now` falls in end; None outside them."""
        if self.quiet_start is None or self.quiet_end is None:
            return None
        # The hours a reminder may come are the rest of the day: they open as the quiet ones end.
        awake = PlayingHours(zone=self.zone, start=self.quiet_end, end=self.quiet_start)
        opens = awake.next_allowed(now)
        return opens if opens > now else None

    def hushed(self, now: datetime) -> bool:
        """Whether no reminder or nudge may go to them now (the digest tells them instead)."""
        return self.digest or self.quiet_until(now) is not None

    def day(self, when: datetime) -> str:
        """The date `when` falls on in their zone ("2026-03-29")."""
        return when.astimezone(ZoneInfo(self.zone)).date().isoformat()

    def next_digest(self, after: datetime, sent: str | None) -> datetime:
        """When the digest is next due: its hour after `after`, on a day other than `sent` (the
        day that had one). An hour a daylight-saving change skips comes an hour later."""
        zone = ZoneInfo(self.zone)
        local = after.astimezone(zone)
        day = local.date()
        if local.hour * 60 + local.minute >= self.digest_at:
            day += timedelta(days=1)
        if day.isoformat() == sent:
            day += timedelta(days=1)
        hour, minute = divmod(self.digest_at, 60)
        return datetime(day.year, day.month, day.day, hour, minute, tzinfo=zone).astimezone(UTC)


def _preferences(row: PersonRow | None) -> Preferences:
    return Preferences() if row is None else Preferences.model_validate(row, from_attributes=True)


def _minute(text: str) -> int:
    try:
        return parse_clock(text)
    except ValueError as exc:
        raise UserError(f"{exc}.") from None


async def preferences_of(repo: Repo, seats: list[SeatRow]) -> dict[int, Preferences]:
    """The preferences of each seat's person, by seat, in one query."""
    rows = await PeopleRepo(repo).of([s.user_id for s in seats if s.user_id is not None])
    return {
        s.seat: _preferences(rows.get(s.user_id) if s.user_id is not None else None) for s in seats
    }


async def nudgeable(repo: Repo, seat: SeatRow, now: datetime) -> bool:
    """Whether a "last one" nudge may go to the seat's person now."""
    return not (await preferences_of(repo, [seat]))[seat.seat].hushed(now)


async def heads_ups(
    repo: Repo, table: Table, state: Any, fresh: list[int], now: datetime
) -> list[tuple[str, dict[str, Any]]]:
    """ "You're next" for whoever moves after the seats whose turn just came (`fresh`), if they
    asked: once per turn of theirs, and only where the engine tells the order."""
    if not fresh:
        return []
    store = PeopleRepo(repo)
    await store.turns_came(table.row.id, fresh)
    following = _following(table.game, state)
    if following is None:
        return []
    seat = table.seats[following]
    if seat.is_ai or seat.left_game or seat.muted or seat.dms_closed:
        return []
    mine = (await preferences_of(repo, [seat]))[seat.seat]
    # Quiet hours hold it back for good: by their end it is no news.
    if not mine.heads_up or mine.quiet_until(now) is not None:
        return []
    if not await store.claim_heads_up(table.row.id, seat.seat):
        return []
    return [("heads_up", {"seat": seat.seat, "movers": fresh})]


def _following(game: Game, state: Any) -> int | None:
    """The seat that moves after those moving now, if the engine tells the order."""
    acting = game.to_act(state)
    return next((s for s in queue(game, state) or [] if s not in acting), None)


class Personal(Tables):
    """A person's settings, and the daily digest the tick sends."""

    async def preferences(self, user_id: int) -> Preferences:
        async with self.repo.reading() as repo:
            return _preferences((await PeopleRepo(repo).of([user_id])).get(user_id))

    async def set_zone(self, user_id: int, zone: str) -> Preferences:
        return await self._change(user_id, zone=zone.strip())

    async def set_quiet(self, user_id: int, start: str | None, end: str | None) -> Preferences:
        """Quiet hours from `start` to `end` ("23:00", "8"); neither: none."""
        if start is None and end is None:
            return await self._change(user_id, quiet_start=None, quiet_end=None)
        if start is None or end is None:
            raise UserError(
                "Give quiet hours both a start and an end (e.g. 23:00 and 08:00), or neither to "
                "have none."
            )
        return await self._change(user_id, quiet_start=_minute(start), quiet_end=_minute(end))

    async def set_heads_up(self, user_id: int, on: bool) -> Preferences:
        return await self._change(user_id, heads_up=on)

    async def set_digest(self, user_id: int, on: bool, at: str | None) -> Preferences:
        """The daily digest on (at `at`, else its hour so far) or off."""
        if at is None:
            return await self._change(user_id, digest=on)
        return await self._change(user_id, digest=on, digest_at=_minute(at))

    async def _change(self, user_id: int, **changes: Any) -> Preferences:
        async with self.repo.transaction() as repo:
            store = PeopleRepo(repo)
            row = (await store.of([user_id])).get(user_id)
            try:
                new = Preferences(**{**_preferences(row).model_dump(), **changes})
            except ValidationError as exc:
                raise UserError(first_error(exc)) from None
            sent = row.last_digest if row else None
            due = new.next_digest(self.clock.now(), sent) if new.digest else None
            await store.save(user_id, due, **new.model_dump())
            return new

    async def waiting(self, user_id: int) -> list[Table]:
        """The running games that wait for the person now (but those they muted), nearest
        deadline first: what their digest lists."""
        mine = []
        for table in await self.games_of(user_id, guild_id=None):
            seat = table.seat_of(user_id)
            if seat and not seat.muted and any(s.seat == seat.seat for s in table.waiting_for()):
                mine.append(table)
        return sorted(mine, key=lambda t: t.row.deadline or datetime.max.replace(tzinfo=UTC))

    async def _digests(self, now: datetime) -> None:
        """In the tick: the digests whose hour has come, one per person and day (none when nothing
        waits); claimed with the DM queued, so no restart or other process sends it twice."""
        async with self.repo.reading() as repo:
            due = await PeopleRepo(repo).digests_due(now, DIGESTS)
        for user_id in due:
            try:
                await self._digest(user_id, now)
            except Exception as exc:  # one person's broken digest must not stall the tick
                if self.repo.database.transient(exc):
                    raise
                log.exception("the digest of user %s could not be made", user_id)
                async with self.repo.transaction() as repo:
                    await PeopleRepo(repo).postpone_digest(user_id, now + BROKEN_DIGEST)

    async def _digest(self, user_id: int, now: datetime) -> None:
        # Read before the claim, so its transaction holds no game's lock (PostgreSQL).
        waiting = await self.waiting(user_id)
        async with self.repo.transaction() as repo:
            store = PeopleRepo(repo)
            row = (await store.of([user_id])).get(user_id)
            if row is None or not row.digest:
                return
            mine = _preferences(row)
            day = mine.day(now)
            if not await store.claim_digest(user_id, day, mine.next_digest(now, day), now):
                return
            if waiting:
                # The DM goes out with the first game's posts; it lists them all when it goes.
                seat = waiting[0].seat_of(user_id)
                assert seat is not None
                await repo.queue(waiting[0].row.id, "digest", {"seat": seat.seat}, now)
