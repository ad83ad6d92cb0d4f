"""Check-in before a stage: a window the organiser opens; whoever has not checked in when the
stage starts is absent from it, and the seed's rules fill their places (alternates by margin)."""

from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.service.errors import UserError
from bot.service.service import Service
from bot.service.tournament.access import organiser_only, tournament
from bot.store.tournaments import CheckInRow, TournamentRow, TournamentsRepo

LONGEST = timedelta(days=7)


@dataclass(frozen=True, slots=True)
class Stage:
    """A stage of a tournament: a heat (a Swiss or round-robin round), the semifinal, the final."""

    stage: str
    heat: int
    words: str
    """As people say it: "heat 2", "round 3", "the semifinal"."""


def heat_words(t: TournamentRow, heat: int) -> str:
    """A heat as people say it: "heat 2" in the WBC format, "round 2" in the others."""
    return f"heat {heat}" if t.format == "wbc" else f"round {heat}"


def stage_of(t: TournamentRow, stage: str, heat: int) -> Stage:
    """A stage by its stored name and number."""
    return Stage(stage, heat, heat_words(t, heat) if stage == "heat" else f"the {stage}")


def upcoming(t: TournamentRow) -> Stage | None:
    """The stage a check-in would be for: the next heat or round, else the next WBC stage."""
    if t.heats_started < t.heats:
        return stage_of(t, "heat", t.heats_started + 1)
    if t.format == "wbc" and t.stage == "heat":
        return stage_of(t, "semifinal", 1)
    if t.format == "wbc" and t.stage == "semifinal":
        return stage_of(t, "final", 1)
    return None


@dataclass(frozen=True, slots=True)
class Closed:
    """A check-in window once closed, for its message: how many checked in of those asked."""

    tournament: TournamentRow
    stage: Stage
    message_id: int
    done: int
    asked: int


