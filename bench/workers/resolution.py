"""Worker for bench.resolution: 6-player Powerline round resolutions with every image and DM,
through the loopback stand-in, with the tree's bot; prints {"tree", "seconds"}.

Run: PYTHONPATH=<tree> python bench/workers/resolution.py [rounds]
"""

import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

import bot
from bot.app import GameBot, point_at
from bot.games.powerline.words import parse_key
from bot.service.options import TableOptions
from bot.settings import Settings
from standin import StandIn

PEOPLE = ("Ada", "Ben", "Cleo", "Dev", "Eve", "Fay")


def planners_out(server: StandIn, people: list, gid: int, round_: int) -> bool:
    """Everyone has the next round's planner: the last post of a round's resolution."""
    wanted = f"pl:plan:{gid}:{round_ + 1}:submit"
    return all(any(m.find_component(custom_id=wanted) for m in server.dms(p)) for p in people)


async def main(rounds: int) -> list[float]:
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
            t = time.perf_counter()
            await (await server.slash(ada, server.dm_channel(ada), "powerline submit")).response(3)
            await server.wait_for(lambda r=round_: planners_out(server, people, gid, r), 20)
            seconds.append(time.perf_counter() - t)
        await asyncio.sleep(0.5)  # the last command's own follow-ups, before the database closes
        await client.close()
        task.cancel()
    await server.stop()
    return seconds[1:]  # the first round warms the drawing processes and caches


if __name__ == "__main__":
    measured = asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 3))
    print(json.dumps({"tree": str(Path(bot.__file__).parents[1]), "seconds": measured}))
