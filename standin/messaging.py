"""Creating, editing and deleting messages (shared by channel, interaction and webhook routes)."""

from __future__ import annotations

import copy
import mimetypes
import re
import struct
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from standin import limits as L
from standin import payloads
from standin.errors import ApiError, FormErrors, PathPart
from standin.model import Attachment, Channel, Interaction, Message, User
from standin.transport import Upload
from standin.validate import validate_message, walk_components

if TYPE_CHECKING:
    from standin.core import StandIn

_MENTION = re.compile(r"<@!?(\d+)>")
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class Messaging:
    """Applies Discord's message rules and echoes changes over the gateway."""

    def __init__(self, core: StandIn) -> None:
        self.core = core

    def create(
        self,
        channel: Channel,
        author: User,
        payload: dict[str, Any],
        uploads: Sequence[Upload] = (),
        *,
        prefix: tuple[PathPart, ...] = (),
        type: int = 0,
        interaction: Interaction | None = None,
        allow_ephemeral: bool = False,
        extra_flags: int = 0,
    ) -> Message:
        """Validate and store a new message; dispatch MESSAGE_CREATE unless ephemeral."""
        flags = int(payload.get("flags") or 0) & L.SETTABLE_FLAGS
        if not allow_ephemeral:
            # Discord silently ignores EPHEMERAL outside interaction responses.
            flags &= ~L.FLAG_EPHEMERAL
        flags |= extra_flags
        errors = FormErrors()
        validate_message({**payload, "flags": flags}, errors, prefix)
        self._check_uploads(uploads, errors, prefix)
        errors.raise_if_any()
        message_id = self.core.ids.next()
        attachments = self._attachments(channel, payload, uploads, existing=[])
        message = Message(
            id=message_id,
            channel=channel,
            author=author,
            created_at=self.core.clock(),
            content=str(payload.get("content") or ""),
            embeds=self._embeds(payload.get("embeds") or [], attachments),
            components=number_components(payload.get("components") or []),
            attachments=attachments,
            flags=flags,
            type=type,
            interaction=interaction,
            mentions=self._mentions(str(payload.get("content") or "")),
            message_reference=self._reference(channel, payload.get("message_reference")),
            visible_to=interaction.user if interaction and flags & L.FLAG_EPHEMERAL else None,
        )
        if interaction is not None:
            app_id = self.core.application_id
            message.webhook_id = app_id
            message.application_id = app_id
            message.interaction_metadata = _interaction_metadata(interaction)
        if not flags & L.FLAG_LOADING and _is_empty(message):
            raise ApiError(400, L.Code.EMPTY_MESSAGE, "Cannot send an empty message")
        if not message.ephemeral:
            allowed = payload.get("allowed_mentions")
            message.pinged, message.pinged_everyone = _pings(message, allowed)
        self.core.world.messages[message.id] = message
        channel.messages.append(message)
        self.dispatch("MESSAGE_CREATE", message)
        return message

    def edit(
        self,
        message: Message,
        payload: dict[str, Any],
        uploads: Sequence[Upload] = (),
        *,
        prefix: tuple[PathPart, ...] = (),
        finish_loading: bool = False,
    ) -> Message:
        """Apply the fields present in ``payload``; unlisted attachments are removed."""
        flags = message.flags
        if "flags" in payload and payload["flags"] is not None:
            requested = int(payload["flags"])
            if message.flags & L.FLAG_COMPONENTS_V2 and not requested & L.FLAG_COMPONENTS_V2:
                raise ApiError(
                    400,
                    L.Code.INVALID_FORM_BODY,
                    "Invalid Form Body",
                    errors=_one_error(
                        (*prefix, "flags"),
                        "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG",
                        "The IS_COMPONENTS_V2 flag cannot be removed",
                    ),
                )
            editable = L.FLAG_SUPPRESS_EMBEDS | L.FLAG_COMPONENTS_V2
            flags = (flags & ~editable) | (requested & editable)
        if finish_loading:
            flags &= ~L.FLAG_LOADING
        errors = FormErrors()
        check = {k: v for k, v in payload.items() if k in ("content", "embeds", "components")}
        if flags & L.FLAG_COMPONENTS_V2:
            check.setdefault("content", message.content)
            check.setdefault("embeds", message.embeds)
        validate_message({**check, "flags": flags}, errors, prefix)
        self._check_uploads(uploads, errors, prefix)
        errors.raise_if_any()

        content = str(payload["content"] or "") if "content" in payload else message.content
        attachments = message.attachments
        if "attachments" in payload or uploads:
            attachments = self._attachments(
                message.channel, payload, uploads, existing=message.attachments
            )
        embeds = message.embeds
        if "embeds" in payload:
            embeds = self._embeds(payload["embeds"] or [], attachments)
        components = message.components
        if "components" in payload:
            components = number_components(payload["components"] or [])
        # Check before changing anything, so a refused edit leaves the message as it was.
        if not flags & L.FLAG_LOADING and not (content or embeds or attachments or components):
            raise ApiError(400, L.Code.EMPTY_MESSAGE, "Cannot send an empty message")
        before = message.snapshot()
        message.content = content
        message.mentions = self._mentions(content)
        message.attachments = attachments
        message.embeds = embeds
        message.components = components
        message.flags = flags
        message.edits.append(before)
        message.edited_at = self.core.clock()
        self.dispatch("MESSAGE_UPDATE", message)
        return message

    def delete(self, message: Message) -> None:
        """Mark deleted and dispatch MESSAGE_DELETE (ephemeral messages are never dispatched)."""
        message.deleted = True
        if message.ephemeral:
            return
        data: dict[str, Any] = {"id": str(message.id), "channel_id": str(message.channel.id)}
        if message.guild is not None:
            data["guild_id"] = str(message.guild.id)
        self.core.gateway.dispatch("MESSAGE_DELETE", data, intent=_message_intent(message))

    def dispatch(self, event: str, message: Message) -> None:
        """MESSAGE_CREATE/UPDATE with Discord's message-content-intent blanking."""
        if message.ephemeral:
            return
        bot = self.core.bot_user

        def build(intents: int) -> dict[str, Any]:
            blank = (
                message.guild is not None
                and message.author is not bot
                and bot not in message.mentions
                and not intents & L.INTENT_MESSAGE_CONTENT
            )
            return payloads.message(message, blank=blank)

        self.core.gateway.dispatch(event, build, intent=_message_intent(message))

    def _check_uploads(
        self, uploads: Sequence[Upload], errors: FormErrors, prefix: tuple[PathPart, ...]
    ) -> None:
        errors.max_length((*prefix, "attachments"), uploads, L.FILES_MAX)
        for upload in uploads:
            if len(upload.data) > L.ATTACHMENT_MAX_BYTES:
                raise ApiError(413, L.Code.REQUEST_TOO_LARGE, "Request entity too large")

    def _attachments(
        self,
        channel: Channel,
        payload: dict[str, Any],
        uploads: Sequence[Upload],
        *,
        existing: list[Attachment],
    ) -> list[Attachment]:
        by_index = {u.index: u for u in uploads}
        listed = payload.get("attachments")
        if listed is None:
            entries: list[dict[str, Any]] = [{"id": u.index} for u in uploads]
            kept = list(existing)
        else:
            entries = list(listed)
            kept = []
        current = {a.id: a for a in existing}
        used: set[int] = set()
        result = kept
        for entry in entries:
            raw_id = int(entry.get("id", -1))
            if raw_id in current:
                result.append(current[raw_id])
            elif raw_id in by_index:
                used.add(raw_id)
                result.append(self._new_attachment(channel, by_index[raw_id], entry))
        # Files sent without a matching ``attachments`` entry are still attached.
        result.extend(self._new_attachment(channel, u, {}) for u in uploads if u.index not in used)
        return result

    def _new_attachment(
        self, channel: Channel, upload: Upload, entry: dict[str, Any]
    ) -> Attachment:
        attachment_id = self.core.ids.next()
        filename = entry.get("filename") or upload.filename
        content_type = mimetypes.guess_type(filename)[0] or upload.content_type
        width = height = None
        if upload.data.startswith(_PNG_SIGNATURE) and len(upload.data) >= 24:
            width, height = struct.unpack(">II", upload.data[16:24])
        attachment = Attachment(
            id=attachment_id,
            filename=filename,
            data=upload.data,
            url=f"{self.core.base_url}/attachments/{channel.id}/{attachment_id}/{filename}",
            content_type=content_type,
            description=entry.get("description"),
            width=width,
            height=height,
        )
        self.core.world.attachments[attachment_id] = attachment
        return attachment

    def _embeds(
        self, embeds: Sequence[dict[str, Any]], attachments: Sequence[Attachment]
    ) -> list[dict[str, Any]]:
        by_name = {a.filename: a for a in attachments}
        result = []
        for embed in embeds:
            embed = copy.deepcopy(embed)
            embed.setdefault("type", "rich")
            for key in ("image", "thumbnail"):
                _resolve_attachment_url(embed.get(key), "url", by_name)
            _resolve_attachment_url(embed.get("author"), "icon_url", by_name)
            _resolve_attachment_url(embed.get("footer"), "icon_url", by_name)
            result.append(embed)
        return result

    def _mentions(self, content: str) -> list[User]:
        users = self.core.world.users
        found = [users[int(m)] for m in _MENTION.findall(content) if int(m) in users]
        return list(dict.fromkeys(found))

    def _reference(
        self, channel: Channel, reference: dict[str, Any] | None
    ) -> dict[str, Any] | None:
        if not reference or not reference.get("message_id"):
            return None
        target = self.core.world.message(channel, reference["message_id"])
        data = {"type": 0, "message_id": str(target.id), "channel_id": str(channel.id)}
        if channel.guild is not None:
            data["guild_id"] = str(channel.guild.id)
        return data