class CheckIns:
    """Check-in windows, on the tournament tables."""

    svc: Service
    store: TournamentsRepo

    async def invited(self, t: TournamentRow, stage: Stage) -> dict[int, str]:
        """Who may check in for `stage`: every active player for a heat or round; those who
        played the heats (winners and alternates) for the semifinal; the semifinal's for the
        final."""
        active = await self.store.players(t.id, active=True)
        if stage.stage == "heat":
            return active
        before = "heat" if stage.stage == "semifinal" else "semifinal"
        played = await self.store.stage_players(t.id, before)
        return {user: name for user, name in active.items() if user in played}

    async def open_check_in(
        self, tid: int, by: int, moderator: bool, minutes: int
    ) -> tuple[TournamentRow, Stage, CheckInRow, dict[int, str]]:
        """Open the check-in for the next stage, for `minutes`; the tournament, the stage, the
        window and who is asked to check in."""
        async with self.svc.repo.transaction():
            t = await tournament(self.store, tid)
            organiser_only(t, by, moderator)
            stage = upcoming(t)
            if stage is None:
                raise UserError(f"{t.name} has no stage left to check in for.")
            if not 5 <= minutes <= LONGEST.total_seconds() // 60:
                raise UserError("A check-in lasts from 5 minutes to 7 days.")
            closes = self.svc.clock.now() + timedelta(minutes=minutes)
            if not await self.store.open_check_in(tid, stage.stage, stage.heat, closes):
                raise UserError(f"The check-in for {stage.words} was opened already.")
            window = await self.store.check_in_row(tid, stage.stage, stage.heat)
            assert window is not None
            return t, stage, window, await self.invited(t, stage)

    async def check_in_message(self, tid: int, stage: Stage, message_id: int) -> None:
        async with self.svc.repo.transaction():
            await self.store.check_in_message(tid, stage.stage, stage.heat, message_id)

    async def check_in(self, tid: int, user_id: int) -> tuple[TournamentRow, Stage, int, int]:
        """Mark a player present for the next stage; the tournament, the stage, how many have
        checked in and how many were asked."""
        async with self.svc.repo.transaction():
            t = await tournament(self.store, tid)
            stage = upcoming(t)
            window = (
                None
                if stage is None
                else await self.store.check_in_row(tid, stage.stage, stage.heat)
            )
            if stage is None or window is None:
                raise UserError(f"No check-in is open for {t.name}.")
            now = self.svc.clock.now()
            if window.closed:
                raise UserError(f"The check-in for {stage.words} of {t.name} is closed.")
            if now >= window.closes_at:
                raise UserError(
                    f"The check-in for {stage.words} of {t.name} closed "
                    f"<t:{int(window.closes_at.timestamp())}:R>."
                )
            invited = await self.invited(t, stage)
            if user_id not in invited:
                raise UserError(f"You are not in the field of {stage.words} of {t.name}.")
            await self.store.check_in(tid, stage.stage, stage.heat, user_id, now)
            present = await self.store.present(tid, stage.stage, stage.heat)
            return t, stage, len(present & set(invited)), len(invited)

    async def close_check_in(self, tid: int, by: int, moderator: bool) -> tuple[Stage, int]:
        """Close the next stage's check-in early; the stage and how many checked in."""
        async with self.svc.repo.transaction():
            t = await tournament(self.store, tid)
            organiser_only(t, by, moderator)
            stage = upcoming(t)
            window = (
                None
                if stage is None
                else await self.store.check_in_row(tid, stage.stage, stage.heat)
            )
            if stage is None or window is None or window.closed:
                raise UserError(f"No check-in is open for {t.name}.")
            await self.store.close_check_in(tid, stage.stage, stage.heat)
            return stage, len(await self.store.present(tid, stage.stage, stage.heat))

    async def closed(self, t: TournamentRow, stage: Stage) -> Closed | None:
        """The stage's check-in as its message should now say, if it had one with a message and
        is closed."""
        async with self.svc.repo.reading():
            window = await self.store.check_in_row(t.id, stage.stage, stage.heat)
            if window is None or not window.closed or window.message_id is None:
                return None
            invited = set(await self.invited(t, stage))
            present = await self.store.present(t.id, stage.stage, stage.heat)
            return Closed(t, stage, window.message_id, len(present & invited), len(invited))

    async def close_due_check_ins(self) -> list[Closed]:
        """Close every window whose time is up, each by one process; their messages' words."""
        async with self.svc.repo.reading():  # a tick with none due writes nothing
            due = await self.store.due_check_ins(self.svc.clock.now())
        if not due:
            return []
        out = []
        async with self.svc.repo.transaction():
            for window in due:
                tid, name, heat = window.tournament_id, window.stage, window.heat
                if not await self.store.close_check_in(tid, name, heat):
                    continue  # another process closed it
                t = await tournament(self.store, tid)
                found = await self.closed(t, stage_of(t, name, heat))
                if found is not None:
                    out.append(found)
        return out

    async def absent(self, t: TournamentRow, stage: Stage) -> set[int]:
        """Who is absent from `stage`: with a check-in, whoever was asked and did not check in
        (the window closes now); without one, nobody."""
        window = await self.store.check_in_row(t.id, stage.stage, stage.heat)
        if window is None:
            return set()
        if not window.closed:
            await self.store.close_check_in(t.id, stage.stage, stage.heat)
        present = await self.store.present(t.id, stage.stage, stage.heat)
        return set(await self.invited(t, stage)) - present

    async def window(self, tid: int) -> tuple[Stage, CheckInRow] | None:
        """The next stage's check-in window, if one was opened."""
        async with self.svc.repo.reading():
            t = await tournament(self.store, tid)
            stage = upcoming(t)
            if stage is None:
                return None
            row = await self.store.check_in_row(tid, stage.stage, stage.heat)
            return (stage, row) if row else None


def closes_words(closes_at: datetime) -> str:
    """When a window closes, as Discord shows a time to each person in their zone."""
    return f"<t:{int(closes_at.timestamp())}:f> (<t:{int(closes_at.timestamp())}:R>)"
