"""Daily challenges through the stand-in: three people over two days in two servers (one of them
in Auckland's zone), a restart mid-game, boards hidden until one finishes, two shard processes
that close each day once with one leaderboard post, and streaks across the day boundary."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from bot.app import GameBot
from bot.service.clock import ManualClock
from engine.railroad_ink import autopilot
from standin import Channel, StandIn, User, point_discord_py
from standin.model import P_MANAGE_ROLES
from tests.bot.conftest import IDENTIFY_SECONDS, TOKEN, Bots, Scene
from tests.bot.helpers import answer, png_attachment, refusal, respond, wait


async def _round(s: StandIn, bot: GameBot, person: User, gid: int) -> None:
    """Draw the autopilot's plan for the round by DM commands naming the game, and submit."""
    table = await bot.service.table(gid)
    plan = autopilot.choose(table.game.view(table.state, 0), 0)
    dm = s.dm_channel(person)
    for step in plan.steps:
        data = step.model_dump(mode="json", exclude_none=True)
        if data["step"] == "draw":
            die = f"special:{data['face']}" if data["die"] == "special" else data["die"]
            options = {"die": die, "cell": data["cell"], "orientation": data["orientation"]}
            reply = await answer(s.slash(person, dm, "railroad draw", game=gid, **options))
        else:
            key = json.dumps(data, separators=(",", ":"), sort_keys=True)
            reply = await answer(s.slash(person, dm, "railroad step", step=key, game=gid))
        assert "your plan" in reply.content, reply.content
    done = await respond(s.slash(person, dm, "railroad submit", game=gid))
    assert done is not None and "Plan submitted" in done.content, done


async def _rounds(s: StandIn, bot: GameBot, person: User, gid: int, count: int = 99) -> None:
    for _ in range(count):
        table = await bot.service.table(gid)
        if table.row.status != "active":
            return
        before = table.state.round
        await _round(s, bot, person, gid)

        async def moved(r: int = before) -> bool:
            t = await bot.service.table(gid)
            return t.row.status != "active" or t.state.round > r

        await s.wait_for(moved, timeout=15)


async def _play(s: StandIn, bot: GameBot, person: User, channel: Channel) -> int:
    reply = await answer(s.slash(person, channel, "daily play", challenge="railroad_ink"))
    assert reply.ephemeral and "Today's **Railroad Ink** daily is yours" in reply.content
    games = [t for t in await bot.service.games_of(person.id, guild_id=None) if t.row.challenge]
    return max(t.row.id for t in games if t.row.status == "active")


def _boards(s: StandIn, channel: Channel) -> list:
    return [m for m in s.messages(channel) if "daily — " in m.content and "is closed" in m.content]


