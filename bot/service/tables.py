"""A game as the service holds it (its row, seats and state), reading tables, and the checks
every change makes."""

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from bot.service.clock import Clock
from bot.service.errors import UserError
from bot.service.hosting import Hosted, hosting
from bot.store.repo import GameRow, Repo, SeatRow
from engine import registry
from engine.core import Game, IllegalAction, plain

log = logging.getLogger(__name__)

Offload = Callable[..., Awaitable[Any]]
"""Runs `fn(*args)` elsewhere and awaits its result, as `asyncio.to_thread` does."""


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
        """How people name it: the game's title and number, "<Title> game #2" ("<Title> daily,
        game #2" for a daily entry)."""
        if self.row.challenge is not None:
            return f"{self.game.title} daily, game #{self.row.id}"
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

    def viewer(self, user_id: int) -> SeatRow | None:
        """The seat whose secrets this person may see: the one they play while the game runs
        (not one they left, nor one the AI now plays for them); once it has ended, any of theirs."""
        if self.row.status == "active":
            return self.seat_of(user_id)
        return next((s for s in self.seats if s.user_id == user_id), None)

    def player(self, user_id: int) -> int:
        """The seat the person plays in this running game; a refusal in words otherwise."""
        if self.row.status != "active":
            raise UserError(f"{self.label} is not running.")
        seat = self.seat_of(user_id)
        if seat is None:
            raise UserError(f"You don't have a seat in {self.label}.")
        return seat.seat

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
    undo: str | None = None
    """The seat's last move in words, when it may take it back now (else None)."""
    premoves: dict[str, int | None] = field(default_factory=dict)
    """The seat's pre-moves set now, with their amounts (a maximum bid)."""
    answering: bool = False
    """Whether a paced pre-move of the seat's will make this move when its time comes."""


class Tables:
    """Reading tables: a game by id, by channel, by person."""

    def __init__(self, repo: Repo, clock: Clock, offload: Offload = asyncio.to_thread) -> None:
        self.repo = repo
        self.clock = clock
        self.offload = offload
        """Where the AI thinks: `offload(fn, *args)` off the event loop (the bot's worker
        processes; a thread where no pool runs)."""

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

    async def table_in(self, where: int, *, ended: bool = False) -> Table | None:
        """The open game of a channel; with `ended`, else its newest game that ended."""
        async with self.repo.reading():
            row = await self.repo.open_game_in(where)
            if row is None and ended:
                row = await self.repo.last_game_in(where)
            return await self._table(row.id) if row else None

    async def state_at(self, game_id: int, at: int | None = None) -> Any:
        """The game's state after its first `at` actions (what an old event reports on), or
        after all of them."""
        async with self.repo.reading() as repo:
            row = await repo.game(game_id)
            if row is None:
                raise UserError(f"There is no game #{game_id}.")
            log_ = await repo.actions(game_id)
        at = len(log_) if at is None else at
        if at == len(log_) and row.snapshot:
            return registry.get(row.game).load_state(row.snapshot)
        return _replayed(row, log_[:at])

    async def _state_after(self, table: Table, at: int) -> Any:
        """The table's state after its first `at` actions, read in the caller's transaction."""
        return _replayed(table.row, (await self.repo.actions(table.row.id))[:at])

    async def action_count(self, game_id: int) -> int:
        """How many actions the game's log holds: the turn number a panel carries."""
        async with self.repo.reading() as repo:
            return await repo.action_count(game_id)

    async def games_of(
        self, user_id: int, *, guild_id: int | None, lobbies: bool = False
    ) -> list[Table]:
        """The user's running games (and open lobbies, if asked) that `Table.open_to` shows them
        in server `guild_id` (None: DMs, where every server's are), oldest first."""
        statuses = ("lobby", "active") if lobbies else ("active",)
        tables = []
        async with self.repo.reading():
            for row in await self.repo.games_of(user_id, statuses):
                try:
                    tables.append(await self._table(row.id))
                except Exception as exc:
                    if self.repo.database.transient(exc):
                        raise
                    # One corrupt game fails alone: the person's other games stay reachable.
                    log.exception("game %s could not be read; left out of a list", row.id)
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

    def _apply(self, table: Table, seat: int, action: dict[str, Any]) -> Any:
        game = table.game
        try:
            return game.apply(table.state, seat, game.parse_action(action))
        except IllegalAction as exc:
            raise UserError(exc.reason) from None

    @staticmethod
    def _host_only(table: Table, user_id: int, moderator: bool, what: str) -> None:
        """Host powers: the host's while they play their own seat (`Table.seat_of`), and those of
        `moderator`, a moderator of the game's own server (`bot.ui.common.moderates`). A daily
        entry has none: it ends when its player finishes or the day closes."""
        if table.row.challenge is not None:
            raise UserError(
                f"{table.label} is a daily entry, so nobody can {what}: it ends when you "
                "finish it, or when the day closes (counting what your board has then)."
            )
        if moderator:
            return
        if user_id != table.row.host_id:
            raise UserError(f"Only the host or a moderator can {what}.")
        if table.seat_of(user_id) is None:
            raise UserError(
                f"You no longer play your seat in {table.label}, so you are not its host any "
                f"more: only a moderator can {what}."
            )


def first_error(exc: Exception) -> str:
    """A refused config or step in words (pydantic's own wording never reaches a player)."""
    if isinstance(exc, ValidationError):
        return plain(exc)
    return str(exc)


def _replayed(row: GameRow, log_: list[tuple[int, dict[str, Any], str]]) -> Any:
    game = registry.get(row.game)
    state = game.new(game.Config(**row.config), row.seed)
    for seat, action, _ in log_:
        state = game.apply(state, seat, game.parse_action(action))
    return state
