"""Running `python -m bot` as its own process against the stand-in, as an operator would (the
launcher is the sandbox's, `bot.sandbox.processes`; here, as each test numbers its runs)."""

from __future__ import annotations

from pathlib import Path

from bot.sandbox.processes import Process, bot_env, errors_in, ready, spawn, stop
from standin import StandIn

__all__ = ["Process", "assert_clean_logs", "bot_env", "launch", "stop"]


async def launch(server: StandIn, env: dict[str, str], tmp_path: Path, run: int) -> Process:
    """`python -m bot` as its own process (its `run`-th connection); returns once it is
    connected, has synced its commands and says it is ready."""
    log = tmp_path / f"stderr-{run}.log"
    proc = await spawn(env, tmp_path, log, tmp_path / f"stdout-{run}.log")

    def up() -> bool:
        return (
            ready(proc, log)
            and server.gateway.identifies == run
            and server.gateway.connected
            and bool(server.world.commands.get(None))
        )

    await server.wait_for(up, timeout=30, interval=0.05)
    return proc


def assert_clean_logs(tmp_path: Path, runs: int) -> None:
    """No run of the bot logged an error or a traceback."""
    for run in range(1, runs + 1):
        log = tmp_path / f"stderr-{run}.log"
        assert not errors_in(log), log.read_text()
