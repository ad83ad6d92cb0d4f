"""The game service: lobbies, drafts, plans, rounds, deadlines. No Discord in here.

Every change runs in one database transaction that also queues what must be posted (the outbox),
so a command is acknowledged only after it is stored, and a crash never loses a report.
"""

import json
import logging
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from random import Random
from typing import Any

from pydantic import ValidationError

from bot.service import results
from bot.service.clock import Clock
from bot.service.errors import UserError
from bot.service.hosting import Hosted, hosting
from bot.service.options import TableOptions, next_due
from bot.store.repo import DraftRow, GameRow, Repo, ResultsRepo, SeatRow
from engine import registry
from engine.core import CHANCE, Game, IllegalAction, plain, public_log

log = logging.getLogger(__name__)

RETRY_BROKEN = timedelta(hours=1)
"""How long a game whose deadline could not be handled (a corrupt row) waits to be tried again."""


@dataclass(frozen=True, slots=True)
class Table:
    """A game with its seats and current engine state (None while in the lobby)."""

    row: GameRow
    seats: list[SeatRow]
    state: Any

    @property
    def game(self) -> Game:
        return registry.get(self.row.game)

    @property
    def hosted(self) -> Hosted:
        return hosting(self.row.game)

    @property
    def label(self) -> str:
        """How people name it: the game's title and number, "<Title> game #2"."""
        return f"{self.game.title} game #{self.row.id}"

    def waiting_for(self) -> list[SeatRow]:
        """The seats (people and AI) that owe a move now."""
        if self.row.status != "active" or self.state is None:
            return []
        acting = self.game.to_act(self.state)
        return [s for s in self.seats if s.seat in acting]

    def seat_of(self, user_id: int) -> SeatRow | None:
        """The seat the person plays themself now: not one they left or were kicked from
        (`left_game`), nor one the AI plays (`is_ai`: after timeouts, `/game replace`, leaving)."""
        return next(
            (s for s in self.seats if s.user_id == user_id and not s.left_game and not s.is_ai),
            None,
        )

    def holder(self, user_id: int) -> SeatRow | None:
        """The seat the person still holds: theirs unless they left it or were kicked
        (`left_game`), even while the AI plays it for them (timeouts, `/game replace`)."""
        return next((s for s in self.seats if s.user_id == user_id and not s.left_game), None)

    def open_to(self, user_id: int, guild_id: int | None) -> bool:
        """Whether the game is told of to `user_id` asking from server `guild_id` (None: DMs): in
        its own server to anyone; in DMs to whoever holds a seat, and once over to its players."""
        if guild_id is not None:
            return guild_id == self.row.guild_id
        if self.row.status in ("lobby", "active"):
            return self.holder(user_id) is not None
        return any(s.user_id == user_id for s in self.seats)


@dataclass(frozen=True, slots=True)
class DraftView:
    """A seat's draft for the current round, with its legal continuations."""

    table: Table
    seat: int
    round: int
    steps: list[dict[str, Any]]
    """The plan so far, as the engine's step dicts."""
    vacation: bool
    lines: list[str]
    """The draft in words, one line per step."""
    next_options: list[tuple[str, str]]
    """(label, key) of every legal next step."""
    can_submit: bool
    submitted: bool


@dataclass(frozen=True, slots=True)
class TurnView:
    """A turn-based seat that owes a move: what it sees and may do."""

    table: Table
    seat: int
    turn: int
    """The number of actions in the log when this was drawn (panels carry it)."""
    view: dict[str, Any]
    legal: list[dict[str, Any]]


