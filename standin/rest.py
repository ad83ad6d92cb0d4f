"""REST routes for users, the application, commands, guilds, channels, messages and threads."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from standin import limits as L
from standin import payloads
from standin.errors import ApiError, FormErrors
from standin.model import (
    EVENT_ACTIVE,
    EVENT_CANCELED,
    EVENT_COMPLETED,
    EVENT_EXTERNAL,
    EVENT_GUILD_ONLY,
    EVENT_SCHEDULED,
    P_ADMINISTRATOR,
    P_MANAGE_EVENTS,
    P_MANAGE_ROLES,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    Channel,
    Guild,
    Message,
    Role,
    ScheduledEvent,
)
from standin.transport import API_PREFIX, json_response, no_content, read_body
from standin.validate import parse_timestamp, validate_scheduled_event

# The status changes Discord allows (resources/guild-scheduled-event, status transitions).
EVENT_TRANSITIONS = {
    EVENT_SCHEDULED: (EVENT_ACTIVE, EVENT_CANCELED),
    EVENT_ACTIVE: (EVENT_COMPLETED,),
}

if TYPE_CHECKING:
    from standin.core import StandIn


class RestRoutes:
    """Handlers for the bot-authenticated REST API."""

    def __init__(self, core: StandIn) -> None:
        self.core = core
        self.world = core.world

    def register(self, router: web.UrlDispatcher) -> None:
        """Add every route under ``/api/v10``."""
        a = API_PREFIX
        app = "/applications/{app_id}"
        routes = [
            ("GET", "/users/@me", self.get_me),
            ("POST", "/users/@me/channels", self.create_dm),
            ("GET", "/users/{user_id}", self.get_user),
            ("GET", "/oauth2/applications/@me", self.get_application),
            ("GET", "/applications/@me", self.get_application),
            ("GET", "/gateway", self.get_gateway),
            ("GET", "/gateway/bot", self.get_gateway_bot),
            ("GET", app + "/commands", self.list_commands),
            ("PUT", app + "/commands", self.overwrite_commands),
            ("POST", app + "/commands", self.upsert_command),
            ("DELETE", app + "/commands/{command_id}", self.delete_command),
            ("GET", app + "/guilds/{guild_id}/commands", self.list_commands),
            ("PUT", app + "/guilds/{guild_id}/commands", self.overwrite_commands),
            ("POST", app + "/guilds/{guild_id}/commands", self.upsert_command),
            ("DELETE", app + "/guilds/{guild_id}/commands/{command_id}", self.delete_command),
            ("GET", "/guilds/{guild_id}", self.get_guild),
            ("GET", "/guilds/{guild_id}/channels", self.get_guild_channels),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self.get_member),
            ("GET", "/guilds/{guild_id}/roles", self.get_roles),
            ("GET", "/guilds/{guild_id}/roles/{role_id}", self.get_role),
            ("PUT", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}", self.add_member_role),
            (
                "DELETE",
                "/guilds/{guild_id}/members/{user_id}/roles/{role_id}",
                self.remove_member_role,
            ),
            ("GET", "/guilds/{guild_id}/scheduled-events", self.list_events),
            ("POST", "/guilds/{guild_id}/scheduled-events", self.create_event),
            ("GET", "/guilds/{guild_id}/scheduled-events/{event_id}", self.get_event),
            ("PATCH", "/guilds/{guild_id}/scheduled-events/{event_id}", self.edit_event),
            ("DELETE", "/guilds/{guild_id}/scheduled-events/{event_id}", self.delete_event),
            ("GET", "/channels/{channel_id}", self.get_channel),
            ("GET", "/channels/{channel_id}/messages", self.history),
            ("POST", "/channels/{channel_id}/messages", self.send_message),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self.get_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self.edit_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self.delete_message),
            ("POST", "/channels/{channel_id}/typing", self.typing),
            ("POST", "/channels/{channel_id}/threads", self.create_thread),
            (
                "POST",
                "/channels/{channel_id}/messages/{message_id}/threads",
                self.thread_from_message,
            ),
            ("PUT", "/channels/{channel_id}/thread-members/{user_id}", self.add_thread_member),
            (
                "DELETE",
                "/channels/{channel_id}/thread-members/{user_id}",
                self.remove_thread_member,
            ),
        ]
        for method, path, handler in routes:
            router.add_route(method, a + path, handler)

    # Users and the application.

    async def get_me(self, request: web.Request) -> web.Response:
        """``GET /users/@me``: the bot user (checked by ``Client.login``)."""
        return json_response(payloads.client_user(self.core.bot_user))

    async def get_user(self, request: web.Request) -> web.Response:
        """``GET /users/{id}``."""
        return json_response(payloads.user(self.world.user(request.match_info["user_id"])))

    async def get_application(self, request: web.Request) -> web.Response:
        """Application info; ``interactions_endpoint_url`` null so interactions come by gateway."""
        core = self.core
        return json_response(
            {
                "id": str(core.application_id),
                "name": core.bot_user.name,
                "icon": None,
                "description": "",
                "rpc_origins": [],
                "bot_public": True,
                "bot_require_code_grant": False,
                "bot": payloads.user(core.bot_user),
                "owner": payloads.user(core.owner),
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
                "interactions_endpoint_url": None,
                "redirect_uris": [],
                "tags": [],
            }
        )

    async def get_gateway(self, request: web.Request) -> web.Response:
        """``GET /gateway``."""
        return json_response({"url": self.core.gateway_url})

    async def get_gateway_bot(self, request: web.Request) -> web.Response:
        """``GET /gateway/bot`` (only AutoSharded clients ask)."""
        limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
        return json_response(
            {
                "url": self.core.gateway_url,
                "shards": self.core.shards,
                "session_start_limit": limit,
            }
        )

    # Application commands.

    def _scope(self, request: web.Request) -> int | None:
        if request.match_info["app_id"] != str(self.core.application_id):
            raise ApiError(403, L.Code.MISSING_ACCESS, "Missing Access")
        guild_id = request.match_info.get("guild_id")
        if guild_id is None:
            return None
        guild = self.world.guild(guild_id)
        if self.core.bot_user.id not in guild.members:
            raise ApiError(403, L.Code.MISSING_ACCESS, "Missing Access")
        return guild.id

    async def list_commands(self, request: web.Request) -> web.Response:
        """``GET .../commands``."""
        return json_response(self.core.commands.listing(self._scope(request)))

    async def overwrite_commands(self, request: web.Request) -> web.Response:
        """``PUT .../commands``: bulk overwrite, as ``tree.sync()`` does."""
        scope = self._scope(request)
        body, _ = await read_body(request)
        commands = body.get("_list")
        if not isinstance(commands, list):
            raise ApiError(400, L.Code.INVALID_FORM_BODY, "Invalid Form Body")
        return json_response(self.core.commands.overwrite(scope, commands))

    async def upsert_command(self, request: web.Request) -> web.Response:
        """``POST .../commands``: create or replace one command."""
        scope = self._scope(request)
        body, _ = await read_body(request)
        return json_response(self.core.commands.upsert(scope, body), status=201)

    async def delete_command(self, request: web.Request) -> web.Response:
        """``DELETE .../commands/{id}``."""
        scope = self._scope(request)
        if not self.core.commands.delete(scope, int(request.match_info["command_id"])):
            raise ApiError(404, L.Code.UNKNOWN_COMMAND, "Unknown application command")
        return no_content()

    # Guilds.

    async def get_guild(self, request: web.Request) -> web.Response:
        """``GET /guilds/{id}``."""
        guild = self.world.guild(request.match_info["guild_id"])
        data = payloads.guild_create(guild, all_members=False, bot_id=self.core.bot_user.id)
        gateway_only = ("channels", "threads", "members", "voice_states", "presences")
        for key in (*gateway_only, "guild_scheduled_events"):
            data.pop(key, None)
        return json_response(data)

    async def get_guild_channels(self, request: web.Request) -> web.Response:
        """``GET /guilds/{id}/channels``."""
        guild = self.world.guild(request.match_info["guild_id"])
        return json_response([payloads.channel(c) for c in guild.channels])

    async def get_member(self, request: web.Request) -> web.Response:
        """``GET /guilds/{id}/members/{user}``."""
        guild = self.world.guild(request.match_info["guild_id"])
        return json_response(payloads.member(guild.member(request.match_info["user_id"])))

    async def get_roles(self, request: web.Request) -> web.Response:
        """``GET /guilds/{id}/roles`` (``Guild.fetch_roles``)."""
        guild = self.world.guild(request.match_info["guild_id"])
        return json_response([payloads.role(r) for r in guild.roles])

    async def get_role(self, request: web.Request) -> web.Response:
        """``GET /guilds/{id}/roles/{role}`` (``Guild.fetch_role``)."""
        guild = self.world.guild(request.match_info["guild_id"])
        return json_response(payloads.role(guild.role(request.match_info["role_id"])))

    async def add_member_role(self, request: web.Request) -> web.Response:
        """``PUT /guilds/{id}/members/{user}/roles/{role}``; a role the member has is a no-op."""
        self._change_member_role(request, present=True)
        return no_content()

    async def remove_member_role(self, request: web.Request) -> web.Response:
        """``DELETE /guilds/{id}/members/{user}/roles/{role}``; a role it lacks is a no-op."""
        self._change_member_role(request, present=False)
        return no_content()

    def _change_member_role(self, request: web.Request, *, present: bool) -> None:
        guild = self.world.guild(request.match_info["guild_id"])
        member = guild.member(request.match_info["user_id"])
        role = guild.role(request.match_info["role_id"])
        self._check_can_assign(guild, role)
        self.core.set_member_role(member, role, present=present)

    def _check_can_assign(self, guild: Guild, role: Role) -> None:
        """Discord's rule: MANAGE_ROLES (or ADMINISTRATOR), and only roles below the bot's top
        role that no integration manages; @everyone is nobody's to give."""
        bot = guild.members[self.core.bot_user.id]
        allowed = bot.permissions & (P_MANAGE_ROLES | P_ADMINISTRATOR)
        if (
            not allowed
            or role is guild.everyone
            or role.managed
            or role.position >= bot.top_position
        ):
            raise ApiError(403, L.Code.MISSING_PERMISSIONS, "Missing Permissions")

    # Guild scheduled events.

    async def list_events(self, request: web.Request) -> web.Response:
        """``GET /guilds/{id}/scheduled-events`` (``Guild.fetch_scheduled_events``)."""
        guild = self.world.guild(request.match_info["guild_id"])
        counts = _flag(request.query.get("with_user_count"))
        return json_response(
            [payloads.scheduled_event(e, user_count=counts) for e in guild.scheduled_events]
        )

    async def get_event(self, request: web.Request) -> web.Response:
        """``GET /guilds/{id}/scheduled-events/{event}``."""
        guild = self.world.guild(request.match_info["guild_id"])
        event = guild.scheduled_event(request.match_info["event_id"])
        counts = _flag(request.query.get("with_user_count"))
        return json_response(payloads.scheduled_event(event, user_count=counts))

    async def create_event(self, request: web.Request) -> web.Response:
        """``POST /guilds/{id}/scheduled-events``: validated, then GUILD_SCHEDULED_EVENT_CREATE."""
        guild = self._events_guild(request)
        body, _ = await read_body(request)
        # discord.py omits privacy_level unless given; GUILD_ONLY is the only value there is.
        state = {"privacy_level": EVENT_GUILD_ONLY, **body}
        self._check_event(guild, state, now=self.core.clock())
        live = [e for e in guild.scheduled_events if not e.finished]
        if len(live) >= L.EVENTS_LIVE_MAX:
            raise ApiError(
                400,
                L.Code.MAX_GUILD_SCHEDULED_EVENTS,
                f"Maximum number of guild scheduled events reached ({L.EVENTS_LIVE_MAX})",
            )
        event = ScheduledEvent(
            id=self.core.ids.next(),
            guild=guild,
            creator=self.core.bot_user,
            **_event_fields({**state, "status": EVENT_SCHEDULED}),
        )
        guild.scheduled_events.append(event)
        self._dispatch_event("GUILD_SCHEDULED_EVENT_CREATE", event)
        return json_response(payloads.scheduled_event(event))

    async def edit_event(self, request: web.Request) -> web.Response:
        """``PATCH /guilds/{id}/scheduled-events/{event}``: fields and status transitions."""
        guild = self._events_guild(request)
        event = guild.scheduled_event(request.match_info["event_id"])
        body, _ = await read_body(request)
        if event.finished:
            raise ApiError(400, L.Code.FINISHED_EVENT_UPDATE, "Cannot update a finished event")
        status = body.get("status", event.status)
        if status != event.status and status not in EVENT_TRANSITIONS.get(event.status, ()):
            errors = FormErrors()
            errors.add(
                ("status",),
                "GUILD_SCHEDULED_EVENT_INVALID_STATUS_TRANSITION",
                f"Cannot change the status of an event from {event.status} to {status}.",
            )
            errors.raise_if_any()
        state = {**payloads.scheduled_event(event), **body}
        # Only a start the edit sets must lie ahead: starting an event early keeps its old one.
        moved = "scheduled_start_time" in body and event.status == EVENT_SCHEDULED
        self._check_event(guild, state, now=self.core.clock() if moved else None)
        for name, value in _event_fields(state).items():
            setattr(event, name, value)
        self._dispatch_event("GUILD_SCHEDULED_EVENT_UPDATE", event)
        return json_response(payloads.scheduled_event(event))

    async def delete_event(self, request: web.Request) -> web.Response:
        """``DELETE /guilds/{id}/scheduled-events/{event}``: GUILD_SCHEDULED_EVENT_DELETE."""
        guild = self._events_guild(request)
        event = guild.scheduled_event(request.match_info["event_id"])
        guild.scheduled_events.remove(event)
        self._dispatch_event("GUILD_SCHEDULED_EVENT_DELETE", event)
        return no_content()

    def _events_guild(self, request: web.Request) -> Guild:
        """The guild, if the bot may manage its events (MANAGE_EVENTS or ADMINISTRATOR)."""
        guild = self.world.guild(request.match_info["guild_id"])
        bot = guild.members[self.core.bot_user.id]
        if not bot.permissions & (P_MANAGE_EVENTS | P_ADMINISTRATOR):
            raise ApiError(403, L.Code.MISSING_PERMISSIONS, "Missing Permissions")
        return guild

    def _check_event(self, guild: Guild, state: dict[str, Any], *, now: float | None) -> None:
        channel_type = None
        if state.get("entity_type") != EVENT_EXTERNAL and state.get("channel_id") is not None:
            channel = self.world.channel(state["channel_id"])
            if channel.guild is not guild:
                raise ApiError(404, L.Code.UNKNOWN_CHANNEL, "Unknown Channel")
            channel_type = channel.type
        errors = FormErrors()
        validate_scheduled_event(state, errors, now=now, channel_type=channel_type)
        errors.raise_if_any()

    def _dispatch_event(self, name: str, event: ScheduledEvent) -> None:
        data = payloads.scheduled_event(event)
        self.core.gateway.dispatch(name, data, intent=L.INTENT_GUILD_SCHEDULED_EVENTS)

    # Channels and messages.

    async def get_channel(self, request: web.Request) -> web.Response:
        """``GET /channels/{id}``."""
        return json_response(payloads.channel(self.world.channel(request.match_info["channel_id"])))

    async def create_dm(self, request: web.Request) -> web.Response:
        """``POST /users/@me/channels``: the DM channel exists even when DMs are closed."""
        body, _ = await read_body(request)
        user = self.world.user(body.get("recipient_id", ""))
        return json_response(payloads.channel(self.core.dm_channel(user)))

    async def history(self, request: web.Request) -> web.Response:
        """``GET /channels/{id}/messages`` newest first, with limit/before/after."""
        channel = self.world.channel(request.match_info["channel_id"])
        limit = min(int(request.query.get("limit", 50)), 100)
        before = int(request.query.get("before", 0) or 0)
        after = int(request.query.get("after", 0) or 0)
        visible = [m for m in channel.messages if not m.deleted and not m.ephemeral]
        if before:
            visible = [m for m in visible if m.id < before]
        visible = [m for m in visible if m.id > after][:limit] if after else visible[-limit:]
        return json_response([payloads.message(m) for m in reversed(visible)])

    async def send_message(self, request: web.Request) -> web.Response:
        """``POST /channels/{id}/messages`` (JSON or multipart); closed DMs give 403 / 50007."""
        channel = self.world.channel(request.match_info["channel_id"])
        body, uploads = await read_body(request)
        if channel.is_dm and channel.recipient is not None and not channel.recipient.dms_open:
            raise ApiError(
                403,
                L.Code.CANNOT_MESSAGE_USER,
                "Cannot send messages to this user",
                violation=False,
            )
        nonce = str(body["nonce"]) if body.get("nonce") is not None else None
        if nonce and body.get("enforce_nonce"):
            # Discord answers a repeated nonce (within minutes) with the message it created.
            recent = self.core.clock() - 300
            for earlier in reversed(channel.messages):
                if earlier.created_at < recent:
                    break
                if earlier.nonce == nonce and earlier.author is self.core.bot_user:
                    return json_response(payloads.message(earlier))
        kind = 19 if body.get("message_reference") else 0
        message = self.core.messaging.create(channel, self.core.bot_user, body, uploads, type=kind)
        message.nonce = nonce
        return json_response(payloads.message(message))

    async def get_message(self, request: web.Request) -> web.Response:
        """``GET /channels/{id}/messages/{mid}``."""
        return json_response(payloads.message(self._message(request)))

    async def edit_message(self, request: web.Request) -> web.Response:
        """``PATCH /channels/{id}/messages/{mid}``: only the bot's own messages."""
        message = self._message(request)
        if message.author is not self.core.bot_user:
            raise ApiError(
                403,
                L.Code.CANNOT_EDIT_OTHERS_MESSAGE,
                "Cannot edit a message authored by another user",
            )
        body, uploads = await read_body(request)
        self.core.messaging.edit(message, body, uploads)
        return json_response(payloads.message(message))

    async def delete_message(self, request: web.Request) -> web.Response:
        """``DELETE /channels/{id}/messages/{mid}`` (the bot may delete others' in guilds)."""
        message = self._message(request)
        if message.author is not self.core.bot_user and message.guild is None:
            raise ApiError(
                403,
                L.Code.CANNOT_EDIT_OTHERS_MESSAGE,
                "Cannot delete a message authored by another user",
            )
        self.core.messaging.delete(message)
        return no_content()

    async def typing(self, request: web.Request) -> web.Response:
        """``POST /channels/{id}/typing``."""
        self.world.channel(request.match_info["channel_id"])
        return no_content()

    def _message(self, request: web.Request) -> Message:
        channel = self.world.channel(request.match_info["channel_id"])
        return self.world.message(channel, request.match_info["message_id"])

    # Threads.

    async def create_thread(self, request: web.Request) -> web.Response:
        """``POST /channels/{id}/threads`` without a starter message (private by default)."""
        parent = self.world.channel(request.match_info["channel_id"])
        body, _ = await read_body(request)
        kind = int(body.get("type") or PRIVATE_THREAD)
        thread = self._thread(parent, body, kind=kind, thread_id=None)
        return json_response(payloads.channel(thread), status=201)

    async def thread_from_message(self, request: web.Request) -> web.Response:
        """``POST /channels/{id}/messages/{mid}/threads``: the thread takes the message's id."""
        parent = self.world.channel(request.match_info["channel_id"])
        starter = self.world.message(parent, request.match_info["message_id"])
        if starter.id in self.world.channels:
            raise ApiError(
                400,
                L.Code.THREAD_ALREADY_CREATED,
                "A thread has already been created for this message",
            )
        body, _ = await read_body(request)
        thread = self._thread(parent, body, kind=PUBLIC_THREAD, thread_id=starter.id)
        return json_response(payloads.channel(thread), status=201)

    def _thread(
        self, parent: Channel, body: dict[str, Any], *, kind: int, thread_id: int | None
    ) -> Channel:
        if parent.guild is None or parent.is_thread:
            raise ApiError(
                400,
                L.Code.CANNOT_EXECUTE_ON_CHANNEL_TYPE,
                "Cannot execute action on this channel type",
            )
        errors = FormErrors()
        errors.bad_length(("name",), body.get("name"), 1, L.THREAD_NAME_MAX)
        if kind not in (PUBLIC_THREAD, PRIVATE_THREAD):
            errors.add(("type",), "BASE_TYPE_CHOICES", "Value must be one of {11, 12}.")
        errors.raise_if_any()
        thread = self.core.make_thread(
            parent,
            str(body["name"]),
            kind=kind,
            thread_id=thread_id,
            auto_archive_duration=int(body.get("auto_archive_duration") or 1440),
            invitable=bool(body.get("invitable", True)),
        )
        return thread

    async def add_thread_member(self, request: web.Request) -> web.Response:
        """``PUT /channels/{id}/thread-members/{user}``."""
        thread = self.world.channel(request.match_info["channel_id"])
        user = self.world.user(request.match_info["user_id"])
        if not thread.is_thread:
            raise ApiError(
                400,
                L.Code.CANNOT_EXECUTE_ON_CHANNEL_TYPE,
                "Cannot execute action on this channel type",
            )
        thread.thread_members.add(user.id)
        return no_content()

    async def remove_thread_member(self, request: web.Request) -> web.Response:
        """``DELETE /channels/{id}/thread-members/{user}``."""
        thread = self.world.channel(request.match_info["channel_id"])
        thread.thread_members.discard(int(request.match_info["user_id"]))
        return no_content()


def _flag(value: str | None) -> bool:
    """A boolean query parameter as Discord reads it (``true``/``1``)."""
    return (value or "").lower() in ("true", "1")


def _event_fields(state: dict[str, Any]) -> dict[str, Any]:
    """``ScheduledEvent`` fields from a validated ``state`` in Discord's field names."""
    start = parse_timestamp(state["scheduled_start_time"])
    end = parse_timestamp(state.get("scheduled_end_time"))
    assert start is not None
    external = state["entity_type"] == EVENT_EXTERNAL
    return {
        "name": str(state["name"]),
        "description": state.get("description"),
        "start": start,
        "end": end,
        "entity_type": int(state["entity_type"]),
        "privacy_level": int(state["privacy_level"]),
        "status": int(state["status"]),
        "location": str(state["entity_metadata"]["location"]) if external else None,
        "channel_id": None if external else int(state["channel_id"]),
    }
