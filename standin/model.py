"""The stand-in's in-memory world: users, guilds, channels, messages, commands, interactions."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from standin import limits as L
from standin.errors import ApiError, DriverError, ErrorRecord, NotAcknowledged
from standin.validate import walk_components

Clock = Callable[[], float]

# Permission bits (topics/permissions) used for members, the bot and resolved channels.
P_ADMINISTRATOR = 1 << 3
P_MANAGE_CHANNELS = 1 << 4
P_ADD_REACTIONS = 1 << 6
P_VIEW_CHANNEL = 1 << 10
P_SEND_MESSAGES = 1 << 11
P_MANAGE_MESSAGES = 1 << 13
P_EMBED_LINKS = 1 << 14
P_ATTACH_FILES = 1 << 15
P_READ_MESSAGE_HISTORY = 1 << 16
P_USE_EXTERNAL_EMOJIS = 1 << 18
P_MANAGE_ROLES = 1 << 28
P_USE_APPLICATION_COMMANDS = 1 << 31
P_MANAGE_EVENTS = 1 << 33
P_MANAGE_THREADS = 1 << 34
P_CREATE_PUBLIC_THREADS = 1 << 35
P_CREATE_PRIVATE_THREADS = 1 << 36
P_SEND_MESSAGES_IN_THREADS = 1 << 38
EVERYONE_PERMISSIONS = (
    P_ADD_REACTIONS
    | P_VIEW_CHANNEL
    | P_SEND_MESSAGES
    | P_EMBED_LINKS
    | P_ATTACH_FILES
    | P_READ_MESSAGE_HISTORY
    | P_USE_EXTERNAL_EMOJIS
    | P_USE_APPLICATION_COMMANDS
    | P_CREATE_PUBLIC_THREADS
    | P_SEND_MESSAGES_IN_THREADS
)
# Without MANAGE_ROLES or MANAGE_EVENTS, as many real invites leave them: giving roles and
# scheduling events are error paths by default.
BOT_PERMISSIONS = (
    EVERYONE_PERMISSIONS | P_MANAGE_MESSAGES | P_MANAGE_THREADS | P_CREATE_PRIVATE_THREADS
)

# Channel types.
GUILD_TEXT = 0
DM = 1
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12


class Snowflakes:
    """Snowflake ids that encode the injected clock's time (Discord epoch), strictly increasing."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._increment = 0
        self._last = 0

    def next(self) -> int:
        """A new id for 'now'."""
        millis = max(int(self._clock() * 1000) - L.DISCORD_EPOCH_MS, 0)
        candidate = (millis << 22) | (1 << 17) | (self._increment & 0xFFF)
        self._increment += 1
        # A frozen or rewound test clock must still give unique, ordered ids.
        candidate = max(candidate, self._last + 1)
        self._last = candidate
        return candidate


def iso(timestamp: float) -> str:
    """ISO 8601 UTC timestamp as Discord formats it."""
    return dt.datetime.fromtimestamp(timestamp, dt.UTC).isoformat()


@dataclass(eq=False)
class User:
    """A Discord account: a person the driver acts as, or the bot."""

    id: int
    name: str
    bot: bool = False
    dms_open: bool = True
    manage_channels: bool = False

    @property
    def mention(self) -> str:
        """``<@id>``."""
        return f"<@{self.id}>"

    def __repr__(self) -> str:
        return f"<User {self.name} {self.id}>"


@dataclass(eq=False)
class Role:
    """A guild role; the ``@everyone`` role shares the guild's id."""

    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False


@dataclass(eq=False)
class Member:
    """A user's membership in one guild."""

    user: User
    guild: Guild
    joined_at: float
    roles: list[Role] = field(default_factory=list)

    @property
    def permissions(self) -> int:
        """Guild-level permissions: @everyone plus every role."""
        value = self.guild.everyone.permissions
        for role in self.roles:
            value |= role.permissions
        return value

    @property
    def top_position(self) -> int:
        """Position of the highest role (0, @everyone's, with none); the role hierarchy's rank."""
        return max((role.position for role in self.roles), default=0)


@dataclass(eq=False)
class Guild:
    """A server with its roles, members and channels."""

    id: int
    name: str
    owner_id: int
    everyone: Role
    manager_role: Role
    bot_role: Role
    members: dict[int, Member] = field(default_factory=dict)
    channels: list[Channel] = field(default_factory=list)
    threads: list[Channel] = field(default_factory=list)
    added_roles: list[Role] = field(default_factory=list)
    scheduled_events: list[ScheduledEvent] = field(default_factory=list)

    @property
    def roles(self) -> list[Role]:
        """All roles, @everyone first."""
        return [self.everyone, self.manager_role, self.bot_role, *self.added_roles]

    def member(self, user_id: str | int) -> Member:
        """Member by user id, else 404 / 10007."""
        found = self.members.get(_as_id(user_id))
        if found is None:
            raise ApiError(404, L.Code.UNKNOWN_MEMBER, "Unknown Member", violation=False)
        return found

    def role(self, role_id: str | int) -> Role:
        """Role by id, else 404 / 10011."""
        wanted = _as_id(role_id)
        found = next((role for role in self.roles if role.id == wanted), None)
        if found is None:
            raise ApiError(404, L.Code.UNKNOWN_ROLE, "Unknown Role", violation=False)
        return found

    def scheduled_event(self, event_id: str | int) -> ScheduledEvent:
        """Scheduled event by id, else 404 / 10070."""
        wanted = _as_id(event_id)
        found = next((e for e in self.scheduled_events if e.id == wanted), None)
        if found is None:
            raise ApiError(
                404,
                L.Code.UNKNOWN_GUILD_SCHEDULED_EVENT,
                "Unknown Guild Scheduled Event",
                violation=False,
            )
        return found

    def __repr__(self) -> str:
        return f"<Guild {self.name} {self.id}>"


