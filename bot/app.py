"""The discord.py client: cogs, command sync, error handling, database."""

import asyncio
import logging
from datetime import UTC, datetime
from importlib.metadata import PackageNotFoundError, version

import aiosqlite
import discord
import yarl
from discord.ext import commands

from bot.delivery import Delivery
from bot.errors import on_app_command_error
from bot.service.clock import Clock, SystemClock
from bot.service.hosting import hosted
from bot.service.service import Service
from bot.service.tournament.runner import Tournaments
from bot.settings import Settings
from bot.store.database import open_database
from bot.store.repo import Repo
from bot.ui.lobby import LobbyButton, RematchButton
from bot.ui.planning import DYNAMIC_ITEMS
from bot.ui.presenter import presenters
from bot.ui.turns import DYNAMIC_ITEMS as TURN_ITEMS

log = logging.getLogger(__name__)

SHARED_EXTENSIONS = ("bot.cogs.help", "bot.cogs.game", "bot.cogs.stats", "bot.cogs.tournament")


def extensions() -> list[str]:
    """The shared command groups, then each hosted game's own."""
    return [*SHARED_EXTENSIONS, *(f"bot.games.{name}.cog" for name in hosted())]


def bot_version() -> str:
    try:
        return version("boardgame-bot")
    except PackageNotFoundError:
        return "dev"


def point_at(settings: Settings) -> None:
    """Send discord.py to the loopback stand-in when configured (tests and the sandbox)."""
    if settings.discord_api_base:
        discord.http.Route.BASE = settings.discord_api_base
    if settings.discord_gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.discord_gateway_url)


class GameBot(commands.Bot):
    """The bot: app commands only (no prefix commands), state in the database."""

    db: aiosqlite.Connection

    def __init__(self, settings: Settings, clock: Clock | None = None, **options) -> None:
        intents = discord.Intents.default()
        intents.members = True
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            # Nobody is pinged unless a post names them on purpose (user text may say @everyone).
            allowed_mentions=discord.AllowedMentions.none(),
            **options,
        )
        self.settings = settings
        self.clock = clock or SystemClock()
        self.tree.on_error = on_app_command_error
        self._ticker: asyncio.Task | None = None

    async def setup_hook(self) -> None:
        self.db = await open_database(self.settings.database)
        self.service = Service(Repo(self.db), self.clock)
        self.delivery = Delivery(self, self.service)
        self.tournaments = Tournaments(self.service)
        own = [item for p in presenters().values() for item in p.dynamic_items]
        self.add_dynamic_items(LobbyButton, RematchButton, *DYNAMIC_ITEMS, *TURN_ITEMS, *own)
        await self.db.execute(
            "INSERT INTO starts (started_at, version) VALUES (?, ?)",
            (datetime.now(UTC).isoformat(), bot_version()),
        )
        for extension in extensions():
            await self.load_extension(extension)
        guild = discord.Object(self.settings.dev_guild_id) if self.settings.dev_guild_id else None
        if guild:
            self.tree.copy_global_to(guild=guild)
        synced = await self.tree.sync(guild=guild)
        log.info(
            "synced %d commands %s", len(synced), f"to guild {guild.id}" if guild else "globally"
        )

    async def on_ready(self) -> None:
        log.info("ready as %s in %d guild(s)", self.user, len(self.guilds))
        if self._ticker is None:
            self._ticker = asyncio.create_task(self._tick_forever())

    async def _tick_forever(self) -> None:
        """Deadlines and reminders (including those that passed while down), then the outbox."""
        while True:
            try:
                await self.service.tick()
                await self.delivery.flush()
            except Exception:
                log.exception("tick failed")
            await asyncio.sleep(self.settings.tick_seconds)

    async def close(self) -> None:
        # discord.py's connect() calls close() itself when the socket ends: close things once.
        if self._ticker:
            self._ticker.cancel()
            self._ticker = None
        await super().close()
        db = getattr(self, "db", None)
        if db is not None:
            self.db = None  # type: ignore[assignment]
            await db.close()