class Service:
    """Everything a person can do with a game, as transactions on the repository."""

    def __init__(self, repo: Repo, clock: Clock) -> None:
        self.repo = repo
        self.clock = clock

    # ---- reading ---------------------------------------------------------------------------

    async def _table(self, game_id: int) -> Table:
        row = await self.repo.game(game_id)
        if row is None:
            raise UserError(f"There is no game #{game_id}.")
        seats = await self.repo.seats(game_id)
        game = registry.get(row.game)
        state = game.load_state(row.snapshot) if row.snapshot else None
        return Table(row, seats, state)

    async def table(self, game_id: int) -> Table:
        async with self.repo.reading():
            return await self._table(game_id)

    async def table_for(self, game_id: int, user_id: int, guild_id: int | None) -> Table:
        """The game `user_id` names from server `guild_id` (None: DMs), if `Table.open_to` lets
        them see it there; else the refusal a game that does not exist gets, so none leaks."""
        async with self.repo.reading() as repo:
            table = await self._table(game_id) if await repo.game(game_id) else None
        if table is None or not table.open_to(user_id, guild_id):
            raise UserError(
                f"You have no seat in game #{game_id}."
                if guild_id is None
                else f"There is no game #{game_id} in this server."
            )
        return table

    async def table_in(self, where: int) -> Table | None:
        async with self.repo.reading():
            row = await self.repo.open_game_in(where)
            return await self._table(row.id) if row else None

    async def state_at(self, game_id: int, at: int) -> Any:
        """The game's state after its first `at` actions (what an old event reports on)."""
        async with self.repo.reading() as repo:
            row = await repo.game(game_id)
            if row is None:
                raise UserError(f"There is no game #{game_id}.")
            log_ = await repo.actions(game_id)
        game = registry.get(row.game)
        if at == len(log_) and row.snapshot:
            return game.load_state(row.snapshot)
        state = game.new(game.Config(**row.config), row.seed)
        for seat, action, _ in log_[:at]:
            state = game.apply(state, seat, game.parse_action(action))
        return state

    async def check_round(self, game_id: int, round_: int) -> None:
        """Refuse a stale planner: one from an earlier round or a game that has ended."""
        _same_round(await self.table(game_id), round_)

    async def games_of(
        self, user_id: int, *, guild_id: int | None, lobbies: bool = False
    ) -> list[Table]:
        """The user's running games (and open lobbies, if asked) that `Table.open_to` shows them
        in server `guild_id` (None: DMs, where every server's are), oldest first."""
        statuses = ("lobby", "active") if lobbies else ("active",)
        async with self.repo.reading():
            rows = await self.repo.games_of(user_id, statuses)
            tables = [await self._table(r.id) for r in rows]
        return [t for t in tables if t.open_to(user_id, guild_id)]

    async def pick_game(
        self, user_id: int, game_id: int | None, game: str | None = None, *, guild_id: int | None
    ) -> Table:
        """The game a player's command in server `guild_id` (None: DMs) means: the given one, or
        the user's only running game there (of kind `game`, when a game's own commands ask)."""
        mine = [
            t for t in await self.games_of(user_id, guild_id=guild_id) if game in (None, t.row.game)
        ]
        if game_id is not None:
            for t in mine:
                if t.row.id == game_id:
                    return t
            await self.table_for(game_id, user_id, guild_id)
            raise UserError(f"You are not playing in game #{game_id}.")
        if not mine:
            where = "" if guild_id is None else " in this server"
            raise UserError(f"You are not in any running game{where}.")
        if len(mine) > 1:
            ids = ", ".join(f"#{t.row.id}" for t in mine)
            raise UserError(f"You are in several games ({ids}): choose one with the `game` option.")
        return mine[0]

    # ---- results ---------------------------------------------------------------------------

    async def leaderboard(
        self, game: str, scope: int, page: int, per_page: int = 10
    ) -> tuple[list[dict[str, Any]], int]:
        """One page of a scope's leaderboard (scope 0: all servers) and the number of people."""
        async with self.repo.reading() as repo:
            return await ResultsRepo(repo).leaderboard(scope, game, per_page, page * per_page)

    async def rebuild_ratings(self, game: str, scope: int) -> int:
        async with self.repo.transaction() as repo:
            return await results.rebuild(repo, game, scope)

    async def player_stats(self, game: str, scope: int, user_id: int) -> dict[str, Any]:
        """A person's rating history, recent games and favourite variants."""
        async with self.repo.reading() as repo:
            store = ResultsRepo(repo)
            history = await store.history(scope, game, user_id)
            recent = await store.player_games(user_id, game, 200)
        variants: dict[str, int] = {}
        for row in recent:
            key = ", ".join(json.loads(row["variants"])) or "base game"
            variants[key] = variants.get(key, 0) + 1
        favourite = sorted(variants.items(), key=lambda kv: (-kv[1], kv[0]))
        return {"history": history, "recent": recent[:10], "variants": favourite[:3]}

    async def solo_scores(self, game: str, guild_id: int | None, limit: int = 10) -> list[dict]:
        async with self.repo.reading() as repo:
            return await ResultsRepo(repo).solo_scores(game, guild_id, limit)

    async def results_of(self, game_id: int) -> list[dict[str, Any]]:
        async with self.repo.reading() as repo:
            return await ResultsRepo(repo).of_game(game_id)

    # ---- lobby -----------------------------------------------------------------------------

    async def open_table(
        self,
        game: str,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        host_name: str,
        config: dict[str, Any],
        options: TableOptions,
        thread_id: int | None = None,
    ) -> Table:
        """Open a lobby with the host seated; one open game per channel or thread."""
        self.check_options(game, config, options)
        now = self.clock.now()
        async with self.repo.transaction() as repo:
            if await repo.open_game_in(thread_id or channel_id):
                raise UserError("A game is already open here; finish or cancel it first.")
            game_id = await repo.insert_game(
                game=game,
                guild_id=guild_id,
                channel_id=channel_id,
                thread_id=thread_id,
                host_id=host_id,
                status="lobby",
                config=config,
                options=options.model_dump(),
                seed=secrets.randbits(48),
                created_at=now.isoformat(),
                updated_at=now.isoformat(),
            )
            await repo.add_seat(game_id, 0, host_id, host_name)
            return await self._table(game_id)

    @staticmethod
    def check_options(game: str, config: dict[str, Any], options: TableOptions) -> None:
        """Refuse a game's options that don't work together (before anything is posted)."""
        try:
            registry.get(game).Config(**{**config, "players": options.max_players})
        except ValueError as exc:
            raise UserError(f"Those options don't work together: {_first_error(exc)}") from None

    async def join(self, game_id: int, user_id: int, name: str) -> Table:
        async with self.repo.transaction() as repo:
            table = await self._lobby(game_id)
            if table.seat_of(user_id):
                raise UserError("You already have a seat in this game.")
            if len(table.seats) >= TableOptions(**table.row.options).max_players:
                raise UserError("This game is full.")
            await repo.add_seat(game_id, len(table.seats), user_id, name)
            await repo.update_game(table.row, self.clock.now())
            return await self._table(game_id)

    async def leave_lobby(self, game_id: int, user_id: int) -> Table:
        async with self.repo.transaction() as repo:
            table = await self._lobby(game_id)
            seat = table.seat_of(user_id)
            if seat is None:
                raise UserError("You don't have a seat in this game.")
            if user_id == table.row.host_id:
                raise UserError("The host can't leave the lobby; cancel the game instead.")
            await repo.remove_seat(game_id, seat.seat)
            await repo.update_game(table.row, self.clock.now())
            return await self._table(game_id)

    async def add_ai(self, game_id: int, user_id: int, moderator: bool) -> Table:
        async with self.repo.transaction() as repo:
            table = await self._lobby(game_id)
            self._host_only(table, user_id, moderator, "add an AI player")
            if len(table.seats) >= TableOptions(**table.row.options).max_players:
                raise UserError("This game is full.")
            n = sum(1 for s in table.seats if s.is_ai) + 1
            await repo.add_seat(game_id, len(table.seats), None, f"AI {n}")
            await repo.update_game(table.row, self.clock.now())
            return await self._table(game_id)

    async def cancel(self, game_id: int, user_id: int, moderator: bool) -> Table:
        async with self.repo.transaction() as repo:
            table = await self._table(game_id)
            if table.row.status not in ("lobby", "active"):
                raise UserError("This game is already over.")
            self._host_only(table, user_id, moderator, "cancel the game")
            status = "cancelled" if table.row.status == "lobby" else "abandoned"
            now = self.clock.now()
            await repo.update_game(table.row, now, status=status, deadline=None, next_due=None)
            outcome = table.game.outcome(table.state) if table.state else None
            await results.record(repo, table.row, table.seats, outcome, status, now)
            await repo.queue(game_id, "cancelled", {"by": user_id}, self.clock.now())
            return await self._table(game_id)

    async def adjudicate(self, game_id: int, user_id: int, moderator: bool) -> Table:
        """End a game that cannot finish: its current standings become its (unrated) result."""
        async with self.repo.transaction() as repo:
            table = await self._table(game_id)
            if table.row.status != "active":
                raise UserError("Only a running game can be adjudicated.")
            self._host_only(table, user_id, moderator, "adjudicate the game")
            now = self.clock.now()
            await repo.update_game(table.row, now, status="finished", deadline=None, next_due=None)
            outcome = table.game.outcome(table.state)
            await results.record(repo, table.row, table.seats, outcome, "adjudicated", now)
            await repo.queue(game_id, "adjudicated", {"by": user_id}, now)
            return await self._table(game_id)

    async def start(self, game_id: int, user_id: int, moderator: bool) -> Table:
        """Seat everyone, roll round 1 and let AI seats plan; queues the round's posts."""
        async with self.repo.transaction():
            table = await self._lobby(game_id)
            self._host_only(table, user_id, moderator, "start the game")
            game = table.game
            try:
                config = game.Config(**{**table.row.config, "players": len(table.seats)})
            except ValueError as exc:
                raise UserError(
                    f"The game can't start with {len(table.seats)} seated: {_first_error(exc)}"
                ) from None
            state = game.new(config, table.row.seed)
            await self._commit(
                table, state, [], status="active", config=config.model_dump(mode="json")
            )
            return await self._table(game_id)

    async def _lobby(self, game_id: int) -> Table:
        table = await self._table(game_id)
        if table.row.status != "lobby":
            raise UserError("That lobby is closed: the game has started or ended.")
        return table

    @staticmethod
    def _host_only(table: Table, user_id: int, moderator: bool, what: str) -> None:
        """Host powers: the host's while they play their own seat (`Table.seat_of`), and those of
        `moderator`, a moderator of the game's own server (`bot.ui.common.moderates`)."""
        if moderator:
            return
        if user_id != table.row.host_id:
            raise UserError(f"Only the host or a moderator can {what}.")
        if table.seat_of(user_id) is None:
            raise UserError(
                f"You no longer play your seat in {table.label}, so you are not its host any "
                f"more: only a moderator can {what}."
            )

    # ---- planning --------------------------------------------------------------------------

    async def draft(self, game_id: int, user_id: int) -> DraftView:
        async with self.repo.reading():
            table = await self._table(game_id)
            seat = self._planner(table, user_id)
            return await self._draft_view(table, seat)

    async def _draft_view(self, table: Table, seat: int) -> DraftView:
        state, game, plans = table.state, table.game, table.hosted.planner
        row = await self.repo.draft(table.row.id, seat)
        if row is None or row.round != state.round:
            row = DraftRow(state.round, [], False)
        steps = row.steps
        offered = [
            plans.normalise(s.model_dump(mode="json")) for s in game.legal_next(state, seat, steps)
        ]
        options = [(plans.describe(state, seat, step), plans.key(step)) for step in offered]
        return DraftView(
            table=table,
            seat=seat,
            round=state.round,
            steps=steps,
            vacation=row.vacation,
            lines=plans.lines(state, seat, steps),
            next_options=options,
            can_submit=game.can_submit(state, seat, steps),
            submitted=seat not in game.to_act(state),
        )

    def _planner(self, table: Table, user_id: int) -> int:
        if table.row.status != "active":
            raise UserError(f"{table.label} is not running.")
        seat = table.seat_of(user_id)
        if seat is None:
            raise UserError(f"You don't have a seat in {table.label}.")
        if table.hosted.planner is None:
            raise UserError(f"{table.game.title} has no plans to draft: it is played turn by turn.")
        if table.state.phase != "plan":
            raise UserError("The dice for this round are not rolled yet.")
        return seat.seat

    async def edit_draft(
        self,
        game_id: int,
        user_id: int,
        *,
        add: dict[str, Any] | None = None,
        undo: bool = False,
        clear: bool = False,
        vacation: bool | None = None,
    ) -> DraftView:
        """Change the draft by one step; an illegal step changes nothing and says why."""
        async with self.repo.transaction() as repo:
            table = await self._table(game_id)
            seat = self._planner(table, user_id)
            if clear:
                # A draft that no longer reads (a corrupt row) must not lock its owner out.
                await repo.save_draft(
                    game_id, seat, DraftRow(table.state.round, [], False), self.clock.now()
                )
            view = await self._draft_view(table, seat)
            steps = list(view.steps)
            if add is not None:
                steps.append(self._legal_step(table, seat, steps, add))
            if undo:
                if not steps:
                    raise UserError("Your draft is already empty.")
                steps.pop()
            if clear:
                steps = []
            on = view.vacation if vacation is None else vacation
            why = table.hosted.planner.flag_refusal(table.state, seat) if on else None
            if why:
                raise UserError(why)
            row = DraftRow(view.round, steps, on)
            await repo.save_draft(game_id, seat, row, self.clock.now())
            return await self._draft_view(table, seat)

    @staticmethod
    def _legal_step(
        table: Table, seat: int, steps: list[dict[str, Any]], add: dict[str, Any]
    ) -> dict[str, Any]:
        """The step, normalised, if the engine accepts it after `steps`; else a clear refusal."""
        game, plans = table.game, table.hosted.planner
        try:
            step = plans.normalise(add)
            offered = game.legal_next(table.state, seat, steps)
            game.legal_next(table.state, seat, [*steps, step])
        except IllegalAction as exc:
            raise UserError(exc.reason) from None
        except ValueError as exc:
            raise UserError(f"That step is malformed: {_first_error(exc)}") from None
        keys = {plans.key(plans.normalise(o.model_dump(mode="json"))) for o in offered}
        if plans.key(step) not in keys:
            raise UserError("That step fits, but then no legal plan could be finished.")
        return step

    async def submit(
        self, game_id: int, user_id: int, round_: int | None = None
    ) -> tuple[Table, bool]:
        """Submit the draft as this round's plan (of `round_`, when a planner names one).

        Returns the table and whether the round resolved.
        """
        async with self.repo.transaction() as repo:
            table = await self._table(game_id)
            seat = self._planner(table, user_id)
            if round_ is not None:
                _same_round(table, round_)
            view = await self._draft_view(table, seat)
            stored = await repo.draft(game_id, seat)
            if not view.steps and stored and stored.round < table.state.round:
                # A submit that arrives just after its round resolved (a timeout, the others).
                raise UserError(
                    f"Round {stored.round} has already been resolved; round {table.state.round} "
                    "is being planned now and your plan for it is still empty."
                )
            plan = table.hosted.planner.plan(view.steps, view.vacation)
            round_before = table.state.round
            state = self._apply(table, seat, plan)
            await repo.update_seat(game_id, seat, timeouts=0)
            await self._commit(table, state, [(seat, plan, "player")])
            after = await self._table(game_id)
            return after, after.state.round != round_before or after.row.status != "active"

    def _apply(self, table: Table, seat: int, action: dict[str, Any]) -> Any:
        game = table.game
        try:
            return game.apply(table.state, seat, game.parse_action(action))
        except IllegalAction as exc:
            raise UserError(exc.reason) from None

    # ---- deadlines ---------------------------------------------------------------------------

    async def tick(self) -> int:
        """Send due reminders and play out every passed deadline (those that passed while the bot
        was down too); returns the games touched. Only due games are read."""
        now = self.clock.now()
        touched = 0
        async with self.repo.reading() as repo:
            due = await repo.due_ids(now)
        for game_id in due:
            try:
                # One transaction per game: the claim keeps other processes off it until commit.
                async with self.repo.transaction() as repo:
                    if not await repo.claim_due(game_id, now):
                        continue
                    if not await self._time_out(game_id):
                        await self._remind(game_id, now)
                touched += 1
            except Exception:  # one broken game (a corrupt row) must not stall every other one
                log.exception("the deadline of game %s could not be handled", game_id)
                async with self.repo.transaction() as repo:
                    await repo.set_next_due(game_id, now + RETRY_BROKEN)
        return touched

    async def _remind(self, game_id: int, now: datetime) -> bool:
        """Reminders whose mark has come, to each person who still owes a move."""
        async with self.repo.transaction() as repo:
            table = await self._table(game_id)
            row = table.row
            if row.status != "active" or row.deadline is None:
                await repo.set_next_due(game_id, None)
                return False
            await repo.set_next_due(game_id, next_due(row.options, row.deadline, now))
            options = TableOptions(**row.options)
            span = timedelta(minutes=options.deadline_minutes)
            marks = [row.deadline - span / 2, row.deadline - timedelta(hours=1)]
            due = sum(1 for m in marks if m <= now and m > row.deadline - span)
            sent = False
            acting = table.game.to_act(table.state)
            for seat in table.seats:
                waiting = seat.seat in acting
                if seat.is_ai or seat.left_game or not waiting:
                    continue
                cap = options.reminders - seat.nudged
                if seat.reminders_sent < min(due, cap):
                    await repo.update_seat(
                        game_id, seat.seat, reminders_sent=seat.reminders_sent + 1
                    )
                    left = int((row.deadline - now).total_seconds() // 60)
                    await repo.queue(
                        game_id, "reminder", {"seat": seat.seat, "minutes_left": left}, now
                    )
                    sent = True
            return sent

    async def _time_out(self, game_id: int) -> bool:
        """The autopilot moves for everyone who is late; repeat offenders become AI seats.
        False when the game's deadline has not passed."""
        async with self.repo.transaction() as repo:
            table = await self._table(game_id)
            row = table.row
            if row.status != "active" or row.deadline is None or row.deadline > self.clock.now():
                return False
            game = table.game
            state = table.state
            steps = []
            timed_out, to_ai = [], []
            options = TableOptions(**row.options)
            words, phases = [], []
            turns = table.hosted.turns
            owed = game.to_act(state)  # only those late at the deadline, not who moves next
            for seat in table.seats:
                if seat.seat not in owed or seat.seat not in game.to_act(state) or seat.is_ai:
                    continue
                plan = table.hosted.choose(game.view(state, seat.seat), seat.seat)
                action = plan.model_dump(mode="json")
                after = game.apply(state, seat.seat, plan)
                if turns is not None:
                    words.append(
                        {"seat": seat.seat, "text": turns.describe(state, seat.seat, action, after)}
                    )
                    if _phase(after) != _phase(state):
                        phases.append((_phase(state), len(steps) + 1))
                state = after
                steps.append((seat.seat, action, "timeout"))
                timed_out.append(seat.seat)
                count = seat.timeouts + 1
                if count >= options.timeouts_before_ai:
                    to_ai.append(seat.seat)
                    await repo.update_seat(
                        game_id, seat.seat, timeouts=count, is_ai=True, replaced_by_ai=True
                    )
                else:
                    await repo.update_seat(game_id, seat.seat, timeouts=count)
            now = self.clock.now()
            await repo.queue(game_id, "timeout", {"seats": timed_out, "to_ai": to_ai}, now)
            table = Table(row, await repo.seats(game_id), table.state)
            seq = await repo.action_count(game_id)
            phases = [(phase, seq + end) for phase, end in phases]
            await self._commit(table, state, steps, words, phases)
            return True

    async def hand_to_ai(
        self, game_id: int, by: int, target: int, moderator: bool, *, leaving: bool
    ) -> Table:
        """A seat's player leaves (or is kicked, or replaced): the AI plays the seat from now on."""
        async with self.repo.transaction() as repo:
            table = await self._table(game_id)
            if table.row.status != "active":
                raise UserError("That game is not running.")
            if by != target:
                self._host_only(table, by, moderator, "hand a seat to the AI")
            seat = table.seat_of(target)
            if seat is None:
                raise UserError("That person has no seat (of their own) in this game.")
            await repo.update_seat(
                game_id, seat.seat, is_ai=True, replaced_by_ai=True, left_game=leaving
            )
            now = self.clock.now()
            await repo.queue(game_id, "to_ai", {"seat": seat.seat, "left": leaving, "by": by}, now)
            table = Table(table.row, await repo.seats(game_id), table.state)
            await self._commit(table, table.state, [])
            return await self._table(game_id)

    async def take_back(self, game_id: int, user_id: int) -> Table:
        """A player whose seat went to the AI after timeouts takes it back."""
        async with self.repo.transaction() as repo:
            table = await self._table(game_id)
            seat = next((s for s in table.seats if s.user_id == user_id), None)
            if table.row.status != "active" or seat is None:
                raise UserError("You have no seat in that running game.")
            if seat.left_game:
                raise UserError(
                    "You left this game (or were removed from it); the AI keeps the seat."
                )
            if not seat.is_ai:
                raise UserError("Your seat is already yours.")
            await repo.update_seat(game_id, seat.seat, is_ai=False, timeouts=0)
            await repo.update_game(table.row, self.clock.now())
            return await self._table(game_id)

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
            now = self.clock.now()
            deadline = now + timedelta(minutes=minutes)
            await repo.update_game(
                table.row,
                now,
                options=options.model_dump(),
                deadline=deadline,
                next_due=next_due(options.model_dump(), deadline, now),
            )
            await repo.reset_reminders(game_id)
            await repo.queue(game_id, "deadline", {"by": user_id, "minutes": minutes}, now)
            return await self._table(game_id)

    async def rematch(self, game_id: int, user_id: int, name: str) -> Table:
        """A new lobby where a finished game was played: the same seats (people who stayed, and
        the AI seats) and options, hosted by whoever asked of those who stayed (`Table.holder`)."""
        async with self.repo.transaction() as repo:
            old = await self._table(game_id)
            if old.row.status != "finished":
                raise UserError(f"{old.label} has not finished; a rematch comes after the end.")
            host = old.holder(user_id)
            if host is None and any(s.user_id == user_id for s in old.seats):
                raise UserError(
                    f"You left {old.label} (or were removed from it): its rematch is for those "
                    "who finished it in their seats."
                )
            if host is None:
                raise UserError(f"Only the players of {old.label} can start its rematch.")
            if await repo.open_game_in(old.row.where):
                raise UserError("A game is already open here; finish or cancel it first.")
            config = {k: v for k, v in old.row.config.items() if k != "players"}
            now = self.clock.now()
            new_id = await repo.insert_game(
                game=old.row.game,
                guild_id=old.row.guild_id,
                channel_id=old.row.channel_id,
                thread_id=old.row.thread_id,
                host_id=user_id,
                status="lobby",
                config=config,
                options=old.row.options,
                seed=secrets.randbits(48),
                created_at=now.isoformat(),
                updated_at=now.isoformat(),
            )
            seats = [s for s in old.seats if s.user_id is None or not s.left_game]
            ordered = [host, *(s for s in seats if s is not host)]
            ai = 0
            for number, seat in enumerate(ordered):
                if seat.user_id is None:
                    ai += 1
                    await repo.add_seat(new_id, number, None, f"AI {ai}")
                else:
                    label = name if seat is host else seat.name
                    await repo.add_seat(new_id, number, seat.user_id, label)
            return await self._table(new_id)

    async def export(self, game_id: int, user_id: int | None) -> dict[str, Any]:
        """The game's replay as a document for `user_id`: while it runs, each action as that
        person may know it (public moves, their own secrets, chance once public); once it has
        ended, the whole log with its seed."""
        async with self.repo.reading() as repo:
            table = await self._table(game_id)
            actions = await repo.actions(game_id)
        game, row = table.game, table.row
        doc: dict[str, Any] = {"game": row.game, "id": row.id, "config": row.config}
        if row.status == "lobby":
            # The seed would predict every roll of the game about to start.
            doc["actions"] = []
            return doc
        if row.status != "active":
            doc["actions"] = [{"seat": s, "action": a, "source": src} for s, a, src in actions]
            doc["seed"] = row.seed
            return doc
        seated = table.seat_of(user_id) if user_id is not None else None
        viewer = seated.seat if seated else None
        config = game.Config(**row.config)
        shown = public_log(
            game,
            config,
            row.seed,
            [(seat, action) for seat, action, _ in actions],
            table.state,
            viewer,
        )
        doc["viewer"] = viewer
        doc["hidden"] = game.hidden(config)
        doc["view"] = game.view(table.state, viewer)
        doc["actions"] = [
            {"seat": seat, "action": action, "source": source}
            for (seat, _, source), action in zip(actions, shown, strict=True)
        ]
        return doc

    # ---- the turn loop -----------------------------------------------------------------------

    async def _commit(
        self,
        table: Table,
        state: Any,
        logged: list[tuple[int, dict[str, Any], str]],
        words: list[dict[str, Any]] | None = None,
        phases: list[tuple[Any, int]] | None = None,
        **fields: Any,
    ) -> None:
        """Deal chance and let AI seats act until people must; store it all and queue posts.

        `words`: the logged moves in words (turn-based games), one {"seat", "text"} each."""
        game = table.game
        seq = await self.repo.action_count(table.row.id)
        seats = {s.seat: s for s in table.seats}
        turns = table.hosted.turns
        events: list[tuple[str, dict[str, Any]]] = []
        owed_before = game.to_act(table.state) if table.state else set()
        phases = list(phases or [])
        moves = list(words or [])
        steps = list(logged)
        while not game.is_over(state):
            acting = game.to_act(state)
            if CHANCE in acting:
                rng = Random(f"{table.row.seed}:{seq + len(steps)}")
                action = game.sample_chance(state, rng).model_dump(mode="json")
                state = game.apply(state, CHANCE, game.parse_action(action))
                steps.append((CHANCE, action, "chance"))
                if turns is None:
                    events.append(("round_started", {"round": state.round, "at": seq + len(steps)}))
                continue
            ai = sorted(s for s in acting if seats[s].is_ai)
            if not ai and turns is not None:
                premoved = await self._premove(table, state, acting)
                if premoved is not None:
                    seat, action, after = premoved
                    moves.append({"seat": seat, "text": turns.describe(state, seat, action, after)})
                    if _phase(after) != _phase(state):
                        phases.append((_phase(state), seq + len(steps) + 1))
                    state = after
                    steps.append((seat, action, "player"))
                    continue
            if not ai:
                break
            for s in ai:
                action = table.hosted.choose(game.view(state, s), s).model_dump(mode="json")
                after = game.apply(state, s, game.parse_action(action))
                if turns is not None:
                    moves.append({"seat": s, "text": turns.describe(state, s, action, after)})
                    if _phase(after) != _phase(state):
                        phases.append((_phase(state), seq + len(steps) + 1))
                state = after
                steps.append((s, action, "ai"))
        now = self.clock.now()
        for i, (seat, action, source) in enumerate(steps):
            await self.repo.append_action(table.row.id, seq + i, seat, action, source, now)
        at = seq + len(steps)
        if turns is not None:
            await self._turn_events(table, state, owed_before, steps, moves, phases, events, fields)
        else:
            await self._round_events(table, state, steps, events, fields)
        if game.is_over(state):
            fields["status"] = "finished"
            fields["deadline"] = None
            events.append(("game_over", {"at": at}))
            seats_now = await self.repo.seats(table.row.id)
            await results.record(
                self.repo, table.row, seats_now, game.outcome(state), "finished", now
            )
        if fields.get("status") == "active" and table.row.status == "lobby":
            events.insert(0, ("started", {"at": 0}))
        if "deadline" in fields:
            fields["next_due"] = next_due(table.row.options, fields["deadline"], now)
        await self.repo.update_game(table.row, now, snapshot=game.dump_state(state), **fields)
        for kind, payload in events:
            await self.repo.queue(table.row.id, kind, payload, now)

    async def _round_events(
        self,
        table: Table,
        state: Any,
        steps: list[tuple[int, dict[str, Any], str]],
        events: list[tuple[str, dict[str, Any]]],
        fields: dict[str, Any],
    ) -> None:
        """A simultaneous game's posts: rounds started (with the last one's summary), the status
        board, the nudge to the last one planning."""
        game, now = table.game, self.clock.now()
        seats = {s.seat: s for s in table.seats}
        at = await self.repo.action_count(table.row.id)
        if game.is_over(state):
            return
        if any(kind == "round_started" for kind, _ in events):
            minutes = TableOptions(**table.row.options).deadline_minutes
            fields["deadline"] = now + timedelta(minutes=minutes)
            await self.repo.reset_reminders(table.row.id)
        elif steps:
            events.append(("status", {"at": at}))
            waiting = [s for s in game.to_act(state) if not seats[s].is_ai]
            limit = TableOptions(**table.row.options).reminders
            last = seats[waiting[0]] if len(waiting) == 1 and len(seats) > 1 else None
            if last and not last.nudged and last.reminders_sent + 1 <= limit:
                await self.repo.update_seat(table.row.id, last.seat, nudged=True)
                events.append(("last_one", {"seat": last.seat}))

    async def _turn_events(
        self,
        table: Table,
        state: Any,
        owed_before: set[int],
        steps: list[tuple[int, dict[str, Any], str]],
        moves: list[dict[str, Any]],
        phases: list[tuple[Any, int]],
        events: list[tuple[str, dict[str, Any]]],
        fields: dict[str, Any],
    ) -> None:
        """A turn-based game's posts: the moves in words (the status message), the phases that
        ended (their images), and a "your turn" to each person who now owes a move."""
        game, now = table.game, self.clock.now()
        at = await self.repo.action_count(table.row.id)
        if moves:
            events.append(("moves", {"moves": moves, "at": at}))
        events += [("phase", {"phase": phase, "at": end}) for phase, end in phases]
        if phases:
            await self._lapse_premoves(table, [phase for phase, _ in phases])
        if game.is_over(state):
            return
        acted = {seat for seat, _, source in steps if source != "chance"}
        people = {s.seat for s in table.seats if not s.is_ai}
        owed = game.to_act(state) & people
        fresh = sorted(s for s in owed if s not in owed_before or s in acted)
        for seat in fresh:
            events.append(("turn", {"seat": seat, "at": at}))
        if fresh or (steps and owed):
            minutes = TableOptions(**table.row.options).deadline_minutes
            fields["deadline"] = now + timedelta(minutes=minutes)
            await self.repo.reset_reminders(table.row.id)
        elif not owed:
            fields["deadline"] = None

    # ---- turn by turn ------------------------------------------------------------------------

    async def turn(self, game_id: int, user_id: int) -> TurnView:
        """What a seat that owes a move sees: its view, the legal actions, the turn number."""
        async with self.repo.reading() as repo:
            table = await self._table(game_id)
            seat = self._mover(table, user_id)
            return _turn_view(table, seat, await repo.action_count(game_id))

    async def act(
        self, game_id: int, user_id: int, action: dict[str, Any], turn: int | None = None
    ) -> tuple[Table, str]:
        """Make a turn-based move (from a panel of turn `turn`, if it names one); returns the
        table after it and the move in words."""
        async with self.repo.transaction() as repo:
            table = await self._table(game_id)
            seat = self._mover(table, user_id)
            if turn is not None:
                await self._fresh_panel(table, seat, turn)
            before = table.state
            after = self._apply(table, seat, action)
            text = table.hosted.turns.describe(before, seat, action, after)
            await repo.update_seat(game_id, seat, timeouts=0)
            end = await repo.action_count(game_id) + 1
            phases = [] if _phase(after) == _phase(before) else [(_phase(before), end)]
            words = [{"seat": seat, "text": text}]
            await self._commit(table, after, [(seat, action, "player")], words, phases)
            return await self._table(game_id), text

    def _mover(self, table: Table, user_id: int) -> int:
        if table.row.status != "active":
            raise UserError(f"{table.label} is not running.")
        seat = table.seat_of(user_id)
        if seat is None:
            raise UserError(f"You don't have a seat in {table.label}.")
        if table.hosted.turns is None:
            raise UserError(f"{table.game.title} is planned in secret, not played turn by turn.")
        if seat.seat not in table.game.to_act(table.state):
            waiting = ", ".join(s.name for s in table.waiting_for()) or "nobody"
            raise UserError(f"It is not your turn in {table.label}: waiting for {waiting}.")
        return seat.seat

    async def premoves(self, game_id: int, user_id: int) -> tuple[Table, int, list[str]]:
        """The pre-moves a seat has set (their keys)."""
        async with self.repo.reading() as repo:
            table = await self._table(game_id)
            seat = self._premover(table, user_id)
            return (
                table,
                seat,
                [p["premove"] for p in await self._stored_premoves(repo, table, seat)],
            )

    async def set_premove(self, game_id: int, user_id: int, key: str, on: bool) -> list[str]:
        """Set or cancel a pre-move; returns the seat's pre-moves after it."""
        async with self.repo.transaction() as repo:
            table = await self._table(game_id)
            seat = self._premover(table, user_id)
            turns = table.hosted.turns
            if key not in turns.premoves:
                known = "; ".join(f"“{k}”: {v}" for k, v in turns.premoves.items())
                raise UserError(f"There is no such pre-move. {table.game.title} has: {known}.")
            kept = [
                p for p in await self._stored_premoves(repo, table, seat) if p["premove"] != key
            ]
            if on:
                kept.append({"premove": key, "scope": turns.premove_scope(key, table.state)})
            await repo.save_draft(game_id, seat, DraftRow(0, kept, False), self.clock.now())
            if on and seat in table.game.to_act(table.state):
                await self._commit(table, table.state, [])
            return [p["premove"] for p in kept]

    def _premover(self, table: Table, user_id: int) -> int:
        if table.row.status != "active":
            raise UserError(f"{table.label} is not running.")
        seat = table.seat_of(user_id)
        if seat is None:
            raise UserError(f"You don't have a seat in {table.label}.")
        if table.hosted.turns is None or not table.hosted.turns.premoves:
            raise UserError(f"{table.game.title} has no pre-moves.")
        return seat.seat

    @staticmethod
    async def _stored_premoves(repo: Repo, table: Table, seat: int) -> list[dict[str, Any]]:
        row = await repo.draft(table.row.id, seat)
        return [p for p in (row.steps if row else []) if isinstance(p, dict) and "premove" in p]

    async def _premove(self, table: Table, state: Any, acting: set[int]) -> Any:
        """The first pre-move of a person owing a move that applies now: (seat, action, after)."""
        turns, game = table.hosted.turns, table.game
        for seat in sorted(acting):
            for premove in await self._stored_premoves(self.repo, table, seat):
                action = turns.premove_action(premove["premove"], premove["scope"], state, seat)
                if action is None:
                    continue
                try:
                    return seat, action, game.apply(state, seat, game.parse_action(action))
                except IllegalAction:
                    continue
        return None

    async def _lapse_premoves(self, table: Table, ended: list[Any]) -> None:
        """Pre-moves of phases that ended are gone."""
        for seat in table.seats:
            stored = await self._stored_premoves(self.repo, table, seat.seat)
            kept = [p for p in stored if p["scope"] not in ended]
            if kept != stored:
                await self.repo.save_draft(
                    table.row.id, seat.seat, DraftRow(0, kept, False), self.clock.now()
                )

    async def recent_moves(self, game_id: int, events: int = 6) -> list[dict[str, Any]]:
        """The moves in words of a turn-based game's last few committed changes."""
        async with self.repo.reading() as repo:
            return [m for p in await repo.recent(game_id, "moves", events) for m in p["moves"]]

    async def moved_since(self, game_id: int, seat: int, turn: int) -> bool:
        """Whether `seat` moved (or chance dealt) after the game's `turn`-th action."""
        async with self.repo.reading() as repo:
            later = (await repo.actions(game_id))[turn:]
        return any(s in (seat, CHANCE) for s, _, _ in later)

    async def _fresh_panel(self, table: Table, seat: int, turn: int) -> None:
        """Refuse a panel drawn before this seat's last move (or a deal since), or one for a turn
        the game has not reached (forged)."""
        log_ = await self.repo.actions(table.row.id)
        if turn > len(log_):
            raise UserError(
                f"{table.label} has had {len(log_)} turns, so no panel of turn {turn} was ever "
                "drawn; use your newest panel."
            )
        if any(s in (seat, CHANCE) for s, _, _ in log_[turn:]):
            raise UserError(
                f"This panel is from turn {turn} of {table.label}, which has moved on; "
                "use your newest panel."
            )


def _phase(state: Any) -> Any:
    """A turn-based state's phase and round, to tell when a phase ended."""
    return [getattr(state, "round", None), getattr(state, "phase", None)]


def _turn_view(table: Table, seat: int, turn: int) -> "TurnView":
    game = table.game
    legal = [a.model_dump(mode="json") for a in game.legal_actions(table.state, seat)]
    return TurnView(table, seat, turn, game.view(table.state, seat), legal)


def _same_round(table: Table, round_: int) -> None:
    """Refuse a planner (button, select) made for another round or a finished game."""
    if table.row.status != "active":
        raise UserError(f"Game #{table.row.id} is over; this planner no longer applies.")
    if table.state.round != round_:
        raise UserError(
            f"This planner is from round {round_}; game #{table.row.id} is in round "
            f"{table.state.round} now. Use the newest planner."
        )


def _first_error(exc: Exception) -> str:
    """A refused config or step in words (pydantic's own wording never reaches a player)."""
    if isinstance(exc, ValidationError):
        return plain(exc)
    return str(exc)
