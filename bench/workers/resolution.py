"""Worker for bench.resolution: 6-player Powerline round resolutions with every image and DM,
through the loopback stand-in, with the tree's bot; prints {"tree", "seconds", "floors",
"renders", "bot_cpu"}: each resolution's seconds, its render floor, its renders' seconds and the
CPU seconds this process (the bot, with the stand-in) spent on it.

The render floor of a resolution is what its images alone need on the drawing pool: the total
render time of the images it drew divided over the pool's workers (one per core), or its longest
render if that is longer. Each image is drawn again here, after the run, in this process with
warm caches and nothing else drawing: the median of three.

Run: PYTHONPATH=<tree> python bench/workers/resolution.py [rounds]
"""

import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import bot
from bot.app import GameBot, point_at
from bot.games.powerline.words import parse_key
from bot.service.options import TableOptions
from bot.settings import Settings
from standin import StandIn

PEOPLE = ("Ada", "Ben", "Cleo", "Dev", "Eve", "Fay")
Call = tuple[Callable[..., Any], tuple[Any, ...]]


class Drawn:
    """The images each timed resolution drew through the pool."""

    def __init__(self) -> None:
        self.resolutions: list[list[Call]] = []
        self.timing = False


def recording(drawn: Drawn) -> None:
    """From now on, every image drawn through the pool while a resolution is timed is noted (a
    tree from before the pool notes none)."""
    try:
        from bot.workers import draw as pooled
    except ImportError:
        return

    async def draw(fn: Callable[..., Any], *args: Any) -> Any:
        if drawn.timing:
            drawn.resolutions[-1].append((fn, args))
        return await pooled(fn, *args)

    # Modules took `draw` by name at import, so each gets the recording one.
    for module in list(sys.modules.values()):
        if module is not None and getattr(module, "draw", None) is pooled:
            vars(module)["draw"] = draw


def render_seconds(fn: Callable[..., Any], args: tuple[Any, ...]) -> float:
    """Median of three renders of one image, here and now."""
    times = []
    for _ in range(3):
        t = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def floor(renders: list[float]) -> float:
    """The render floor: the renders spread over the pool's workers, or the longest one."""
    return max(sum(renders) / (os.cpu_count() or 1), max(renders, default=0.0))


def planners_out(server: StandIn, people: list, gid: int, round_: int) -> bool:
    """Everyone has the next round's planner: the last post of a round's resolution."""
    wanted = f"pl:plan:{gid}:{round_ + 1}:submit"
    return all(any(m.find_component(custom_id=wanted) for m in server.dms(p)) for p in people)


async def main(rounds: int, drawn: Drawn, cpu: list[float]) -> list[float]:
    server = StandIn("bench-token", bot_name="Board Games Bot")
    await server.start()
    guild = server.add_guild("Bench")
    channel = server.add_channel(guild, "powerline")
    people = [server.add_user(name, guilds=[guild]) for name in PEOPLE]
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(
            _env_file=None,  # type: ignore[call-arg]
            discord_token="bench-token",
            discord_api_base=server.api_base,
            discord_gateway_url=server.gateway_url,
            database=str(Path(tmp) / "bench.sqlite3"),
            tick_seconds=3600,
        )
        point_at(settings)
        client = GameBot(settings, guild_ready_timeout=0.05)
        await client.login("bench-token")
        task = asyncio.create_task(client.connect(reconnect=False))
        await asyncio.wait_for(client.wait_until_ready(), 10)
        svc = client.service
        ada = people[0]
        probe = await svc.open_table(
            "powerline", guild.id, channel.id, ada.id, "Ada", {}, TableOptions()
        )
        for person in people[1:]:
            await svc.join(probe.row.id, person.id, person.name)
        gid = probe.row.id
        await svc.start(gid, ada.id, False)
        await client.delivery.flush()
        seconds = []
        for _ in range(rounds + 1):
            round_ = (await svc.table(gid)).state.round
            for person in people:
                draft = await svc.draft(gid, person.id)
                while not draft.can_submit:
                    draft = await svc.edit_draft(
                        gid, person.id, add=parse_key(draft.next_options[-1][1])
                    )
                if person is not ada:
                    await svc.submit(gid, person.id)
            await client.delivery.flush()
            drawn.resolutions.append([])
            drawn.timing = True
            t, used = time.perf_counter(), time.process_time()
            await (await server.slash(ada, server.dm_channel(ada), "powerline submit")).response(3)
            await server.wait_for(lambda r=round_: planners_out(server, people, gid, r), 20)
            seconds.append(time.perf_counter() - t)
            cpu.append(time.process_time() - used)
            drawn.timing = False
        await asyncio.sleep(0.5)  # the last command's own follow-ups, before the database closes
        await client.close()
        task.cancel()
    await server.stop()
    del cpu[0]
    return seconds[1:]  # the first round warms the drawing processes and caches


if __name__ == "__main__":
    drawn = Drawn()
    cpu: list[float] = []
    recording(drawn)
    measured = asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 3, drawn, cpu))
    timed = drawn.resolutions[1:]  # as main's: the first warms up
    renders = [[render_seconds(fn, args) for fn, args in calls] for calls in timed]
    print(
        json.dumps(
            {
                "tree": str(Path(bot.__file__).parents[1]),
                "seconds": measured,
                "floors": [floor(r) for r in renders if r],
                "renders": renders,
                "bot_cpu": cpu,
            }
        )
    )
