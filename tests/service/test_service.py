"""The game service without Discord: lobby, drafts, plans, resolution, deadlines, restarts."""

import asyncio
from collections import Counter
from datetime import timedelta

import pytest

from bot.service.errors import UserError
from bot.service.options import TableOptions
from bot.service.service import Service
from bot.store.database import open_database
from bot.store.repo import Repo
from tests.service.helpers import ALICE, BOB, CARL, fill_draft, open_table_with


async def _outbox(svc) -> Counter:
    async with svc.repo.reading() as repo:
        return Counter(kind for _, _, kind, _, _ in await repo.pending(limit=1000))


async def test_lobby_rules(world):
    svc, _, _ = world
    gid = await open_table_with(svc)
    with pytest.raises(UserError, match="already open"):
        await svc.open_table("powerline", 1, 10, CARL, "Carl", {}, TableOptions())
    with pytest.raises(UserError, match="already have a seat"):
        await svc.join(gid, BOB, "Bob")
    with pytest.raises(UserError, match="Only the host"):
        await svc.start(gid, BOB, moderator=False)
    with pytest.raises(UserError, match="Only the host"):
        await svc.add_ai(gid, BOB, moderator=False)
    with pytest.raises(UserError, match="host can't leave"):
        await svc.leave_lobby(gid, ALICE)
    table = await svc.leave_lobby(gid, BOB)
    assert [s.name for s in table.seats] == ["Alice"]
    with pytest.raises(UserError, match="don't work together"):
        await svc.open_table("powerline", 1, 11, CARL, "Carl", {"variants": ["x"]}, TableOptions())
    full = await svc.open_table("powerline", 1, 12, CARL, "Carl", {}, TableOptions(max_players=1))
    with pytest.raises(UserError, match="full"):
        await svc.join(full.row.id, ALICE, "Alice")


async def test_a_whole_game_with_two_people_and_an_ai(world):
    svc, _, _ = world
    gid = await open_table_with(svc, ai=1)
    table = await svc.start(gid, ALICE, False)
    assert table.row.status == "active" and table.state.phase == "plan"
    assert table.state.plans[2] is not None  # the AI planned at once
    while table.row.status == "active":
        for uid in (ALICE, BOB):
            await fill_draft(svc, gid, uid)
            table, _ = await svc.submit(gid, uid)
    assert table.row.status == "finished" and table.game.is_over(table.state)
    kinds = await _outbox(svc)
    assert kinds["round_started"] == 15 and kinds["game_over"] == 1 and not kinds["round_resolved"]
    assert kinds["game_over"] == 1 and kinds["started"] == 1
    async with svc.repo.reading() as repo:
        log = await repo.actions(gid)
    assert Counter(src for _, _, src in log) == {"chance": 15, "player": 30, "ai": 15}


async def test_a_draft_survives_a_restart_and_the_game_replays_from_its_log(world):
    svc, clock, path = world
    gid = await open_table_with(svc)
    await svc.start(gid, ALICE, False)
    draft = await fill_draft(svc, gid, ALICE)
    await svc.submit(gid, ALICE)
    await fill_draft(svc, gid, BOB)
    db2 = await open_database(path)
    try:
        again = Service(Repo(db2), clock)
        restored = await again.draft(gid, BOB)
        assert restored.steps and restored.can_submit
        assert (await again.draft(gid, ALICE)).steps == draft.steps
        table, resolved = await again.submit(gid, BOB)
        assert resolved and table.state.round == 2
        async with again.repo.reading() as repo:
            count = await repo.action_count(gid)
        replayed = await again.state_at(gid, count)
        assert table.game.dump_state(replayed) == table.game.dump_state(table.state)
    finally:
        await db2.close()


async def test_bad_steps_change_nothing_and_say_why(world):
    svc, _, _ = world
    gid = await open_table_with(svc)
    await svc.start(gid, ALICE, False)
    before = await svc.draft(gid, ALICE)
    with pytest.raises(UserError, match="Start with the red or the black"):
        await svc.edit_draft(gid, ALICE, add={"color": "blue", "island": True})
    with pytest.raises(UserError, match="malformed"):
        await svc.edit_draft(gid, ALICE, add={"color": "purple", "island": True})
    with pytest.raises(UserError, match="already empty"):
        await svc.edit_draft(gid, ALICE, undo=True)
    with pytest.raises(UserError, match="Place at least one worker"):
        await svc.submit(gid, ALICE)
    with pytest.raises(UserError, match="don't have a seat"):
        await svc.draft(gid, CARL)
    assert (await svc.draft(gid, ALICE)).steps == before.steps


async def test_two_simultaneous_last_submits_resolve_the_round_once(world):
    svc, _, _ = world
    gid = await open_table_with(svc)
    await svc.start(gid, ALICE, False)
    await fill_draft(svc, gid, ALICE)
    await fill_draft(svc, gid, BOB)
    results = await asyncio.gather(svc.submit(gid, ALICE), svc.submit(gid, BOB))
    assert sorted(resolved for _, resolved in results) == [False, True]
    kinds = await _outbox(svc)
    assert kinds["round_started"] == 2, "round 2 started once"


