"""Clock models and vacations through the service: the daily deadline across days and a
daylight-saving change, a time bank that runs only on its seat's turn, vacations that stop
clocks and start them again once (also after a restart), and the allowance."""

from datetime import UTC, date, datetime, timedelta

import pytest

from bot.service.clock import ManualClock
from bot.service.errors import UserError
from bot.service.hours import PlayingHours
from bot.service.options import TableOptions
from bot.service.service import Service
from engine.power_grid import autopilot
from tests.service.helpers import ALICE, BOB, open_table_with

PARIS = PlayingHours(zone="Europe/Paris", start=8 * 60, end=23 * 60)


def _paris(*args: int) -> datetime:
    """A wall-clock time in Paris on a winter day (UTC+1) as UTC."""
    return datetime(*args, tzinfo=UTC) - timedelta(hours=1)


@pytest.mark.parametrize(
    ("now", "due"),
    [
        # Opened in the morning: this evening's 20:00 is more than 12 hours ahead.
        (_paris(2026, 1, 10, 7, 0), _paris(2026, 1, 10, 20, 0)),
        # Opened at 19:30: 20:00 today is too near, so tomorrow's.
        (_paris(2026, 1, 10, 19, 30), _paris(2026, 1, 11, 20, 0)),
        # Opened at 08:00 sharp: 20:00 is exactly 12 hours ahead, so it is today's.
        (_paris(2026, 1, 10, 8, 0), _paris(2026, 1, 10, 20, 0)),
        # Across the spring change (29 March 2026, UTC+1 to UTC+2): 20:00 local is 18:00 UTC.
        (datetime(2026, 3, 28, 18, 0, tzinfo=UTC), datetime(2026, 3, 29, 18, 0, tzinfo=UTC)),
    ],
)
def test_a_daily_deadline_is_the_first_daily_time_at_least_twelve_hours_ahead(now, due):
    options = TableOptions(clock="daily", daily_at=20 * 60, hours=PARIS)
    assert options.deadline(now) == due


def test_a_daily_deadline_without_playing_hours_is_in_utc():
    options = TableOptions(clock="daily", daily_at=6 * 60)
    now = datetime(2026, 1, 10, 12, 0, tzinfo=UTC)
    assert options.deadline(now) == datetime(2026, 1, 11, 6, 0, tzinfo=UTC)


async def _power_grid(svc: Service, options: TableOptions) -> int:
    table = await svc.open_table("power_grid", 1, 10, ALICE, "Alice", {}, options)
    await svc.join(table.row.id, BOB, "Bob")
    await svc.start(table.row.id, ALICE, False)
    return table.row.id


async def _move(svc: Service, gid: int) -> int:
    """The seat on turn plays the autopilot's move; returns that seat."""
    table = await svc.table(gid)
    (seat,) = table.waiting_for()
    action = autopilot.choose(table.game.view(table.state, seat.seat), seat.seat)
    assert seat.user_id is not None
    await svc.act(gid, seat.user_id, action.model_dump(mode="json", by_alias=True))
    return seat.seat


BANK = TableOptions(clock="bank", bank_minutes=24 * 60, increment_minutes=60, cap_minutes=25 * 60)


async def test_a_time_bank_runs_only_on_its_seats_turn_and_times_out_to_the_autopilot(world):
    svc, clock, _ = world
    gid = await _power_grid(svc, BANK)
    first = (await svc.table(gid)).waiting_for()[0].seat
    clock.advance(hours=5)
    assert await _move(svc, gid) == first
    table = await svc.table(gid)
    (other,) = table.waiting_for()
    mine = table.seats[first]
    # 24 h less the 5 h it took, plus the 1 h increment for the turn it ended.
    assert mine.bank_seconds == 20 * 3600 and mine.turn_since is None
    assert other.turn_since == clock.now()
    assert table.row.deadline == clock.now() + timedelta(hours=24)

    clock.advance(hours=23, minutes=59)
    await svc.tick()
    table = await svc.table(gid)
    assert table.seats[other.seat].timeouts == 0, "a whole day is the other seat's to take"
    assert table.seats[first].bank_seconds == 20 * 3600, "the first seat's clock stood still"

    clock.advance(minutes=2)
    await svc.tick()
    table = await svc.table(gid)
    late = table.seats[other.seat]
    assert late.timeouts == 1 and not late.is_ai
    # Out of time: nothing left but the increment for the turn the autopilot ended.
    assert late.bank_seconds == 3600
    async with svc.repo.reading() as repo:
        sources = [a["source"] for a in await repo.all("SELECT source FROM actions")]
    assert "timeout" in sources


async def test_a_time_bank_is_refused_where_everyone_plans_at_once(world):
    svc, _, _ = world
    gid = await open_table_with(svc)
    with pytest.raises(UserError, match="A time bank runs on each seat's own turns"):
        await svc.set_table(gid, ALICE, False, clock="bank")
    with pytest.raises(UserError, match="Only the host or a moderator"):
        await svc.set_table(gid, BOB, False, clock="daily")
    assert TableOptions(**(await svc.table(gid)).row.options).clock == "move"


