"""Daily challenges in the service: the same dice for everyone, one entry a day, a day closed
once with what each entry had, streaks by the server's zone, boards hidden until one finishes."""

from datetime import UTC, date, datetime, timedelta

import pytest

from bot.service.challenges import ranks, seed_of, streaks
from bot.service.clock import ManualClock
from bot.service.errors import UserError
from bot.service.service import Service
from bot.store.dailies import DailyRepo
from bot.store.database import open_database
from bot.store.repo import Repo
from engine.core import CHANCE

GUILD, OTHER = 1, 2
ADA, BEN, CID = 100, 101, 102
DM = {ADA: 900, BEN: 901, CID: 902}
CHANNEL = 10


async def play(svc: Service, user: int, key: str = "railroad_ink", guild: int | None = GUILD):
    table, _ = await svc.play_daily(key, user, f"user{user}", guild, CHANNEL, DM[user])
    return table.row.id


async def plan_round(svc: Service, gid: int, user: int, last: bool) -> None:
    """Draft a round (the first or the last offered step each time) and submit it."""
    table = await svc.table(gid)
    plans = table.hosted.plans()
    draft = await svc.draft(gid, user)
    while not draft.can_submit or draft.next_options:
        if not draft.next_options:
            break
        key = draft.next_options[-1 if last else 0][1]
        draft = await svc.edit_draft(gid, user, add=plans.parse_key(key))
    await svc.submit(gid, user)


async def finish(svc: Service, gid: int, user: int, last: bool = True) -> None:
    while (await svc.table(gid)).row.status == "active":
        await plan_round(svc, gid, user, last)


async def rolls(svc: Service, gid: int) -> list[dict]:
    _, log = await svc.with_log(gid)
    return [action for seat, action, _ in log if seat == CHANCE]


@pytest.fixture
async def daily(database_target):
    db = await open_database(database_target)
    clock = ManualClock(datetime(2026, 11, 26, 9, 0, tzinfo=UTC))
    yield Service(Repo(db), clock), clock, database_target
    await db.close()


def test_ranks_share_places_and_streaks_count_consecutive_days():
    assert ranks([50, 47, 47, 40]) == [1, 2, 2, 4]
    d = date(2026, 11, 20)
    played = [d, d + timedelta(1), d + timedelta(2), d + timedelta(4), d + timedelta(5)]
    assert streaks(played, d + timedelta(5)) == (2, 3)
    assert streaks(played, d + timedelta(6)) == (2, 3), "today may yet be played"
    assert streaks(played, d + timedelta(7)) == (0, 3)
    assert streaks([], d) == (0, 0)


def test_seeds_are_secret_and_differ_by_day_and_challenge():
    day = date(2026, 11, 26)
    assert seed_of(b"k", "railroad_ink", day) == seed_of(b"k", "railroad_ink", day)
    assert seed_of(b"k", "railroad_ink", day) != seed_of(b"k", "railroad_ink", day + timedelta(1))
    assert seed_of(b"k", "railroad_ink", day) != seed_of(b"k", "powerline", day)
    assert seed_of(b"k", "railroad_ink", day) != seed_of(b"other", "railroad_ink", day)


@pytest.mark.parametrize("key", ["railroad_ink", "railroad_ink_electric", "powerline"])
async def test_everyone_plays_the_same_dice_whatever_they_plan(daily, key):
    svc, _, _ = daily
    first, second = await play(svc, ADA, key), await play(svc, BEN, key)
    assert first != second
    await finish(svc, first, ADA, last=True)
    await finish(svc, second, BEN, last=False)
    a, b = await rolls(svc, first), await rolls(svc, second)
    assert a == b and len(a) > 1
    boards = [(await svc.table(g)).state.players[0] for g in (first, second)]
    assert boards[0] != boards[1], "two ways of planning, the same dice"
    third, _ = await svc.play_daily(key, CID, "Cid", GUILD, CHANNEL, DM[CID])
    assert (await rolls(svc, third.row.id))[0] == a[0], "the same day: the same first roll"


async def test_the_next_roll_is_made_only_when_the_round_is_planned(daily):
    svc, _, _ = daily
    gid = await play(svc, ADA)
    assert len(await rolls(svc, gid)) == 1
    await plan_round(svc, gid, ADA, True)
    assert len(await rolls(svc, gid)) == 2


async def test_one_entry_a_day_however_often_it_is_asked(daily):
    svc, clock, _ = daily
    gid = await play(svc, ADA)
    again, fresh = await svc.play_daily("railroad_ink", ADA, "Ada", OTHER, 11, DM[ADA])
    assert (again.row.id, fresh) == (gid, False)
    await finish(svc, gid, ADA)
    replay, fresh = await svc.play_daily("railroad_ink", ADA, "Ada", GUILD, CHANNEL, DM[ADA])
    assert (replay.row.id, fresh) == (gid, False)
    clock.advance(days=1)
    tomorrow = await play(svc, ADA)
    assert tomorrow != gid
    assert await rolls(svc, tomorrow) != await rolls(svc, gid)


