"""The animated recap of a whole game per hosted game: frames, bytes, format and time.

Run: .venv/bin/python -m bench.recap [--seats 4]
Each game is played out by its AI (a host and AI seats in the service, the host leaving at the
start), then its recap is drawn as the bot draws it: every frame with the game's recap image, then
the animation (render.recap.animate), all in this process, one core. Discord takes 10 MB.
"""

import argparse
import asyncio
import time

from bot.service.clock import ManualClock
from bot.service.hosting import hosted
from bot.service.options import TableOptions
from bot.service.service import Service
from bot.store.database import open_database
from bot.store.repo import Repo
from bot.ui.presenter import presenter, recap_frame
from render.recap import LIMIT, animate

CONFIGS = {"powerline": {"variants": []}}
"""Config a game's table needs beyond its defaults."""


async def measure(seats: int) -> None:
    db = await open_database(":memory:")
    svc = Service(Repo(db), ManualClock())
    print(f"A {seats}-seat game of each, played by the AI; the recap drawn in one process:")
    for number, (name, host) in enumerate(hosted().items()):
        most = min(seats, host.max_players)
        options = TableOptions(max_players=most)
        table = await svc.open_table(
            name, 1, 100 + number, 1, "Host", CONFIGS.get(name, {}), options
        )
        for _ in range(most - 1):
            await svc.add_ai(table.row.id, 1, False)
        await svc.start(table.row.id, 1, False)
        await svc.hand_to_ai(table.row.id, 1, 1, False, leaving=True)
        start = time.perf_counter()
        table, views = await svc.recap_views(table.row.id)
        names = [s.name for s in table.seats]
        draw = recap_frame(presenter(name))
        frames = [draw(view, names) for _, view in views]
        drawn = time.perf_counter()
        data, ext = animate(table.label, [caption for caption, _ in views], frames)
        done = time.perf_counter()
        print(
            f"  {host.title:<18} {len(frames):>2} frames  {ext.upper():<4}"
            f" {len(data) / 1e6:5.2f} MB (limit {LIMIT / 1e6:.1f})"
            f"  replay+frames {drawn - start:5.2f} s"
            f"  animation {done - drawn:5.2f} s  total {done - start:5.2f} s"
        )
    await db.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=4)
    asyncio.run(measure(parser.parse_args().seats))


if __name__ == "__main__":
    main()
