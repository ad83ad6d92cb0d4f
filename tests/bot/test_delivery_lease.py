"""A game's delivery lease is renewed once half of it has run, not before every event: held
leases cost no transaction per post, and a lost lease still stops the delivery."""

from typing import Any

from bot.service.clock import ManualClock
from bot.store.repo import Pending
from tests.bot.conftest import Bots


async def test_the_lease_is_renewed_once_half_of_it_has_run(
    bots: Bots, clock: ManualClock, monkeypatch: Any
) -> None:
    bot = await bots.start(clock=clock)
    delivery, service = bot.delivery, bot.service
    events = [Pending(n, 1, "post", {}, 0, clock.now()) for n in range(1, 6)]
    renewals: list[float] = []
    granted = [True]

    async def pending_of(game_id: int) -> list[Any]:
        return events

    async def renew_lease(game_id: int, owner: str, lease: Any) -> bool:
        renewals.append((clock.now() - start).total_seconds())
        return granted[0]

    async def deliver_one(*event: Any) -> bool:
        clock.advance(seconds=0.3 * delivery.lease.total_seconds())  # each post takes a while
        return True

    monkeypatch.setattr(service, "pending_of", pending_of)
    monkeypatch.setattr(service, "renew_lease", renew_lease)
    monkeypatch.setattr(delivery, "_deliver_one", deliver_one)
    lease = delivery.lease.total_seconds()
    start = clock.now()
    assert await delivery._deliver_game(1, start + delivery.lease) == 5
    # Posts at 0, 0.3, 0.6, 0.9 and 1.2 leases: renewed when over half has run, at 0.6 (held
    # to 1.6) and at 1.2; not at 0, 0.3 or 0.9.
    assert renewals == [0.6 * lease, 1.2 * lease]

    granted[0] = False
    renewals.clear()
    start = clock.now()
    # Lost at the first renewal: the posts after it are left to the process that holds it now.
    assert await delivery._deliver_game(1, start + delivery.lease) == 2
    assert renewals == [0.6 * lease]
