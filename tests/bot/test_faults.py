"""Every post exactly once under Discord's faults: 5xx answers are retried, a post created just
before a failure is not created again, and one broken event or game stops nothing else."""

import asyncio
import sqlite3

from bot.app import GameBot
from bot.service.clock import ManualClock
from tests.bot.conftest import Bots, Scene
from tests.bot.helpers import TIMEOUT, started_game

ROUTE = "/channels/{channel_id}/messages"


async def _finish_round(game, people) -> None:
    for person in people:
        planner = await game.wait_dm_planner(person, await game.round())
        await game.plan_with_select(person, planner, await game.round())


async def test_a_503_on_the_round_summary_is_retried_and_it_is_posted_once(
    scene: Scene, bot: GameBot
) -> None:
    s = scene.server
    game = await started_game(s, bot, scene.channel, scene.ada, [scene.ben])
    s.arm_server_error("POST", f"/channels/{scene.channel.id}/messages", status=503)
    await _finish_round(game, [scene.ada, scene.ben])
    await s.wait_for(lambda: game.channel_messages("**Round 2 of 15**"), TIMEOUT)
    await s.wait_for(game.outbox_empty, TIMEOUT)
    assert s.server_errors and "503" in s.server_errors[0]
    assert len(game.summaries(1)) == 1
    assert len(game.channel_messages("**Round 2 of 15**")) == 1


async def test_a_503_on_one_dm_delays_only_that_dm(scene: Scene, bot: GameBot) -> None:
    s = scene.server
    game = await started_game(s, bot, scene.channel, scene.ada, [scene.ben])
    s.arm_server_error("POST", f"/channels/{s.dm_channel(scene.ben).id}/messages", status=503)
    await _finish_round(game, [scene.ada, scene.ben])
    await s.wait_for(lambda: game.board_dms(scene.ben, 2), TIMEOUT)
    await s.wait_for(game.outbox_empty, TIMEOUT)
    for person in (scene.ada, scene.ben):
        assert len(game.board_dms(person, 2)) == 1, person.name
    assert len(game.channel_messages("**Round 2 of 15**")) == 1


async def test_a_post_created_just_before_a_500_is_not_created_twice(
    scene: Scene, bot: GameBot
) -> None:
    s = scene.server
    game = await started_game(s, bot, scene.channel, scene.ada, [scene.ben])
    s.arm_server_error("POST", f"/channels/{scene.channel.id}/messages", status=500, after=True)
    await _finish_round(game, [scene.ada, scene.ben])
    await s.wait_for(lambda: game.channel_messages("**Round 2 of 15**"), TIMEOUT)
    await s.wait_for(game.outbox_empty, TIMEOUT)
    assert any("done, then 500" in e for e in s.server_errors)
    assert len(game.summaries(1)) == 1


async def test_a_broken_event_stops_no_other_post(scene: Scene, bot: GameBot) -> None:
    s = scene.server
    game = await started_game(s, bot, scene.channel, scene.ada, [scene.ben])
    with sqlite3.connect(bot.settings.database) as db:
        db.execute(
            "INSERT INTO outbox (game_id, kind, payload, created_at) VALUES (?, ?, ?, ?)",
            (game.gid, "round_resolved", "{not json", "2026-01-01T00:00:00+00:00"),
        )
    await _finish_round(game, [scene.ada, scene.ben])
    await s.wait_for(lambda: game.channel_messages("**Round 2 of 15**"), TIMEOUT)
    await s.wait_for(game.outbox_empty, TIMEOUT)
    assert len(game.summaries(1)) == 1
    with sqlite3.connect(bot.settings.database) as db:
        ((error,),) = db.execute("SELECT error FROM outbox WHERE payload = '{not json'")
    assert error and "KeyError" in error


