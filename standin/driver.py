"""The driver API: set up the world, act as people, and inspect what the bot did."""

from __future__ import annotations

import asyncio
import copy
import inspect
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from standin import limits as L
from standin import payloads
from standin.errors import DriverError
from standin.invoke import build_invocation
from standin.modals import fill_modal
from standin.model import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    BOT_PERMISSIONS,
    EVERYONE_PERMISSIONS,
    GUILD_TEXT,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    P_MANAGE_CHANNELS,
    Attachment,
    Channel,
    Guild,
    Interaction,
    Member,
    Message,
    Role,
    User,
)
from standin.validate import SELECT_TYPES, walk_components

if TYPE_CHECKING:
    from standin.commands import CommandStore
    from standin.gateway import Gateway
    from standin.messaging import Messaging
    from standin.model import Clock, Snowflakes, World

Predicate = Callable[[], Any] | Callable[[], Awaitable[Any]]


class Driver:
    """Mixed into ``StandIn``: everything a test does as the people on the other side."""

    if TYPE_CHECKING:
        world: World
        ids: Snowflakes
        clock: Clock
        gateway: Gateway
        messaging: Messaging
        commands: CommandStore
        bot_user: User
        owner: User
        application_id: int
        ack_deadline: float

        def dm_channel(self, user: User) -> Channel: ...
        def permissions_in(self, channel: Channel) -> int: ...
        def set_member_role(self, member: Member, role: Role, *, present: bool) -> None: ...

    # Setup.

    def add_guild(self, name: str) -> Guild:
        """A guild the bot is in (GUILD_CREATE is sent if the bot is already connected)."""
        guild_id = self.ids.next()
        guild = Guild(
            id=guild_id,
            name=name,
            owner_id=self.owner.id,
            everyone=Role(id=guild_id, name="@everyone", permissions=EVERYONE_PERMISSIONS),
            manager_role=Role(
                id=self.ids.next(), name="Manager", permissions=P_MANAGE_CHANNELS, position=1
            ),
            bot_role=Role(
                id=self.ids.next(),
                name=self.bot_user.name,
                permissions=BOT_PERMISSIONS,
                position=2,
                managed=True,
            ),
        )
        guild.members[self.bot_user.id] = Member(
            self.bot_user, guild, self.clock(), [guild.bot_role]
        )
        self.world.guilds[guild_id] = guild
        bot_id = self.bot_user.id
        self.gateway.dispatch(
            "GUILD_CREATE",
            lambda intents: payloads.guild_create(
                guild, all_members=bool(intents & L.INTENT_GUILD_MEMBERS), bot_id=bot_id
            ),
        )
        return guild

    def add_channel(self, guild: Guild, name: str) -> Channel:
        """A text channel in ``guild`` (CHANNEL_CREATE if connected)."""
        channel = Channel(
            id=self.ids.next(),
            type=GUILD_TEXT,
            name=name,
            created_at=self.clock(),
            guild=guild,
            position=len(guild.channels),
        )
        guild.channels.append(channel)
        self.world.channels[channel.id] = channel
        self.gateway.dispatch("CHANNEL_CREATE", payloads.channel(channel), intent=L.INTENT_GUILDS)
        return channel

    def add_user(
        self,
        name: str,
        *,
        dms_open: bool = True,
        manage_channels: bool = False,
        guilds: Iterable[Guild] = (),
    ) -> User:
        """A person; ``manage_channels`` gives them the Manager role in guilds they join."""
        user = User(
            id=self.ids.next(), name=name, dms_open=dms_open, manage_channels=manage_channels
        )
        self.world.users[user.id] = user
        for guild in guilds:
            self.join(user, guild)
        return user

    def join(self, user: User, guild: Guild) -> Member:
        """``user`` joins ``guild`` (GUILD_MEMBER_ADD with the members intent)."""
        if user.id in guild.members:
            return guild.members[user.id]
        roles = [guild.manager_role] if user.manage_channels else []
        member = Member(user, guild, self.clock(), roles)
        guild.members[user.id] = member
        data = {**payloads.member(member), "guild_id": str(guild.id)}
        self.gateway.dispatch("GUILD_MEMBER_ADD", data, intent=L.INTENT_GUILD_MEMBERS)
        return member

    def add_role(
        self,
        guild: Guild,
        name: str,
        *,
        position: int = 1,
        permissions: int = 0,
        managed: bool = False,
    ) -> Role:
        """A role the server made at ``position`` (1 is just above @everyone; roles at or above it
        move up one, as in Discord's role list); ``managed`` makes it an integration's role."""
        top = len(guild.roles)
        if not 1 <= position <= top:
            raise DriverError(f"role position must be 1..{top} in {guild.name}, not {position}")
        # Discord keeps positions distinct, so the hierarchy never hinges on a tie.
        for moved in guild.roles[1:]:
            if moved.position >= position:
                moved.position += 1
                self._dispatch_role("GUILD_ROLE_UPDATE", guild, moved)
        role = Role(
            id=self.ids.next(),
            name=name,
            permissions=permissions,
            position=position,
            managed=managed,
        )
        guild.added_roles.append(role)
        self._dispatch_role("GUILD_ROLE_CREATE", guild, role)
        return role

    def grant_bot(self, guild: Guild, permissions: int) -> None:
        """Add ``permissions`` bits (e.g. ``P_MANAGE_ROLES``) to the bot's role in ``guild``."""
        guild.bot_role.permissions |= permissions
        self._dispatch_role("GUILD_ROLE_UPDATE", guild, guild.bot_role)

    def give_role(self, guild: Guild, user: User, role: Role) -> None:
        """A moderator gives ``user`` the ``role`` by hand (GUILD_MEMBER_UPDATE)."""
        member = guild.members.get(user.id)
        if member is None:
            raise DriverError(f"{user.name} is not a member of {guild.name}")
        # Nobody, moderators included, can hand out @everyone or an integration's role.
        if role not in guild.roles or role is guild.everyone or role.managed:
            raise DriverError(f"{role.name!r} is not a role one can give in {guild.name}")
        self.set_member_role(member, role, present=True)

    def set_dms_open(self, user: User, open_: bool) -> None:
        """Open or close ``user``'s DMs (closed → the bot gets 403 / 50007)."""
        user.dms_open = open_

    # Acting as people.

    async def slash(
        self, user: User, channel: Channel, command: str, **options: Any
    ) -> Interaction:
        """Run ``/command [group] [sub]`` with options checked against the synced definition."""
        self._check_presence(user, channel)
        invocation = build_invocation(self, user, channel, command, options)
        return await self._interact(APPLICATION_COMMAND, user, channel, invocation.data)

    async def autocomplete(
        self,
        user: User,
        channel: Channel,
        command: str,
        /,
        *,
        focused: str,
        timeout: float | None = None,
        **options: Any,
    ) -> list[dict[str, Any]]:
        """Type into ``focused`` and return the bot's choices (type-8 result)."""
        self._check_presence(user, channel)
        options.setdefault(focused, "")
        invocation = build_invocation(self, user, channel, command, options, focused=focused)
        it = await self._interact(AUTOCOMPLETE, user, channel, invocation.data)
        await it.response(timeout if timeout is not None else self.ack_deadline + 2.0)
        return list(it.choices or [])

    async def click(self, user: User, message: Message, custom_id: str) -> Interaction:
        """Press the button ``custom_id`` on ``message``."""
        component = self._component(user, message, custom_id)
        if component.get("type") != 2:
            raise DriverError(f"{custom_id!r} is not a button (type {component.get('type')})")
        if component.get("style") in (5, 6):
            raise DriverError(f"{custom_id!r} is a link/premium button; it sends no interaction")
        data = {"custom_id": custom_id, "component_type": 2, "id": component.get("id")}
        return await self._interact(MESSAGE_COMPONENT, user, message.channel, data, message=message)

    async def select(
        self,
        user: User,
        message: Message,
        custom_id: str,
        values: Sequence[str | User | Channel],
    ) -> Interaction:
        """Choose ``values`` in select ``custom_id`` (option values, or users/channels)."""
        component = self._component(user, message, custom_id)
        kind = component.get("type")
        if kind not in SELECT_TYPES:
            raise DriverError(f"{custom_id!r} is not a select (type {kind})")
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not low <= len(values) <= high:
            raise DriverError(f"{custom_id!r} takes {low}..{high} values, got {len(values)}")
        data: dict[str, Any] = {
            "custom_id": custom_id,
            "component_type": kind,
            "id": component.get("id"),
        }
        data["values"] = self._select_values(message.channel, component, values, data)
        return await self._interact(MESSAGE_COMPONENT, user, message.channel, data, message=message)

    async def forge_component(
        self,
        user: User,
        message: Message,
        custom_id: str,
        *,
        values: Sequence[str] | None = None,
        component_type: int = 2,
    ) -> Interaction:
        """Only for tests of forged input: a component interaction Discord would never deliver,
        with a custom id or ``values`` that ``message`` does not carry."""
        self._check_visible(user, message)
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
        if component_type in SELECT_TYPES:
            data["values"] = [str(v) for v in values or ()]
        # discord.py looks the clicked component up in the interaction's copy of the message, so
        # that copy shows the forged one (a select offers exactly ``values``) in place of the
        # first of its type, as a message of an older bot version would; the stored one is kept.
        shown = copy.deepcopy(message.components)
        if message.find_component(custom_id=custom_id) is None:
            forged = _forged(custom_id, component_type, data.get("values", []))
            same = [c for _, c in walk_components(shown) if c.get("type") == component_type]
            if same:
                data["id"] = same[0].get("id")
                same[0].clear()
                same[0].update(forged)
            else:
                shown.append({"type": 1, "components": [forged]})
        return await self._interact(
            MESSAGE_COMPONENT, user, message.channel, data, message=message, shown=shown
        )

    async def submit_modal(
        self,
        user: User,
        source: Interaction | dict[str, Any],
        values: Mapping[str, str | Sequence[str]],
    ) -> Interaction:
        """Fill in and submit the modal the bot showed (``values`` by input custom_id)."""
        opener = self._modal_opener(source)
        if opener.user is not user:
            raise DriverError(f"the modal was shown to {opener.user.name}, not {user.name}")
        assert opener.modal is not None
        components, used = fill_modal(opener.modal["components"], values)
        unknown = sorted(set(values) - used)
        if unknown:
            raise DriverError(f"modal {opener.modal['custom_id']!r} has no input(s) {unknown}")
        data = {"custom_id": opener.modal["custom_id"], "components": components}
        message = opener.message if opener.type == MESSAGE_COMPONENT else None
        return await self._interact(
            MODAL_SUBMIT, user, opener.channel, data, message=message, parent=opener
        )

    async def dm_from(self, user: User, text: str) -> Message:
        """``user`` writes ``text`` to the bot in DMs (MESSAGE_CREATE in the DM channel)."""
        message = self.messaging.create(self.dm_channel(user), user, {"content": text})
        await asyncio.sleep(0)
        return message

    async def say(self, user: User, channel: Channel, text: str) -> Message:
        """``user`` posts ``text`` in a guild channel (content blanked without the intent)."""
        self._check_presence(user, channel)
        message = self.messaging.create(channel, user, {"content": text})
        await asyncio.sleep(0)
        return message

    # Gateway scenarios.

    async def reconnect(self) -> None:
        """Send ``op 7 RECONNECT``; the client should come back with RESUME."""
        if not self.gateway.send_op(7):
            raise DriverError("no connected gateway session to reconnect")
        await asyncio.sleep(0)

    async def invalidate_session(self, *, resumable: bool = False) -> None:
        """Send ``op 9 INVALID_SESSION``; non-resumable sessions are forgotten."""
        if not self.gateway.send_op(9, resumable):
            raise DriverError("no connected gateway session to invalidate")
        if not resumable:
            self.gateway.sessions.clear()
        await asyncio.sleep(0)

    async def drop_connections(self, code: int = 4000) -> None:
        """Close every gateway socket from the server side (4000 lets the client resume)."""
        await self.gateway.close_all(code)

    # Inspection.

    @property
    def interactions(self) -> list[Interaction]:
        """Every interaction the driver dispatched, oldest first."""
        return list(self.world.interactions.values())

    def messages(self, channel: Channel, *, include_deleted: bool = False) -> list[Message]:
        """Messages in ``channel``, oldest first, ephemeral ones included."""
        return [m for m in channel.messages if include_deleted or not m.deleted]

    def dms(self, user: User, *, include_deleted: bool = False) -> list[Message]:
        """Messages in the DM channel between the bot and ``user`` (both directions)."""
        channel = self.world.dm_channels.get(user.id)
        return [] if channel is None else self.messages(channel, include_deleted=include_deleted)

    def last_message(self, channel: Channel) -> Message | None:
        """The newest message still present in ``channel``."""
        remaining = self.messages(channel)
        return remaining[-1] if remaining else None

    def scheduled_events(self, guild: Guild) -> list[dict[str, Any]]:
        """``guild``'s scheduled events as Discord returns them, oldest first, finished ones too."""
        return [payloads.scheduled_event(e) for e in guild.scheduled_events]

    def attachment_bytes(self, attachment: Attachment) -> bytes:
        """The uploaded bytes of ``attachment``."""
        return attachment.data

    def find_component(
        self, message: Message, *, custom_id: str | None = None, label: str | None = None
    ) -> dict[str, Any] | None:
        """The component on ``message`` with this custom_id or label, else None."""
        return message.find_component(custom_id=custom_id, label=label)

    async def wait_for(
        self, predicate: Predicate, timeout: float = 5.0, *, interval: float = 0.01
    ) -> Any:
        """Poll ``predicate`` (sync or async) until it returns something truthy; return that."""
        deadline = time.monotonic() + timeout
        while True:
            result = predicate()
            if inspect.isawaitable(result):
                result = await result
            if result:
                return result
            if time.monotonic() >= deadline:
                raise TimeoutError(f"condition not met within {timeout}s: {predicate!r}")
            await asyncio.sleep(interval)

    async def wait_for_message(
        self,
        channel: Channel,
        predicate: Callable[[Message], bool] | None = None,
        *,
        timeout: float = 5.0,
    ) -> Message:
        """Wait for a message posted in ``channel`` after this call (matching ``predicate``)."""
        start = len(channel.messages)

        def found() -> Message | None:
            for message in channel.messages[start:]:
                if not message.deleted and (predicate is None or predicate(message)):
                    return message
            return None

        return await self.wait_for(found, timeout)

    # Internals.

    def _dispatch_role(self, event: str, guild: Guild, role: Role) -> None:
        data = {"guild_id": str(guild.id), "role": payloads.role(role)}
        self.gateway.dispatch(event, data, intent=L.INTENT_GUILDS)

    def _check_presence(self, user: User, channel: Channel) -> None:
        if channel.is_dm:
            if channel.recipient is not user:
                raise DriverError(f"{user.name} is not in the DM channel {channel.id}")
            return
        assert channel.guild is not None
        if user.id not in channel.guild.members:
            raise DriverError(f"{user.name} is not a member of {channel.guild.name}")

    def _check_visible(self, user: User, message: Message) -> None:
        if message.deleted:
            raise DriverError(f"message {message.id} was deleted")
        if message.ephemeral and message.visible_to is not user:
            raise DriverError(f"{user.name} cannot see ephemeral message {message.id}")
        self._check_presence(user, message.channel)

    def _component(self, user: User, message: Message, custom_id: str) -> dict[str, Any]:
        self._check_visible(user, message)
        component = message.component(custom_id=custom_id)
        if component.get("disabled"):
            raise DriverError(f"{custom_id!r} is disabled")
        return component

    def _select_values(
        self,
        channel: Channel,
        component: dict[str, Any],
        values: Sequence[str | User | Channel],
        data: dict[str, Any],
    ) -> list[str]:
        kind = component["type"]
        if kind == 3:
            offered = [o["value"] for o in component.get("options") or []]
            bad = [v for v in values if v not in offered]
            if bad:
                raise DriverError(f"{component['custom_id']!r} offers {offered}, not {bad}")
            return [str(v) for v in values]
        resolved: dict[str, dict[str, Any]] = {}
        ids = []
        for value in values:
            if isinstance(value, User) and kind in (5, 7):
                resolved.setdefault("users", {})[str(value.id)] = payloads.user(value)
                member = channel.guild.members.get(value.id) if channel.guild else None
                if member is not None:
                    resolved.setdefault("members", {})[str(value.id)] = payloads.member(
                        member, with_user=False, permissions=True
                    )
            elif isinstance(value, Channel) and kind == 8:
                resolved.setdefault("channels", {})[str(value.id)] = payloads.resolved_channel(
                    value, self.permissions_in(value)
                )
            else:
                raise DriverError(f"select type {kind} cannot take {value!r}")
            ids.append(str(value.id))
        data["resolved"] = resolved
        return ids

    def _modal_opener(self, source: Interaction | dict[str, Any]) -> Interaction:
        if isinstance(source, Interaction):
            if source.modal is None:
                raise DriverError(f"{source!r} was not answered with a modal")
            return source
        for it in reversed(self.interactions):
            if it.modal is source or it.modal == source:
                return it
        raise DriverError("no interaction was answered with that modal")

    async def _interact(
        self,
        kind: int,
        user: User,
        channel: Channel,
        data: dict[str, Any],
        *,
        message: Message | None = None,
        parent: Interaction | None = None,
        shown: list[dict[str, Any]] | None = None,
    ) -> Interaction:
        if not self.gateway.sessions:
            raise DriverError("no gateway session: is the bot connected?")
        interaction_id = self.ids.next()
        it = Interaction(
            id=interaction_id,
            token=f"aW50ZXJhY3Rpb24:{interaction_id}:{secrets.token_urlsafe(48)}",
            type=kind,
            user=user,
            channel=channel,
            data=data,
            created_at=self.clock(),
            message=message,
            parent=parent,
        )
        self.world.interactions[it.id] = it
        self.world.by_token[it.token] = it
        payload = payloads.interaction(
            it, application_id=self.application_id, bot_permissions=self.permissions_in(channel)
        )
        if shown is not None:
            payload["message"]["components"] = shown
        self.gateway.dispatch("INTERACTION_CREATE", payload)
        await asyncio.sleep(0)
        return it


def _forged(custom_id: str, kind: int, values: list[str]) -> dict[str, Any]:
    """A component the bot never drew: a button, or a select offering exactly ``values``."""
    if kind == 2:
        return {"type": 2, "style": 2, "label": "Forged", "custom_id": custom_id}
    component: dict[str, Any] = {"type": kind, "custom_id": custom_id}
    if kind == 3:
        offered = values or ["-"]
        component["options"] = [{"label": v[:100], "value": v} for v in offered]
        component["max_values"] = len(offered)
    return component
