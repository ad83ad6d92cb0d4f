"""``StandIn``: the loopback Discord (REST + gateway) with its driver API."""

from __future__ import annotations

import ipaddress
import secrets
import time
from collections.abc import Iterable
from types import TracebackType
from typing import Self

from aiohttp import web

from standin import limits as L
from standin import payloads
from standin.callbacks import InteractionRoutes
from standin.commands import CommandStore
from standin.driver import Driver
from standin.errors import ApiError, ErrorRecord
from standin.gateway import Gateway
from standin.messaging import Messaging
from standin.model import (
    BOT_PERMISSIONS,
    DM,
    Channel,
    Clock,
    Member,
    Role,
    Snowflakes,
    User,
    World,
)
from standin.rest import RestRoutes
from standin.transport import (
    RateLimitArm,
    ServerErrorArm,
    make_middleware,
    unknown_route_handler,
)


class StandIn(Driver):
    """A fake Discord on 127.0.0.1 that the real discord.py client can talk to.

    Point discord.py at it with ``discord.http.Route.BASE = standin.api_base`` and
    ``DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(standin.gateway_url)`` (see ``point_discord_py``).
    """

    def __init__(
        self,
        token: str = "standin-bot-token",
        *,
        bot_name: str = "StandInBot",
        ack_deadline: float = L.ACK_DEADLINE_S,
        token_ttl: float = L.TOKEN_TTL_S,
        clock: Clock = time.time,
        host: str = "127.0.0.1",
        port: int = 0,
        shards: int = 1,
        identify_spacing: float = L.IDENTIFY_SPACING_S,
    ) -> None:
        if not ipaddress.ip_address(host).is_loopback:
            raise ValueError(f"the stand-in only listens on loopback, not {host}")
        self.token = token
        self.ack_deadline = ack_deadline
        self.token_ttl = token_ttl
        self.clock = clock
        self.host = host
        self.port = port
        self.shards = shards
        """The shard count ``GET /gateway/bot`` recommends."""
        self.identify_spacing = identify_spacing
        """Seconds between two IDENTIFYs of one bucket (Discord: 5, with max_concurrency 1)."""
        self.ids = Snowflakes(clock)
        self.world = World()
        self.application_id = self.ids.next()
        self.bot_user = User(id=self.application_id, name=bot_name, bot=True)
        self.owner = User(id=self.ids.next(), name="app-owner")
        self.world.users[self.bot_user.id] = self.bot_user
        self.messaging = Messaging(self)
        self.commands = CommandStore(self)
        self.gateway = Gateway(self)
        self.requests: list[str] = []
        self.unknown_routes: list[str] = []
        self.errors: list[ErrorRecord] = []
        self.protocol_violations: list[str] = []
        self.rate_limited: list[str] = []
        self._rate_limits: list[RateLimitArm] = []
        self._server_errors: list[ServerErrorArm] = []
        self.server_errors: list[str] = []
        """Every armed 5xx answered, as "METHOD path -> status"."""
        self._runner: web.AppRunner | None = None

    # Lifecycle.

    async def start(self) -> Self:
        """Listen on ``host:port`` (port 0 picks a free one)."""
        app = web.Application(
            middlewares=[make_middleware(self)], client_max_size=L.REQUEST_MAX_BYTES
        )
        RestRoutes(self).register(app.router)
        InteractionRoutes(self).register(app.router)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get(
            "/attachments/{channel_id}/{attachment_id}/{filename}", self._serve_attachment
        )
        app.router.add_route("*", "/{tail:.*}", unknown_route_handler(self))
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = self._runner.addresses[0][1]
        return self

    async def stop(self) -> None:
        """Close gateway sockets and the HTTP server."""
        await self.gateway.close_all(1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> Self:
        return await self.start()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT``."""
        return f"http://{self.host}:{self.port}"

    @property
    def api_base(self) -> str:
        """Value for ``discord.http.Route.BASE``."""
        return f"{self.base_url}/api/v{L.API_VERSION}"

    @property
    def gateway_url(self) -> str:
        """Value for ``DiscordWebSocket.DEFAULT_GATEWAY`` (also READY's resume_gateway_url)."""
        return f"ws://{self.host}:{self.port}/gateway"

    # Rule bookkeeping.

    def make_record(self, request: web.Request, error: ApiError) -> ErrorRecord:
        """An ErrorRecord for ``error`` answered to ``request``."""
        return ErrorRecord(
            request.method,
            request.path,
            error.status,
            error.code,
            error.message,
            error.errors,
            error.violation,
        )

    def record_error(self, request: web.Request, error: ApiError) -> None:
        """Remember an error answered to the bot."""
        self.errors.append(self.make_record(request, error))

    def violation(self, text: str) -> None:
        """Remember a gateway protocol violation."""
        self.protocol_violations.append(text)

    def arm_rate_limit(
        self,
        method: str | None = None,
        route: str | None = None,
        *,
        times: int = 1,
        retry_after: float = 0.05,
        is_global: bool = False,
    ) -> None:
        """Answer the next ``times`` matching requests with a retryable 429.

        ``route`` is a template such as ``"/channels/{channel_id}/messages"`` or a glob of the
        concrete path below ``/api/v10``; None matches every route.
        """
        self._rate_limits.append(RateLimitArm(method, route, times, retry_after, is_global))

    def arm_server_error(
        self,
        method: str | None = None,
        route: str | None = None,
        *,
        times: int = 1,
        status: int = 503,
        after: bool = False,
    ) -> None:
        """Answer the next ``times`` matching requests with ``status`` (5xx); with ``after``, carry
        the request out first, as Discord sometimes does before failing ("created but 500")."""
        self._server_errors.append(ServerErrorArm(method, route, times, status, after))

    def take_server_error(self, method: str, template: str, path: str) -> ServerErrorArm | None:
        for arm in self._server_errors:
            if arm.times > 0 and arm.matches(method, template, path):
                arm.times -= 1
                return arm
        return None

    def take_rate_limit(self, method: str, template: str, path: str) -> RateLimitArm | None:
        """Consume one armed 429 matching this request, if any."""
        for arm in self._rate_limits:
            if arm.times > 0 and arm.matches(method, template, path):
                arm.times -= 1
                return arm
        return None

    def assert_clean(self, *, allow: Iterable[int] = ()) -> None:
        """Raise AssertionError on unknown routes, protocol violations or rule breaches.

        ``allow`` lists JSON error codes a test provoked on purpose.
        """
        allowed = set(allow)
        breaches = [e for e in self.errors if e.violation and e.code not in allowed]
        problems = [f"unknown route: {r}" for r in self.unknown_routes]
        problems += [f"protocol violation: {v}" for v in self.protocol_violations]
        problems += [
            f"rule breach: {e.method} {e.path} -> {e.status}/{e.code} {e.message}"
            + (f" {e.errors}" if e.errors else "")
            for e in breaches
        ]
        if problems:
            raise AssertionError("stand-in saw problems:\n  " + "\n  ".join(problems))

    # Helpers shared by routes and the driver.

    def dm_channel(self, user: User) -> Channel:
        """The bot's DM channel with ``user`` (created on first use)."""
        channel = self.world.dm_channels.get(user.id)
        if channel is None:
            channel = Channel(
                id=self.ids.next(), type=DM, name=None, created_at=self.clock(), recipient=user
            )
            self.world.dm_channels[user.id] = channel
            self.world.channels[channel.id] = channel
        return channel

    def make_thread(
        self,
        parent: Channel,
        name: str,
        *,
        kind: int,
        thread_id: int | None = None,
        auto_archive_duration: int = 1440,
        invitable: bool = True,
    ) -> Channel:
        """Create a thread under ``parent`` and dispatch THREAD_CREATE."""
        assert parent.guild is not None
        thread = Channel(
            id=thread_id or self.ids.next(),
            type=kind,
            name=name,
            created_at=self.clock(),
            guild=parent.guild,
            parent=parent,
            owner_id=self.bot_user.id,
            auto_archive_duration=auto_archive_duration,
            invitable=invitable,
            thread_members={self.bot_user.id},
        )
        parent.guild.threads.append(thread)
        self.world.channels[thread.id] = thread
        data = {**payloads.channel(thread), "newly_created": True}
        self.gateway.dispatch("THREAD_CREATE", data, intent=L.INTENT_GUILDS)
        return thread

    def set_member_role(self, member: Member, role: Role, *, present: bool) -> None:
        """Give (``present``) or take ``role``; GUILD_MEMBER_UPDATE only on a change."""
        if (role in member.roles) == present:
            return
        if present:
            member.roles.append(role)
        else:
            member.roles.remove(role)
        data = {**payloads.member(member), "guild_id": str(member.guild.id)}
        # Discord sends the current user's own member updates even without the members intent.
        intent = None if member.user is self.bot_user else L.INTENT_GUILD_MEMBERS
        self.gateway.dispatch("GUILD_MEMBER_UPDATE", data, intent=intent)

    def permissions_in(self, channel: Channel) -> int:
        """The bot's permissions in ``channel`` (no overwrites are modelled)."""
        if channel.guild is None:
            return BOT_PERMISSIONS
        return channel.guild.members[self.bot_user.id].permissions

    async def _serve_attachment(self, request: web.Request) -> web.Response:
        attachment = self.world.attachments.get(int(request.match_info["attachment_id"]))
        if attachment is None or attachment.filename != request.match_info["filename"]:
            return web.Response(status=404, text="asset not found")
        return web.Response(
            body=attachment.data,
            content_type=attachment.content_type or "application/octet-stream",
        )


def new_token() -> str:
    """A random bot-token-looking string."""
    return secrets.token_urlsafe(24)
