"""Running `python -m bot` as its own process against the stand-in, as an operator would."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from standin import StandIn

ROOT = Path(__file__).resolve().parents[2]
Process = asyncio.subprocess.Process


def bot_env(server: StandIn, token: str, database: Path | str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DEV_GUILD"))}
    env.update(
        DISCORD_TOKEN=token,
        DISCORD_API_BASE=server.api_base,
        DISCORD_GATEWAY_URL=server.gateway_url,
        DATABASE=str(database),
        TICK_SECONDS="0.2",
        IDENTIFY_SECONDS=str(server.identify_spacing),
        LOG_LEVEL="INFO",
        LOG_JSON="false",
        PYTHONPATH=str(ROOT),
        PYTHONUNBUFFERED="1",
    )
    return env


async def launch(server: StandIn, env: dict[str, str], tmp_path: Path, run: int) -> Process:
    """`python -m bot` as its own process (its `run`-th connection); returns once it is
    connected, has synced its commands and says it is ready."""
    log = tmp_path / f"stderr-{run}.log"
    with log.open("wb") as err, (tmp_path / f"stdout-{run}.log").open("wb") as out:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            cwd=tmp_path,  # no stray .env from the working tree
            env=env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=out,
            stderr=err,
        )

    def up() -> bool:
        if proc.returncode is not None:
            raise AssertionError(f"bot exited early:\n{log.read_text()}")
        return (
            server.gateway.identifies == run
            and server.gateway.connected
            and bool(server.world.commands.get(None))
            and "ready as" in log.read_text()
        )

    await server.wait_for(up, timeout=30, interval=0.05)
    return proc


def assert_clean_logs(tmp_path: Path, runs: int) -> None:
    """No run of the bot logged an error or a traceback."""
    for run in range(1, runs + 1):
        text = (tmp_path / f"stderr-{run}.log").read_text()
        assert "Traceback" not in text and " ERROR " not in text, text


async def stop(procs: list[Process]) -> None:
    """Kill what is still running (a test that failed midway), and reap it."""
    for proc in procs:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
