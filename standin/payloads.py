"""Serialise the model into the JSON shapes discord.py 2.7 parses (all ids as strings)."""

from __future__ import annotations

from typing import Any

from standin import limits as L
from standin.model import (
    DM,
    EVERYONE_PERMISSIONS,
    Attachment,
    Channel,
    Guild,
    Interaction,
    Member,
    Message,
    Role,
    ScheduledEvent,
    User,
    iso,
)


def user(u: User) -> dict[str, Any]:
    """Public user object."""
    return {
        "id": str(u.id),
        "username": u.name,
        "global_name": None if u.bot else u.name,
        "discriminator": "0",
        "avatar": None,
        "bot": u.bot,
        "system": False,
        "public_flags": 0,
        "flags": 0,
        "banner": None,
        "accent_color": None,
        "avatar_decoration_data": None,
    }


def client_user(u: User) -> dict[str, Any]:
    """``/users/@me`` and READY's user: the public object plus account fields."""
    return {**user(u), "verified": True, "mfa_enabled": False, "locale": "en-US"}


def role(r: Role) -> dict[str, Any]:
    """Role object."""
    return {
        "id": str(r.id),
        "name": r.name,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "icon": None,
        "unicode_emoji": None,
        "position": r.position,
        "permissions": str(r.permissions),
        "managed": r.managed,
        "mentionable": False,
        "flags": 0,
    }


def member(m: Member, *, with_user: bool = True, permissions: bool = False) -> dict[str, Any]:
    """Guild member; ``flags`` and ``joined_at`` are required by discord.py."""
    data: dict[str, Any] = {
        "roles": [str(r.id) for r in m.roles],
        "joined_at": iso(m.joined_at),
        "nick": None,
        "avatar": None,
        "banner": None,
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
        "communication_disabled_until": None,
    }
    if with_user:
        data["user"] = user(m.user)
    if permissions:
        data["permissions"] = str(m.permissions)
    return data


def channel(c: Channel) -> dict[str, Any]:
    """Channel object for a guild text channel, thread or DM."""
    last = next((m.id for m in reversed(c.messages) if not m.ephemeral), None)
    data: dict[str, Any] = {
        "id": str(c.id),
        "type": c.type,
        "last_message_id": str(last) if last else None,
        "flags": 0,
    }
    if c.type == DM:
        assert c.recipient is not None
        data["recipients"] = [user(c.recipient)]
        return data
    assert c.guild is not None
    data.update(
        guild_id=str(c.guild.id),
        name=c.name,
        position=c.position,
        permission_overwrites=[],
        nsfw=False,
        rate_limit_per_user=0,
        topic=None,
        parent_id=str(c.parent.id) if c.parent else None,
    )
    if c.is_thread:
        data.update(
            owner_id=str(c.owner_id),
            message_count=len([m for m in c.messages if not m.ephemeral]),
            member_count=len(c.thread_members),
            total_message_sent=len(c.messages),
            thread_metadata={
                "archived": False,
                "auto_archive_duration": c.auto_archive_duration,
                "archive_timestamp": iso(c.created_at),
                "locked": False,
                "invitable": c.invitable,
                "create_timestamp": iso(c.created_at),
            },
        )
    return data


def resolved_channel(c: Channel, permissions: int) -> dict[str, Any]:
    """Partial channel as in ``resolved.channels`` (id, name, type, permissions, thread bits)."""
    data = channel(c)
    data["permissions"] = str(permissions)
    return data


