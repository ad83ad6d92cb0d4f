"""Deadlines: reminders, timeouts (the autopilot moves for the late), and changing a deadline."""

import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from bot.service import banks
from bot.service.dailies import Dailies
from bot.service.errors import UserError
from bot.service.options import CLOCK_NAMES, TableOptions, clock_start, next_due, reminder_marks
from bot.service.preferences import preferences_of
from bot.service.shapes import Move, phase_of, shape
from bot.service.tables import Table
from bot.service.vacations import Vacations

log = logging.getLogger(__name__)

STEP = 100
"""The most autopilot moves one late seat gets at a deadline (a step is a few dozen at most)."""
RETRY_BROKEN = timedelta(hours=1)
"""How long a game whose deadline could not be handled (a corrupt row) waits to be tried again."""


class Deadlines(Vacations, Dailies):
    """What the tick does when a game is due."""

    async def tick(self, changed: Callable[[], object] | None = None) -> int:
        """Send due reminders and play out every passed deadline (those that passed while the bot
        was down too); returns the games touched. Only due games are read. `changed` is told as
        each game's change is stored, so its posts need not wait for the other due games."""
        now = self.clock.now()
        touched = 0
        async with self.repo.transaction() as repo:
            # Answers a dead process owed become DMs, with the outbox's guarantees.
            for row in await repo.take_owed_replies(now, STEP):
                words = {"seat": row["seat"], "words": row["words"]}
                await repo.queue(row["game_id"], "made", words, now)
        await self._digests(now)
        if await self._dailies(now) and changed is not None:
            changed()
        async with self.repo.reading() as repo:
            due = await repo.due_ids(now)
        for game_id in due:
            try:
                # One transaction per game: the claim keeps other processes off it until commit.
                async with self.repo.transaction() as repo:
                    if not await repo.claim_due(game_id, now):
                        continue
                    await self._away(game_id, now)
                    if not await self._time_out(game_id) and not await self._paced(game_id, now):
                        await self._remind(game_id, now)
                touched += 1
                if changed is not None:
                    changed()
            except Exception as exc:  # one broken game (a corrupt row) must not stall the rest
                if self.repo.database.transient(exc):
                    raise  # an outage, not this game's fault: it is tried again next tick
                log.exception("the deadline of game %s could not be handled", game_id)
                async with self.repo.transaction() as repo:
                    await repo.set_next_due(game_id, now + RETRY_BROKEN)
        return touched

    async def _paced(self, game_id: int, now: datetime) -> bool:
        """Make the paced pre-moves whose time has come (the loop makes them); False if none."""
        async with self.repo.transaction() as repo:
            due = await repo.premove_due(game_id)
            if due is None or due > now:
                return False
            table = await self._table(game_id)
            if table.row.status != "active":
                return False
            await self._commit(table, table.state)
            return True

    async def _remind(self, game_id: int, now: datetime) -> bool:
        """Reminders whose mark has come, to each person who still owes a move."""
        async with self.repo.transaction() as repo:
            table = await self._table(game_id)
            row = table.row
            if row.status != "active" or row.deadline is None:
                await repo.set_next_due(game_id, None)
                return False
            if row.paused_at is not None:
                return False  # nobody is reminded of a clock that stands still
            started = clock_start(row)
            mark = next_due(started, row.deadline, now)
            paced = await repo.premove_due(game_id)
            options = TableOptions(**row.options)
            due = sum(1 for m in reminder_marks(started, row.deadline) if m <= now)
            sent = False
            acting = table.game.to_act(table.state)
            people = [s for s in table.seats if not (s.is_ai or s.left_game)]
            owing = [s for s in people if s.seat in acting]
            reminded = [
                s
                for s in owing
                if not s.muted and s.reminders_sent < min(due, options.reminders - s.nudged)
            ]
            wishes = await preferences_of(repo, reminded)
            woken = []
            for seat in reminded:
                if wishes[seat.seat].digest:
                    continue  # their daily digest tells them instead
                if quiet := wishes[seat.seat].quiet_until(now):
                    woken.append(quiet)  # the tick comes back as their quiet hours end
                    continue
                # The last one to plan hears it with the reminder, in one DM.
                last = shape(table).together and len(owing) == 1 < len(people)
                await repo.update_seat(
                    game_id,
                    seat.seat,
                    reminders_sent=seat.reminders_sent + 1,
                    nudged=seat.nudged or last,
                )
                left = int((row.deadline - now).total_seconds() // 60)
                kind = "last_one" if last and not seat.nudged else "reminder"
                await repo.queue(game_id, kind, {"seat": seat.seat, "minutes_left": left}, now)
                sent = True
            soonest = [at for at in (mark, paced, *woken) if at is not None]
            await repo.set_next_due(game_id, min(soonest, default=None))
            return sent

    async def _time_out(self, game_id: int) -> bool:
        """The autopilot moves for everyone who is late; repeat offenders become AI seats.
        False when the game's deadline has not passed."""
        async with self.repo.transaction() as repo:
            table = await self._table(game_id)
            row = table.row
            now = self.clock.now()
            if row.status != "active" or row.deadline is None or row.deadline > now:
                return False
            if row.paused_at is not None:
                return False
            game = table.game
            state = table.state
            timed_out, to_ai = [], []
            options = TableOptions(**row.options)
            made = []
            owed = game.to_act(state)  # only those late at the deadline, not who moves next
            if options.clock == "bank":
                owed &= banks.out_of_time(table, now)  # the others' banks still run
            said: dict[int, list[str]] = {}
            for seat in table.seats:
                if seat.seat not in owed or seat.seat not in game.to_act(state) or seat.is_ai:
                    continue
                # The whole step (buying, a turn of many decisions), not one decision of it:
                # else the game waits a whole deadline again for the rest.
                moves = await self._finish_step(table, state, seat.seat)
                made += moves
                state = moves[-1].after
                told = (shape(table).told(table, move) for move in moves)
                said[seat.seat] = [words for words in told if words]
                timed_out.append(seat.seat)
                count = seat.timeouts + 1
                if count >= options.timeouts_before_ai:
                    to_ai.append(seat.seat)
                    await repo.update_seat(
                        game_id, seat.seat, timeouts=count, is_ai=True, replaced_by_ai=True
                    )
                else:
                    await repo.update_seat(game_id, seat.seat, timeouts=count)
            payload = {"seats": timed_out, "to_ai": to_ai, "said": said}
            await repo.queue(game_id, "timeout", payload, now)
            table = Table(row, await repo.seats(game_id), table.state)
            await self._commit(table, state, made)
            return True

    async def _finish_step(self, table: Table, state: Any, seat: int) -> list[Move]:
        """The autopilot's moves for a late seat until it owes nothing in this phase."""
        game = table.game
        moves: list[Move] = []
        phase = phase_of(game, state)
        while seat in game.to_act(state) and phase_of(game, state) == phase and len(moves) < STEP:
            plan = await self._think(table, state, seat)
            after = game.apply(state, seat, plan)
            moves.append(Move(state, seat, plan.model_dump(mode="json"), after, "timeout"))
            state = after
        return moves

    async def mute(self, game_id: int, user_id: int, muted: bool) -> Table:
        """A player's reminders and nudges from this game, off or on again."""
        async with self.repo.transaction() as repo:
            table = await self._table(game_id)
            seat = table.seat_of(user_id)
            if seat is None:
                raise UserError(f"You have no seat in {table.label}.")
            await repo.update_seat(game_id, seat.seat, muted=muted)
            return table

    async def set_deadline(
        self, game_id: int, user_id: int, moderator: bool, minutes: int
    ) -> Table:
        """The host changes the round deadline: the open round closes `minutes` from now, and
        every later round gets that long."""
        async with self.repo.transaction() as repo:
            table = await self._table(game_id)
            if table.row.status != "active":
                raise UserError(f"{table.label} is not running; its deadline can't change.")
            self._host_only(table, user_id, moderator, "change the deadline")
            options = TableOptions(**{**table.row.options, "deadline_minutes": minutes})
            if options.clock != "move":
                raise UserError(
                    f"{table.label} runs on a {CLOCK_NAMES[options.clock]}: `/game deadline` "
                    "sets the time per round or turn of games that have one."
                )
            now = self.clock.now()
            deadline = options.deadline(now)
            await repo.update_game(
                table.row,
                now,
                options=options.model_dump(),
                deadline=deadline,
                clock_started=now,
                next_due=next_due(now, deadline, now),
            )
            await repo.reset_reminders(game_id)
            await repo.queue(game_id, "deadline", {"by": user_id, "minutes": minutes}, now)
            return await self._table(game_id)
