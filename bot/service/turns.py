"""Turn-by-turn play: a seat's turn (its view and legal moves), a move, taking a move back, and
pre-moves."""

from typing import Any

from bot.service.errors import UserError
from bot.service.loop import Loop
from bot.service.shapes import Move
from bot.service.tables import Table, TurnView
from engine.core import CHANCE, Logged


class Turns(Loop):
    """Moves of the seats that owe one, and decisions taken ahead of a turn."""

    async def turn(self, game_id: int, user_id: int) -> TurnView:
        """What a seat that owes a move sees: its view, the legal actions, the turn number."""
        async with self.repo.reading():
            table = await self._table(game_id)
            return await self._turn_view(table, self._mover(table, user_id))

    async def act(
        self,
        game_id: int,
        user_id: int,
        action: dict[str, Any],
        turn: int | None = None,
        via: int | None = None,
        reply: int | None = None,
    ) -> tuple[Table, str, TurnView | None]:
        """Make a turn-based move (from the panel message `via` of turn `turn`, if it names
        one; its answer, interaction `reply`, is owed until `replied`). Returns the table after
        it, the move in words, and the seat's next decision if it stays on turn (so the
        adapter's next panel needs no second read); None once the turn has passed, even if it
        came back after others moved (that is a new panel's)."""
        async with self.repo.transaction() as repo:
            table = await self._table(game_id)
            seat = self._mover(table, user_id)
            if turn is not None:
                await self._fresh_panel(table, seat, turn)
            before = table.state
            after = self._apply(table, seat, action)
            text = table.hosted.moves().describe(before, seat, action, after)
            await repo.update_seat(game_id, seat, timeouts=0)
            seq = await repo.action_count(game_id)
            await self._commit(table, after, [Move(before, seat, action, after, "player")], via)
            await self._owe_reply(reply, game_id, seat, text)
            now = await self._table(game_id)
            owes = now.row.status == "active" and seat in now.game.to_act(now.state)
            # When others moved before the turn came back, it is a new turn with a new panel
            # (its notification): the one clicked ends here.
            others = tuple(s.seat for s in now.seats if s.seat != seat)
            back = owes and bool(others) and await repo.acted_since(game_id, others, seq + 1)
            # The state before the move is at hand: no replay of the log to offer Undo.
            if not owes or back:
                return now, text, None
            return now, text, await self._turn_view(now, seat, (seq, before))

    async def undo(
        self,
        game_id: int,
        user_id: int,
        turn: int | None = None,
        via: int | None = None,
        reply: int | None = None,
    ) -> tuple[Table, str, TurnView]:
        """Take back the seat's last move (from its panel of turn `turn`): only while the seat is
        still on turn and nobody else, no chance and no hidden card has come between (the
        engine's `reversible`). Returns the table, the move taken back in words, the turn."""
        async with self.repo.transaction() as repo:
            table = await self._table(game_id)
            seat = self._mover(table, user_id)
            if turn is not None:
                await self._fresh_panel(table, seat, turn)
            found = await self._undoable(table, seat)
            if found is None:
                raise UserError(
                    f"There is no move of yours to take back in {table.label} now: a move "
                    "can be undone only while you are still on turn, before anyone else moves "
                    "or anything hidden is shown."
                )
            seq, before, text = found
            now = self.clock.now()
            await repo.drop_actions_from(game_id, seq)
            await repo.update_game(table.row, now, snapshot=table.game.dump_state(before))
            took = {"seat": seat, "text": f"took back a move ({text})"}
            await repo.queue(game_id, "moves", {"moves": [took], "at": seq}, now)
            await repo.queue(game_id, "panel", {"seat": seat, "at": seq, "via": via}, now)
            await self._owe_reply(reply, game_id, seat, f"took back: you {text}")
            table = await self._table(game_id)
            return table, text, await self._turn_view(table, seat)

    async def _undoable(
        self, table: Table, seat: int, known: tuple[int, Any] | None = None
    ) -> tuple[int, Any, str] | None:
        """The seat's last move, if it may take it back now: its place in the log, the state
        before it, and the move in words. `known`: a place in the log and the state before it,
        when the caller holds them (else the log is replayed to that place)."""
        last = await self.repo.last_action(table.row.id)
        if last is None:
            return None
        seq, mover, action, source = last
        if mover != seat or source != "player":
            return None
        before = known[1] if known and known[0] == seq else await self._state_after(table, seq)
        if not table.game.reversible(Logged(before, seat, action, table.state)):
            return None
        return seq, before, table.hosted.moves().describe(before, seat, action, table.state)

    async def _turn_view(
        self, table: Table, seat: int, known: tuple[int, Any] | None = None
    ) -> TurnView:
        game = table.game
        legal = [a.model_dump(mode="json") for a in game.legal_actions(table.state, seat)]
        back = await self._undoable(table, seat, known)
        premoves = await self.repo.premoves(table.row.id, seat)
        return TurnView(
            table,
            seat,
            await self.repo.action_count(table.row.id),
            game.view(table.state, seat),
            legal,
            back[2] if back else None,
            # Those that cover the decision at hand (a maximum bid is for one auction).
            {
                p["premove"]: p["amount"]
                for p in premoves
                if table.hosted.moves().premove_scope(p["premove"], table.state) == p["scope"]
            },
            any(p["due"] is not None for p in premoves),
        )

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

    async def set_premove(
        self, game_id: int, user_id: int, key: str, on: bool, amount: int | None = None
    ) -> list[str]:
        """Set or cancel a pre-move (with the number it takes, if any); returns the seat's
        pre-moves after it."""
        async with self.repo.transaction() as repo:
            table = await self._table(game_id)
            seat = self._premover(table, user_id)
            turns = table.hosted.moves()
            if key not in turns.premoves:
                known = "; ".join(f"“{k}”: {v}" for k, v in turns.premoves.items())
                raise UserError(f"There is no such pre-move. {table.game.title} has: {known}.")
            stored = await repo.premoves(game_id, seat)
            kept = [p for p in stored if p["premove"] != key]
            if not on and len(kept) == len(stored):
                raise UserError(f"“{turns.premoves[key]}” was not set in {table.label}.")
            if on:
                why = turns.premove_refusal(key, table.state, seat, amount)
                if why:
                    raise UserError(why)
                scope = turns.premove_scope(key, table.state)
                kept.append({"premove": key, "scope": scope, "amount": amount})
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
        async with self.repo.reading():
            table = await self._table(game_id)
            seat = self._mover(table, user_id)
            await self._fresh_panel(table, seat, turn)
            return await self._turn_view(table, seat)

    async def _fresh_panel(self, table: Table, seat: int, turn: int) -> None:
        """Refuse a panel drawn before this seat's last move (or a deal since), or one for a turn
        the game has not reached (forged)."""
        count = await self.repo.action_count(table.row.id)
        where = table.game.progress(table.state).words
        if turn > count or await self.repo.acted_since(table.row.id, (seat, CHANCE), turn):
            # After an undo, a panel can be newer than the log: it is out of date all the same.
            raise UserError(
                f"This panel of {table.label} is out of date: the game has moved on since it "
                f"was drawn (it is at {where} now). Use your newest panel."
            )
