"""`python -m bot health`: one status line for operators and their monitors. It opens the
database the bot uses and says whether it answers, how far behind the outbox is, which processes
hold deliveries, and how many games are overdue; it exits non-zero when the database does not
answer or the outbox lags more than `--lag` seconds. A running bot sent SIGUSR1 logs where each
of its tasks waits (`dump_tasks`)."""

import argparse
import asyncio
import io
import json
import logging
import sys
from typing import Any

from bot.service.clock import SystemClock
from bot.settings import Settings
from bot.store.database import DatabaseUnavailable, open_database
from bot.store.repo import Repo

log = logging.getLogger(__name__)


def dump_tasks() -> None:
    """Log every task of the running bot with the line it waits at: what to look at when a
    process seems stuck (`kill -USR1 <pid>`)."""
    for task in asyncio.all_tasks():
        out = io.StringIO()
        task.print_stack(limit=12, file=out)
        log.warning("task %s:\n%s", task.get_name(), out.getvalue())


async def report(settings: Settings) -> dict[str, Any]:
    """The status as a JSON object: `database` "ok" or why not, and the figures when it is."""
    try:
        db = await open_database(settings.database)
    except DatabaseUnavailable as exc:
        return {"database": str(exc)}
    try:
        async with Repo(db).reading() as repo:
            return {"database": "ok", **await repo.health(SystemClock().now())}
    finally:
        await db.close()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lag", type=float, default=600.0, help="outbox lag in seconds that counts as a fault"
    )


def main(args: argparse.Namespace) -> None:
    status = asyncio.run(report(Settings()))
    print(json.dumps(status, sort_keys=True))
    healthy = status["database"] == "ok" and status["outbox_lag_seconds"] <= args.lag
    sys.exit(0 if healthy else 1)
