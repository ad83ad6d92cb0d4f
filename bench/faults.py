"""An operator's bad day, fault by fault: two bot processes (shards 0 and 1) on a PostgreSQL
cluster of their own, four Powerline games in flight planned by DM commands, and one fault at a
time (tests/bot/faultbed.py). Each fault runs alone, so its figures are its own.

Run: .venv/bin/python -m bench.faults [--bot-root DIR] [--faults terminated,locked]
`--bot-root` runs another checkout's bot (e.g. a `git worktree` of an older commit) against the
same people, stand-in and faults: the same work, so the two tables compare like with like.
"""

import argparse
import asyncio
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from tests.bot.faultbed import Bed, Report

Strike = Callable[[Bed], Awaitable[None]]
FAULTS: dict[str, tuple[str, Strike, float, list[str]]] = {
    # name: (what happens, the strike, the people's pace in seconds, the untouched games)
    "terminated": (
        "pg_terminate_backend on every bot connection every 0.3 s for 10 s",
        lambda b: b.terminate_connections(10, 0.3),
        1.0,
        [],
    ),
    "restarted": ("pg_ctl restart -m fast", lambda b: b.restart_server(), 1.0, []),
    "stopped": ("the server stopped for 30 s", lambda b: b.stop_server(30), 3.0, []),
    "locked": (
        "game s0-a's row held FOR UPDATE for 60 s",
        lambda b: b.lock_game("s0-a", 60),
        5.0,
        ["s0-b", "s1-a", "s1-b"],
    ),
    "killed": (
        "shard 1's process killed (-9), not restarted",
        lambda b: b.kill_shard(1),
        1.0,
        [],  # the dead process may have been delivering any game: its lease is the takeover
    ),
}


async def one(name: str, root: Path, bot_root: Path | None) -> tuple[Report, float]:
    _, strike, pace, _ = FAULTS[name]
    bed = Bed(root / name, bot_root=bot_root, pace=pace)
    bed.root.mkdir(parents=True)
    started = time.monotonic()
    try:
        await bed.start()
        report = await bed.run(name, strike)
    finally:
        await bed.close()
    return report, time.monotonic() - started


def row(name: str, report: Report, took: float) -> str:
    untouched = FAULTS[name][3]
    stall = f"{report.stall(untouched):.1f}" if untouched else "-"
    stopped = f"{report.stopped_in:.1f}" if report.stopped_in is not None else "-"
    return (
        f"{name:<11}{report.lost:>6}{report.doubled:>8}{report.unanswered:>12}"
        f"{report.misled:>8}{report.refused:>9}{stall:>11}{max(report.stalls.values()):>10.1f}"
        f"{stopped:>9}{took:>8.0f}  {'; '.join(report.errors + report.odd)[:200]}"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bot-root", type=Path, help="another checkout's bot to run")
    parser.add_argument("--faults", default=",".join(FAULTS))
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="bench-faults-"))
    print(f"bot: {args.bot_root or 'this checkout'}; logs in {root}")
    for name in args.faults.split(","):
        print(f"  {name}: {FAULTS[name][0]}")
    print(
        "\nper fault: posts lost and doubled (round posts and board DMs), interactions never\n"
        "answered (no acknowledgement within 3 s, or no answer after it), plans stored though\n"
        "their author was told nothing was done, commands refused in words, the longest wait of\n"
        "a game the fault does not touch, the longest of any game (from planning a round to the\n"
        "next round's post), seconds to exit on SIGTERM, and the run's length\n"
    )
    print(
        f"{'fault':<11}{'lost':>6}{'doubled':>8}{'unanswered':>12}{'misled':>8}{'refused':>9}"
        f"{'untouched':>11}{'any game':>10}{'SIGTERM':>9}{'run s':>8}"
    )
    for name in args.faults.split(","):
        report, took = await one(name, root, args.bot_root)
        print(row(name, report, took), flush=True)


if __name__ == "__main__":
    asyncio.run(main())
