"""`kill -9` mid-round: the bot process dies without warning and a new one takes over the file.

A restart at any moment, kill -9 included, loses no plan, no draft, no timer: Ada's submitted
plan, Ben's half-built draft and the round's deadline all come back, the planner posted before the
kill still works, and the round resolves exactly once.
"""

from __future__ import annotations

import asyncio
import secrets
import signal
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

from bot.games.powerline.words import placement_key
from bot.sandbox import press_lobby
from engine import registry
from engine.powerline import autopilot
from standin import Channel, Message, StandIn, User
from tests.bot.helpers import TIMEOUT, answer, first_content, pick_worker, png_attachment, respond
from tests.bot.process import Process, assert_clean_logs, bot_env, launch, stop


def query(database: Path, sql: str, *args: object) -> list[tuple[Any, ...]]:
    """Read the bot's SQLite file from outside, as an operator would."""
    with closing(sqlite3.connect(database)) as db:
        return db.execute(sql, args).fetchall()


def dm_planner(server: StandIn, person: User, gid: int, round_: int) -> Message | None:
    wanted = f"pl:plan:{gid}:{round_}:submit"
    for message in reversed(server.dms(person)):
        if message.author.bot and message.find_component(custom_id=wanted):
            return message
    return None


def dm_planners(server: StandIn, person: User, gid: int, round_: int) -> list[Message]:
    """Every board DM of the round (the planner rewrites its text, so match the first version)."""
    start, tail = f"[Powerline game #{gid}](", f"), round {round_}: your board."
    return [
        m
        for m in server.dms(person)
        if m.author.bot and first_content(m).startswith(start) and tail in first_content(m)
    ]


def channel_posts(server: StandIn, channel: Channel, prefix: str) -> list[Message]:
    return [
        m
        for m in server.messages(channel)
        if not m.ephemeral and m.author.bot and prefix in m.content
    ]


def suggested(database: Path, gid: int, person: User) -> tuple[list[str], bool]:
    """The autopilot's plan for the person's seat, from the stored state: keys and vacation."""
    ((snapshot,),) = query(database, "SELECT snapshot FROM games WHERE id = ?", gid)
    ((seat,),) = query(
        database, "SELECT seat FROM seats WHERE game_id = ? AND user_id = ?", gid, person.id
    )
    game = registry.get("powerline")
    state = game.load_state(snapshot)
    plan = autopilot.choose(game.view(state, seat), seat)
    keys = [placement_key(p) for p in plan.placements]
    if len(keys) >= 2:
        return keys, plan.vacation
    # The game's seed is the process's own: when the autopilot places one worker, any legal
    # plan of two does (the test needs one worker placed before the kill and one after).
    return _two_workers(game, state, seat), False


def _two_workers(game, state, seat: int) -> list[str]:
    for first in game.legal_next(state, seat, []):
        steps = [first.model_dump(mode="json")]
        for second in game.legal_next(state, seat, steps):
            both = [*steps, second.model_dump(mode="json")]
            if game.can_submit(state, seat, both):
                return [placement_key(first), placement_key(second)]
    raise AssertionError("no legal plan of two workers this round")


async def pick(
    server: StandIn, person: User, planner: Message, gid: int, round_: int, keys: list[str]
) -> None:
    """Choose each worker in the planner's select (by command if the select can't show it)."""
    for key in keys:
        assert await pick_worker(server, person, planner, gid, round_, key), key


async def click(server: StandIn, person: User, planner: Message, gid: int, action: str) -> None:
    updated = await respond(server.click(person, planner, f"pl:plan:{gid}:1:{action}"))
    assert updated is planner, f"{action} answered {updated!r}"


