"""Many servers: two bot processes (shards 0 and 1) on one database, through the loopback stand-in.

PostgreSQL with 10,000 active games, and SQLite with 1,000 beside it: how fast planning commands
in DMs are acknowledged, what a due game costs the deadline tick (flat in the number of active
games), and how long a process takes to restart.

Run: .venv/bin/python -m bench.shards
Targets: acknowledgement p95 <= 150 ms; tick cost per due game flat from 1,000 to 10,000 games.
"""

import asyncio
import secrets
import signal
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.games.powerline.words import placement_key
from bot.sandbox import press_lobby
from bot.sandbox.postgres import Cluster
from bot.service.clock import SystemClock
from bot.service.options import TableOptions
from bot.service.service import Service
from bot.store.database import open_database
from bot.store.repo import Repo
from engine import registry
from engine.powerline import autopilot
from standin import StandIn
from tests.bot.helpers import answer
from tests.bot.process import Process, bot_env, launch

PROBES = 4
"""Games of two stand-in people each, whose planning commands are timed."""
COMMANDS = 160
DUE = 100

CLONE = """
WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < ?)
INSERT INTO games (game, guild_id, channel_id, host_id, status, config, options, seed, version,
    snapshot, deadline, next_due, created_at, updated_at)
SELECT game, guild_id, 1000000 + x, host_id, status, config, options, seed, version, snapshot,
    deadline, next_due, created_at, updated_at FROM games, n WHERE id = ?
"""
CLONE_SEATS = """
INSERT INTO seats (game_id, seat, user_id, name, is_ai)
SELECT g.id, s.seat, 10000000 + g.id * 10 + s.seat, s.name, s.is_ai
FROM games g, seats s WHERE s.game_id = ? AND g.id > ?
"""
CLONE_ACTIONS = """
INSERT INTO actions (game_id, seq, seat, action, source, created_at)
SELECT g.id, a.seq, a.seat, a.action, a.source, a.created_at
FROM games g, actions a WHERE a.game_id = ? AND g.id > ?
"""


async def seed(target: str, active: int) -> None:
    """`active` running two-seat Powerline games, cloned from one real game."""
    db = await open_database(target)
    svc = Service(Repo(db), SystemClock())
    first = await svc.open_table("powerline", 1, 999, 1, "Host", {}, TableOptions())
    await svc.join(first.row.id, 2, "Guest")
    await svc.start(first.row.id, 1, False)
    gid = first.row.id
    async with svc.repo.transaction() as repo:
        await repo.execute(CLONE, (active - 1, gid))
        await repo.execute(CLONE_SEATS, (gid, gid))
        await repo.execute(CLONE_ACTIONS, (gid, gid))
        await repo.execute("UPDATE outbox SET sent_at = 'seeded'")
    await db.close()


async def _open_probe(server: StandIn, channel, ada, ben) -> int:
    lobby = await answer(server.slash(ada, channel, "powerline open"))
    gid = int(lobby.embeds[0]["title"].rsplit("#", 1)[1])
    for person, action in ((ben, "join"), (ada, "start")):
        await (await press_lobby(server, person, lobby, gid, action)).response(5)
    return gid


async def _acks(server: StandIn, svc: Service, probes: list[tuple[int, list]]) -> list[float]:
    """Place and take back workers by DM commands, round robin; ms to each acknowledgement."""
    game = registry.get("powerline")
    acks: list[float] = []
    while len(acks) < COMMANDS:
        for gid, people in probes:
            table = await svc.table(gid)
            for person in people:
                seat = table.seat_of(person.id)
                assert seat is not None
                plan = autopilot.choose(game.view(table.state, seat.seat), seat.seat)
                if not plan.placements:
                    continue
                dm = server.dm_channel(person)
                key = placement_key(plan.placements[0])
                for name, options in (
                    ("powerline place", {"placement": key, "game": gid}),
                    ("powerline undo", {"game": gid}),
                ):
                    t = time.perf_counter()
                    await (await server.slash(person, dm, name, **options)).response(3)
                    acks.append((time.perf_counter() - t) * 1000)
    return sorted(acks)