async def test_two_days_of_dailies_through_two_shard_processes(tmp_path: Path) -> None:
    clock = ManualClock(datetime(2026, 11, 26, 9, 0, tzinfo=UTC))
    s = StandIn(TOKEN, bot_name="Board Games Bot", identify_spacing=IDENTIFY_SECONDS, shards=2)
    await s.start()
    bots = Bots(s, tmp_path / "bot.sqlite3")
    try:
        with point_discord_py(s):
            here, there = s.add_guild("Board Games"), s.add_guild("Kiwi Games")
            channel, kiwi = s.add_channel(here, "dailies"), s.add_channel(there, "dailies")
            ada, ben = (s.add_user(n, guilds=[here]) for n in ("Ada", "Ben"))
            cid = s.add_user("Cid", guilds=[there])
            shards = {"shard_count": 2}
            first = await bots.start(clock, shard_ids=[0], **shards)
            second = await bots.start(clock, shard_ids=[1], **shards)
            await first.service.set_hours(there.id, "Pacific/Auckland", "00:00", "00:00")

            # Day 1: the 26th, here and in Auckland (22:00 there).
            a1, b1 = await _play(s, first, ada, channel), await _play(s, first, ben, channel)
            c1 = await _play(s, first, cid, kiwi)
            again = await answer(s.slash(ada, channel, "daily play", challenge="railroad_ink"))
            assert "You're in round 1" in again.content, "one entry a day"
            await _rounds(s, first, ada, a1, 3)
            # A restart mid-game: the entry, its draft and its dice are all still there.
            await bots.stop(first)
            first = await bots.start(clock, shard_ids=[0], **shards)
            await _rounds(s, first, ada, a1)
            assert (await first.service.table(a1)).row.status == "finished"
            await wait(lambda: any("daily is done" in m.content for m in s.dms(ada)))
            done = next(m for m in s.dms(ada) if "daily is done" in m.content)
            assert "1st of 1 in your server" in done.content
            assert {a.filename for a in done.attachments} == {"final-board.png", "results.png"}
            # Ben has not finished: he may not see Ada's board, nor Ada his.
            said = await refusal(
                s.slash(ben, channel, "daily compare", challenge="railroad_ink", person=ada), ben
            )
            assert "Finish today's Railroad Ink daily first" in said
            said = await refusal(
                s.slash(ada, channel, "daily compare", challenge="railroad_ink", person=ben), ada
            )
            assert "have not finished" in said
            said = await refusal(s.slash(ben, channel, "game board", game=a1), ben)
            assert f"no game #{a1}" in said
            await _rounds(s, first, ben, b1)
            shown = await answer(
                s.slash(ben, channel, "daily compare", challenge="railroad_ink", person=ada)
            )
            assert png_attachment(s, shown, "board.png").width >= 1000
            await _rounds(s, first, cid, c1, 2)  # Cid stops after two rounds

            # Auckland's midnight (11:00 UTC): Cid's day closes, his entry counted as it stood;
            # the first server's day (UTC) goes on.
            clock.current = datetime(2026, 11, 26, 11, 0, 5, tzinfo=UTC)
            await wait(lambda: _boards(s, kiwi), 10)
            assert "ended unfinished" in _boards(s, kiwi)[0].content
            assert (await first.service.table(c1)).row.status == "finished"
            await wait(lambda: any("The day closed before" in m.content for m in s.dms(cid)))
            assert not _boards(s, channel)
            c2 = await _play(s, second, cid, kiwi)  # the 27th in Auckland
            assert c2 != c1
            await _rounds(s, second, cid, c2)

            # Midnight UTC: the first server's day closes, once, whichever shard ticks first.
            clock.current = datetime(2026, 11, 27, 0, 0, 5, tzinfo=UTC)
            await wait(lambda: _boards(s, channel), 10)
            post = _boards(s, channel)[0]
            assert "1. Ada" in post.content or "1. Ben" in post.content
            assert png_attachment(s, post, "daily.png").width >= 1000
            streak = await answer(s.slash(cid, kiwi, "daily today"))
            assert "Daily streak: 2 days" in streak.content, "the 26th and 27th in Auckland"

            # Day 2 here (the 27th).
            a2 = await _play(s, second, ada, channel)
            assert a2 != a1
            await _rounds(s, second, ada, a2)
            today = await answer(s.slash(ada, channel, "daily today"))
            assert "Daily streak: 2 days" in today.content
            clock.current = datetime(2026, 11, 28, 0, 0, 5, tzinfo=UTC)
            await wait(lambda: len(_boards(s, channel)) == 2 and len(_boards(s, kiwi)) == 2, 10)
            clock.current = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)  # a day missed
            lapsed = await answer(s.slash(ada, channel, "daily today"))
            assert "Daily streak: 0 days (longest 2)" in lapsed.content

            # Every tick of both shards has run over each day: one post per server and day.
            for bot in (first, second):
                await bot.delivery.flush()
            assert len(_boards(s, channel)) == 2 and len(_boards(s, kiwi)) == 2
            for bot, _ in list(bots.running):
                await bots.stop(bot)
        s.assert_clean()
    finally:
        with point_discord_py(s):
            for bot, _ in list(bots.running):
                await bots.stop(bot)
        await s.stop()


async def test_the_seasons_champion_is_announced_and_given_the_servers_role(
    scene: Scene, bots: Bots
) -> None:
    s, ada, ben, mo = scene.server, scene.ada, scene.ben, scene.mo
    clock = ManualClock(datetime(2026, 12, 31, 12, 0, tzinfo=UTC))
    bot = await bots.start(clock)
    role = s.add_role(scene.guild, "Season Champion")
    refused = await refusal(s.slash(ada, scene.channel, "daily setup", role=role), ada)
    assert "Only moderators" in refused
    set_up = await answer(
        s.slash(mo, scene.channel, "daily setup", role=role, leaderboard=scene.other_channel)
    )
    assert f"<#{scene.other_channel.id}>" in set_up.content and f"<@&{role.id}>" in set_up.content
    # Last season's champion holds the role; it moves to this season's.
    s.give_role(scene.guild, ben, role)
    await bot.service.champion_crowned(scene.guild.id, ben.id)
    s.grant_bot(scene.guild, P_MANAGE_ROLES)
    gid = await _play(s, bot, ada, scene.channel)
    await _rounds(s, bot, ada, gid)
    await _rounds(s, bot, ben, await _play(s, bot, ben, scene.channel), 1)
    ladder = await answer(s.slash(ben, scene.channel, "daily season"))
    assert "1. Ada — 4 points (1 daily, 0 rated games)" in ladder.content, ladder.content

    clock.current = datetime(2027, 1, 1, 0, 0, 5, tzinfo=UTC)

    def announced() -> list:
        return [m for m in s.messages(scene.other_channel) if "Season 2026-Q4" in m.content]

    await wait(announced, 10)
    post = announced()[0]
    assert f"Champion: <@{ada.id}>" in post.content and "They now hold" in post.content
    members = scene.guild.members
    assert role in members[ada.id].roles and role not in members[ben.id].roles
    await wait(lambda: _boards(s, scene.other_channel), 10)  # the day's table went there too
