"""Driver-side invocation: check ``"name sub"`` and options against a synced command."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from standin import payloads
from standin.commands import (
    BOOLEAN,
    CHANNEL,
    INTEGER,
    NUMBER,
    ROLE,
    STRING,
    SUB_COMMAND,
    SUB_COMMAND_GROUP,
    TYPE_NAMES,
    USER,
)
from standin.errors import CommandMismatch
from standin.model import Channel, Guild, Role, SyncedCommand, User

if TYPE_CHECKING:
    from standin.driver import Driver


@dataclass
class Invocation:
    """What the driver built for one slash/autocomplete interaction."""

    command: SyncedCommand
    data: dict[str, Any]


def build_invocation(
    core: Driver,
    user: User,
    channel: Channel,
    path: str,
    options: Mapping[str, Any],
    *,
    focused: str | None = None,
) -> Invocation:
    """Check ``"name sub"`` and ``options`` against the synced definition; build ``data``."""
    parts = path.split()
    if not parts:
        raise CommandMismatch("empty command name")
    command = core.commands.find(channel, parts[0])
    _check_visibility(command, user, channel)
    spec: dict[str, Any] = command.definition
    trail = [parts[0]]
    nested: list[dict[str, Any]] = []
    for part in parts[1:]:
        sub = next(
            (
                o
                for o in spec.get("options") or []
                if o.get("name") == part and o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)
            ),
            None,
        )
        if sub is None:
            have = [
                o["name"]
                for o in spec.get("options") or []
                if o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)
            ]
            raise CommandMismatch(f"/{' '.join(trail)} has no subcommand {part!r}; it has {have}")
        trail.append(part)
        nested.append(sub)
        spec = sub
    leaf_options = spec.get("options") or []
    if any(o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in leaf_options):
        have = [o["name"] for o in leaf_options]
        raise CommandMismatch(f"/{' '.join(trail)} needs a subcommand, one of {have}")
    resolved: dict[str, dict[str, Any]] = {}
    built = _build_options(
        core, channel, "/" + " ".join(trail), leaf_options, options, resolved, focused
    )
    for sub in reversed(nested):
        built = [{"type": sub["type"], "name": sub["name"], "options": built}]
    data: dict[str, Any] = {
        "id": str(command.id),
        "name": command.name,
        "type": 1,
        "options": built,
    }
    if command.guild_id is not None:
        data["guild_id"] = str(command.guild_id)
    if resolved:
        data["resolved"] = resolved
    return Invocation(command=command, data=data)


def _check_visibility(command: SyncedCommand, user: User, channel: Channel) -> None:
    """Discord hides commands a person cannot use here; the driver refuses them likewise."""
    spec = command.definition
    contexts = spec.get("contexts")
    if channel.is_dm:
        if spec.get("dm_permission") is False or (contexts is not None and 1 not in contexts):
            raise CommandMismatch(f"/{command.name} is not available in DMs")
        return
    if contexts is not None and 0 not in contexts:
        raise CommandMismatch(f"/{command.name} is not available in guilds")
    required = spec.get("default_member_permissions")
    guild = channel.guild
    assert guild is not None
    member = guild.members.get(user.id)
    if member is None:
        raise CommandMismatch(f"{user.name} is not a member of {guild.name}")
    if required is not None and member.permissions & int(required) != int(required):
        raise CommandMismatch(f"{user.name} lacks permissions {required} for /{command.name}")


def _build_options(
    core: Driver,
    channel: Channel,
    label: str,
    specs: list[dict[str, Any]],
    given: Mapping[str, Any],
    resolved: dict[str, dict[str, Any]],
    focused: str | None,
) -> list[dict[str, Any]]:
    by_name = {o["name"]: o for o in specs}
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        raise CommandMismatch(f"{label} has no option(s) {unknown}; it has {sorted(by_name)}")
    if focused is not None:
        spec = by_name.get(focused)
        if spec is None or not spec.get("autocomplete"):
            raise CommandMismatch(f"{label} option {focused!r} does not use autocomplete")
    else:
        missing = [o["name"] for o in specs if o.get("required") and o["name"] not in given]
        if missing:
            raise CommandMismatch(f"{label} is missing required option(s) {missing}")
    built = []
    for name, value in given.items():
        spec = by_name[name]
        kind = int(spec["type"])
        if name == focused:
            # Focused values are whatever the person has typed so far, sent as text.
            built.append({"type": kind, "name": name, "value": str(value), "focused": True})
            continue
        built.append(
            {
                "type": kind,
                "name": name,
                "value": _option_value(core, channel, label, spec, value, resolved),
            }
        )
    return built


def _option_value(
    core: Driver,
    channel: Channel,
    label: str,
    spec: dict[str, Any],
    value: Any,
    resolved: dict[str, dict[str, Any]],
) -> Any:
    kind = int(spec["type"])
    name = spec["name"]
    wrong = CommandMismatch(
        f"{label} option {name!r} is a {TYPE_NAMES.get(kind, kind)}, got {value!r}"
    )
    if kind == STRING:
        if not isinstance(value, str):
            raise wrong
        if not spec.get("min_length", 0) <= len(value) <= spec.get("max_length", 6000):
            raise CommandMismatch(f"{label} option {name!r}: length {len(value)} out of range")
    elif kind == INTEGER:
        if not isinstance(value, int) or isinstance(value, bool):
            raise wrong
    elif kind == NUMBER:
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise wrong
    elif kind == BOOLEAN:
        if not isinstance(value, bool):
            raise wrong
    elif kind == USER:
        if not isinstance(value, User):
            raise wrong
        _resolve_user(channel.guild, value, resolved)
        return str(value.id)
    elif kind == CHANNEL:
        if not isinstance(value, Channel):
            raise wrong
        allowed = spec.get("channel_types")
        if allowed and value.type not in allowed:
            raise CommandMismatch(f"{label} option {name!r} accepts channel types {allowed}")
        permissions = core.permissions_in(value)
        resolved.setdefault("channels", {})[str(value.id)] = payloads.resolved_channel(
            value, permissions
        )
        return str(value.id)
    elif kind == ROLE:
        if not isinstance(value, Role) or channel.guild is None or value not in channel.guild.roles:
            raise CommandMismatch(f"{label} option {name!r} takes a role of this server")
        resolved.setdefault("roles", {})[str(value.id)] = payloads.role(value)
        return str(value.id)
    else:
        raise CommandMismatch(
            f"{label} option {name!r}: type {kind} is not supported by the driver"
        )
    if kind in (INTEGER, NUMBER):
        low, high = spec.get("min_value"), spec.get("max_value")
        if (low is not None and value < low) or (high is not None and value > high):
            raise CommandMismatch(f"{label} option {name!r}: {value} outside [{low}, {high}]")
    choices = spec.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        raise CommandMismatch(
            f"{label} option {name!r}: {value!r} is not one of {[c['value'] for c in choices]}"
        )
    return value


def _resolve_user(guild: Guild | None, user: User, resolved: dict[str, dict[str, Any]]) -> None:
    resolved.setdefault("users", {})[str(user.id)] = payloads.user(user)
    if guild is not None and user.id in guild.members:
        member = payloads.member(guild.members[user.id], with_user=False, permissions=True)
        resolved.setdefault("members", {})[str(user.id)] = member
