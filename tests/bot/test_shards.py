"""Two bot processes, shards 0 and 1, on one PostgreSQL: games in guilds on both shards, people
planning by DM (every DM reaches shard 0's process, whichever shard the game's guild is on),
a deadline both processes see pass, and shard 1's process killed with kill -9 mid-round. Nothing
is lost and nothing happens twice: one resolution per round, one timeout, one post of each."""

from __future__ import annotations

import asyncio
import random
import secrets
import signal
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import asyncpg

from bot.games.powerline.words import placement_key
from bot.sandbox import press_lobby
from engine import registry
from engine.powerline import autopilot
from standin import Channel, StandIn, User
from tests.bot.faultbed import boards, guild_per_shard, posts
from tests.bot.helpers import answer, respond
from tests.bot.process import Process, assert_clean_logs, bot_env, launch, stop


async def _query(url: str, sql: str, *args: Any) -> list[asyncpg.Record]:
    conn = await asyncpg.connect(url)
    try:
        return await conn.fetch(sql, *args)
    finally:
        await conn.close()


async def _plan(url: str, gid: int, person: User) -> tuple[list[str], bool]:
    """The autopilot's plan for the person's seat, from the stored state."""
    (game_row,) = await _query(url, "SELECT snapshot FROM games WHERE id = $1", gid)
    (seat_row,) = await _query(
        url, "SELECT seat FROM seats WHERE game_id = $1 AND user_id = $2", gid, person.id
    )
    game = registry.get("powerline")
    seat = seat_row["seat"]
    plan = autopilot.choose(game.view(game.load_state(game_row["snapshot"]), seat), seat)
    return [placement_key(p) for p in plan.placements], plan.vacation


async def _submit(server: StandIn, url: str, gid: int, person: User) -> None:
    """Plan and submit by DM commands, naming the game (the person sits at two)."""
    keys, vacation = await _plan(url, gid, person)
    dm = server.dm_channel(person)
    for key in keys:
        await respond(server.slash(person, dm, "powerline place", placement=key, game=gid))
    if vacation:
        await respond(server.slash(person, dm, "powerline vacation", on=True, game=gid))
    done = await respond(server.slash(person, dm, "powerline submit", game=gid))
    assert done is not None and done.content.startswith("✅"), done


async def _open(server: StandIn, channel: Channel, ada: User, ben: User) -> int:
    lobby = await answer(server.slash(ada, channel, "powerline open"))
    gid = int(lobby.embeds[0]["title"].rsplit("#", 1)[1])
    for person, action in ((ben, "join"), (ada, "start")):
        assert await respond(press_lobby(server, person, lobby, gid, action)) is lobby
    return gid


async def _settled(url: str) -> bool:
    pending = await _query(url, "SELECT count(*) AS n FROM outbox WHERE sent_at IS NULL")
    return pending[0]["n"] == 0


async def _wait(server: StandIn, url: str, timeout: float = 30) -> None:
    """Until every queued post is out (a check that needs the database, so polled here)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not await _settled(url):
        assert asyncio.get_running_loop().time() < deadline, "posts still pending"
        await asyncio.sleep(0.1)


async def test_two_shard_processes_share_one_postgres(tmp_path: Path, pg_cluster) -> None:
    url = await pg_cluster.create_database("two_shards")
    token = "MTQ0." + secrets.token_urlsafe(32)
    server = StandIn(token, bot_name="Board Games Bot", shards=2)
    await server.start()
    procs: list[Process] = []
    try:
        guilds = await guild_per_shard(server)
        channels = {
            shard: server.add_channel(guild, "powerline") for shard, guild in guilds.items()
        }
        ada = server.add_user("Ada", guilds=list(guilds.values()))
        ben = server.add_user("Ben", guilds=list(guilds.values()))
        base = {**bot_env(server, token, url), "TICK_SECONDS": "0.05", "SHARD_COUNT": "2"}
        env = {shard: {**base, "SHARD_IDS": str(shard)} for shard in (0, 1)}
        procs.append(await launch(server, env[0], tmp_path, 1))
        procs.append(await launch(server, env[1], tmp_path, 2))

        # Each process takes its own guild's commands; the games live in one database.
        games = {shard: await _open(server, channels[shard], ada, ben) for shard in (0, 1)}

        # Round 1: the game on shard 0 is planned in full by DM (shard 0's process), and the
        # one on shard 1 too but for Ben, whose deadline then passes under both processes.
        for person in (ada, ben):
            await _submit(server, url, games[0], person)
        await _submit(server, url, games[1], ada)
        past = (datetime.now(UTC) - timedelta(seconds=1)).isoformat()
        conn = await asyncpg.connect(url)
        try:
            await conn.execute(
                "UPDATE games SET deadline = $1, next_due = $1 WHERE id = $2", past, games[1]
            )
        finally:
            await conn.close()
        await server.wait_for(
            lambda: posts(server, channels[1], "**Round 2 of 15**"), timeout=30, interval=0.05
        )
        timeouts = await _query(
            url, "SELECT seat FROM actions WHERE game_id = $1 AND source = 'timeout'", games[1]
        )
        assert [r["seat"] for r in timeouts] == [1], "Ben timed out once, by one process"

        # Round 2: every plan by DM, then kill -9 the process of shard 1 while the round's
        # posts are going out. Shard 0's process finishes them once the dead one's leases lapse.
        for shard in (0, 1):
            for person in (ada, ben):
                await _submit(server, url, games[shard], person)
        await asyncio.sleep(random.Random(18).uniform(0, 0.2))
        procs[1].kill()
        assert await asyncio.wait_for(procs[1].wait(), 5) == -signal.SIGKILL
        await _wait(server, url, timeout=40)
        for shard in (0, 1):
            await server.wait_for(
                lambda s=shard: posts(server, channels[s], "**Round 3 of 15**"), timeout=30
            )

        # Shard 1 comes back and takes its guild's commands again.
        procs.append(await launch(server, env[1], tmp_path, 3))
        status = await answer(server.slash(ada, channels[1], "game status"))
        assert status.embeds[0]["title"] == f"Powerline game #{games[1]} · round 3"
        for person in (ada, ben):
            await _submit(server, url, games[1], person)
        await server.wait_for(
            lambda: posts(server, channels[1], "**Round 4 of 15**"), timeout=30, interval=0.05
        )
        await _wait(server, url)

        # Nothing twice: one summary and one roll a round, one board DM a person a round.
        for shard, gid in games.items():
            last = 3 if shard == 0 else 4
            for r in range(1, last):
                assert len(posts(server, channels[shard], f"**Round {r} built.**")) == 1
            for r in range(1, last + 1):
                assert len(posts(server, channels[shard], f"**Round {r} of 15**")) == 1
                for person in (ada, ben):
                    assert boards(server, person, gid, r) == 1, (shard, r, person.name)
            plans = await _query(
                url,
                "SELECT seat, count(*) AS n FROM actions WHERE game_id = $1 AND seat >= 0 "
                "GROUP BY seat ORDER BY seat",
                gid,
            )
            assert [(r["seat"], r["n"]) for r in plans] == [(0, last - 1), (1, last - 1)]

        for proc in (procs[0], procs[2]):
            proc.send_signal(signal.SIGTERM)
            assert await asyncio.wait_for(proc.wait(), 10) == 0
        assert_clean_logs(tmp_path, 3)
        starts = await _query(url, "SELECT shards FROM starts ORDER BY id")
        assert [r["shards"] for r in starts] == ["0 of 2", "1 of 2", "1 of 2"]
        server.assert_clean()
    finally:
        await stop(procs)
        await server.stop()
