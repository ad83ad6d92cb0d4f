"""Turn-based moves through the loopback stand-in with 1,000 stored games: a Power Grid game of
2 people and 2 AI seats (hidden money) played by `/powergrid` commands, and a Propeller Islands
game of 2 people and 1 AI played by `/propeller move`.

Run: .venv/bin/python -m bench.bot_turns
Target: a move acknowledged <= 150 ms at p95; no interaction misses the 3 s acknowledgement.
"""

import asyncio
import json
import tempfile
import time
from pathlib import Path

from bench.bot import PEOPLE, seed, serve
from bot.app import point_at
from bot.sandbox import press_lobby
from bot.settings import Settings
from engine.power_grid import autopilot
from engine.propeller_islands import autopilot as islands_autopilot
from standin import StandIn
from tests.bot.helpers import answer

MOVES = 120


def islands_command(action: dict) -> tuple[str, dict]:
    return "propeller move", {"decision": json.dumps(action, separators=(",", ":"), sort_keys=True)}


def command(action: dict) -> tuple[str, dict]:
    """The `/powergrid` command (and its options) that makes `action`."""
    kind = action["type"]
    if kind == "pick_region":
        return "powergrid region", {"region": action["region"]}
    if kind == "open":
        return "powergrid auction", {"plant": action["plant"], "bid": action["bid"]}
    if kind == "bid":
        return "powergrid bid", {"amount": action["amount"]}
    if kind in ("pass", "drop", "done"):
        return f"powergrid {kind}", {}
    if kind == "buy":
        resource, quantity = next(iter(action["resources"].items()))
        return "powergrid buy", {"resource": resource, "quantity": quantity}
    if kind == "build":
        return "powergrid build", {"cities": ", ".join(action["cities"])}
    key = json.dumps(action, separators=(",", ":"), sort_keys=True)
    if kind == "power":
        return "powergrid power", {"run": key}
    return "powergrid discard", {"choice": key}


async def play(server, bot, channel, game, people, seats, choose, make) -> list[float]:
    """Open a game of `game` with `people` and AI seats; time their moves' acknowledgements."""
    ada, ben = people
    # The lobby is the command's final answer (it may defer first).
    lobby = await answer(server.slash(ada, channel, f"{game} open"), timeout=3)
    gid = (await bot.service.table_in(channel.id)).row.id
    clicks = [(ben, "join")] + [(ada, "ai")] * (seats - 2) + [(ada, "start")]
    for person, action in clicks:
        await answer(press_lobby(server, person, lobby, gid, action), timeout=3)
    await bot.delivery.flush()
    acks: list[float] = []
    while len(acks) < MOVES and (table := await bot.service.table(gid)).row.status == "active":
        seat = next(s for s in table.waiting_for() if not s.is_ai)
        person = ada if seat.user_id == ada.id else ben
        view = table.game.view(table.state, seat.seat)
        action = choose(view, seat.seat).model_dump(mode="json", by_alias=True)
        if action["type"] == "buy" and len(action["resources"]) > 1:
            action = {"type": "done"}
        name, options = make(action)
        t = time.perf_counter()
        it = await server.slash(person, server.dm_channel(person), name, **options)
        await it.response(timeout=3)
        acks.append((time.perf_counter() - t) * 1000)
        await bot.delivery.flush()
    return sorted(acks)


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        server = StandIn("bench-token", bot_name="Board Games Bot")
        await server.start()
        guild = server.add_guild("Bench")
        channel = server.add_channel(guild, "powerline")
        people = [server.add_user(name) for name in PEOPLE]
        for p in people:
            server.join(p, guild)
        path = Path(tmp) / "bench.sqlite3"
        await seed(path, [p.id for p in people], channel.id)
        settings = Settings(
            _env_file=None,  # type: ignore[call-arg]
            discord_token="bench-token",
            discord_api_base=server.api_base,
            discord_gateway_url=server.gateway_url,
            tick_seconds=3600,
            database=path,
        )
        point_at(settings)
        bot, task, _ = await serve(server, settings)
        ada, ben = people[:2]
        for game, seats, choose, make in (
            ("powergrid", 4, autopilot.choose, command),
            ("propeller", 3, islands_autopilot.choose, islands_command),
        ):
            where = server.add_channel(guild, game)
            acks = await play(server, bot, where, game, [ada, ben], seats, choose, make)
            print(
                f"/{game} moves with 1,000 stored games: p95 {acks[int(0.95 * len(acks))]:.0f} ms, "
                f"median {acks[len(acks) // 2]:.0f} ms, max {acks[-1]:.0f} ms over {len(acks)} "
                "(<= 150 ms at p95)"
            )
        late = [i for i in server.interactions if i.dead or i.errors]
        print(f"interactions that missed the 3 s acknowledgement or failed: {len(late)}")
        await bot.close()
        task.cancel()
        await server.stop()


if __name__ == "__main__":
    asyncio.run(main())