# Scheduled event entity type, statuses and privacy level (resources/guild-scheduled-event).
EVENT_EXTERNAL = 3
EVENT_SCHEDULED = 1
EVENT_ACTIVE = 2
EVENT_COMPLETED = 3
EVENT_CANCELED = 4
EVENT_GUILD_ONLY = 2


@dataclass(eq=False)
class ScheduledEvent:
    """A guild scheduled event; ``channel_id`` for stage/voice ones, ``location`` for external."""

    id: int
    guild: Guild
    creator: User
    name: str
    start: float
    entity_type: int
    description: str | None = None
    end: float | None = None
    channel_id: int | None = None
    location: str | None = None
    status: int = EVENT_SCHEDULED
    privacy_level: int = EVENT_GUILD_ONLY

    @property
    def finished(self) -> bool:
        """True once completed or canceled: no longer editable, and not counted in the limit."""
        return self.status in (EVENT_COMPLETED, EVENT_CANCELED)

    def __repr__(self) -> str:
        return f"<ScheduledEvent {self.name!r} {self.id} status={self.status}>"


@dataclass(eq=False)
class Channel:
    """A guild text channel, a thread or a DM channel."""

    id: int
    type: int
    name: str | None
    created_at: float
    guild: Guild | None = None
    recipient: User | None = None
    parent: Channel | None = None
    owner_id: int | None = None
    position: int = 0
    auto_archive_duration: int = 1440
    invitable: bool = True
    thread_members: set[int] = field(default_factory=set)
    messages: list[Message] = field(default_factory=list)

    @property
    def is_dm(self) -> bool:
        """True for a DM channel."""
        return self.type == DM

    @property
    def is_thread(self) -> bool:
        """True for public and private threads."""
        return self.type in (10, PUBLIC_THREAD, PRIVATE_THREAD)

    @property
    def mention(self) -> str:
        """``<#id>``."""
        return f"<#{self.id}>"

    def __repr__(self) -> str:
        return f"<Channel {self.name or 'DM'} {self.id} type={self.type}>"


@dataclass(eq=False)
class Attachment:
    """An uploaded file; the bytes are served back at ``url``."""

    id: int
    filename: str
    data: bytes
    url: str
    content_type: str | None = None
    description: str | None = None
    width: int | None = None
    height: int | None = None

    @property
    def size(self) -> int:
        """Size in bytes."""
        return len(self.data)


