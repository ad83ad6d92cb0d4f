"""1,000 games timing out at once, through the loopback stand-in: does the bot still answer?

Run: .venv/bin/python -m bench.timeouts [--games 1000]
Each of the games is a running 2-player Powerline round (of two people who play them all) whose
deadline passed while the bot was down, with neither person's plan in: the first tick plays
every seat by autopilot (in the thinking worker) and resolves the round. Meanwhile a person in
another game plans by slash commands (`/powerline place`, then `undo`) without pause. Printed:
the acknowledgement times of those commands while the tick runs (target: p95 <= 150 ms), the
tick's time for all the games, and when each game's first post appeared after the tick began
(they go out game by game, as each game's move is stored, not after the whole tick).
"""

import argparse
import asyncio
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench.copies import copy_game
from bot.app import GameBot, point_at
from bot.service.clock import ManualClock
from bot.service.options import TableOptions
from bot.service.service import Service
from bot.settings import Settings
from bot.store.database import open_database
from bot.store.repo import Repo
from standin import StandIn
from standin.model import Channel, User


async def seed(path: Path, people: list[User], channels: list[Channel], probe: Channel) -> int:
    """One game per channel for the last two people, all two days past their deadline, and the
    probe game (not due) of the first two in `probe`; returns the probe game's id."""
    ada, ben, cy, di = (p.id for p in people)
    db = await open_database(path)
    then = ManualClock(datetime.now(UTC) - timedelta(days=2))
    svc = Service(Repo(db), then)
    first = await svc.open_table("powerline", 1, channels[0].id, cy, "Cy", {}, TableOptions())
    await svc.join(first.row.id, di, "Di")
    await svc.start(first.row.id, cy, False)
    await db.close()
    copy_game(path, first.row.id, [c.id for c in channels[1:]])
    db = await open_database(path)
    svc = Service(Repo(db), ManualClock(datetime.now(UTC)))
    table = await svc.open_table("powerline", 1, probe.id, ada, "Ada", {}, TableOptions())
    await svc.join(table.row.id, ben, "Ben")
    await svc.start(table.row.id, ada, False)
    await svc.repo.execute("UPDATE outbox SET sent_at = 'seeded' WHERE sent_at IS NULL")
    await db.close()
    return table.row.id


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def main(games: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        server = StandIn("bench-token", bot_name="Board Games Bot")
        await server.start()
        guild = server.add_guild("Bench")
        channels = [server.add_channel(guild, f"pl-{n}") for n in range(games)]
        probe_channel = server.add_channel(guild, "probe")
        people = [server.add_user(name, guilds=[guild]) for name in ("Ada", "Ben", "Cy", "Di")]
        path = Path(tmp) / "bench.sqlite3"
        t = time.perf_counter()
        probe = await seed(path, people, channels, probe_channel)
        print(f"seeded {games} overdue games and a probe game in {time.perf_counter() - t:.1f} s")
        settings = Settings(
            _env_file=None,  # type: ignore[call-arg]
            discord_token="bench-token",
            discord_api_base=server.api_base,
            discord_gateway_url=server.gateway_url,
            database=path,
            tick_seconds=0.5,
            guild_ready_seconds=0.05,
        )
        point_at(settings)
        bot = GameBot(settings)
        await bot.login("bench-token")
        ticks: list[tuple[float, float, int]] = []
        tick = bot.service.tick

        async def timed(changed: object = None) -> int:
            began = time.perf_counter()
            touched = await tick(changed)  # type: ignore[arg-type]
            ticks.append((began, time.perf_counter(), touched))
            return touched

        bot.service.tick = timed  # type: ignore[method-assign]
        task = asyncio.create_task(bot.connect(reconnect=False))
        await asyncio.wait_for(bot.wait_until_ready(), 10)
        ada = people[0]
        dm = server.dm_channel(ada)
        first_post: dict[int, float] = {}
        acks: list[float] = []
        while not ticks or ticks[0][2] < games:
            choices = await server.autocomplete(ada, dm, "powerline place", focused="placement")
            for command, options in (
                ("powerline place", {"placement": choices[0]["value"]}),
                ("powerline undo", {}),
            ):
                sent = time.perf_counter()
                it = await server.slash(ada, dm, command, **options)
                await it.response(timeout=3)
                acks.append((time.perf_counter() - sent) * 1000)
            for c in channels:
                if c.id not in first_post and server.messages(c):
                    first_post[c.id] = time.perf_counter()
            if len(ticks) > 1 and ticks[0][2] < games:
                raise SystemExit(f"the first tick handled {ticks[0][2]} games, not {games}")
        began, ended, touched = ticks[0]
        late = [i for i in server.interactions if i.dead or i.errors]
        print(
            f"probe commands while {touched} games timed out: {len(acks)} acknowledged, p50 "
            f"{statistics.median(acks):.0f} ms, p95 {percentile(acks, 0.95):.0f} ms, max "
            f"{max(acks):.0f} ms (target p95 <= 150 ms); {len(late)} missed the 3 s or failed"
        )
        print(
            f"the tick played out {touched} games in {ended - began:.1f} s "
            f"({(ended - began) * 1000 / touched:.1f} ms a game, autopilot and commit)"
        )
        posted = sorted(at - began for at in first_post.values())
        if posted:
            middle = statistics.median(posted)
            print(
                f"while the tick ran, {len(posted)} games had posted: the first "
                f"{posted[0]:.1f} s after the tick began, the median {middle:.1f} s "
                f"(a tick that posted after its last game would show none before "
                f"{ended - began:.1f} s)"
            )
        table = await bot.service.table(probe)
        assert table.state.round == 1, "the probe game must not have been timed out"
        await bot.close()
        task.cancel()
        await server.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    asyncio.run(main(parser.parse_args().games))