def _resolve_attachment_url(
    holder: dict[str, Any] | None, key: str, by_name: dict[str, Attachment]
) -> None:
    """Rewrite ``attachment://name`` to the stored attachment's URL, as Discord does."""
    if not holder or not str(holder.get(key, "")).startswith("attachment://"):
        return
    attachment = by_name.get(holder[key][len("attachment://") :])
    if attachment is None:
        return
    holder[key] = attachment.url
    if key == "url":
        holder["proxy_url"] = attachment.url
        if attachment.width is not None:
            holder.update(width=attachment.width, height=attachment.height)


def number_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Deep copy, numbering components without an ``id`` as Discord does."""
    components = copy.deepcopy(components)
    taken = {c["id"] for _, c in walk_components(components) if isinstance(c.get("id"), int)}
    next_id = 1
    for _, component in walk_components(components):
        if component.get("id") is None:
            while next_id in taken:
                next_id += 1
            component["id"] = next_id
            taken.add(next_id)
    return components


def _is_empty(message: Message) -> bool:
    return not (message.content or message.embeds or message.attachments or message.components)


def _message_intent(message: Message) -> int:
    return L.INTENT_GUILD_MESSAGES if message.guild is not None else L.INTENT_DIRECT_MESSAGES


def _interaction_metadata(interaction: Interaction) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": str(interaction.id),
        "type": interaction.type,
        "user": payloads.user(interaction.user),
        "authorizing_integration_owners": (
            {"0": str(interaction.guild.id)} if interaction.guild else {"0": "0"}
        ),
    }
    if interaction.type == 2:
        data["name"] = interaction.data.get("name")
        data["command_type"] = 1
    if interaction.message is not None:
        data["interacted_message_id"] = str(interaction.message.id)
    if interaction.response_message is not None:
        data["original_response_message_id"] = str(interaction.response_message.id)
    return data


def _one_error(path: Sequence[PathPart], code: str, message: str) -> dict[str, Any]:
    errors = FormErrors()
    errors.add(path, code, message)
    return errors.to_dict()


def _pings(message: Message, allowed: dict[str, Any] | None) -> tuple[list[User], bool]:
    """Who a new message notifies: with no allowed_mentions Discord parses every mention."""
    parse = ["users", "roles", "everyone"] if allowed is None else list(allowed.get("parse") or [])
    ids = {int(u) for u in (allowed or {}).get("users") or []}
    users = [u for u in message.mentions if "users" in parse or u.id in ids]
    everyone = "everyone" in parse and (
        "@everyone" in message.content or "@here" in message.content
    )
    return users, everyone
