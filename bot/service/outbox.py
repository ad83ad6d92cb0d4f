"""The outbox as the adapter sends it: leases on a game's delivery, its pending events, and
what was posted; plus the few facts the adapter records of Discord (message ids, closed DMs)."""

from collections.abc import Callable
from datetime import timedelta

from bot.service.tables import Tables
from bot.store.repo import PanelRow, Pending


class Outbox(Tables):
    """What delivery reads and writes, each in its own short transaction."""

    async def lease_games(self, owner: str, lease: timedelta, limit: int) -> list[int]:
        """Take the delivery of up to `limit` games with due events, for `owner`."""
        now = self.clock.now()
        async with self.repo.transaction() as repo:
            return await repo.lease_games(owner, now, now + lease, limit)

    async def renew_lease(self, game_id: int, owner: str, lease: timedelta) -> bool:
        """False when the lease lapsed and another process took the game."""
        async with self.repo.transaction() as repo:
            return await repo.renew_lease(game_id, owner, self.clock.now() + lease)

    async def release_lease(self, game_id: int, owner: str) -> None:
        async with self.repo.transaction() as repo:
            await repo.release_lease(game_id, owner)

    async def pending_of(self, game_id: int) -> list[Pending]:
        """A game's due events in order, up to the first that waits to be retried."""
        async with self.repo.reading() as repo:
            return await repo.pending_of(game_id, self.clock.now())

    async def posted(self, outbox_id: int) -> dict[str, int]:
        """The parts of an event Discord already confirmed, by part name."""
        async with self.repo.reading() as repo:
            return await repo.posted(outbox_id)

    async def last_posted(self, game_id: int, before: int) -> int | None:
        """The newest message posted by the game's events before event `before`."""
        async with self.repo.reading() as repo:
            return await repo.last_posted(game_id, before)

    async def owned(self, message_ids: list[int]) -> set[int]:
        """Which of these messages an outbox event already owns."""
        async with self.repo.reading() as repo:
            return await repo.owned(message_ids)

    async def mark_posted(self, outbox_id: int, part: str, message_id: int) -> None:
        async with self.repo.transaction() as repo:
            await repo.mark_posted(outbox_id, part, message_id, self.clock.now())

    async def mark_sent(self, outbox_id: int, error: str | None = None) -> None:
        async with self.repo.transaction() as repo:
            await repo.mark_sent(outbox_id, self.clock.now(), error)

    async def retry_later(
        self, outbox_id: int, attempts: int, delay: timedelta, error: str
    ) -> None:
        async with self.repo.transaction() as repo:
            await repo.retry_later(outbox_id, attempts, self.clock.now() + delay, error)

    async def identify_turn(self, bucket: int, now: Callable[[], float], spacing: float) -> float:
        """This process's turn to IDENTIFY a shard of `bucket` (0.0), or how long to wait.
        `now` is read inside the transaction: a wait for the lock must not age the turn."""
        async with self.repo.transaction() as repo:
            return await repo.identify_turn(bucket, now(), spacing)

    def transient(self, exc: BaseException) -> bool:
        """Whether `exc` is the database's passing fault (try again later)."""
        return self.repo.database.transient(exc)

    async def healthy(self) -> bool:
        """Whether the database answers now."""
        return await self.repo.database.healthy()

    async def dms_closed(self, game_id: int, seat: int) -> None:
        """The seat's player does not take DMs from the bot: their turns go to the channel."""
        async with self.repo.transaction() as repo:
            await repo.update_seat(game_id, seat, dms_closed=True)

    async def set_message(self, game_id: int, column: str, message_id: int) -> None:
        """Where a game's lobby or status board was posted, to edit it later."""
        async with self.repo.transaction() as repo:
            await repo.set_message(game_id, column, message_id)

    async def replace_panel(
        self, game_id: int, seat: int, panel: PanelRow | None
    ) -> PanelRow | None:
        """Record the seat's new live panel (None: it has none now); the one it replaces."""
        async with self.repo.transaction() as repo:
            old = await repo.panel(game_id, seat)
            await repo.set_panel(game_id, seat, panel)
            return old

    async def live_panel(self, game_id: int, seat: int) -> PanelRow | None:
        async with self.repo.reading() as repo:
            return await repo.panel(game_id, seat)

    async def close_panels(self, game_id: int) -> list[PanelRow]:
        """Forget every live panel of a game that ended; the panels that were live."""
        async with self.repo.transaction() as repo:
            panels = await repo.panels(game_id)
            for seat in panels:
                await repo.set_panel(game_id, seat, None)
            return list(panels.values())
