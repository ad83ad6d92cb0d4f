"""`python -m bot`: the Discord bot with a token, the offline sandbox without one."""

import argparse
import asyncio
import signal

from bot import autoplay, health, sandbox
from bot.app import GameBot, point_at
from bot.logs import setup_logging
from bot.settings import Settings
from bot.store.database import DatabaseUnavailable, NewerDatabase


async def run_bot(settings: Settings) -> None:
    """Connect to Discord (or the stand-in) until SIGINT or SIGTERM, then close cleanly."""
    assert settings.discord_token is not None
    point_at(settings)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    loop.add_signal_handler(signal.SIGUSR1, health.dump_tasks)
    async with GameBot(settings) as bot:
        runner = asyncio.create_task(bot.start(settings.discord_token.get_secret_value()))
        stopper = asyncio.create_task(stop.wait())
        done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        stopper.cancel()
        if runner in done:
            runner.result()


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    sub = parser.add_subparsers(dest="mode")
    autoplay.add_arguments(sub.add_parser("autoplay", help="an autopilot game in the terminal"))
    health.add_arguments(sub.add_parser("health", help="one status line for operators"))
    sandbox.add_arguments(
        sub.add_parser("sandbox", help="the offline sandbox (also what runs without a token)")
    )
    args = parser.parse_args()
    if args.mode == "autoplay":
        autoplay.main(args)
        return
    if args.mode == "health":
        health.main(args)
        return
    settings = Settings()
    if args.mode is None and not settings.discord_token:
        args = parser.parse_args(["sandbox"])
    secret = settings.discord_token.get_secret_value() if settings.discord_token else ""
    setup_logging(settings.log_level, settings.log_json, [secret])
    try:
        if args.mode == "sandbox":
            sandbox.main(settings, args)
        else:
            asyncio.run(run_bot(settings))
    except (NewerDatabase, DatabaseUnavailable) as exc:
        raise SystemExit(f"Not started: {exc}") from None


main()
