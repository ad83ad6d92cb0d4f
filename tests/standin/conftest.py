"""Fixtures: a stand-in per test, a small world, and the real discord.py bot running against it."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field

import pytest

from standin import Channel, Guild, StandIn, User, point_discord_py
from tests.standin.testbot import ProbeBot

TOKEN = "standin-test-token"


class OffsetClock:
    """Real time plus an offset the test can advance (token-expiry scenarios)."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        """Jump forward."""
        self.offset += seconds


@dataclass
class Scene:
    """The stand-in, its world, and the running bot."""

    standin: StandIn
    clock: OffsetClock
    guild: Guild
    channel: Channel
    alice: User
    bob: User
    carol: User
    bot: ProbeBot
    allow: set[int] = field(default_factory=set)


StartBot = Callable[..., Awaitable[ProbeBot]]


@pytest.fixture
async def clock() -> OffsetClock:
    """Injectable clock."""
    return OffsetClock()


@pytest.fixture
async def standin(clock: OffsetClock) -> AsyncIterator[StandIn]:
    """A started stand-in, pointed at by discord.py for the test's duration."""
    # These tests restart clients at once; the identify spacing has its own test.
    server = StandIn(TOKEN, bot_name="GameBot", clock=clock, identify_spacing=0.0)
    await server.start()
    try:
        with point_discord_py(server):
            yield server
    finally:
        await server.stop()


@pytest.fixture
async def start_bot(standin: StandIn) -> AsyncIterator[StartBot]:
    """Factory that logs a bot in, connects it, waits for on_ready; closes it afterwards."""
    running: list[tuple[ProbeBot, asyncio.Task[None]]] = []

    async def start(bot: ProbeBot) -> ProbeBot:
        await bot.login(TOKEN)
        task = asyncio.create_task(bot.connect(reconnect=True))
        running.append((bot, task))
        await asyncio.wait_for(bot.wait_until_ready(), 5)
        return bot

    yield start
    for bot, task in running:
        await bot.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(task, 5)


@pytest.fixture
async def scene(standin: StandIn, clock: OffsetClock, start_bot: StartBot) -> AsyncIterator[Scene]:
    """One guild with a channel, three people (Carol's DMs closed), and the bot connected."""
    guild = standin.add_guild("Board Games")
    channel = standin.add_channel(guild, "games")
    alice = standin.add_user("alice", manage_channels=True, guilds=[guild])
    bob = standin.add_user("bob", guilds=[guild])
    carol = standin.add_user("carol", dms_open=False, guilds=[guild])
    bot = await start_bot(ProbeBot(guild.id))
    scene = Scene(standin, clock, guild, channel, alice, bob, carol, bot)
    yield scene
    # Every test fails loudly on unknown routes and rule breaches it did not provoke on purpose.
    standin.assert_clean(allow=scene.allow)