async def test_a_person_may_play_two_challenges_at_once_in_their_dms(daily):
    svc, _, _ = daily
    ink, line = await play(svc, ADA, "railroad_ink"), await play(svc, ADA, "powerline")
    assert {(await svc.table(g)).row.status for g in (ink, line)} == {"active"}


async def test_boards_are_compared_only_between_finishers(daily):
    svc, _, _ = daily
    ada, ben = await play(svc, ADA), await play(svc, BEN)
    await finish(svc, ben, BEN)
    with pytest.raises(UserError, match="Finish today's Railroad Ink daily first"):
        await svc.daily_compare("railroad_ink", ADA, BEN, GUILD)
    with pytest.raises(UserError, match="have not finished"):
        await svc.daily_compare("railroad_ink", BEN, ADA, GUILD)
    await finish(svc, ada, ADA)
    assert (await svc.daily_compare("railroad_ink", ADA, BEN, GUILD)).row.id == ben
    # The game itself is not open to others, in the server or in DMs.
    for where in (GUILD, None):
        with pytest.raises(UserError):
            await svc.table_for(ben, ADA, where)


async def test_the_day_closes_once_with_what_each_entry_had(daily):
    svc, clock, target = daily
    ada, ben, cid = await play(svc, ADA), await play(svc, BEN), await play(svc, CID)
    await finish(svc, ada, ADA)
    await finish(svc, ben, BEN, last=False)
    await plan_round(svc, cid, CID, True)
    board = await svc.daily_day("railroad_ink", GUILD, CID)
    assert board.mine is not None and board.mine.rank is None, "still under way: no place"
    assert len(board.scored) == 2
    clock.current = datetime(2026, 11, 27, 0, 0, 1, tzinfo=UTC)
    # A second process on the same database closes the same day at the same time.
    other = await open_database(target)
    try:
        twin = Service(Repo(other), clock)
        assert await svc._dailies(clock.now()) + await twin._dailies(clock.now()) == 1
    finally:
        await other.close()
    board = await svc.daily_day("railroad_ink", GUILD, CID, date(2026, 11, 26))
    assert [p.entry.user_id for p in board.placed if p.rank is None] == []
    assert (await svc.table(cid)).row.status == "finished"
    mine = board.mine
    assert mine is not None and mine.entry.score is not None and not mine.entry.finished
    async with svc.repo.reading() as repo:
        queued = await repo.all("SELECT game_id, kind FROM outbox WHERE kind LIKE 'daily%'")
    kinds = sorted(r["kind"] for r in queued)
    assert kinds == ["daily_board", "daily_late"]
    with pytest.raises(UserError):
        await plan_round(svc, cid, CID, True)


async def test_streaks_follow_the_servers_day_across_midnight(daily):
    svc, clock, _ = daily
    await svc.set_hours(OTHER, "Pacific/Auckland", "00:00", "00:00")
    # 11:30 UTC on the 26th is 00:30 on the 27th in Auckland: a new day there, not here.
    clock.current = datetime(2026, 11, 26, 11, 30, tzinfo=UTC)
    await play(svc, ADA, guild=GUILD)
    await play(svc, BEN, guild=OTHER)
    async with svc.repo.reading() as repo:
        days = {e.user_id: e.day for e in await DailyRepo(repo).of_person(ADA)}
        days |= {e.user_id: e.day for e in await DailyRepo(repo).of_person(BEN)}
    assert days == {ADA: date(2026, 11, 26), BEN: date(2026, 11, 27)}
    clock.advance(days=1)
    await play(svc, ADA, guild=GUILD)
    await play(svc, BEN, guild=OTHER)
    for user, guild in ((ADA, GUILD), (BEN, OTHER)):
        streak = await svc.streak(user, guild)
        assert (streak.current, streak.longest, streak.played_today) == (2, 2, True)
    clock.advance(days=2, hours=13)  # the 30th in both zones: a day missed in each
    assert (await svc.streak(ADA, GUILD)).current == 0
    assert (await svc.streak(BEN, OTHER)).current == 0
    assert (await svc.streak(BEN, OTHER)).longest == 2


async def _scored(svc: Service, clock: ManualClock, user: int, day: date, score: float) -> None:
    """An entry of `day` (UTC) started then, counted as if it had ended with `score`."""
    clock.current = datetime.combine(day, datetime.min.time(), UTC) + timedelta(hours=12)
    gid = await play(svc, user)
    async with svc.repo.transaction() as repo:
        assert await DailyRepo(repo).finished(gid, score, clock.now())


