"""Turn-by-turn play: a seat's turn (its view and legal moves), a move, and pre-moves."""

from typing import Any

from bot.service.errors import UserError
from bot.service.loop import Loop
from bot.service.shapes import Move
from bot.service.tables import Table, TurnView
from engine.core import CHANCE


class Turns(Loop):
    """Moves of the seats that owe one, and decisions taken ahead of a turn."""

    async def turn(self, game_id: int, user_id: int) -> TurnView:
        """What a seat that owes a move sees: its view, the legal actions, the turn number."""
        async with self.repo.reading() as repo:
            table = await self._table(game_id)
            seat = self._mover(table, user_id)
            return _turn_view(table, seat, await repo.action_count(game_id))

    async def act(
        self, game_id: int, user_id: int, action: dict[str, Any], turn: int | None = None
    ) -> tuple[Table, str, TurnView | None]:
        """Make a turn-based move (from a panel of turn `turn`, if it names one); returns the
        table after it, the move in words, and the seat's next turn if it still owes a move
        (so the adapter's next panel needs no second read)."""
        async with self.repo.transaction() as repo:
            table = await self._table(game_id)
            seat = self._mover(table, user_id)
            if turn is not None:
                await self._fresh_panel(table, seat, turn)
            before = table.state
            after = self._apply(table, seat, action)
            text = table.hosted.moves().describe(before, seat, action, after)
            await repo.update_seat(game_id, seat, timeouts=0)
            await self._commit(table, after, [Move(before, seat, action, after, "player")])
            now = await self._table(game_id)
            owes = now.row.status == "active" and seat in now.game.to_act(now.state)
            turn_now = await repo.action_count(game_id) if owes else None
            return now, text, None if turn_now is None else _turn_view(now, seat, turn_now)

    def _mover(self, table: Table, user_id: int) -> int:
        seat = table.player(user_id)
        table.hosted.moves()
        if seat not in table.game.to_act(table.state):
            waiting = ", ".join(s.name for s in table.waiting_for()) or "nobody"
            raise UserError(f"It is not your turn in {table.label}: waiting for {waiting}.")
        return seat

    async def premoves(self, game_id: int, user_id: int) -> tuple[Table, int, list[str]]:
        """The pre-moves a seat has set (their keys)."""
        async with self.repo.reading() as repo:
            table = await self._table(game_id)
            seat = self._premover(table, user_id)
            return (
                table,
                seat,
                [p["premove"] for p in await repo.premoves(game_id, seat)],
            )

    async def set_premove(self, game_id: int, user_id: int, key: str, on: bool) -> list[str]:
        """Set or cancel a pre-move; returns the seat's pre-moves after it."""
        async with self.repo.transaction() as repo:
            table = await self._table(game_id)
            seat = self._premover(table, user_id)
            turns = table.hosted.moves()
            if key not in turns.premoves:
                known = "; ".join(f"“{k}”: {v}" for k, v in turns.premoves.items())
                raise UserError(f"There is no such pre-move. {table.game.title} has: {known}.")
            kept = [p for p in await repo.premoves(game_id, seat) if p["premove"] != key]
            if on:
                kept.append({"premove": key, "scope": turns.premove_scope(key, table.state)})
            await repo.save_premoves(game_id, seat, kept, self.clock.now())
            if on and seat in table.game.to_act(table.state):
                await self._commit(table, table.state)
            return [p["premove"] for p in kept]

    def _premover(self, table: Table, user_id: int) -> int:
        seat = table.player(user_id)
        if not table.hosted.moves().premoves:
            raise UserError(f"{table.game.title} has no pre-moves.")
        return seat

    async def recent_moves(self, game_id: int, events: int = 6) -> list[dict[str, Any]]:
        """The moves in words of a turn-based game's last few committed changes."""
        async with self.repo.reading() as repo:
            return [m for p in await repo.recent(game_id, "moves", events) for m in p["moves"]]

    async def fresh_turn(self, game_id: int, user_id: int, turn: int) -> TurnView:
        """The seat's turn now, refusing a panel of turn `turn` that is out of date."""
        async with self.repo.reading() as repo:
            table = await self._table(game_id)
            seat = self._mover(table, user_id)
            await self._fresh_panel(table, seat, turn)
            return _turn_view(table, seat, await repo.action_count(game_id))

    async def _fresh_panel(self, table: Table, seat: int, turn: int) -> None:
        """Refuse a panel drawn before this seat's last move (or a deal since), or one for a turn
        the game has not reached (forged)."""
        count = await self.repo.action_count(table.row.id)
        if turn > count:
            raise UserError(
                f"{table.label} has had {count} turns, so no panel of turn {turn} was ever "
                "drawn; use your newest panel."
            )
        if await self.repo.acted_since(table.row.id, (seat, CHANCE), turn):
            raise UserError(
                f"This panel is from turn {turn} of {table.label}, which has moved on; "
                "use your newest panel."
            )


def _turn_view(table: Table, seat: int, turn: int) -> "TurnView":
    game = table.game
    legal = [a.model_dump(mode="json") for a in game.legal_actions(table.state, seat)]
    return TurnView(table, seat, turn, game.view(table.state, seat), legal)
