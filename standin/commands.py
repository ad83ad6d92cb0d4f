"""Application-command sync: Discord's shape rules, storage with stable ids, the echo."""

from __future__ import annotations

import copy
import re
from typing import TYPE_CHECKING, Any

from standin import limits as L
from standin.errors import CommandMismatch, FormErrors, PathPart
from standin.model import Channel, SyncedCommand

if TYPE_CHECKING:
    from standin.core import StandIn

# Approximates Discord's ``^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$`` with Python's \w.
_NAME = re.compile(r"^[-_'\w]{1,32}$")
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = range(3, 12)
TYPE_NAMES = {
    STRING: "string",
    INTEGER: "integer",
    BOOLEAN: "boolean",
    USER: "user",
    CHANNEL: "channel",
    ROLE: "role",
    MENTIONABLE: "mentionable",
    NUMBER: "number",
    ATTACHMENT: "attachment",
}


class CommandStore:
    """Synced commands per scope (None = global); ids stay stable across re-syncs by name."""

    def __init__(self, core: StandIn) -> None:
        self.core = core

    def overwrite(self, guild_id: int | None, body: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Bulk overwrite (PUT): validate everything, then replace the scope."""
        errors = FormErrors()
        validate_commands(body, errors)
        errors.raise_if_any()
        previous = {(c.type, c.name): c for c in self.core.world.commands.get(guild_id, [])}
        synced = [self._store(guild_id, spec, previous) for spec in body]
        self.core.world.commands[guild_id] = synced
        return [c.definition for c in synced]

    def upsert(self, guild_id: int | None, spec: dict[str, Any]) -> dict[str, Any]:
        """Create or replace one command (POST)."""
        errors = FormErrors()
        validate_commands([spec], errors)
        errors.raise_if_any()
        scope = self.core.world.commands.setdefault(guild_id, [])
        previous = {(c.type, c.name): c for c in scope}
        command = self._store(guild_id, spec, previous)
        scope[:] = [c for c in scope if c.id != command.id] + [command]
        return command.definition

    def listing(self, guild_id: int | None) -> list[dict[str, Any]]:
        """The scope's commands as Discord returns them."""
        return [c.definition for c in self.core.world.commands.get(guild_id, [])]

    def delete(self, guild_id: int | None, command_id: int) -> bool:
        """Remove one command; False if it did not exist."""
        scope = self.core.world.commands.get(guild_id, [])
        kept = [c for c in scope if c.id != command_id]
        self.core.world.commands[guild_id] = kept
        return len(kept) != len(scope)

    def _store(
        self,
        guild_id: int | None,
        spec: dict[str, Any],
        previous: dict[tuple[int, str], SyncedCommand],
    ) -> SyncedCommand:
        kind = int(spec.get("type", 1))
        old = previous.get((kind, spec["name"]))
        command_id = old.id if old else self.core.ids.next()
        definition = copy.deepcopy(spec)
        definition.update(
            id=str(command_id),
            application_id=str(self.core.application_id),
            version=str(self.core.ids.next()),
            type=kind,
            default_member_permissions=_permissions_string(spec.get("default_member_permissions")),
            nsfw=bool(spec.get("nsfw", False)),
            description=spec.get("description", ""),
        )
        definition.setdefault("options", [])
        if guild_id is not None:
            definition["guild_id"] = str(guild_id)
        return SyncedCommand(id=command_id, guild_id=guild_id, definition=definition)

    def find(self, channel: Channel, name: str) -> SyncedCommand:
        """The chat-input command a person in ``channel`` would see, else CommandMismatch."""
        scopes: list[int | None] = [None]
        if channel.guild is not None:
            scopes.insert(0, channel.guild.id)
        for scope in scopes:
            for command in self.core.world.commands.get(scope, []):
                if command.type == 1 and command.name == name:
                    return command
        known = sorted(
            c.name for s in scopes for c in self.core.world.commands.get(s, []) if c.type == 1
        )
        where = f"guild {channel.guild.name!r}" if channel.guild else "a DM"
        raise CommandMismatch(f"/{name} is not synced for {where}; synced: {known}")


def validate_commands(body: list[dict[str, Any]], errors: FormErrors) -> None:
    """Discord's shape rules for a command list (names, lengths, options, choices, counts)."""
    counts: dict[int, int] = {}
    seen: set[tuple[int, str]] = set()
    for index, spec in enumerate(body):
        kind = int(spec.get("type", 1))
        counts[kind] = counts.get(kind, 0) + 1
        name = str(spec.get("name", ""))
        if (kind, name) in seen:
            errors.add(
                (index, "name"),
                "APPLICATION_COMMANDS_DUPLICATE_NAME",
                f"Application command names must be unique: {name}",
            )
        seen.add((kind, name))
        if kind == 1:
            _check_name((index,), name, errors)
            _check_description((index,), spec.get("description"), errors)
            _check_options((index,), spec.get("options") or [], errors, depth=0)
        else:
            errors.bad_length((index, "name"), name, 1, L.COMMAND_NAME_MAX)
        if _total_chars(spec) > L.COMMAND_TOTAL_CHARS_MAX:
            errors.add(
                (index,),
                "APPLICATION_COMMAND_TOO_LARGE",
                f"Command exceeds maximum size ({L.COMMAND_TOTAL_CHARS_MAX})",
            )
    if counts.get(1, 0) > L.CHAT_INPUT_COMMANDS_MAX:
        errors.add((), "BASE_TYPE_MAX_LENGTH", f"Must be {L.CHAT_INPUT_COMMANDS_MAX} or fewer.")
    for kind in (2, 3):
        if counts.get(kind, 0) > L.CONTEXT_COMMANDS_MAX:
            errors.add((), "BASE_TYPE_MAX_LENGTH", f"Must be {L.CONTEXT_COMMANDS_MAX} or fewer.")


def _check_name(path: tuple[PathPart, ...], name: str, errors: FormErrors) -> None:
    if not _NAME.match(name) or name != name.lower():
        errors.add(
            (*path, "name"),
            "APPLICATION_COMMAND_INVALID_NAME",
            f"Command name is invalid: {name!r}",
        )


def _check_description(path: tuple[PathPart, ...], description: Any, errors: FormErrors) -> None:
    errors.bad_length((*path, "description"), description or "", 1, L.COMMAND_DESCRIPTION_MAX)


def _check_options(
    path: tuple[PathPart, ...], options: list[dict[str, Any]], errors: FormErrors, *, depth: int
) -> None:
    errors.max_length((*path, "options"), options, L.COMMAND_OPTIONS_MAX)
    kinds = {int(o.get("type", 0)) for o in options}
    nested = kinds & {SUB_COMMAND, SUB_COMMAND_GROUP}
    if nested and kinds - nested:
        errors.add(
            (*path, "options"),
            "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
            "Sub-command and sub-command group option types are mutually exclusive "
            "to all other types",
        )
    optional_seen = False
    for index, option in enumerate(options):
        here = (*path, "options", index)
        kind = int(option.get("type", 0))
        _check_name(here, str(option.get("name", "")), errors)
        _check_description(here, option.get("description"), errors)
        if kind == SUB_COMMAND_GROUP and depth > 0:
            errors.add(
                (*here, "type"), "APPLICATION_COMMAND_OPTION_TYPE_INVALID", "Groups cannot nest"
            )
        if kind == SUB_COMMAND and depth > 1:
            errors.add((*here, "type"), "APPLICATION_COMMAND_OPTION_TYPE_INVALID", "Too deep")
        if kind in (SUB_COMMAND, SUB_COMMAND_GROUP):
            _check_options(here, option.get("options") or [], errors, depth=depth + 1)
            continue
        if option.get("required"):
            if optional_seen:
                errors.add(
                    (*here, "required"),
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    "Required options must be placed before non-required options",
                )
        else:
            optional_seen = True
        choices = option.get("choices") or []
        errors.max_length((*here, "choices"), choices, L.COMMAND_CHOICES_MAX)
        if choices and option.get("autocomplete"):
            errors.add(
                (*here, "autocomplete"),
                "APPLICATION_COMMAND_OPTION_CHOICES_AUTOCOMPLETE",
                "Autocomplete cannot be set together with choices",
            )
        for c_index, choice in enumerate(choices):
            errors.bad_length(
                (*here, "choices", c_index, "name"),
                choice.get("name"),
                1,
                L.COMMAND_CHOICE_TEXT_MAX,
            )
            if isinstance(choice.get("value"), str):
                errors.max_length(
                    (*here, "choices", c_index, "value"), choice["value"], L.COMMAND_CHOICE_TEXT_MAX
                )
        for key in ("min_length", "max_length"):
            if key in option and not 0 <= int(option[key]) <= L.COMMAND_STRING_LENGTH_MAX:
                errors.add(
                    (*here, key),
                    "NUMBER_TYPE_MAX",
                    f"int value should be <= {L.COMMAND_STRING_LENGTH_MAX}.",
                )


def _total_chars(spec: dict[str, Any]) -> int:
    total = len(str(spec.get("name", ""))) + len(str(spec.get("description", "")))
    for option in spec.get("options") or []:
        total += _total_chars(option)
        for choice in option.get("choices") or []:
            total += len(str(choice.get("name", ""))) + len(str(choice.get("value", "")))
    return total


def _permissions_string(value: Any) -> str | None:
    """Discord returns permission bitsets as strings."""
    return None if value is None else str(value)
