"""The AI thinks off the event loop: a table handed to the AI plays out while the bot answers."""

import asyncio
import dataclasses
import time

from bot.service.hosting import hosted
from bot.service.loop import THINK_SECONDS
from bot.service.options import TableOptions
from tests.service.helpers import ALICE, BOB, open_table_with

THINK, SLOWED = 0.4, 4
"""How long each of the AI's first choices takes, holding its thread, and how many are slowed."""


async def test_a_table_played_out_by_the_ai_leaves_the_loop_free(world, monkeypatch):
    svc, _, _ = world
    plugin = hosted()["powerline"]

    calls = 0

    def slow(view, seat, budget=None, level="standard"):
        nonlocal calls
        calls += 1
        if calls <= SLOWED:
            time.sleep(THINK)
        return plugin.choose(view, seat, budget=budget, level=level)

    gid = await open_table_with(svc, (ALICE, BOB))
    await svc.start(gid, ALICE, False)
    await svc.hand_to_ai(gid, BOB, BOB, False, leaving=True)
    monkeypatch.setitem(hosted(), "powerline", dataclasses.replace(plugin, choose=slow))
    gaps: list[float] = []

    async def heartbeat() -> None:
        while True:
            before = time.perf_counter()
            await asyncio.sleep(0.005)
            gaps.append(time.perf_counter() - before)

    beating = asyncio.create_task(heartbeat())
    started = time.perf_counter()
    await svc.hand_to_ai(gid, ALICE, ALICE, False, leaving=True)
    took = time.perf_counter() - started
    beating.cancel()
    assert (await svc.table(gid)).row.status == "finished"
    # The slowed choices ran; the loop never waited on one of them.
    assert calls > SLOWED and took > SLOWED * THINK
    assert max(gaps) < THINK


async def test_the_tick_tells_of_each_game_once_it_is_stored_and_thinks_within_budget(world):
    """Several games timing out in one tick: each is announced as soon as it is stored (its
    posts need not wait for the others), and every decision is made off the loop, budgeted."""
    svc, clock, _ = world
    seen: list[str] = []
    budgets: set[tuple[float, str]] = set()

    async def offload(fn, *args):
        seen.append("think")
        budgets.add((fn.keywords["budget"], fn.keywords["level"]))
        return fn(*args)

    svc.offload = offload
    first = await open_table_with(svc, (ALICE, BOB))
    second = await svc.open_table("powerline", 1, 11, ALICE, "Alice", {}, TableOptions())
    await svc.join(second.row.id, BOB, "Bob")
    for gid in (first, second.row.id):
        await svc.start(gid, ALICE, False)
    clock.advance(days=2)
    assert await svc.tick(lambda: seen.append("stored")) == 2
    # Both seats of a game are played, then the game is stored; then the next game.
    assert seen == ["think", "think", "stored", "think", "think", "stored"]
    # The autopilot plays for the late at standard, within standard's budget.
    assert budgets == {(THINK_SECONDS["standard"], "standard")}
    for gid in (first, second.row.id):
        assert (await svc.table(gid)).state.round == 2
