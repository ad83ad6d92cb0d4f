"""The discord.py client: cogs, command sync, error handling, database."""

import asyncio
import contextlib
import logging
import socket
import time
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from importlib.metadata import PackageNotFoundError, version
from typing import Any

import discord
import yarl
from discord.ext import commands

from bot import workers
from bot.delivery import SENDING, Delivery
from bot.errors import on_app_command_error
from bot.service.clock import Clock, SystemClock
from bot.service.hosting import hosted
from bot.service.service import Service
from bot.service.tournament.runner import Tournaments
from bot.settings import Settings
from bot.store.backend import Database
from bot.store.database import open_database
from bot.store.repo import Repo
from bot.ui import answer
from bot.ui.clicks import stray
from bot.ui.lobby import AddAI, LobbyButton, RematchButton
from bot.ui.planning import DYNAMIC_ITEMS
from bot.ui.presenter import presenters
from bot.ui.shapes import missing
from bot.ui.turns import DYNAMIC_ITEMS as TURN_ITEMS
from bot.web.app import Web
from bot.web.links import Links

log = logging.getLogger(__name__)

HANDLER_TASKS = ("CommandTree-invoker", "discord-ui-", "discord.py: on_", SENDING)
"""How discord.py names the tasks that run commands, components, modals and events, and ours
that sends a tick's posts."""
CLOSING_GRACE = 10.0
"""Seconds a shutdown waits for the interactions under way, at most."""

SHARED_EXTENSIONS = (
    "bot.cogs.daily",
    "bot.cogs.help",
    "bot.cogs.game",
    "bot.cogs.mygames",
    "bot.cogs.preferences",
    "bot.cogs.server",
    "bot.cogs.stats",
    "bot.cogs.tournament",
    "bot.cogs.vacation",
)


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


