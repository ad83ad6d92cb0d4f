"""Restarts, deadlines, reminders and AI takeover: the bot keeps its word across time and crashes.

Deadlines run on an injected ManualClock; the bot's own tick loop notices them.
"""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.games.powerline.words import parse_key
from bot.service.clock import ManualClock, SystemClock
from bot.service.service import Service
from bot.store.database import open_database
from bot.store.repo import Repo
from standin import User
from tests.bot.conftest import Bots, Scene
from tests.bot.helpers import Game, answer, open_game, png, started_game, texts


def dm_texts(game: Game, person: User, needle: str) -> list[str]:
    return [m.content for m in game.server.dms(person) if needle in m.content]


async def sources(game: Game) -> list[tuple[int, str]]:
    """(seat, source) of every action after the last roll but one: who planned the last round."""
    async with game.bot.service.repo.reading() as repo:
        actions = await repo.actions(game.gid)
    rolls = [i for i, (seat, _, _) in enumerate(actions) if seat == -1]
    return [(seat, source) for seat, _, source in actions[rolls[-2] + 1 : rolls[-1]]]


async def test_restart_mid_round_keeps_plans_drafts_and_components(
    scene: Scene, bots: Bots
) -> None:
    s, ada, ben, chloe = scene.server, scene.ada, scene.ben, scene.chloe
    first = await bots.start()
    game = await started_game(s, first, scene.channel, ada, [ben, chloe])
    await game.plan_with_select(ada, await game.wait_dm_planner(ada, 1), 1)
    ben_planner = await game.wait_dm_planner(ben, 1)
    ben_keys, ben_vacation = await game.suggested(ben)
    await game.pick(ben, ben_planner, 1, ben_keys[:1])
    chloe_planner = await game.open_channel_planner(chloe, 1)
    chloe_keys, chloe_vacation = await game.suggested(chloe)
    await game.pick(chloe, chloe_planner, 1, chloe_keys[:2])
    ada_lines = (await first.service.draft(game.gid, ada.id)).lines
    ben_lines = (await first.service.draft(game.gid, ben.id)).lines
    assert len(ben_lines) == 1
    await s.wait_for(game.outbox_empty)
    posts_before = len(s.messages(scene.channel))

    await bots.stop(first)
    game.bot = second = await bots.start()

    # Nothing was lost: Ada's submitted plan and Ben's one-worker draft.
    table = await game.table()
    assert table.state.round == 1 and table.state.plans[0] is not None
    assert table.state.plans[1] is None and table.state.plans[2] is None
    shown = await answer(s.slash(ada, s.dm_channel(ada), "powerline show"))
    assert "✅ A plan is submitted" in shown.content
    assert all(line in shown.content for line in ada_lines)
    png(s.attachment_bytes(shown.attachments[0]))
    shown = await answer(s.slash(ben, s.dm_channel(ben), "powerline show"))
    assert f"1. {ben_lines[0]}" in shown.content and "\n2. " not in shown.content
    assert (await second.service.draft(game.gid, ben.id)).lines == ben_lines
    assert len((await second.service.draft(game.gid, chloe.id)).lines) == 2
    # The restart posted nothing again.
    assert len(s.messages(scene.channel)) == posts_before

    # Components made before the restart still work: Ben's DM select and buttons, Chloé's
    # ephemeral planner and the channel's Plan button.
    await game.pick(ben, ben_planner, 1, ben_keys[1:])
    if ben_vacation:
        await game.click_planner(ben, ben_planner, 1, "vacation")
    await game.click_planner(ben, ben_planner, 1, "submit")
    assert "✅ A plan is submitted" in ben_planner.content
    reopened = await game.open_channel_planner(chloe, 1)
    assert (await second.service.draft(game.gid, chloe.id)).lines[1] in reopened.content
    await game.pick(chloe, chloe_planner, 1, chloe_keys[2:])
    if chloe_vacation:
        await game.click_planner(chloe, chloe_planner, 1, "vacation")
    await game.click_planner(chloe, chloe_planner, 1, "submit")

    await game.wait_round_over(1)
    assert len(game.summaries(1)) == 1
    assert len(game.channel_messages("**Round 1 of 15**")) == 1
    assert len(game.channel_messages("**Round 2 of 15**")) == 1
    assert len(game.board_dms(ada, 1)) == 1 and len(game.board_dms(ada, 2)) == 1
    assert await sources(game) == [(0, "player"), (1, "player"), (2, "player")]


