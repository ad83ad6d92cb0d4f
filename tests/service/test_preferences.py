"""Personal settings through the service: quiet hours hold a reminder until they end, the digest
replaces reminders once a day, and the heads-up reaches the next seat once per turn."""

import asyncio
from collections import Counter
from datetime import UTC, datetime

import pytest

from bot.service.errors import UserError
from bot.service.options import TableOptions
from bot.service.preferences import Preferences, heads_ups
from bot.service.service import Service
from bot.store.database import open_database
from bot.store.repo import Repo
from engine.core import queue
from engine.power_grid import autopilot
from tests.service.helpers import ALICE, BOB, CARL, fill_draft, open_table_with

PARIS = "Europe/Paris"


async def _events(svc: Service, kind: str) -> list[dict]:
    """The payloads of every queued event of `kind`, oldest first (nothing is delivered here)."""
    async with svc.repo.reading() as repo:
        return [p for _, _, k, p, _ in await repo.pending(limit=10_000) if k == kind]


async def _next_due(svc: Service, gid: int) -> datetime:
    async with svc.repo.reading() as repo:
        row = await repo.one("SELECT next_due FROM games WHERE id = ?", (gid,))
    assert row is not None
    return datetime.fromisoformat(row["next_due"])


def test_quiet_hours_and_the_digest_hour_follow_the_zone_across_midnight_and_a_clock_change():
    paris = Preferences(zone=PARIS, quiet_start=23 * 60, quiet_end=8 * 60, digest_at=150)
    # 00:00 in Paris on the night clocks go forward: quiet until 08:00 summer time, 06:00 UTC.
    night = datetime(2026, 3, 28, 23, 0, tzinfo=UTC)
    assert paris.quiet_until(night) == datetime(2026, 3, 29, 6, 0, tzinfo=UTC)
    assert paris.quiet_until(datetime(2026, 3, 28, 21, 59, tzinfo=UTC)) is None  # 22:59
    assert paris.quiet_until(datetime(2026, 3, 28, 22, 0, tzinfo=UTC)) is not None  # 23:00
    # 02:30 does not exist in Paris that night: the digest comes at 03:30 summer time.
    assert paris.next_digest(night, None) == datetime(2026, 3, 29, 1, 30, tzinfo=UTC)
    assert paris.next_digest(night, "2026-03-29") == datetime(2026, 3, 30, 0, 30, tzinfo=UTC)
    york = Preferences(zone="America/New_York", quiet_start=22 * 60, quiet_end=7 * 60)
    # Midnight in New York as clocks go forward (8 March 2026): quiet until 07:00 EDT.
    assert york.quiet_until(datetime(2026, 3, 8, 5, 0, tzinfo=UTC)) == datetime(
        2026, 3, 8, 11, 0, tzinfo=UTC
    )
    # And as they go back (1 November): 07:00 EST is 12:00 UTC.
    assert york.quiet_until(datetime(2026, 11, 1, 4, 0, tzinfo=UTC)) == datetime(
        2026, 11, 1, 12, 0, tzinfo=UTC
    )


async def test_a_reminder_due_in_quiet_hours_comes_once_as_they_end(world):
    svc, clock, _ = world
    clock.current = datetime(2026, 3, 28, 20, 0, tzinfo=UTC)  # 21:00 in Paris
    await svc.set_zone(BOB, PARIS)
    await svc.set_quiet(BOB, "23:00", "8:00")
    gid = await open_table_with(svc, deadline_minutes=12 * 60)
    await svc.start(gid, ALICE, False)
    bob = (await svc.table(gid)).seat_of(BOB).seat

    clock.current = datetime(2026, 3, 29, 2, 0, tzinfo=UTC)  # half time: 04:00 in Paris
    await svc.tick()
    assert [p["seat"] for p in await _events(svc, "reminder")] == [1 - bob]
    # The tick comes back as Bob's night ends: 08:00 summer time, clocks went forward at 02:00.
    assert await _next_due(svc, gid) == datetime(2026, 3, 29, 6, 0, tzinfo=UTC)

    clock.current = datetime(2026, 3, 29, 5, 59, tzinfo=UTC)
    await svc.tick()
    assert len(await _events(svc, "reminder")) == 1
    clock.current = datetime(2026, 3, 29, 6, 0, tzinfo=UTC)
    await svc.tick()
    await svc.tick()
    clock.advance(minutes=30)
    await svc.tick()
    reminders = await _events(svc, "reminder")
    assert [p["seat"] for p in reminders] == [1 - bob, bob], "sent as the night ended, once"
    assert reminders[-1]["minutes_left"] == 120
    # The next mark (one hour left) is the next reminder of each.
    clock.current = datetime(2026, 3, 29, 7, 0, tzinfo=UTC)
    await svc.tick()
    assert Counter(p["seat"] for p in await _events(svc, "reminder")) == {bob: 2, 1 - bob: 2}


