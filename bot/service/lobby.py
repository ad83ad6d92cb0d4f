"""Opening a table, seats in the lobby, starting, cancelling, adjudicating, and the rematch."""

import secrets
from typing import Any

from pydantic import ValidationError

from bot.service import results
from bot.service.errors import UserError
from bot.service.hours import PlayingHours, parse_clock
from bot.service.loop import Loop
from bot.service.options import TableOptions
from bot.service.reliability import WINDOW, reliability_of
from bot.service.shapes import SHAPES
from bot.service.tables import Table, first_error
from engine import registry
from engine.core import LEVELS


class Lobby(Loop):
    """Tables from opening to the first move, and after the end."""

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
            hours = await repo.server_hours(guild_id) if guild_id is not None else None
            if hours is not None and options.hours is None:
                playing = PlayingHours(
                    zone=hours["zone"], start=hours["hours_start"], end=hours["hours_end"]
                )
                options = options.model_copy(update={"hours": playing})
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

    async def set_hours(self, guild_id: int, zone: str, start: str, end: str) -> PlayingHours:
        """A server's playing hours, for the games it opens from now on."""
        try:
            hours = PlayingHours(zone=zone, start=parse_clock(start), end=parse_clock(end))
        except ValueError as exc:
            raise UserError(first_error(exc)) from None
        async with self.repo.transaction() as repo:
            await repo.set_server_hours(guild_id, hours.zone, hours.start, hours.end)
        return hours

    @staticmethod
    def check_options(game: str, config: dict[str, Any], options: TableOptions) -> None:
        """Refuse a game's options that don't work together (before anything is posted)."""
        engine = registry.get(game)
        try:
            engine.Config(**{**config, "players": options.max_players})
        except ValueError as exc:
            raise UserError(f"Those options don't work together: {first_error(exc)}") from None
        if options.clock == "bank" and SHAPES[engine.dynamics].together:
            raise UserError(
                f"A time bank runs on each seat's own turns, and {engine.title} has none: "
                "everyone plans each round at once. Choose a daily deadline or one per round."
            )
        if (
            options.clock == "daily"
            and options.hours
            and not options.hours.allows(options.daily_at)
        ):
            raise UserError(
                f"The daily deadline must fall within the server's playing hours "
                f"({options.hours.words()})."
            )

    async def set_table(self, game_id: int, user_id: int, moderator: bool, **changes: Any) -> Table:
        """Before the game starts, its host sets how its clock runs and who may join."""
        async with self.repo.transaction() as repo:
            table = await self._lobby(game_id)
            self._host_only(table, user_id, moderator, "set up the table")
            try:
                options = TableOptions(**{**table.row.options, **changes})
            except ValidationError as exc:
                raise UserError(first_error(exc)) from None
            self.check_options(table.row.game, table.row.config, options)
            now = self.clock.now()
            await repo.update_game(table.row, now, options=options.model_dump())
            await repo.queue(game_id, "lobby", {}, now)
            return await self._table(game_id)

    async def join(self, game_id: int, user_id: int, name: str) -> Table:
        async with self.repo.transaction() as repo:
            table = await self._lobby(game_id)
            if table.seat_of(user_id):
                raise UserError("You already have a seat in this game.")
            options = TableOptions(**table.row.options)
            if len(table.seats) >= options.max_players:
                raise UserError("This game is full.")
            if options.min_reliability:
                mine = (await reliability_of(repo, [user_id]))[user_id]
                if not mine.meets(options.min_reliability):
                    raise UserError(
                        "This table takes players reliable in at least "
                        f"{options.min_reliability}% of their last {WINDOW} games, and you are "
                        f"at {mine.percent}%: {mine.words()}. A game counts as reliable when "
                        "every move of yours came in time and you played it to the end."
                    )
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

    async def add_ai(
        self, game_id: int, user_id: int, moderator: bool, level: str = "standard"
    ) -> Table:
        """Seat an AI that plays at `level` (casual, standard or strong)."""
        if level not in LEVELS:
            raise UserError(f"There is no {level!r} AI: choose casual, standard or strong.")
        async with self.repo.transaction() as repo:
            table = await self._lobby(game_id)
            self._host_only(table, user_id, moderator, "add an AI player")
            if len(table.seats) >= TableOptions(**table.row.options).max_players:
                raise UserError("This game is full.")
            n = sum(1 for s in table.seats if s.is_ai) + 1
            await repo.add_seat(game_id, len(table.seats), None, f"AI {n}", level)
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
                    f"The game can't start with {len(table.seats)} seated: {first_error(exc)}"
                ) from None
            state = game.new(config, table.row.seed)
            await self._commit(table, state, status="active", config=config.model_dump(mode="json"))
            return await self._table(game_id)

    async def _lobby(self, game_id: int) -> Table:
        table = await self._table(game_id)
        if table.row.status != "lobby":
            raise UserError("That lobby is closed: the game has started or ended.")
        return table

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
                    level = seat.ai_level or "standard"
                    await repo.add_seat(new_id, number, None, f"AI {ai}", level)
                else:
                    label = name if seat is host else seat.name
                    await repo.add_seat(new_id, number, seat.user_id, label)
            return await self._table(new_id)