async def test_timeouts_let_the_autopilot_plan_then_hand_the_seat_to_the_ai(world):
    svc, clock, _ = world
    gid = await open_table_with(svc, deadline_minutes=120, timeouts_before_ai=2)
    await svc.start(gid, ALICE, False)
    clock.advance(minutes=61)
    assert await svc.tick() == 1  # half time: a reminder each
    clock.advance(minutes=59)
    await svc.tick()  # 1 hour left? the deadline itself is now: time out
    table = await svc.table(gid)
    assert table.state.round == 2 and [s.timeouts for s in table.seats] == [1, 1]
    await fill_draft(svc, gid, ALICE)
    await svc.submit(gid, ALICE)
    clock.advance(minutes=121)
    await svc.tick()
    table = await svc.table(gid)
    assert table.state.round == 3
    assert [(s.timeouts, s.is_ai) for s in table.seats] == [(0, False), (2, True)]
    assert table.state.plans[1] is not None  # the AI seat planned round 3 at once
    kinds = await _outbox(svc)
    assert kinds["timeout"] == 2 and kinds["reminder"] >= 2
    table = await svc.reclaim(gid, BOB)
    assert not table.seats[1].is_ai


async def test_reminders_never_exceed_the_configured_number(world):
    svc, clock, _ = world
    gid = await open_table_with(svc, deadline_minutes=600, reminders=1)
    await svc.start(gid, ALICE, False)
    for _ in range(9):
        clock.advance(minutes=60)
        await svc.tick()
    assert (await _outbox(svc))["reminder"] == 2  # one each for two seats


async def test_explicit_scoring_tiles_are_checked_when_the_table_opens(world):
    svc, _, _ = world
    with pytest.raises(UserError, match="three different letters"):
        await svc.open_table(
            "powerline", 1, 20, ALICE, "Alice", {"scoring_tiles": ["A", "A", "Z"]}, TableOptions()
        )
    table = await svc.open_table(
        "powerline", 1, 21, ALICE, "Alice", {"scoring_tiles": ["B", "E", "J"]}, TableOptions()
    )
    started = await svc.start(table.row.id, ALICE, False)
    assert started.state.scoring_tiles == ("B", "E", "J")


async def test_a_submit_just_after_its_round_resolved_is_told_so(world):
    svc, clock, _ = world
    gid = await open_table_with(svc)
    await svc.start(gid, ALICE, False)
    await fill_draft(svc, gid, ALICE)
    await svc.submit(gid, ALICE)
    await fill_draft(svc, gid, BOB)
    clock.advance(minutes=24 * 60 + 1)
    await svc.tick()
    assert (await svc.table(gid)).state.round == 2
    with pytest.raises(UserError, match="Round 1 has already been resolved; round 2 is being"):
        await svc.submit(gid, BOB)


async def test_a_corrupt_game_stalls_no_other_deadline_and_a_corrupt_draft_clears(world):
    svc, clock, _ = world
    broken = await open_table_with(svc)
    await svc.start(broken, ALICE, False)
    fine = await svc.open_table("powerline", 1, 11, CARL, "Carl", {}, TableOptions())
    await svc.start(fine.row.id, CARL, False)
    await svc.repo.execute("UPDATE games SET snapshot = '{broken' WHERE id = ?", (broken,))
    clock.advance(minutes=24 * 60 + 1)
    await svc.tick()
    assert (await svc.table(fine.row.id)).state.round == 2
    corrupt = '[{"color": 7}]'
    await svc.repo.execute(
        "INSERT INTO drafts VALUES (?, 0, 2, ?, 0, 'x') ON CONFLICT (game_id, seat) "
        "DO UPDATE SET round = excluded.round, steps = excluded.steps",
        (fine.row.id, corrupt),
    )
    cleared = await svc.edit_draft(fine.row.id, CARL, clear=True)
    assert cleared.steps == [] and cleared.next_options


async def test_the_tick_reads_only_due_games_and_schedules_the_next_mark(world):
    svc, clock, _ = world
    gid = await open_table_with(svc, deadline_minutes=600)
    await svc.start(gid, ALICE, False)
    idle = await svc.open_table("powerline", 1, 11, CARL, "Carl", {}, TableOptions())
    await svc.start(idle.row.id, CARL, False)
    # Not due for hours: a tick never reads it, broken or not.
    await svc.repo.execute("UPDATE games SET snapshot = '{broken' WHERE id = ?", (idle.row.id,))
    assert await svc.tick() == 0
    deadline = (await svc.table(gid)).row.deadline
    clock.advance(minutes=301)  # half time: the first reminder is due, and only that game
    assert await svc.tick() == 1
    async with svc.repo.reading() as repo:
        row = await repo.one("SELECT next_due FROM games WHERE id = ?", (gid,))
        assert await repo.due_ids(clock.now()) == []
    assert row["next_due"] == (deadline - timedelta(hours=1)).isoformat(), "next: one hour left"
