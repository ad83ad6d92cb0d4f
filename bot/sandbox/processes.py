"""Running `python -m bot` as processes of their own against the stand-in, as an operator would:
the sandbox's shard processes, and the tests and benchmarks that start, kill and restart them."""

import asyncio
import contextlib
import os
import signal
import sys
from pathlib import Path

from standin import StandIn

ROOT = Path(__file__).resolve().parents[2]
Process = asyncio.subprocess.Process


class Exited(RuntimeError):
    """A bot process exited before it said it was ready."""


def bot_env(server: StandIn, token: str, database: Path | str) -> dict[str, str]:
    """The environment of a bot process that talks to `server` and stores in `database`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DEV_GUILD"))}
    env.update(
        DISCORD_TOKEN=token,
        DISCORD_API_BASE=server.api_base,
        DISCORD_GATEWAY_URL=server.gateway_url,
        DATABASE=str(database),
        TICK_SECONDS="0.2",
        GUILD_READY_SECONDS="0.05",
        IDENTIFY_SECONDS=str(server.identify_spacing),
        LOG_LEVEL="INFO",
        LOG_JSON="false",
        PYTHONPATH=str(ROOT),
        PYTHONUNBUFFERED="1",
    )
    return env


async def spawn(env: dict[str, str], cwd: Path, log: Path, out: Path | None = None) -> Process:
    """`python -m bot` in `cwd` (a folder with no stray .env), its stderr into `log` and its
    stdout into `out` (else into `log` too)."""
    with contextlib.ExitStack() as files:
        err = files.enter_context(log.open("wb"))
        own = files.enter_context(out.open("wb")) if out else err
        return await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            cwd=cwd,
            env=env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=own,
            stderr=err,
            # Ctrl-C reaches only whoever started it, which then stops it in its own time.
            start_new_session=True,
        )


def ready(proc: Process, log: Path) -> bool:
    """Whether the process logged that it is connected and ready; Exited if it ended first."""
    if proc.returncode is not None:
        raise Exited(f"bot exited early with {proc.returncode}:\n{log.read_text()}")
    return "ready as" in log.read_text()


def errors_in(log: Path) -> list[str]:
    """The lines of a process's log that report an error or a traceback."""
    return [
        line for line in log.read_text().splitlines() if " ERROR " in line or "Traceback" in line
    ]


async def terminate(proc: Process, timeout: float = 20.0) -> int:
    """SIGTERM, as systemd stops it, and its exit code; killed if it outlasts `timeout`."""
    if proc.returncode is not None:
        return proc.returncode
    proc.send_signal(signal.SIGTERM)
    try:
        return await asyncio.wait_for(proc.wait(), timeout)
    except TimeoutError:
        proc.kill()
        return await proc.wait()


async def stop(procs: list[Process]) -> None:
    """Kill what is still running (after a failure midway), and reap it."""
    for proc in procs:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