def guild_create(g: Guild, *, all_members: bool, bot_id: int) -> dict[str, Any]:
    """Full GUILD_CREATE payload; without the members intent only the bot's member is sent."""
    members = [m for m in g.members.values() if all_members or m.user.id == bot_id]
    return {
        "id": str(g.id),
        "name": g.name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "banner": None,
        "description": None,
        "owner_id": str(g.owner_id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "safety_alerts_channel_id": None,
        "preferred_locale": "en-US",
        "features": [],
        "roles": [role(r) for r in g.roles],
        "emojis": [],
        "stickers": [],
        "channels": [channel(c) for c in g.channels],
        "threads": [channel(t) for t in g.threads],
        "members": [member(m) for m in members],
        "member_count": len(g.members),
        "large": len(g.members) >= 250,
        "unavailable": False,
        "joined_at": iso(g.members[bot_id].joined_at),
        "voice_states": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [scheduled_event(e) for e in g.scheduled_events],
        "soundboard_sounds": [],
        "premium_progress_bar_enabled": False,
        "application_id": None,
        "max_members": 500000,
        "max_video_channel_users": 25,
        "lazy": True,
    }


def scheduled_event(e: ScheduledEvent, *, user_count: bool = False) -> dict[str, Any]:
    """Guild scheduled event; ``user_count`` only when asked (``with_user_count``)."""
    data: dict[str, Any] = {
        "id": str(e.id),
        "guild_id": str(e.guild.id),
        "channel_id": str(e.channel_id) if e.channel_id is not None else None,
        "creator_id": str(e.creator.id),
        "creator": user(e.creator),
        "name": e.name,
        "description": e.description,
        "scheduled_start_time": iso(e.start),
        "scheduled_end_time": iso(e.end) if e.end is not None else None,
        "privacy_level": e.privacy_level,
        "status": e.status,
        "entity_type": e.entity_type,
        "entity_id": None,
        "entity_metadata": {"location": e.location} if e.location is not None else None,
        "image": None,
        "recurrence_rule": None,
    }
    if user_count:
        # Nobody marks interest in the stand-in.
        data["user_count"] = 0
    return data


def attachment(a: Attachment) -> dict[str, Any]:
    """Attachment object; ``url`` is an absolute stand-in URL that serves the bytes."""
    data: dict[str, Any] = {
        "id": str(a.id),
        "filename": a.filename,
        "size": a.size,
        "url": a.url,
        "proxy_url": a.url,
        "content_type": a.content_type,
        "description": a.description,
        "flags": 0,
    }
    if a.width is not None:
        data.update(width=a.width, height=a.height)
    return data


def message(m: Message, *, blank: bool = False) -> dict[str, Any]:
    """Message object; ``blank`` hides content as Discord does without the content intent."""
    data: dict[str, Any] = {
        "id": str(m.id),
        "channel_id": str(m.channel.id),
        "type": m.type,
        "author": user(m.author),
        "content": "" if blank else m.content,
        "timestamp": iso(m.created_at),
        "edited_timestamp": iso(m.edited_at) if m.edited_at is not None else None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [user(u) for u in m.mentions],
        "mention_roles": [],
        "mention_channels": [],
        "attachments": [] if blank else [attachment(a) for a in m.attachments],
        "embeds": [] if blank else list(m.embeds),
        "components": [] if blank else list(m.components),
        "reactions": [],
        "pinned": False,
        "flags": m.flags,
    }
    if m.guild is not None:
        data["guild_id"] = str(m.guild.id)
        author_member = m.guild.members.get(m.author.id)
        if author_member is not None:
            data["member"] = member(author_member, with_user=False)
    if m.webhook_id is not None:
        data["webhook_id"] = str(m.webhook_id)
    if m.application_id is not None:
        data["application_id"] = str(m.application_id)
    if m.interaction_metadata is not None:
        data["interaction_metadata"] = m.interaction_metadata
    if m.message_reference is not None:
        data["message_reference"] = m.message_reference
    return data


def interaction(i: Interaction, *, application_id: int, bot_permissions: int) -> dict[str, Any]:
    """INTERACTION_CREATE payload with every key discord.py reads."""
    data: dict[str, Any] = {
        "id": str(i.id),
        "application_id": str(application_id),
        "type": i.type,
        "data": i.data,
        "token": i.token,
        "version": 1,
        "channel_id": str(i.channel.id),
        "channel": channel(i.channel),
        "locale": "en-US",
        "app_permissions": str(bot_permissions),
        "entitlements": [],
        "entitlement_sku_ids": [],
        "attachment_size_limit": L.ATTACHMENT_MAX_BYTES,
    }
    guild = i.guild
    if guild is not None:
        member_record = guild.members[i.user.id]
        data["guild_id"] = str(guild.id)
        data["guild"] = {"id": str(guild.id), "locale": "en-US", "features": []}
        data["guild_locale"] = "en-US"
        data["member"] = member(member_record, permissions=True)
        data["channel"]["permissions"] = str(member_record.permissions)
        data["authorizing_integration_owners"] = {"0": str(guild.id)}
        data["context"] = 0
    else:
        data["user"] = user(i.user)
        data["channel"]["permissions"] = str(EVERYONE_PERMISSIONS)
        data["authorizing_integration_owners"] = {"0": "0"}
        data["context"] = 1
    if i.message is not None:
        data["message"] = message(i.message)
    return data
