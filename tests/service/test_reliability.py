"""Reliability: over a person's last 20 games that ended, those they moved on time in and
finished; a host's minimum refuses the unreliable at join and lets newcomers in."""

import pytest

from bot.service import results
from bot.service.clock import ManualClock
from bot.service.errors import UserError
from bot.service.options import TableOptions
from bot.service.reliability import Reliability
from bot.service.service import Service
from bot.store.repo import SeatRow
from tests.service.helpers import ALICE, BOB, CARL, fill_draft, open_table_with

DAN, ERIN, FINN = 103, 104, 105


async def ended(
    svc: Service,
    clock: ManualClock,
    seats: list[int | None],
    status: str = "finished",
    **flags: tuple[int, ...],
) -> int:
    """A game that ended with these people (None: an AI seat); `timed_out` and `left` name the
    seats whose time ran out (the log has an autopilot move for them) and who left."""
    clock.advance(minutes=5)
    now = clock.now()
    timed_out, left = flags.get("timed_out", ()), flags.get("left", ())
    async with svc.repo.transaction() as repo:
        gid = await repo.insert_game(
            game="powerline",
            guild_id=1,
            channel_id=900,
            host_id=ALICE,
            status="finished" if status == "adjudicated" else status,
            config={},
            options={"rated": False},
            seed=1,
            created_at=now.isoformat(),
            updated_at=now.isoformat(),
        )
        for seat in range(len(seats)):
            source = "timeout" if seat in timed_out else "player"
            await repo.append_action(gid, seat, seat, {"type": "plan"}, source, now)
        row = await repo.game(gid)
        assert row is not None
        rows = [
            SeatRow(gid, n, uid, f"p{n}", uid is None, n in left, n in left, 0, False, 0, False)
            for n, uid in enumerate(seats)
        ]
        await results.record(repo, row, rows, None, status, now)
    return gid


async def test_a_timeout_and_a_leave_count_against_those_who_made_them(world):
    """A real game: Bob's round times out, Carl leaves (the AI plays his seat), the host
    adjudicates; each of them has one game counted, and a stranger none."""
    svc, clock, _ = world
    gid = await open_table_with(svc, players=(ALICE, BOB, CARL), deadline_minutes=120)
    await svc.start(gid, ALICE, False)
    await fill_draft(svc, gid, ALICE)
    await svc.submit(gid, ALICE)
    await svc.hand_to_ai(gid, CARL, CARL, False, leaving=True)
    clock.advance(minutes=121)
    await svc.tick()
    assert (await svc.table(gid)).state.round == 2
    await svc.adjudicate(gid, ALICE, False)

    seen = await svc.reliability([ALICE, BOB, CARL, FINN])
    assert seen == {
        ALICE: Reliability(games=1, timed_out=0, left=0, reliable=1),
        BOB: Reliability(games=1, timed_out=1, left=0, reliable=0),
        CARL: Reliability(games=1, timed_out=0, left=1, reliable=0),
        FINN: Reliability(games=0, timed_out=0, left=0, reliable=0),
    }
    assert seen[BOB].words() == "reliable in 0 of 1 game (1 timed out, 0 left)"
    assert seen[BOB].short() == "new player" and seen[FINN].words() == "no finished games yet"


async def test_only_the_last_20_games_that_ended_count_in_one_batch(world):
    """Dan's 5 oldest games timed out and 20 newer went well; a cancelled lobby and AI seats are
    not counted. Erin's games show a game with both faults counts once against her."""
    svc, clock, _ = world
    for _ in range(5):
        await ended(svc, clock, [DAN, None], timed_out=(0,))
    for _ in range(20):
        await ended(svc, clock, [DAN, None], timed_out=(1,))  # the AI seat's, not Dan's
    await ended(svc, clock, [DAN], status="cancelled")
    await ended(svc, clock, [ERIN, BOB], timed_out=(0,), left=(0,))
    await ended(svc, clock, [ERIN, BOB], status="abandoned", timed_out=(0, 1))
    await ended(svc, clock, [ERIN, BOB], status="adjudicated", left=(0,))
    await ended(svc, clock, [BOB, ERIN], timed_out=(0,))  # Bob's timeout, in Erin's game

    seen = await svc.reliability([DAN, ERIN])
    assert seen[DAN] == Reliability(games=20, timed_out=0, left=0, reliable=20)
    assert seen[ERIN] == Reliability(games=4, timed_out=2, left=2, reliable=1)
    assert seen[DAN].short() == "100% reliable" and seen[ERIN].short() == "25% reliable"
    assert seen[ERIN].words() == "reliable in 1 of 4 games (2 timed out, 2 left)"

    # Two newer games, one timed out: the two oldest clean games leave the window.
    await ended(svc, clock, [DAN, None], timed_out=(0,))
    await ended(svc, clock, [DAN, None])
    dan = (await svc.reliability([DAN]))[DAN]
    assert dan == Reliability(games=20, timed_out=1, left=0, reliable=19)
    assert dan.short() == "95% reliable"


async def test_a_table_minimum_refuses_the_unreliable_and_lets_newcomers_in(world):
    svc, clock, _ = world
    for flags in ({"timed_out": (0,)}, {"left": (0,)}, {}):
        await ended(svc, clock, [ERIN, None], **flags)  # 1 of 3: 33%
    for flags in ({"timed_out": (0,)}, {"left": (0,)}):
        await ended(svc, clock, [FINN, None], **flags)  # 2 games: still new
    for _ in range(4):
        await ended(svc, clock, [DAN, None])
    table = await svc.open_table(
        "powerline", 1, 10, ALICE, "Alice", {}, TableOptions(min_reliability=80)
    )
    gid = table.row.id

    with pytest.raises(UserError) as refused:
        await svc.join(gid, ERIN, "Erin")
    assert refused.value.message == (
        "This table takes players reliable in at least 80% of their last 20 games, and you are "
        "at 33%: reliable in 1 of 3 games (1 timed out, 1 left). A game counts as reliable when "
        "every move of yours came in time and you played it to the end."
    )
    await svc.join(gid, FINN, "Finn")
    table = await svc.join(gid, DAN, "Dan")
    assert [s.user_id for s in table.seats] == [ALICE, FINN, DAN]

    anyone = await svc.open_table("powerline", 1, 11, ALICE, "Alice", {}, TableOptions())
    table = await svc.join(anyone.row.id, ERIN, "Erin")
    assert [s.user_id for s in table.seats] == [ALICE, ERIN]