async def test_reports_owed_at_a_crash_are_posted_once_after_restart(
    scene: Scene, bots: Bots
) -> None:
    """The last plan is stored but the bot dies before posting: the next start posts it once."""
    s, ada, ben = scene.server, scene.ada, scene.ben
    first = await bots.start()
    game = await started_game(s, first, scene.channel, ada, [ben])
    await game.plan_with_select(ada, await game.wait_dm_planner(ada, 1), 1)
    keys, _ = await game.suggested(ben)
    await s.wait_for(game.outbox_empty)
    await bots.stop(first)

    # What a crash between the commit and the delivery leaves behind.
    db = await open_database(bots.database)
    try:
        service = Service(Repo(db), SystemClock())
        for key in keys:
            await service.edit_draft(game.gid, ben.id, add=parse_key(key))
        _, resolved = await service.submit(game.gid, ben.id)
        assert resolved
    finally:
        await db.close()
    assert game.summaries(1) == []

    game.bot = await bots.start()
    await s.wait_for(lambda: game.summaries(1), timeout=15)
    await game.wait_round_over(1)
    assert len(game.summaries(1)) == 1
    assert len(game.channel_messages("**Round 2 of 15**")) == 1
    assert len(game.board_dms(ben, 2)) == 1


async def test_close_ends_the_connection(bots: Bots) -> None:
    """discord.py's connect() closes the client itself when the socket ends; it must return."""
    bot = await bots.start()
    (entry,) = bots.running
    bots.running.remove(entry)
    connect = entry[1]
    await asyncio.wait_for(bot.close(), 10)
    try:
        done, _ = await asyncio.wait({connect}, timeout=5)
        assert done, "connect() never returned after close(): GameBot.close hangs when re-entered"
        assert connect.exception() is None
    finally:
        connect.cancel()


async def test_close_lets_a_click_under_way_finish(
    scene: Scene, bots: Bots, caplog: pytest.LogCaptureFixture
) -> None:
    """A shutdown mid-click waits for it: the join is kept and its lobby edit goes out, rather
    than the click's posts meeting a closed database (a SIGTERM race seen in CI)."""
    s, ada, ben = scene.server, scene.ada, scene.ben
    bot = await bots.start()
    game = await open_game(s, bot, ada, scene.channel)
    flush = bot.delivery.flush
    started, flushed = asyncio.Event(), asyncio.Event()

    async def slow_flush() -> int:
        started.set()
        await asyncio.sleep(0.5)
        sent = await flush()
        flushed.set()
        return sent

    bot.delivery.flush = slow_flush  # type: ignore[method-assign]
    clicked = await game.click_lobby(ben, "join")
    await asyncio.wait_for(started.wait(), 5)
    await bots.stop(bot)
    assert flushed.is_set(), "close() returned before the click under way had finished"
    assert await clicked.response(timeout=5) is game.lobby
    assert "Ben" in texts(game.lobby)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    db = await open_database(bots.database)
    try:
        table = await Service(Repo(db), SystemClock()).table(game.gid)
    finally:
        await db.close()
    assert [seat.name for seat in table.seats] == ["Ada", "Ben"]