async def test_kill_9_mid_round_loses_no_plan_no_draft_no_timer(tmp_path: Path) -> None:
    token = "MTQ0." + secrets.token_urlsafe(32)
    database = tmp_path / "bot.sqlite3"
    server = StandIn(token, bot_name="Board Games Bot", identify_spacing=0.3)
    await server.start()
    procs: list[Process] = []
    try:
        guild = server.add_guild("Board Games")
        channel = server.add_channel(guild, "powerline")
        ada = server.add_user("Ada", guilds=[guild])
        ben = server.add_user("Ben", guilds=[guild])
        env = {**bot_env(server, token, database), "TICK_SECONDS": "0.05"}
        procs.append(await launch(server, env, tmp_path, 1))

        # Ada opens a table, Ben joins, Ada starts: round 1's planners arrive in both DMs.
        lobby = await answer(server.slash(ada, channel, "powerline open", deadline="1 hour"))
        assert not lobby.ephemeral
        ((gid,),) = query(database, "SELECT id FROM games WHERE channel_id = ?", channel.id)
        assert lobby.embeds[0]["title"] == f"Powerline game #{gid}"
        for person, action in ((ben, "join"), (ada, "start")):
            clicked = await respond(press_lobby(server, person, lobby, gid, action))
            assert clicked is lobby
        ada_planner = await server.wait_for(lambda: dm_planner(server, ada, gid, 1), TIMEOUT)
        ben_planner = await server.wait_for(lambda: dm_planner(server, ben, gid, 1), TIMEOUT)
        assert len(channel_posts(server, channel, "**Round 1 of 15**")) == 1

        # Ada plans and submits with the DM planner; Ben places one worker and stops there.
        ada_keys, ada_vacation = suggested(database, gid, ada)
        await pick(server, ada, ada_planner, gid, 1, ada_keys)
        if ada_vacation:
            await click(server, ada, ada_planner, gid, "vacation")
        await click(server, ada, ada_planner, gid, "submit")
        assert "✅ A plan is submitted" in ada_planner.content, ada_planner.content
        ben_keys, ben_vacation = suggested(database, gid, ben)
        assert len(ben_keys) >= 2, ben_keys
        await pick(server, ben, ben_planner, gid, 1, ben_keys[:1])
        drafted = next(ln for ln in ben_planner.content.splitlines() if ln.startswith("1. "))
        assert "\n2. " not in ben_planner.content
        ((deadline_before,),) = query(database, "SELECT deadline FROM games WHERE id = ?", gid)
        assert deadline_before is not None

        # kill -9: no shutdown, no goodbye to the gateway, nothing flushed.
        procs[0].kill()
        assert await asyncio.wait_for(procs[0].wait(), 5) == -signal.SIGKILL
        await server.wait_for(lambda: not server.gateway.connected, timeout=5)
        ((deadline_dead,),) = query(database, "SELECT deadline FROM games WHERE id = ?", gid)
        assert deadline_dead == deadline_before
        procs.append(await launch(server, env, tmp_path, 2))

        # Ben's draft is back: /powerline show in his DMs lists the worker he placed, only it.
        shown = await answer(server.slash(ben, server.dm_channel(ben), "powerline show"))
        assert shown.channel.is_dm and shown.channel.recipient is ben
        assert drafted in shown.content and "\n2. " not in shown.content, shown.content
        assert "✅" not in shown.content, shown.content
        png_attachment(server, shown, "draft.png")

        # Ada's plan is back: the status still shows her submitted and Ben planning.
        status = await answer(server.slash(ada, channel, "game status"))
        assert status.ephemeral and status.visible_to is ada
        embed = status.embeds[0]
        assert embed["title"] == f"Powerline game #{gid} · round 1"
        seats = next(f["value"] for f in embed["fields"] if f["name"] == "Seats")
        assert seats.splitlines() == ["✅ submitted — Ada", "⏳ planning — Ben"], seats

        # The timer too: the round closes when it did before the kill.
        ((deadline_after,),) = query(database, "SELECT deadline FROM games WHERE id = ?", gid)
        assert deadline_after == deadline_before

        # Ben's planner from before the kill still answers: another worker, then submit.
        await pick(server, ben, ben_planner, gid, 1, ben_keys[1:])
        assert drafted in ben_planner.content and "\n2. " in ben_planner.content
        if ben_vacation:
            await click(server, ben, ben_planner, gid, "vacation")
        await click(server, ben, ben_planner, gid, "submit")
        assert ben_planner.content == "✅ Plan submitted, and the round is resolving."

        # The round resolves exactly once and round 2 starts, with new planners in both DMs.
        for person in (ada, ben):
            await server.wait_for(lambda p=person: dm_planner(server, p, gid, 2), TIMEOUT)
        await server.wait_for(
            lambda: not query(database, "SELECT id FROM outbox WHERE sent_at IS NULL"), TIMEOUT
        )
        summaries = channel_posts(server, channel, "**Round 1 built.**")
        assert len(summaries) == 1, [m.content for m in summaries]
        png_attachment(server, summaries[0], "summary.png")
        assert len(channel_posts(server, channel, "**Round 1 of 15**")) == 1
        assert len(channel_posts(server, channel, "**Round 2 of 15**")) == 1
        for person in (ada, ben):
            assert len(dm_planners(server, person, gid, 1)) == 1
            assert len(dm_planners(server, person, gid, 2)) == 1
        plans = query(
            database, "SELECT seat, source FROM actions WHERE game_id = ? AND seat >= 0", gid
        )
        assert plans == [(0, "player"), (1, "player")]
        ((deadline_round_2,),) = query(database, "SELECT deadline FROM games WHERE id = ?", gid)
        assert deadline_round_2 > deadline_before

        # A polite stop this time.
        procs[1].send_signal(signal.SIGTERM)
        log = (tmp_path / "stderr-2.log").read_text
        assert await asyncio.wait_for(procs[1].wait(), 10) == 0, log()
        await server.wait_for(lambda: not server.gateway.connected, timeout=5)
        assert_clean_logs(tmp_path, 2)
        assert server.gateway.identifies == 2
        server.assert_clean()
    finally:
        await stop(procs)
        await server.stop()