async def test_the_week_counts_each_players_best_five_days(daily):
    svc, clock, _ = daily
    monday = date(2026, 11, 23)
    for offset, score in enumerate([10, 50, 20, 40, 30, 5]):  # Monday to Saturday
        await _scored(svc, clock, ADA, monday + timedelta(offset), score)
    await _scored(svc, clock, BEN, monday, 150)
    await _scored(svc, clock, CID, monday - timedelta(1), 999)  # last week's Sunday
    clock.current = datetime(2026, 11, 29, 12, tzinfo=UTC)
    first, rows = await svc.daily_week("railroad_ink", GUILD)
    assert first == monday
    assert [(r.user_id, r.points, r.rank) for r in rows] == [(ADA, 150, 1), (BEN, 150, 1)]
    assert rows[0].detail == "6 of 7 days played"


async def test_the_season_closes_once_and_names_its_champion(daily):
    svc, clock, target = daily
    day = date(2026, 12, 30)
    await _scored(svc, clock, ADA, day, 40)
    await _scored(svc, clock, BEN, day, 30)
    await _scored(svc, clock, CID, day, 30)
    await _scored(svc, clock, BEN, day + timedelta(1), 10)
    clock.current = datetime(2026, 12, 31, 12, tzinfo=UTC)
    ladder = await svc.season_ladder(GUILD)
    # A day: one point for taking part, and 3, 2 or 1 more for the top three (ties share).
    assert [(r.user_id, r.points, r.rank) for r in ladder] == [
        (BEN, 3 + 4, 1),
        (ADA, 4, 2),
        (CID, 3, 3),
    ]
    clock.current = datetime(2027, 1, 1, 0, 0, 5, tzinfo=UTC)
    other = await open_database(target)
    try:
        twin = Service(Repo(other), clock)
        await svc._seasons(clock.now())
        await twin._seasons(clock.now())
    finally:
        await other.close()
    async with svc.repo.reading() as repo:
        posts = await repo.all("SELECT payload FROM outbox WHERE kind = 'season_over'")
        closed = await repo.all("SELECT champion_id FROM season_closings")
    assert len(posts) == 1 and [r["champion_id"] for r in closed] == [BEN]
    assert '"season": "2026-Q4"' in posts[0]["payload"]


async def test_a_reminder_comes_late_on_a_day_not_played_and_only_then(daily):
    svc, clock, _ = daily
    await finish(svc, await play(svc, ADA), ADA)
    due = await svc.set_reminder(ADA, GUILD, True)
    assert due == datetime(2026, 11, 26, 20, tzinfo=UTC)
    clock.current = due + timedelta(minutes=1)
    await svc._reminders(clock.now())  # she played today: nothing to remind
    clock.current = datetime(2026, 11, 27, 20, 1, tzinfo=UTC)
    other = await open_database(daily[2])
    try:
        twin = Service(Repo(other), clock)
        assert await svc._reminders(clock.now()) + await twin._reminders(clock.now()) == 1
    finally:
        await other.close()
    async with svc.repo.reading() as repo:
        sent = await repo.all("SELECT payload FROM outbox WHERE kind = 'daily_reminder'")
        later = await DailyRepo(repo).reminder(ADA)
    assert len(sent) == 1 and '"streak": 1' in sent[0]["payload"]
    assert later is not None and later["due"] == "2026-11-28T20:00:00+00:00"
    await svc.set_reminder(ADA, GUILD, False)
    clock.current = datetime(2026, 11, 28, 20, 1, tzinfo=UTC)
    assert await svc._reminders(clock.now()) == 0


async def test_an_entry_cannot_be_cancelled_ended_or_given_to_the_ai(daily):
    svc, _, _ = daily
    gid = await play(svc, ADA)
    for act in (
        svc.cancel(gid, ADA, False),
        svc.adjudicate(gid, ADA, True),
        svc.hand_to_ai(gid, ADA, ADA, False, leaving=True),
    ):
        with pytest.raises(UserError, match="is a daily entry"):
            await act
    assert (await svc.table(gid)).row.status == "active"


async def test_an_entry_made_after_its_day_closed_still_ends_without_a_second_post(daily):
    svc, clock, _ = daily
    await finish(svc, await play(svc, ADA), ADA)
    clock.current = datetime(2026, 11, 27, 0, 0, 1, tzinfo=UTC)
    assert await svc._dailies(clock.now()) == 1
    # As if the server's zone had moved back: an entry of the closed day appears.
    async with svc.repo.transaction() as repo:
        ends = datetime(2026, 11, 27, tzinfo=UTC)
        assert await DailyRepo(repo).claim(
            "railroad_ink", date(2026, 11, 26), BEN, "Ben", GUILD, CHANNEL, ends
        )
    assert await svc._dailies(clock.now()) == 0
    async with svc.repo.reading() as repo:
        due = await DailyRepo(repo).due_closings(clock.now(), 10)
        boards = await repo.all("SELECT id FROM outbox WHERE kind = 'daily_board'")
    assert due == [] and len(boards) == 1