async def test_timeouts_autopilot_and_ai_takeover(
    scene: Scene, bots: Bots, clock: ManualClock
) -> None:
    s, ada, ben = scene.server, scene.ada, scene.ben
    bot = await bots.start(clock=clock)
    game = await started_game(s, bot, scene.channel, ada, [ben], deadline="10 minutes")

    async def ada_plans(round_: int) -> None:
        await game.plan_with_select(ada, await game.wait_dm_planner(ada, round_), round_)
        await s.wait_for(game.outbox_empty)

    async def time_runs_out(round_: int) -> str:
        before = len(game.channel_messages("Time is up"))
        clock.advance(minutes=9)
        await asyncio.sleep(0.2)  # several ticks: nothing is due yet
        assert (await game.round()) == round_
        clock.advance(minutes=2)
        await s.wait_for(lambda: len(game.channel_messages("Time is up")) > before, timeout=10)
        await game.wait_round_over(round_)
        return game.channel_messages("Time is up")[-1].content

    # Round 1: Ben lets the deadline pass; the autopilot plans for him.
    await ada_plans(1)
    assert await time_runs_out(1) == "Time is up: the autopilot planned for Ben."
    assert await sources(game) == [(0, "player"), (1, "timeout")]
    assert len(game.summaries(1)) == 1
    seat = (await game.table()).seats[1]
    assert (seat.timeouts, seat.is_ai) == (1, False)
    # Round 2: Ben plans in time, which resets the count of consecutive timeouts.
    await ada_plans(2)
    await game.plan_with_select(ben, await game.wait_dm_planner(ben, 2), 2)
    await game.wait_round_over(2)
    assert (await game.table()).seats[1].timeouts == 0
    # Rounds 3 and 4: two timeouts in a row, and the AI takes Ben's seat.
    await ada_plans(3)
    assert await time_runs_out(3) == "Time is up: the autopilot planned for Ben."
    assert not dm_texts(game, ben, "AI plays your seat")
    await ada_plans(4)
    assert await time_runs_out(4) == (
        "Time is up: the autopilot planned for Ben.\n"
        "Ben's seat is now played by the AI after repeated timeouts."
    )
    assert dm_texts(game, ben, "AI plays your seat") == [
        f"{game.ref}: after repeated timeouts the AI plays your seat. "
        "Take it back any time with `/game reclaim`."
    ]
    table = await game.table()
    assert table.seats[1].is_ai and table.seats[1].replaced_by_ai
    # Round 5: the AI planned Ben's seat with the roll; Ben gets no planner.
    assert table.state.round == 5 and table.state.plans[1] is not None
    assert game.board_dms(ben, 5) == [] and game.dm_planner(ben, 5) is None
    # Ben takes the seat back; from round 6 on he plans again.
    dm = s.dm_channel(ben)
    reply = await answer(s.slash(ben, dm, "game reclaim", game=game.gid))
    assert reply.content == f"✅ Your seat in Powerline game #{game.gid} is yours again."
    table = await game.table()
    assert not table.seats[1].is_ai and table.seats[1].timeouts == 0
    await ada_plans(5)
    await game.wait_round_over(5)
    assert await sources(game) == [(1, "ai"), (0, "player")]
    assert (await game.table()).state.plans[1] is None
    await game.plan_with_select(ben, await game.wait_dm_planner(ben, 6), 6)
    await ada_plans(6)
    await game.wait_round_over(6)
    assert sorted(await sources(game)) == [(0, "player"), (1, "player")]
    assert len(game.summaries(6)) == 1


async def test_deadline_passed_while_down_is_played_out_at_start(
    scene: Scene, bots: Bots, clock: ManualClock
) -> None:
    s, ada, ben = scene.server, scene.ada, scene.ben
    first = await bots.start(clock=clock)
    game = await started_game(s, first, scene.channel, ada, [ben], deadline="10 minutes")
    await game.plan_with_select(ada, await game.wait_dm_planner(ada, 1), 1)
    await s.wait_for(game.outbox_empty)
    await bots.stop(first)
    clock.advance(hours=3)
    game.bot = await bots.start(clock=clock)
    await s.wait_for(lambda: game.channel_messages("Time is up"), timeout=10)
    await game.wait_round_over(1)
    assert [m.content for m in game.channel_messages("Time is up")] == [
        "Time is up: the autopilot planned for Ben."
    ]
    assert len(game.summaries(1)) == 1
    assert (await game.round()) == 2