async def test_the_digest_replaces_reminders_and_comes_once_a_day(world):
    svc, clock, path = world
    clock.current = datetime(2026, 3, 28, 12, 0, tzinfo=UTC)
    await svc.set_zone(BOB, PARIS)
    await svc.set_digest(BOB, True, "18:00")

    clock.current = datetime(2026, 3, 28, 17, 0, tzinfo=UTC)  # 18:00 in Paris: nothing waits
    await svc.tick()
    assert await _events(svc, "digest") == []

    clock.current = datetime(2026, 3, 28, 17, 30, tzinfo=UTC)
    gid = await open_table_with(svc)
    await svc.start(gid, ALICE, False)
    bob = (await svc.table(gid)).seat_of(BOB).seat
    clock.current = datetime(2026, 3, 29, 5, 30, tzinfo=UTC)  # half time
    await svc.tick()
    await fill_draft(svc, gid, ALICE)
    await svc.submit(gid, ALICE)  # Bob is the last one to plan now: no nudge for him either
    assert [p["seat"] for p in await _events(svc, "reminder")] == [1 - bob]
    assert await _events(svc, "last_one") == []

    # The next day's 18:00 is 16:00 UTC: summer time began in between.
    clock.current = datetime(2026, 3, 29, 15, 59, tzinfo=UTC)
    await svc.tick()
    assert await _events(svc, "digest") == []
    clock.current = datetime(2026, 3, 29, 16, 0, tzinfo=UTC)
    await svc.tick()
    assert await _events(svc, "digest") == [{"seat": bob}]

    # A restart: another service on the same database sends no second digest that day.
    db = await open_database(path)
    try:
        again = Service(Repo(db), clock)
        clock.advance(minutes=20)
        await again.tick()
        await svc.tick()
        assert len(await _events(svc, "digest")) == 1
        clock.current = datetime(2026, 3, 29, 16, 30, tzinfo=UTC)  # one hour left: no reminder
        await again.tick()
        assert [p["seat"] for p in await _events(svc, "reminder")] == [1 - bob]

        # The next day, two processes tick at once: one digest between them.
        clock.current = datetime(2026, 3, 30, 16, 0, tzinfo=UTC)
        await asyncio.gather(svc.tick(), again.tick())
        assert len(await _events(svc, "digest")) == 2
    finally:
        await db.close()


async def test_turning_the_digest_off_or_changing_its_hour_reschedules_it(world):
    svc, clock, _ = world
    clock.current = datetime(2026, 3, 28, 12, 0, tzinfo=UTC)
    gid = await open_table_with(svc)
    await svc.start(gid, ALICE, False)
    await svc.set_zone(BOB, "America/New_York")
    await svc.set_digest(BOB, True, "9:00")  # 13:00 UTC in summer time
    await svc.set_digest(BOB, False, None)
    clock.current = datetime(2026, 3, 28, 13, 1, tzinfo=UTC)
    await svc.tick()
    assert await _events(svc, "digest") == []
    prefs = await svc.set_digest(BOB, True, None)
    assert prefs.digest_at == 9 * 60, "the hour it had"
    clock.current = datetime(2026, 3, 29, 13, 0, tzinfo=UTC)
    await svc.tick()
    assert len(await _events(svc, "digest")) == 1
    await svc.set_digest(BOB, True, "10:00")  # later the same day: that day had its digest
    clock.current = datetime(2026, 3, 29, 14, 0, tzinfo=UTC)
    await svc.tick()
    assert len(await _events(svc, "digest")) == 1
    clock.current = datetime(2026, 3, 30, 14, 0, tzinfo=UTC)
    await svc.tick()
    assert len(await _events(svc, "digest")) == 2


