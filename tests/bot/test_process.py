"""`python -m bot` as its own process against the stand-in: connect, answer, stop, restart."""

from __future__ import annotations

import asyncio
import secrets
import signal
import sqlite3
from pathlib import Path

from bot.service.hosting import hosted
from standin import StandIn
from tests.bot.process import bot_env, launch, stop

SHARED = {
    "help",
    "game",
    "server",
    "mygames",
    "tournament",
    "leaderboard",
    "stats",
    "highscores",
    "result",
    "rebuild-ratings",
    "settings",
    "vacation",
    "daily",
}
"""The commands every bot has, whatever games it hosts; each game adds its own group."""


async def test_the_bot_process_connects_answers_stops_and_restarts(tmp_path: Path) -> None:
    token = "MTQ0." + secrets.token_urlsafe(32)
    database = tmp_path / "bot.sqlite3"
    server = StandIn(token, bot_name="Board Games Bot", identify_spacing=0.3)
    await server.start()
    procs: list[asyncio.subprocess.Process] = []
    try:
        guild = server.add_guild("Board Games")
        channel = server.add_channel(guild, "powerline")
        ada = server.add_user("Ada", guilds=[guild])
        env = bot_env(server, token, database)
        for run in (1, 2):
            proc = await launch(server, env, tmp_path, run)
            procs.append(proc)
            synced = {c.name for c in server.world.commands[None]}
            assert synced == SHARED | {plugin.command for plugin in hosted().values()}

            it = await server.slash(ada, channel, "help")
            reply = await it.response(timeout=10)
            assert reply is not None and reply.ephemeral and reply.visible_to is ada
            embed = reply.embeds[0]
            said = "\n".join(
                [embed.get("title", ""), embed.get("description", "")]
                + [f"{f['name']}\n{f['value']}" for f in embed.get("fields", [])]
            )
            for plugin in hosted().values():
                assert f"**{plugin.title}**" in said and f"`/{plugin.command} open`" in said

            proc.send_signal(signal.SIGTERM)
            code = await asyncio.wait_for(proc.wait(), 5)
            assert code == 0, (tmp_path / f"stderr-{run}.log").read_text()
            await server.wait_for(lambda: not server.gateway.connected, timeout=5)
        with sqlite3.connect(database) as db:
            assert db.execute("SELECT count(*) FROM starts").fetchone() == (2,)
        for run in (1, 2):
            text = (tmp_path / f"stderr-{run}.log").read_text()
            commands = len(SHARED) + len(hosted())
            assert text.count(f"synced {commands} commands globally") == 1
            assert text.count("ready as Board Games Bot in 1 guild(s)") == 1
            assert "Traceback" not in text and " ERROR " not in text, text
            for output in (text, (tmp_path / f"stdout-{run}.log").read_text()):
                assert token not in output
                assert token.split(".", 1)[1] not in output
        first = (tmp_path / "stderr-1.log").read_text()
        assert "applied migration 0001_starts.sql" in first
        assert "applied migration" not in (tmp_path / "stderr-2.log").read_text()
        assert server.gateway.identifies == 2
        server.assert_clean()
    finally:
        await stop(procs)
        await server.stop()
