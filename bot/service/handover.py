"""Handing a seat to the AI (leaving, being replaced or kicked) and taking it back."""

from bot.service.errors import UserError
from bot.service.loop import Loop
from bot.service.tables import Table


class HandOver(Loop):
    """Seats between people and the AI."""

    async def hand_to_ai(
        self, game_id: int, by: int, target: int, moderator: bool, *, leaving: bool
    ) -> Table:
        """A seat's player leaves (or is kicked, or replaced): the AI plays the seat from now on."""
        async with self.repo.transaction() as repo:
            table = await self._table(game_id)
            if table.row.status != "active":
                raise UserError("That game is not running.")
            if table.row.challenge is not None:
                # The AI would finish the entry with its own score.
                raise UserError(
                    f"{table.label} is a daily entry: it can't be handed to the AI. Leave it "
                    "as it is and it counts with what it has when the day closes."
                )
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
            await self._commit(table, table.state)
            return await self._table(game_id)

    async def reclaim(self, game_id: int, user_id: int) -> Table:
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
