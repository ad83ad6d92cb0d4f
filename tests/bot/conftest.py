"""Fixtures: a started stand-in with a guild, a channel and people; the real bot in-process.

Every test that uses ``bots`` ends with ``StandIn.assert_clean()``: an unknown route, a gateway
protocol violation or a broken Discord rule fails the test even if its own assertions passed.
"""

from __future__ import annotations

import asyncio
import contextlib
import zlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

import pytest

import bot.service.lobby as lobby_module
from bot.app import GameBot
from bot.service.clock import Clock, ManualClock
from bot.settings import Settings
from standin import Channel, Guild, StandIn, User, point_discord_py

TOKEN = "bot-e2e-token.Qx7vN2pLr9TzK4wY"
IDENTIFY_SECONDS = 0.3


@dataclass
class Scene:
    """One guild with two channels; people with open DMs except Chloé's; Mo moderates."""

    server: StandIn
    guild: Guild
    channel: Channel
    other_channel: Channel
    ada: User
    ben: User
    chloe: User
    dan: User
    eve: User
    fay: User
    outsider: User
    mo: User
    """Has Manage Channels: a moderator for the bot."""

    @property
    def people(self) -> list[User]:
        return [self.ada, self.ben, self.chloe, self.dan, self.eve, self.fay]


@pytest.fixture(autouse=True)
def fixed_seed(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> int:
    """Each test's games get a seed derived from the test's name: varied but reproducible."""
    seed = zlib.crc32(request.node.nodeid.encode()) & ((1 << 48) - 1)
    monkeypatch.setattr(lobby_module, "secrets", SimpleNamespace(randbits=lambda _bits: seed))
    return seed


@pytest.fixture
async def server() -> AsyncIterator[StandIn]:
    """A started stand-in; discord.py points at it for the test's duration."""
    # Discord spaces IDENTIFYs 5 s apart; the tests' restarts space them by less, both sides.
    standin = StandIn(TOKEN, bot_name="Board Games Bot", identify_spacing=IDENTIFY_SECONDS)
    await standin.start()
    try:
        with point_discord_py(standin):
            yield standin
    finally:
        await standin.stop()


@pytest.fixture
def scene(server: StandIn) -> Scene:
    guild = server.add_guild("Board Games")
    channel = server.add_channel(guild, "powerline")
    other = server.add_channel(guild, "more-powerline")
    people = {
        name: server.add_user(name.capitalize(), guilds=[guild])
        for name in ("ada", "ben", "chloe", "dan", "eve", "fay", "outsider")
    }
    server.set_dms_open(people["chloe"], False)
    mo = server.add_user("Mo", manage_channels=True, guilds=[guild])
    return Scene(server, guild, channel, other, mo=mo, **people)


@dataclass
class Bots:
    """Starts ``GameBot``s in-process against the stand-in, all on one SQLite file."""

    server: StandIn
    database: Path
    tick_seconds: float = 0.05
    running: list[tuple[GameBot, asyncio.Task[None]]] = field(default_factory=list)

    def settings(self, **overrides: object) -> Settings:
        values: dict[str, object] = {
            "discord_token": None,
            "database": self.database,
            "discord_api_base": self.server.api_base,
            "discord_gateway_url": self.server.gateway_url,
            "dev_guild_id": None,
            "tick_seconds": self.tick_seconds,
            "identify_seconds": IDENTIFY_SECONDS,
            "log_level": "INFO",
            "log_json": False,
        }
        values.update(overrides)
        return Settings(_env_file=None, **values)  # type: ignore[call-arg]

    async def start(self, clock: Clock | None = None, **overrides: object) -> GameBot:
        """Log in, connect and wait for on_ready (commands are synced by then)."""
        bot = GameBot(self.settings(**overrides), clock=clock, guild_ready_timeout=0.05)
        await bot.login(TOKEN)
        task = asyncio.create_task(bot.connect(reconnect=False))
        self.running.append((bot, task))
        await asyncio.wait_for(bot.wait_until_ready(), 10)
        return bot

    async def stop(self, bot: GameBot) -> None:
        """Close ``bot`` as a shutdown would: ticker cancelled, gateway closed, database closed."""
        for entry in list(self.running):
            if entry[0] is bot:
                self.running.remove(entry)
                await asyncio.wait_for(bot.close(), 10)
                # connect() calls close() again as the socket shuts; that second close can hang
                # (see test_resilience.py::test_close_ends_the_connection), so don't wait on it.
                done, _ = await asyncio.wait({entry[1]}, timeout=0.5)
                if not done:
                    entry[1].cancel()
                with contextlib.suppress(BaseException):
                    await entry[1]


@pytest.fixture
async def bots(server: StandIn, tmp_path: Path) -> AsyncIterator[Bots]:
    runner = Bots(server, tmp_path / "bot.sqlite3")
    try:
        yield runner
    finally:
        for bot, _ in list(runner.running):
            await runner.stop(bot)
    server.assert_clean()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
async def bot(bots: Bots) -> GameBot:
    """The bot on the system clock (deadlines far away)."""
    return await bots.start()