@dataclass(eq=False)
class Message:
    """A message as stored by the stand-in, with its edit history and deletion flag."""

    id: int
    channel: Channel
    author: User
    created_at: float
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    edited_at: float | None = None
    webhook_id: int | None = None
    application_id: int | None = None
    interaction: Interaction | None = None
    interaction_metadata: dict[str, Any] | None = None
    message_reference: dict[str, Any] | None = None
    mentions: list[User] = field(default_factory=list)
    nonce: str | None = None
    pinged: list[User] = field(default_factory=list)
    """Whom the message notified when it was created, after its allowed_mentions."""
    pinged_everyone: bool = False
    visible_to: User | None = None
    deleted: bool = False
    edits: list[dict[str, Any]] = field(default_factory=list)

    @property
    def guild(self) -> Guild | None:
        """The guild, or None in DMs."""
        return self.channel.guild

    @property
    def ephemeral(self) -> bool:
        """True if only ``visible_to`` can see it."""
        return bool(self.flags & L.FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        """True while a type-5 defer has not been completed."""
        return bool(self.flags & L.FLAG_LOADING)

    def snapshot(self) -> dict[str, Any]:
        """The visible state, as kept in ``edits`` before each change."""
        return {
            "content": self.content,
            "embeds": list(self.embeds),
            "components": list(self.components),
            "attachments": [a.filename for a in self.attachments],
            "flags": self.flags,
            "edited_at": self.edited_at,
        }

    def iter_components(self) -> Iterator[dict[str, Any]]:
        """Every component, nested ones included."""
        for _, component in walk_components(self.components):
            yield component

    def find_component(
        self, *, custom_id: str | None = None, label: str | None = None
    ) -> dict[str, Any] | None:
        """The first component whose custom_id (or label) matches, else None."""
        for component in self.iter_components():
            if custom_id is not None and component.get("custom_id") == custom_id:
                return component
            if label is not None and component.get("label") == label:
                return component
        return None

    def component(
        self, *, custom_id: str | None = None, label: str | None = None
    ) -> dict[str, Any]:
        """Like ``find_component`` but raises DriverError when absent."""
        found = self.find_component(custom_id=custom_id, label=label)
        if found is None:
            wanted = custom_id if custom_id is not None else label
            have = [c.get("custom_id") or c.get("label") for c in self.iter_components()]
            raise DriverError(f"no component {wanted!r} on message {self.id}; it has {have}")
        return found

    def __repr__(self) -> str:
        state = " deleted" if self.deleted else ""
        return f"<Message {self.id} by {self.author.name}: {self.content[:40]!r}{state}>"


@dataclass(eq=False)
class SyncedCommand:
    """An application command as synced by the bot (global when ``guild_id`` is None)."""

    id: int
    guild_id: int | None
    definition: dict[str, Any]

    @property
    def name(self) -> str:
        """Command name."""
        return str(self.definition["name"])

    @property
    def type(self) -> int:
        """1 chat input, 2 user, 3 message."""
        return int(self.definition.get("type", 1))


# Interaction types.
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5


@dataclass(eq=False)
class Interaction:
    """One interaction a person triggered, and everything the bot did with it."""

    id: int
    token: str
    type: int
    user: User
    channel: Channel
    data: dict[str, Any]
    created_at: float
    message: Message | None = None
    parent: Interaction | None = None
    response_type: int | None = None
    response_message: Message | None = None
    loading_pending: bool = False
    dead: bool = False
    modal: dict[str, Any] | None = None
    choices: list[dict[str, Any]] | None = None
    followups: list[Message] = field(default_factory=list)
    errors: list[ErrorRecord] = field(default_factory=list)
    acked: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def guild(self) -> Guild | None:
        """The guild, or None in DMs."""
        return self.channel.guild

    @property
    def deferred(self) -> bool:
        """True for a type-5 or type-6 acknowledgement."""
        return self.response_type in (5, 6)

    @property
    def ephemeral(self) -> bool:
        """True if the response message is ephemeral."""
        return self.response_message is not None and self.response_message.ephemeral

    @property
    def original(self) -> Message | None:
        """What ``@original`` refers to: the response message, or the component's message."""
        if self.response_type in (4, 5):
            return self.response_message
        if self.response_type in (6, 7):
            return self.message
        return None

    async def response(self, timeout: float = 5.0) -> Message | None:
        """Wait for the bot's acknowledgement; return the message it created or updated.

        Returns None for type 6 (see ``original``), 8 (see ``choices``) and 9 (see ``modal``).
        """
        try:
            await asyncio.wait_for(self.acked.wait(), timeout)
        except TimeoutError:
            detail = "; ".join(f"{e.status}/{e.code} {e.message}" for e in self.errors)
            raise NotAcknowledged(
                f"interaction {self.id} ({self.describe()}) not acknowledged within {timeout}s"
                + (f"; bot got: {detail}" if detail else "")
            ) from None
        if self.response_type in (4, 5, 7):
            return self.original
        return None

    def describe(self) -> str:
        """Short human description for error messages."""
        if self.type in (APPLICATION_COMMAND, AUTOCOMPLETE):
            return f"/{self.data.get('name')}"
        return f"custom_id={self.data.get('custom_id')!r}"

    def __repr__(self) -> str:
        return f"<Interaction {self.id} type={self.type} {self.describe()}>"


class World:
    """Indexes of everything the stand-in knows, with Discord-style lookups."""

    def __init__(self) -> None:
        self.users: dict[int, User] = {}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.attachments: dict[int, Attachment] = {}
        self.interactions: dict[int, Interaction] = {}
        self.by_token: dict[str, Interaction] = {}
        self.dm_channels: dict[int, Channel] = {}
        self.commands: dict[int | None, list[SyncedCommand]] = {}

    def channel(self, channel_id: str | int) -> Channel:
        """Channel by id, else 404 / 10003."""
        found = self.channels.get(_as_id(channel_id))
        if found is None:
            raise ApiError(404, L.Code.UNKNOWN_CHANNEL, "Unknown Channel", violation=False)
        return found

    def message(self, channel: Channel, message_id: str | int) -> Message:
        """A visible (not deleted, not ephemeral) message in ``channel``, else 404 / 10008."""
        found = self.messages.get(_as_id(message_id))
        if found is None or found.channel is not channel or found.deleted or found.ephemeral:
            raise ApiError(404, L.Code.UNKNOWN_MESSAGE, "Unknown Message", violation=False)
        return found

    def user(self, user_id: str | int) -> User:
        """User by id, else 404 / 10013."""
        found = self.users.get(_as_id(user_id))
        if found is None:
            raise ApiError(404, L.Code.UNKNOWN_USER, "Unknown User", violation=False)
        return found

    def guild(self, guild_id: str | int) -> Guild:
        """Guild by id, else 404 / 10004."""
        found = self.guilds.get(_as_id(guild_id))
        if found is None:
            raise ApiError(404, L.Code.UNKNOWN_GUILD, "Unknown Guild", violation=False)
        return found


def _as_id(value: str | int) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        # Discord answers a malformed snowflake with 50035; an unknown id is close enough here.
        return -1
