"""The bot's worker processes: images are drawn in a pool of them, one per core (Pillow holds the
GIL while it draws, so threads alone leave the other cores idle), and the AI thinks in one of its
own (a search holds the GIL too; in its own process it never waits behind a round's drawings)."""

import asyncio
import ctypes
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")
WATCH_SECONDS = 1.0
"""How often a worker checks that the bot's process still runs, and returns freed memory."""


class Workers:
    """A pool of worker processes, started on first use and shared by every bot in the process."""

    def __init__(self, name: str, size: int) -> None:
        self.name = name
        self.size = size
        self._pool: ProcessPoolExecutor | None = None

    def pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # forkserver, not fork: the bot's threads and sockets must not be copied into
            # workers; the server preloads the renderers so each worker starts warm.
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(["render.common", "PIL.Image", "PIL.ImageDraw"])
            self._pool = ProcessPoolExecutor(
                max_workers=self.size,
                mp_context=context,
                initializer=_follow,
                initargs=(os.getpid(),),
            )
        return self._pool

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` in the pool (a module-level function and plain data, so both pickle). A
        pool whose worker died is replaced once; if that fails too, it runs in a thread here."""
        loop = asyncio.get_running_loop()
        for _ in range(2):
            try:
                return await loop.run_in_executor(self.pool(), fn, *args)
            except BrokenProcessPool:
                log.warning("the %s pool broke; starting a new one", self.name)
                self._pool = None
        return await asyncio.to_thread(fn, *args)

    async def warm(self) -> None:
        """Start the workers before the first round needs them."""
        await asyncio.gather(*(self.run(_nothing) for _ in range(self.size)))


def _follow(owner: int) -> None:
    """In each worker: hand freed memory back, and end when the bot is gone (the forkserver is its
    parent and it holds both ends of the task queue: after a kill -9 nothing else would tell it)."""
    trim = _trimmer()

    def watch() -> None:
        while True:
            time.sleep(WATCH_SECONDS)
            try:
                os.kill(owner, 0)
            except ProcessLookupError:
                os._exit(0)
            trim()

    threading.Thread(target=watch, name="follow-the-bot", daemon=True).start()


def _trimmer() -> Callable[[], object]:
    """What hands the C heap's free pages back to the system: glibc's malloc_trim (elsewhere,
    nothing). Otherwise malloc keeps the megabytes of every image Pillow has freed."""
    trim = getattr(ctypes.CDLL(None), "malloc_trim", None)
    if trim is None:
        return lambda: None
    # ctypes lets go of the GIL for the call, so a drawing in progress carries on meanwhile.
    return lambda: trim(0)


def _nothing() -> bytes:
    return b""


DRAWING = Workers("drawing", os.cpu_count() or 1)
THINKING = Workers("thinking", 1)
draw = DRAWING.run
"""Draw an image in the drawing workers: `await draw(renderer, *data)`."""
think = THINKING.run
"""Make an AI decision in the thinking worker: `await think(choose, view, seat)`."""


async def warm() -> None:
    """Start every worker before the first round needs it."""
    await asyncio.gather(DRAWING.warm(), THINKING.warm())
