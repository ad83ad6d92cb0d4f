"""Whole turn-based games played by their "your turn" panels through the loopback stand-in: a
Power Grid game of 3 people (hidden money, Germany) and a Propeller Islands game of 2 people.
Every decision is the autopilot's, made with the fewest taps the panel offers (a move the panel
does not offer is made by slash command and counted), so two versions of the bot compare on the
same decisions. It counts what a person gets and gives: DMs (each a notification), duplicate
panels, taps per turn and per game, and panels left live after the end.

Run: .venv/bin/python -m bench.panel_play
Target (issue 26): 0 duplicate panel DMs, 0 live panels after the end.
"""

import asyncio
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace

import bot.service.lobby as lobby_module
from bench.bot import serve
from bench.bot_turns import command, islands_command
from bot.app import point_at
from bot.sandbox import press_lobby
from bot.settings import Settings
from standin import StandIn
from tests.bot.by_panels import play
from tests.bot.helpers import answer

GAMES = (("powergrid", 3, command), ("propeller", 2, islands_command))
ONLY = sys.argv[1:]
"""Optional game commands to play (all by default)."""
SEED = 2026
"""Every table's seed, so two versions of the bot deal the same games."""


async def main() -> None:
    lobby_module.secrets = SimpleNamespace(randbits=lambda _bits: SEED)  # type: ignore[assignment]
    with tempfile.TemporaryDirectory() as tmp:
        server = StandIn("bench-token", bot_name="Board Games Bot")
        await server.start()
        guild = server.add_guild("Bench")
        people = [server.add_user(name, guilds=[guild]) for name in ("Ada", "Ben", "Cy")]
        settings = Settings(
            _env_file=None,  # type: ignore[call-arg]
            discord_token="bench-token",
            discord_api_base=server.api_base,
            discord_gateway_url=server.gateway_url,
            tick_seconds=3600,
            database=Path(tmp) / "bench.sqlite3",
        )
        point_at(settings)
        bot, task, _ = await serve(server, settings)
        for name, seats, fallback in GAMES:
            if ONLY and name not in ONLY:
                continue
            channel = server.add_channel(guild, name)
            host, *others = people[:seats]
            # The lobby is the command's final answer (it may defer first).
            lobby = await answer(server.slash(host, channel, f"{name} open"), timeout=5)
            table = await bot.service.table_in(channel.id)
            gid = table.row.id
            for person in others:
                await answer(press_lobby(server, person, lobby, gid, "join"), timeout=5)
            await answer(press_lobby(server, host, lobby, gid, "start"), timeout=5)
            tally = await play(server, bot, gid, {p.id: p for p in people[:seats]}, fallback)
            print("\n".join(tally.lines(f"{table.game.title} by panels")))
        await bot.close()
        task.cancel()
        await server.stop()


if __name__ == "__main__":
    asyncio.run(main())