async def test_reminders_at_half_time(scene: Scene, bots: Bots, clock: ManualClock) -> None:
    s, ada, ben, dan = scene.server, scene.ada, scene.ben, scene.dan
    bot = await bots.start(clock=clock)
    game = await started_game(s, bot, scene.channel, ada, [ben, dan], deadline="10 minutes")
    await game.plan_with_select(ada, await game.wait_dm_planner(ada, 1), 1)
    clock.advance(minutes=4)
    await asyncio.sleep(0.2)
    assert not any(dm_texts(game, p, "Reminder") for p in (ada, ben, dan))
    clock.advance(minutes=1)
    expected = (
        f"Reminder: {game.ref}, round 1 closes in 5 min. "
        "If you don't plan by then, the autopilot plans for you."
    )
    await s.wait_for(lambda: dm_texts(game, ben, "Reminder") and dm_texts(game, dan, "Reminder"))
    clock.advance(minutes=2)
    await asyncio.sleep(0.2)  # more ticks: one half-time reminder per round, not one per tick
    await s.wait_for(game.outbox_empty)
    assert dm_texts(game, ben, "Reminder") == [expected]
    assert dm_texts(game, dan, "Reminder") == [expected]
    assert dm_texts(game, ada, "Reminder") == []  # she has planned


async def test_the_last_one_hears_it_at_half_time_with_the_reminder(
    scene: Scene, bots: Bots, clock: ManualClock
) -> None:
    """Being last to plan is no news right after the others submit: it comes with the
    half-time reminder, in one DM; once past half time, it comes as soon as the others are in."""
    s, ada, ben = scene.server, scene.ada, scene.ben
    bot = await bots.start(clock=clock)
    game = await started_game(s, bot, scene.channel, ada, [ben], deadline="10 minutes")
    await game.plan_with_select(ada, await game.wait_dm_planner(ada, 1), 1)
    clock.advance(minutes=4)
    await asyncio.sleep(0.3)
    await s.wait_for(game.outbox_empty)
    assert not dm_texts(game, ben, "everyone else has planned"), "not the instant Ada is in"
    clock.advance(minutes=1)
    await s.wait_for(lambda: dm_texts(game, ben, "everyone else has planned"))
    clock.advance(minutes=1)
    await asyncio.sleep(0.3)
    await s.wait_for(game.outbox_empty)
    assert dm_texts(game, ben, "Reminder") == [
        f"Reminder: {game.ref}: everyone else has planned round 1, and round 1 closes in 5 min. "
        "If you don't plan by then, the autopilot plans for you."
    ]

    # Round 2: Ada plans after half time, so Ben hears it at once.
    await game.plan_with_select(ben, await game.wait_dm_planner(ben, 1), 1)
    await s.wait_for(lambda: game.channel_messages("**Round 2 of 15**"))
    clock.advance(minutes=6)
    await game.plan_with_select(ada, await game.wait_dm_planner(ada, 2), 2)
    await s.wait_for(lambda: dm_texts(game, ben, "everyone is waiting for you"))
    assert dm_texts(game, ben, "everyone is waiting for you") == [
        f"{game.ref}: everyone else has planned round 2; everyone is waiting for you."
    ]


async def test_a_muted_game_sends_its_player_no_reminder(
    scene: Scene, bots: Bots, clock: ManualClock
) -> None:
    s, ada, ben, dan = scene.server, scene.ada, scene.ben, scene.dan
    bot = await bots.start(clock=clock)
    game = await started_game(s, bot, scene.channel, ada, [ben, dan], deadline="10 minutes")
    told = await answer(s.slash(ben, s.dm_channel(ben), "game mute", game=game.gid))
    assert told.content.startswith(f"🔕 Powerline game #{game.gid} is muted for you")
    await game.plan_with_select(ada, await game.wait_dm_planner(ada, 1), 1)
    clock.advance(minutes=5)
    await s.wait_for(
        lambda: dm_texts(game, dan, "everyone else has planned") or dm_texts(game, dan, "Reminder")
    )
    clock.advance(minutes=1)
    await asyncio.sleep(0.3)
    await s.wait_for(game.outbox_empty)
    assert dm_texts(game, ben, "Reminder") == [] and dm_texts(game, ben, "everyone") == []
    again = await answer(s.slash(ben, s.dm_channel(ben), "game mute", on=False, game=game.gid))
    assert again.content == f"🔔 Powerline game #{game.gid} reminds and nudges you again."