async def test_nonsense_settings_are_refused_and_change_nothing(world):
    svc, _, _ = world
    await svc.set_zone(ALICE, PARIS)
    with pytest.raises(UserError, match="“Mars/Olympus” is not a time zone"):
        await svc.set_zone(ALICE, "Mars/Olympus")
    with pytest.raises(UserError, match="“25:00” is not a time of day like 08:00"):
        await svc.set_quiet(ALICE, "25:00", "08:00")
    with pytest.raises(UserError, match="both a start and an end"):
        await svc.set_quiet(ALICE, "23:00", None)
    with pytest.raises(UserError, match="must end at another time than they start"):
        await svc.set_quiet(ALICE, "23:00", "23:00")
    assert await svc.preferences(ALICE) == Preferences(zone=PARIS)
    assert await svc.preferences(BOB) == Preferences()


# ---- the heads-up, in Power Grid -------------------------------------------------------------


async def _power_grid(svc: Service) -> int:
    names = {ALICE: "Alice", BOB: "Bob", CARL: "Carl"}
    table = await svc.open_table(
        "power_grid", 1, 10, ALICE, "Alice", {"hidden_money": True}, TableOptions()
    )
    for uid in (BOB, CARL):
        await svc.join(table.row.id, uid, names[uid])
    await svc.start(table.row.id, ALICE, False)
    return table.row.id


async def _following(svc: Service, gid: int) -> int | None:
    """The seat that moves after those on turn, as the engine tells it."""
    table = await svc.table(gid)
    acting = table.game.to_act(table.state)
    return next((s for s in queue(table.game, table.state) or [] if s not in acting), None)


async def _move(svc: Service, gid: int) -> None:
    """A seat on turn (the first, when all power at once) makes the autopilot's move."""
    table = await svc.table(gid)
    seat = min(table.game.to_act(table.state))
    action = autopilot.choose(table.game.view(table.state, seat), seat)
    uid = table.seats[seat].user_id
    await svc.act(gid, uid, action.model_dump(mode="json", by_alias=True))


async def test_the_heads_up_comes_once_as_the_seat_before_starts_its_turn(world):
    svc, clock, _ = world
    for uid in (ALICE, BOB, CARL):
        await svc.set_heads_up(uid, True)
    gid = await _power_grid(svc)
    table = await svc.table(gid)
    (first,) = table.game.to_act(table.state)
    following = await _following(svc, gid)
    assert following is not None
    assert await _events(svc, "heads_up") == [{"seat": following, "movers": [first]}]
    # The same seat's turn coming again before the next one's (after someone's pending
    # choice, say) tells them nothing new.
    async with svc.repo.transaction() as repo:
        assert await heads_ups(repo, table, table.state, [first], clock.now()) == []

    stayed = passed = 0
    for _ in range(80):
        turns, warned = len(await _events(svc, "turn")), len(await _events(svc, "heads_up"))
        await _move(svc, gid)
        new_turns = (await _events(svc, "turn"))[turns:]
        new_heads_ups = (await _events(svc, "heads_up"))[warned:]
        if not new_turns:
            stayed += 1
            assert new_heads_ups == [], "no heads-up for another decision of the same turn"
            continue
        passed += 1
        for heads_up in new_heads_ups:
            assert heads_up["seat"] == await _following(svc, gid)
            assert heads_up["movers"] == [t["seat"] for t in new_turns]
    assert stayed and passed, "the stretch had turns of one decision and of several"

    # At most one heads-up per turn of a seat: never two without its turn between them.
    async with svc.repo.reading() as repo:
        events = [(k, p) for _, _, k, p, _ in await repo.pending(limit=10_000)]
    for seat in range(3):
        told = [k for k, p in events if k in ("turn", "heads_up") and p["seat"] == seat]
        assert told.count("heads_up") >= 2, "told again once their turn had come"
        assert ["heads_up", "heads_up"] not in [told[i : i + 2] for i in range(len(told) - 1)]


async def test_no_heads_up_for_a_muted_seat_or_one_that_did_not_ask(world):
    svc, _, _ = world
    await svc.set_heads_up(ALICE, True)
    await svc.set_heads_up(CARL, True)
    gid = await _power_grid(svc)
    table = await svc.table(gid)
    await svc.mute(gid, CARL, True)
    alice, bob, carl = (table.seat_of(uid).seat for uid in (ALICE, BOB, CARL))
    before = await _events(svc, "heads_up")
    for _ in range(80):
        await _move(svc, gid)
    told = [p["seat"] for p in (await _events(svc, "heads_up"))[len(before) :]]
    assert alice in told, "Alice asked for it"
    assert bob not in told and carl not in told