async def _powerline(svc: Service, channel: int = 10, **options) -> int:
    config = {"variants": []}
    table = await svc.open_table(
        "powerline", 1, channel, ALICE, "Alice", config, TableOptions(**options)
    )
    await svc.join(table.row.id, BOB, "Bob")
    await svc.start(table.row.id, ALICE, False)
    return table.row.id


async def test_a_vacation_stops_the_clock_in_two_games_and_starts_them_again(world):
    svc, clock, _ = world
    games = [await _powerline(svc, 10), await _powerline(svc, 11)]
    deadlines = [(await svc.table(g)).row.deadline for g in games]
    clock.advance(hours=1)
    away = await svc.take_vacation(ALICE, 2, None)
    assert away.remaining == 12 and len(away.waits) == 2 and away.runs == []
    await svc.tick()
    for gid in games:
        assert (await svc.table(gid)).row.paused_at == clock.now()

    clock.advance(hours=30)  # past both deadlines: the clocks stand still
    await svc.tick()
    for gid in games:
        table = await svc.table(gid)
        assert table.state.round == 1 and table.seats[0].timeouts == 0

    clock.advance(hours=18)  # two days after she left: back
    await svc.tick()
    for gid, deadline in zip(games, deadlines, strict=True):
        row = (await svc.table(gid)).row
        assert row.paused_at is None
        assert row.deadline == deadline + timedelta(days=2)
    clock.current = deadlines[0] + timedelta(days=2) - timedelta(minutes=1)
    await svc.tick()
    assert (await svc.table(games[0])).state.round == 1
    clock.advance(minutes=2)
    await svc.tick()
    for gid in games:
        assert (await svc.table(gid)).state.round == 2, "timed out once the shifted time ran"


async def test_a_vacation_that_ends_while_the_bot_is_down_resumes_the_clock_once(world):
    svc, clock, _ = world
    gid = await _powerline(svc)
    deadline = (await svc.table(gid)).row.deadline
    await svc.take_vacation(ALICE, 1, None)
    await svc.tick()
    # The bot is down from now until a day and a half later (the day away has ended); a new
    # process then runs the tick twice.
    clock.advance(days=1, hours=12)
    later = Service(svc.repo, ManualClock(clock.now()))
    await later.tick()
    await later.tick()
    table = await later.table(gid)
    assert table.row.deadline == deadline + timedelta(days=1), "moved on by the day away only"
    assert table.row.paused_at is None and table.state.round == 1


async def test_a_game_that_refuses_vacations_keeps_its_clock(world):
    svc, clock, _ = world
    gid = await _powerline(svc, vacations=False)
    away = await svc.take_vacation(ALICE, 3, None)
    assert away.waits == [] and len(away.runs) == 1
    clock.advance(hours=25)
    await svc.tick()
    table = await svc.table(gid)
    assert table.row.paused_at is None and table.state.round == 2


async def test_the_yearly_allowance_overlaps_and_ending_early(world):
    svc, clock, _ = world
    clock.current = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
    await svc.take_vacation(ALICE, 10, None)
    with pytest.raises(UserError, match="overlaps a vacation you already declared"):
        await svc.take_vacation(ALICE, 2, date(2026, 6, 5))
    with pytest.raises(UserError, match=r"You have 4 days of vacation left for 2026 \(of 14\)"):
        await svc.take_vacation(ALICE, 5, date(2026, 7, 1))
    clock.advance(days=2, hours=1)
    back = await svc.end_vacation(ALICE)
    # Ended early on its third day: three started days count, eleven are left.
    assert back.current is None and back.remaining == 11
    declared = await svc.take_vacation(ALICE, 3, date(2026, 12, 30))
    assert declared.current is not None and declared.remaining == 8
    # Next year's allowance is whole: a span counts in the year it starts.
    assert (await svc.take_vacation(ALICE, 14, date(2027, 1, 10))).remaining == 8
    with pytest.raises(UserError, match="can't start in the past"):
        await svc.take_vacation(BOB, 1, date(2026, 5, 1))


async def test_a_deadline_moved_by_playing_hours_survives_a_restart(world):
    svc, clock, _ = world
    # 02:45 in London, a 10-minute deadline: it falls at 08:00.
    clock.current = datetime(2026, 1, 10, 2, 45, tzinfo=UTC)
    london = PlayingHours(zone="Europe/London", start=8 * 60, end=23 * 60)
    gid = await _powerline(svc, deadline_minutes=10, hours=london)
    assert (await svc.table(gid)).row.deadline == datetime(2026, 1, 10, 8, 0, tzinfo=UTC)
    restarted = Service(svc.repo, ManualClock(datetime(2026, 1, 10, 7, 59, tzinfo=UTC)))
    await restarted.tick()
    assert (await restarted.table(gid)).state.round == 1
    restarted.clock = ManualClock(datetime(2026, 1, 10, 8, 0, tzinfo=UTC))
    await restarted.tick()
    assert (await restarted.table(gid)).state.round == 2
