"""The bot under load, through the loopback stand-in, with 1,000 stored games (100 mid-round).

Run: .venv/bin/python -m bench.bot
Targets: planning commands acknowledged <= 150 ms at p95; a 6-player round resolution with all its
images <= 2 s; no interaction misses the 3 s acknowledgement; restart to serving <= 3 s; memory
per idle game <= 50 KB (idle games are not kept in memory).
"""

import asyncio
import gc
import sqlite3
import statistics
import tempfile
import time
import tracemalloc
from pathlib import Path

from bench.workers.resolution import planners_out
from bot.app import GameBot, point_at
from bot.games.powerline.words import parse_key
from bot.service.clock import SystemClock
from bot.service.options import TableOptions
from bot.service.service import Service
from bot.settings import Settings
from bot.store.database import open_database
from bot.store.repo import Repo
from standin import StandIn

FINISHED, ACTIVE = 900, 100
PEOPLE = ("Ada", "Ben", "Cleo", "Dev", "Eve", "Fay")


async def seed(path: Path, people: list[int], channel_id: int) -> int:
    """Store 900 finished and 100 mid-round games; return the 6-person probe game's id."""
    db = await open_database(path)
    svc = Service(Repo(db), SystemClock())
    first = await svc.open_table("powerline", 1, 1, 1, "Host", {}, TableOptions())
    for _ in range(5):
        await svc.add_ai(first.row.id, 1, False)
    await svc.start(first.row.id, 1, False)
    await svc.hand_to_ai(first.row.id, 1, 1, False, leaving=True)
    await db.close()
    raw = sqlite3.connect(path)
    with raw:
        for n in range(2, FINISHED + 1):
            raw.execute(
                "INSERT INTO games (id, game, guild_id, channel_id, host_id, status, config, "
                "options, seed, version, snapshot, created_at, updated_at) SELECT ?, game, "
                "guild_id, ?, host_id, status, config, options, seed, version, snapshot, "
                "created_at, updated_at FROM games WHERE id = ?",
                (n, n, first.row.id),
            )
            for table in ("seats", "actions"):
                cols = [r[1] for r in raw.execute(f"PRAGMA table_info({table})")][1:]
                raw.execute(
                    f"INSERT INTO {table} (game_id, {', '.join(cols)}) "
                    f"SELECT ?, {', '.join(cols)} FROM {table} WHERE game_id = ?",
                    (n, first.row.id),
                )
    raw.close()
    db = await open_database(path)
    svc = Service(Repo(db), SystemClock())
    for n in range(ACTIVE - 1):
        table = await svc.open_table("powerline", 1, 10_000 + n, 50 + n, "P", {}, TableOptions())
        await svc.join(table.row.id, 5_000 + n, "Q")
        await svc.start(table.row.id, 50 + n, False)
    probe = await svc.open_table(
        "powerline", 1, channel_id, people[0], PEOPLE[0], {}, TableOptions()
    )
    for uid, name in zip(people[1:], PEOPLE[1:], strict=True):
        await svc.join(probe.row.id, uid, name)
    await svc.repo.execute("UPDATE outbox SET sent_at = 'seeded'")
    await db.close()
    return probe.row.id


async def serve(server: StandIn, settings: Settings) -> tuple[GameBot, asyncio.Task, float]:
    """Start the bot; return it with the seconds until it answers commands."""
    t = time.perf_counter()
    bot = GameBot(settings, guild_ready_timeout=0.05)
    await bot.login(settings.discord_token.get_secret_value())  # type: ignore[union-attr]
    task = asyncio.create_task(bot.connect(reconnect=False))
    await asyncio.wait_for(bot.wait_until_ready(), 10)
    await bot.service.tick()
    return bot, task, time.perf_counter() - t


async def main() -> None:
    tracemalloc.start()
    with tempfile.TemporaryDirectory() as tmp:
        server = StandIn("bench-token", bot_name="Board Games Bot")
        await server.start()
        guild = server.add_guild("Bench")
        channel = server.add_channel(guild, "powerline")
        people = [server.add_user(name) for name in PEOPLE]
        for p in people:
            server.join(p, guild)
        base = Settings(
            _env_file=None,  # type: ignore[call-arg]
            discord_token="bench-token",
            discord_api_base=server.api_base,
            discord_gateway_url=server.gateway_url,
            tick_seconds=3600,
        )
        point_at(base)

        empty = base.model_copy(update={"database": Path(tmp) / "empty.sqlite3"})
        bot, task, _ = await serve(server, empty)
        gc.collect()
        idle_before = tracemalloc.get_traced_memory()[0]
        await bot.close()
        task.cancel()

        path = Path(tmp) / "bench.sqlite3"
        t = time.perf_counter()
        probe = await seed(path, [p.id for p in people], channel.id)
        took = time.perf_counter() - t
        print(f"seeded {FINISHED} finished + {ACTIVE} running games in {took:.1f} s")
        full = base.model_copy(update={"database": path})
        bot, task, ready = await serve(server, full)
        gc.collect()
        idle_after = tracemalloc.get_traced_memory()[0]
        per_game = max(0, idle_after - idle_before) / (FINISHED + ACTIVE)
        print(f"restart to serving with {FINISHED + ACTIVE} stored games: {ready:.2f} s (<= 3)")
        print(f"memory per stored game while idle: {per_game / 1024:.1f} KB (<= 50)")

        await bot.service.start(probe, people[0].id, False)
        await bot.delivery.flush()
        ada = people[0]
        dm = server.dm_channel(ada)
        acks = []
        for _ in range(30):
            choices = await server.autocomplete(ada, dm, "powerline place", focused="placement")
            for command, options in (
                ("powerline place", {"placement": choices[0]["value"]}),
                ("powerline undo", {}),
            ):
                t = time.perf_counter()
                it = await server.slash(ada, dm, command, **options)
                await it.response(timeout=3)
                acks.append((time.perf_counter() - t) * 1000)
        acks.sort()
        print(
            f"planning commands: p95 {acks[int(0.95 * len(acks))]:.0f} ms, max {acks[-1]:.0f} ms "
            f"over {len(acks)} (<= 150 ms at p95)"
        )

        resolutions = []
        for _ in range(3):
            table = await bot.service.table(probe)
            round_ = table.state.round
            for person in people[1:]:
                draft = await bot.service.draft(probe, person.id)
                while not draft.can_submit:
                    key = draft.next_options[-1][1]
                    draft = await bot.service.edit_draft(probe, person.id, add=parse_key(key))
                await bot.service.submit(probe, person.id)
            await bot.delivery.flush()
            draft = await bot.service.draft(probe, ada.id)
            while not draft.can_submit:
                draft = await bot.service.edit_draft(
                    probe, ada.id, add=parse_key(draft.next_options[-1][1])
                )
            t = time.perf_counter()
            it = await server.slash(ada, dm, "powerline submit")
            await it.response(timeout=3)
            await server.wait_for(lambda r=round_: planners_out(server, people, probe, r), 10)
            resolutions.append(time.perf_counter() - t)
        print(
            f"6-player round resolution with every image and DM: median "
            f"{statistics.median(resolutions):.2f} s, max {max(resolutions):.2f} s (<= 2 s)"
        )
        await bot.delivery.flush()
        late = [i for i in server.interactions if i.dead or i.errors]
        print(f"interactions that missed the 3 s acknowledgement or failed: {len(late)}")
        await bot.close()
        task.cancel()
        await server.stop()


if __name__ == "__main__":
    asyncio.run(main())