async def test_rate_limits_that_outlast_discord_py_s_tries_delay_the_posts_but_lose_none(
    scene: Scene, bot: GameBot
) -> None:
    """Six 429s in a row on the channel and on a DM: discord.py gives up after five, and the
    event is tried again later, so every round post and board DM still goes out once."""
    s = scene.server
    game = await started_game(s, bot, scene.channel, scene.ada, [scene.ben])
    s.arm_rate_limit("POST", f"/channels/{scene.channel.id}/messages", times=6)
    s.arm_rate_limit("POST", f"/channels/{s.dm_channel(scene.ben).id}/messages", times=6)
    await _finish_round(game, [scene.ada, scene.ben])
    await s.wait_for(lambda: game.channel_messages("**Round 2 of 15**"), 3 * TIMEOUT)
    await s.wait_for(lambda: game.board_dms(scene.ben, 2), 3 * TIMEOUT)
    await s.wait_for(game.outbox_empty, 3 * TIMEOUT)
    assert len(game.summaries(1)) == 1
    assert len(game.channel_messages("**Round 2 of 15**")) == 1
    for person in (scene.ada, scene.ben):
        assert len(game.board_dms(person, 2)) == 1, person.name


async def test_a_storm_of_rate_limits_over_ten_games_loses_and_doubles_nothing(
    scene: Scene, bots: Bots, clock: ManualClock
) -> None:
    """Ten games time out together while every post meets 429s, a run of them longer than
    discord.py's own tries: each game's summary, next round and board DMs go out once, in order."""
    s, ada, ben = scene.server, scene.ada, scene.ben
    bot = await bots.start(clock=clock)
    games = []
    for i in range(10):
        channel = s.add_channel(scene.guild, f"storm-{i}")
        games.append(await started_game(s, bot, channel, ada, [ben], deadline="10 minutes"))
    s.arm_rate_limit("POST", ROUTE, times=80)
    clock.advance(minutes=11)
    for _ in range(120):  # the backoff runs on the bot's clock: let time pass as it waits
        if (
            all(g.channel_messages("**Round 2 of 15**") for g in games)
            and await games[0].outbox_empty()
        ):
            break
        await asyncio.sleep(0.25)
        clock.advance(seconds=15)
    await s.wait_for(games[0].outbox_empty, TIMEOUT)
    assert len(s.rate_limited) >= 30, "the storm hit the posts"
    for game in games:
        (summary,) = game.summaries(1)
        (second,) = game.channel_messages("**Round 2 of 15**")
        # The summary comes before the next round: in one post, or in an earlier one.
        built, next_ = summary.content.find("**Round 1 built.**"), second.content.find("Round 2")
        assert summary.id < second.id or (summary is second and built < next_)
        for person in (ada, ben):
            assert len(game.board_dms(person, 2)) == 1, person.name


async def test_a_post_made_before_an_outage_longer_than_the_nonce_window_is_not_made_twice(
    scene: Scene, bots: Bots, clock: ManualClock
) -> None:
    """Discord creates the round's post and answers 503, then fails for ten minutes: by then it
    no longer knows the nonce, so the bot finds its own post in the channel instead of sending
    it again, and the rest of the round goes out once, in order."""
    s, ada, ben = scene.server, scene.ada, scene.ben
    bot = await bots.start(clock=clock)
    game = await started_game(s, bot, scene.channel, ada, [ben])
    route = f"/channels/{scene.channel.id}/messages"
    s.arm_server_error("POST", route, status=503, after=True)
    s.arm_server_error("POST", route, status=503, times=3)
    await _finish_round(game, [ada, ben])
    for _ in range(100):  # the backoff (1, 2, 4 s) runs on the bot's clock, within a minute
        if len(s.server_errors) == 4:
            break
        await asyncio.sleep(0.1)
        clock.advance(seconds=1)
    assert len(s.server_errors) == 4
    assert len(game.summaries(1)) == 1, "the first try made the post"
    assert not game.board_dms(ada, 2), "and nothing after it went out"
    real = s.clock
    s.clock = lambda: real() + 600  # Discord's nonce window has passed
    clock.advance(minutes=10)
    await s.wait_for(lambda: game.channel_messages("**Round 2 of 15**"), TIMEOUT)
    await s.wait_for(game.outbox_empty, TIMEOUT)
    (summary,) = game.summaries(1)
    (second,) = game.channel_messages("**Round 2 of 15**")
    assert summary.id <= second.id
    for person in (ada, ben):
        assert len(game.board_dms(person, 2)) == 1, person.name