class GameBot(commands.AutoShardedBot):
    """The bot: app commands only (no prefix commands), state in the database. Several processes
    may run it on one PostgreSQL, each with its own shards: any of them can take any
    interaction, and the database decides who resolves, times out and posts what."""

    db: Database | None = None
    web: Web | None = None
    """The web companion, when this process serves it (WEB_PORT)."""
    # Made in setup_hook, once the database is open.
    service: Service
    delivery: Delivery
    tournaments: Tournaments
    max_concurrency: int = 1

    def __init__(self, settings: Settings, clock: Clock | None = None, **options: Any) -> None:
        # Nothing reads the member cache (interactions carry who acts and their permissions),
        # so neither the privileged members intent nor chunking every guild at start.
        intents = discord.Intents.default()
        options.setdefault("chunk_guilds_at_startup", False)
        options.setdefault("guild_ready_timeout", settings.guild_ready_seconds)
        if settings.shard_ids is not None:
            # discord.py's typing takes no None for shard_ids: leave it out unless set.
            options["shard_ids"] = settings.shard_ids
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            # Nobody is pinged unless a post names them on purpose (user text may say @everyone).
            allowed_mentions=discord.AllowedMentions.none(),
            shard_count=settings.shard_count,
            **options,
        )
        self.settings = settings
        self.clock = clock or SystemClock()
        self.tree.error(on_app_command_error)
        self._ticker: asyncio.Task[None] | None = None
        self._closing = asyncio.Event()
        """Set at shutdown: the ticker ends after the tick under way, not inside its commit."""
        self.ticked: list[Callable[[], Awaitable[None]]] = []
        """Run after each tick's deadlines and posts, such as closing check-ins whose time is up."""
        self.clickables: list[type[discord.ui.DynamicItem[Any]]] = []
        """Every restart-proof component added, so that one more can answer all the others."""

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        self.clickables.extend(items)
        super().add_dynamic_items(*items)

    async def setup_hook(self) -> None:
        # How many shards may IDENTIFY together (Discord's buckets), for before_identify_hook.
        self.max_concurrency = (await self.fetch_session_start_limits()).max_concurrency
        self.db = db = await open_database(self.settings.database)
        self.service = Service(Repo(db), self.clock, workers.think)
        # Held only while a flush runs and renewed half way, so it need not outlive a tick.
        lease = timedelta(seconds=self.settings.lease_seconds)
        self.delivery = Delivery(
            self, self.service, f"{socket.gethostname()}:{self.shard_label}", lease
        )
        self.tournaments = Tournaments(self.service)
        if (url := self.settings.web_url) and self.settings.web_secret:
            links = Links(self.settings.web_secret.get_secret_value().encode(), url)
            assert self.settings.web_port is not None
            self.web = Web(self, links, self.settings.web_port, self.settings.web_host)
            await self.web.start()
            self.delivery.pages = self.web.game_url
        self._warming = asyncio.create_task(workers.warm())
        for name in hosted():
            if lacks := missing(name):
                raise RuntimeError(f"bot.games.{name} lacks what its shape of play uses: {lacks}")
        own = [item for p in presenters().values() for item in p.dynamic_items]
        self.add_dynamic_items(LobbyButton, AddAI, RematchButton, *DYNAMIC_ITEMS, *TURN_ITEMS, *own)
        await self.service.record_start(bot_version(), self.shard_label)
        for extension in extensions():
            await self.load_extension(extension)
        super().add_dynamic_items(stray(self.clickables))
        if not self.syncs_commands:
            return
        guild = discord.Object(self.settings.dev_guild_id) if self.settings.dev_guild_id else None
        if guild:
            self.tree.copy_global_to(guild=guild)
        synced = await self.tree.sync(guild=guild)
        log.info(
            "synced %d commands %s", len(synced), f"to guild {guild.id}" if guild else "globally"
        )

    @property
    def shard_label(self) -> str:
        """ "0,1 of 4": the shards this process runs ("all" when Discord recommends the count)."""
        if self.settings.shard_count is None:
            return "all"
        ids = self.settings.shard_ids or range(self.settings.shard_count)
        return f"{','.join(map(str, ids))} of {self.settings.shard_count}"

    @property
    def syncs_commands(self) -> bool:
        """Commands are global: the process with shard 0 syncs them, the others need not."""
        return self.shard_ids is None or 0 in self.shard_ids

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Wait for this shard's bucket to be free across every process of the bot (discord.py
        only spaces the shards of one process): one IDENTIFY per `identify_seconds`."""
        bucket = (shard_id or 0) % max(1, self.max_concurrency)
        # More than the limit: the IDENTIFY frame leaves after the turn is taken, later still on
        # a loaded machine, and Discord counts from its arrival.
        spacing = self.settings.identify_seconds + max(0.5, 0.2 * self.settings.identify_seconds)
        # Discord's limit is on real time, whatever clock the games run on.
        while (wait := await self.service.identify_turn(bucket, time.time, spacing)) > 0:
            await asyncio.sleep(wait)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Every interaction is acknowledged in time, however long its handler takes."""
        await answer.watch(interaction)

    async def on_ready(self) -> None:
        log.info("ready as %s in %d guild(s)", self.user, len(self.guilds))
        if self._ticker is None:
            self._ticker = asyncio.create_task(self._tick_forever())

    async def _tick_forever(self) -> None:
        """Deadlines and reminders (including those that passed while down), then the outbox.
        A database outage is logged when it starts and when it ends, not at every tick."""
        down: datetime | None = None
        while not self._closing.is_set():
            try:
                await self.service.tick(self.delivery.soon)
                await self.delivery.flush()
                for hook in self.ticked:
                    await hook()
            except Exception as exc:
                outage = self.service.transient(exc) or not await self.service.healthy()
                if outage:
                    if down is None:
                        down = self.clock.now()
                        log.error("the database is unreachable (%s); retrying every tick", exc)
                else:
                    log.exception("tick failed")
            else:
                if down is not None:
                    lasted = (self.clock.now() - down).total_seconds()
                    log.warning("the database is back after %.0f s; the outbox catches up", lasted)
                    down = None
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._closing.wait(), self.settings.tick_seconds)

    async def _finish_handlers(self) -> None:
        """Let the commands and clicks under way finish (their database and HTTP still open),
        so a shutdown never cuts one off between its change and its posts."""
        me = asyncio.current_task()
        deadline = asyncio.get_running_loop().time() + CLOSING_GRACE
        while (left := deadline - asyncio.get_running_loop().time()) > 0:
            busy = [
                t
                for t in asyncio.all_tasks()
                if t is not me and not t.done() and t.get_name().startswith(HANDLER_TASKS)
            ]
            if not busy:
                return
            await asyncio.wait(busy, timeout=left)
        log.warning("closing with interactions still under way after %.0f s", CLOSING_GRACE)

    async def close(self) -> None:
        # discord.py's connect() calls close() itself when the socket ends: close things once.
        if self._ticker:
            # A cancel landing on a commit in flight would leave its connection mid-transaction.
            self._closing.set()
            ticker, self._ticker = self._ticker, None
            _, late = await asyncio.wait({ticker}, timeout=CLOSING_GRACE)
            for task in late:
                task.cancel()
        if not self.is_closed():
            await self._finish_handlers()
        await super().close()
        if self.web is not None:
            await self.web.stop()
            self.web = None
        db, self.db = self.db, None
        if db is not None:
            await db.close()