async def _tick_cost(svc: Service) -> float:
    """ms per due game: DUE idle games' deadlines pass at once; both processes play them out."""
    past = (datetime.now(UTC) - timedelta(seconds=1)).isoformat()
    due = await svc.repo.all(
        "SELECT id FROM games WHERE status = 'active' AND channel_id >= 1000000 ORDER BY id "
        "LIMIT ?",
        (DUE,),
    )
    ids = [r["id"] for r in due]
    marks = ",".join("?" * len(ids))
    t = time.perf_counter()
    await svc.repo.execute(
        f"UPDATE games SET deadline = ?, next_due = ? WHERE id IN ({marks})", (past, past, *ids)
    )
    while True:
        left = await svc.repo.one(
            f"SELECT count(*) AS n FROM games WHERE next_due <= ? AND id IN ({marks})",
            (past, *ids),
        )
        if left is not None and left["n"] == 0:
            return (time.perf_counter() - t) * 1000 / len(ids)
        await asyncio.sleep(0.02)


async def _restart(server: StandIn, env: dict[str, str], tmp: Path, run: int) -> float:
    t = time.perf_counter()
    proc = await launch(server, env, tmp, run)
    elapsed = time.perf_counter() - t
    proc.send_signal(signal.SIGTERM)
    await proc.wait()
    return elapsed


async def measure(target: str, active: int, tmp: Path) -> dict[str, float]:
    await seed(target, active)
    token = "MTQ0." + secrets.token_urlsafe(32)
    server = StandIn(token, bot_name="Board Games Bot", shards=2)
    await server.start()
    procs: list[Process] = []
    db = await open_database(target)
    svc = Service(Repo(db), SystemClock())
    try:
        guilds = []
        while {(g.id >> 22) % 2 for g in guilds} != {0, 1}:
            guilds.append(server.add_guild(f"Guild {len(guilds)}"))
            await asyncio.sleep(0.002)
        people = [server.add_user(f"P{i}", guilds=guilds) for i in range(2 * PROBES)]
        base = {**bot_env(server, token, target), "TICK_SECONDS": "0.1", "SHARD_COUNT": "2"}
        envs = [{**base, "SHARD_IDS": str(shard)} for shard in (0, 1)]
        procs.append(await launch(server, envs[0], tmp, 1))
        procs.append(await launch(server, envs[1], tmp, 2))
        probes = []
        for i in range(PROBES):
            channel = server.add_channel(guilds[i % len(guilds)], f"powerline-{i}")
            pair = people[2 * i : 2 * i + 2]
            probes.append((await _open_probe(server, channel, *pair), pair))
        acks = await _acks(server, svc, probes)
        per_due = await _tick_cost(svc)
        procs[1].kill()
        await procs[1].wait()
        restart = await _restart(server, envs[1], tmp, 3)
        return {
            "p50": statistics.median(acks),
            "p95": acks[int(0.95 * len(acks))],
            "per_due": per_due,
            "restart": restart,
        }
    finally:
        await db.close()
        for proc in procs:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
        await server.stop()


async def main(sizes: list[int]) -> None:
    cluster = Cluster().start()
    try:
        rows = []
        for active in sizes:
            with tempfile.TemporaryDirectory() as tmp:
                url = await cluster.create_database(f"bench_{active}")
                rows.append(("PostgreSQL", active, await measure(url, active, Path(tmp))))
        with tempfile.TemporaryDirectory() as tmp:
            path = str(Path(tmp) / "bench.sqlite3")
            rows.append(("SQLite", 1_000, await measure(path, 1_000, Path(tmp))))
    finally:
        cluster.stop()
    print(f"two bot processes (shards 0 and 1), {COMMANDS} DM planning commands, {DUE} due games")
    for backend, active, r in rows:
        print(
            f"{backend:<10} {active:>6,} active games: acknowledgement p50 {r['p50']:.0f} ms, "
            f"p95 {r['p95']:.0f} ms (target <= 150); tick {r['per_due']:.1f} ms per due game; "
            f"restart to ready {r['restart']:.2f} s"
        )


if __name__ == "__main__":
    asyncio.run(main([int(a) for a in sys.argv[1:]] or [1_000, 10_000]))
