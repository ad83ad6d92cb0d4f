"""kill -9 at 30 random moments while a round's posts go out: after each restart every post of
every round is there exactly once (nothing lost, nothing twice)."""

from __future__ import annotations

import asyncio
import json
import random
import secrets
import signal
import sqlite3
from pathlib import Path

from bot.games.powerline.words import placement_key
from bot.sandbox import press_lobby
from engine import registry
from engine.powerline import autopilot
from standin import StandIn
from tests.bot.faultbed import boards
from tests.bot.helpers import answer, respond
from tests.bot.process import Process, bot_env, launch, stop

KILLS = 30


def _pending(database: Path) -> int:
    with sqlite3.connect(database) as db:
        return db.execute("SELECT count(*) FROM outbox WHERE sent_at IS NULL").fetchone()[0]


def _plan(database: Path, gid: int, person) -> tuple[list[str], bool]:
    """The autopilot's plan for the person's seat, from the stored state."""
    with sqlite3.connect(database) as db:
        (snapshot,) = db.execute("SELECT snapshot FROM games WHERE id = ?", (gid,)).fetchone()
        (seat,) = db.execute(
            "SELECT seat FROM seats WHERE game_id = ? AND user_id = ?", (gid, person.id)
        ).fetchone()
    game = registry.get("powerline")
    plan = autopilot.choose(game.view(game.load_state(snapshot), seat), seat)
    return [placement_key(p) for p in plan.placements], plan.vacation


def _round(database: Path, gid: int) -> int:
    with sqlite3.connect(database) as db:
        (snapshot,) = db.execute("SELECT snapshot FROM games WHERE id = ?", (gid,)).fetchone()
    return int(json.loads(snapshot)["round"])


def _running(database: Path) -> int | None:
    with sqlite3.connect(database) as db:
        row = db.execute("SELECT id FROM games WHERE status = 'active'").fetchone()
    return None if row is None else row[0]


async def test_kill_9_at_random_moments_loses_and_repeats_no_post(tmp_path: Path) -> None:
    rng = random.Random(46)
    token = "MTQ0." + secrets.token_urlsafe(32)
    database = tmp_path / "bot.sqlite3"
    server = StandIn(token, bot_name="Board Games Bot", identify_spacing=0.3)
    await server.start()
    guild = server.add_guild("Board Games")
    ada = server.add_user("Ada", guilds=[guild])
    ben = server.add_user("Ben", guilds=[guild])
    env = bot_env(server, token, database)
    procs: list[Process] = [await launch(server, env, tmp_path, 1)]
    games: dict[int, object] = {}
    try:
        for kill in range(KILLS):
            gid = _running(database)
            if gid is None:
                # One channel a game, so each game's posts are counted on their own.
                channel = server.add_channel(guild, f"powerline-{len(games) + 1}")
                lobby = await answer(server.slash(ada, channel, "powerline open"))
                gid = int(lobby.embeds[0]["title"].rsplit("#", 1)[1])
                for person, action in ((ben, "join"), (ada, "start")):
                    await respond(press_lobby(server, person, lobby, gid, action))
                games[gid] = channel
            # A person plans from their board: the round's board DMs come first.
            round_ = _round(database, gid)
            await server.wait_for(
                lambda g=gid, r=round_: all(boards(server, p, g, r) for p in (ada, ben)),
                timeout=30,
            )
            for person in (ada, ben):
                keys, vacation = _plan(database, gid, person)
                dm = server.dm_channel(person)
                for key in keys:
                    await respond(server.slash(person, dm, "powerline place", placement=key))
                if vacation:
                    await respond(server.slash(person, dm, "powerline vacation", on=True))
                done = await respond(server.slash(person, dm, "powerline submit"))
                assert done is not None and done.content.startswith("✅ Plan submitted"), done
            # The last plan is in: the round's posts are going out. Kill at a random moment.
            await asyncio.sleep(rng.uniform(0, 0.3))
            procs[-1].kill()
            assert await asyncio.wait_for(procs[-1].wait(), 5) == -signal.SIGKILL
            await server.wait_for(lambda: not server.gateway.connected, timeout=5)
            procs.append(await launch(server, env, tmp_path, kill + 2))
            await server.wait_for(lambda: _pending(database) == 0, timeout=30)
        for gid, channel in games.items():
            _every_post_once(server, channel, [ada, ben], gid, database)
    finally:
        await stop(procs)
        await server.stop()


def _every_post_once(server: StandIn, channel, people, gid: int, database: Path) -> None:
    """Every round of game `gid` has its roll, summary and board DMs, each exactly once."""
    posts = [m.content for m in server.messages(channel) if m.author.bot and not m.ephemeral]
    with sqlite3.connect(database) as db:
        status, snapshot = db.execute(
            "SELECT status, snapshot FROM games WHERE id = ?", (gid,)
        ).fetchone()
    round_ = json.loads(snapshot)["round"]
    resolved = round_ if status == "finished" else round_ - 1
    for r in range(1, resolved + 1):
        built = [p for p in posts if p.startswith(f"**Round {r} built.**")]
        assert len(built) == 1, f"game {gid} round {r}: {len(built)} summaries"
    for r in range(1, round_ + 1):
        rolled = [p for p in posts if f"**Round {r} of 15**" in p]
        assert len(rolled) == 1, f"game {gid} round {r}: {len(rolled)} rolls"
        for person in people:
            n = boards(server, person, gid, r)
            assert n == 1, (gid, r, person.name, n)
