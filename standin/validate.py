"""Checks of message, embed, component, modal, autocomplete and scheduled event payloads against
Discord's limits."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Sequence
from typing import Any

from standin import limits as L
from standin.errors import FormErrors, PathPart

Path = tuple[PathPart, ...]

SELECT_TYPES = frozenset({3, 5, 6, 7, 8})
# Components V2 containers put children under these keys.
_CHILD_KEYS = ("components", "component", "accessory", "items")


def walk_components(
    components: Sequence[dict[str, Any]], path: Path = ("components",)
) -> Iterator[tuple[Path, dict[str, Any]]]:
    """Yield every component (depth first) with its error path."""
    for index, component in enumerate(components or ()):
        if not isinstance(component, dict):
            continue
        here = (*path, index)
        yield here, component
        for key in _CHILD_KEYS:
            child = component.get(key)
            if isinstance(child, list):
                yield from walk_components(child, (*here, key))
            elif isinstance(child, dict):
                yield (*here, key), child
                for inner in _CHILD_KEYS:
                    if isinstance(child.get(inner), list):
                        yield from walk_components(child[inner], (*here, key, inner))


def validate_message(payload: dict[str, Any], errors: FormErrors, prefix: Path = ()) -> None:
    """Validate the fields present in a create/edit message body."""
    flags = int(payload.get("flags") or 0)
    content = payload.get("content")
    if content is not None:
        errors.max_length((*prefix, "content"), str(content), L.CONTENT_MAX)
    embeds = payload.get("embeds")
    if embeds:
        validate_embeds(embeds, errors, prefix)
    if flags & L.FLAG_COMPONENTS_V2:
        if content:
            errors.add(
                (*prefix, "content"),
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "The 'content' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
            )
        if embeds:
            errors.add(
                (*prefix, "embeds"),
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "The 'embeds' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
            )
    components = payload.get("components")
    if components:
        validate_components(components, errors, prefix, v2=bool(flags & L.FLAG_COMPONENTS_V2))


def validate_embeds(embeds: Sequence[dict[str, Any]], errors: FormErrors, prefix: Path) -> None:
    """Per-embed field limits and the 6000-character total."""
    errors.max_length((*prefix, "embeds"), embeds, L.EMBEDS_MAX)
    total = 0
    for index, embed in enumerate(embeds):
        here = (*prefix, "embeds", index)
        title = embed.get("title") or ""
        description = embed.get("description") or ""
        errors.max_length((*here, "title"), title, L.EMBED_TITLE_MAX)
        errors.max_length((*here, "description"), description, L.EMBED_DESCRIPTION_MAX)
        total += len(title) + len(description)
        fields = embed.get("fields") or []
        errors.max_length((*here, "fields"), fields, L.EMBED_FIELDS_MAX)
        for f_index, field in enumerate(fields):
            name, value = field.get("name") or "", field.get("value") or ""
            errors.bad_length((*here, "fields", f_index, "name"), name, 1, L.EMBED_FIELD_NAME_MAX)
            errors.bad_length(
                (*here, "fields", f_index, "value"), value, 1, L.EMBED_FIELD_VALUE_MAX
            )
            total += len(name) + len(value)
        footer = (embed.get("footer") or {}).get("text") or ""
        author = (embed.get("author") or {}).get("name") or ""
        errors.max_length((*here, "footer", "text"), footer, L.EMBED_FOOTER_MAX)
        errors.max_length((*here, "author", "name"), author, L.EMBED_AUTHOR_MAX)
        total += len(footer) + len(author)
    if total > L.EMBED_TOTAL_MAX:
        errors.add(
            (*prefix, "embeds"),
            "MAX_EMBED_SIZE_EXCEEDED",
            f"Embed size exceeds maximum size of {L.EMBED_TOTAL_MAX}",
        )


def validate_components(
    components: Sequence[dict[str, Any]], errors: FormErrors, prefix: Path, *, v2: bool
) -> None:
    """Action-row layout, select options, custom_id length and per-message uniqueness."""
    top = (*prefix, "components")
    if v2:
        count = sum(1 for _ in walk_components(components, top))
        if count > L.V2_COMPONENTS_MAX:
            errors.add(top, "BASE_TYPE_MAX_LENGTH", f"Must be {L.V2_COMPONENTS_MAX} or fewer.")
    else:
        errors.max_length(top, components, L.ACTION_ROWS_MAX)
        for index, row in enumerate(components):
            if row.get("type") != 1:
                errors.add(
                    (*top, index, "type"),
                    "UNION_TYPE_CHOICES",
                    "Value of field 'type' must be one of (1,).",
                )
    seen: set[str] = set()
    for path, component in walk_components(components, top):
        kind = component.get("type")
        if kind == 1:
            _validate_row(component, errors, path)
        elif kind == 2:
            _validate_button(component, errors, path)
        elif kind in SELECT_TYPES:
            _validate_select(component, errors, path)
        custom_id = component.get("custom_id")
        if custom_id is not None:
            errors.bad_length((*path, "custom_id"), custom_id, 1, L.CUSTOM_ID_MAX)
            if custom_id in seen:
                errors.add(
                    (*path, "custom_id"),
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    "Component custom id cannot be duplicated",
                )
            seen.add(custom_id)


def _validate_row(row: dict[str, Any], errors: FormErrors, path: Path) -> None:
    children = row.get("components") or []
    errors.bad_length((*path, "components"), children, 1, L.BUTTONS_PER_ROW_MAX)
    selects = [i for i, c in enumerate(children) if c.get("type") in SELECT_TYPES]
    if selects and len(children) > 1:
        errors.add(
            (*path, "components", selects[0]),
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
            "The specified component exceeds the maximum width",
        )
    for index, child in enumerate(children):
        if child.get("type") == 4:
            errors.add(
                (*path, "components", index, "type"),
                "COMPONENT_TYPE_INVALID",
                "Text inputs are only allowed in modals",
            )


def _validate_button(button: dict[str, Any], errors: FormErrors, path: Path) -> None:
    style = button.get("style")
    errors.max_length((*path, "label"), button.get("label"), L.BUTTON_LABEL_MAX)
    if style == 5:
        if not button.get("url"):
            errors.add((*path, "url"), "BASE_TYPE_REQUIRED", "This field is required")
        if button.get("custom_id") is not None:
            errors.add(
                (*path, "custom_id"),
                "BUTTON_COMPONENT_CUSTOM_ID_INVALID",
                "A custom id cannot be set on a link button",
            )
    elif style != 6 and not button.get("custom_id"):
        errors.add((*path, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required")


def _validate_select(select: dict[str, Any], errors: FormErrors, path: Path) -> None:
    if not select.get("custom_id"):
        errors.add((*path, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required")
    errors.max_length((*path, "placeholder"), select.get("placeholder"), L.SELECT_PLACEHOLDER_MAX)
    min_values, max_values = select.get("min_values", 1), select.get("max_values", 1)
    if not 0 <= min_values <= L.SELECT_VALUES_MAX:
        errors.add((*path, "min_values"), "NUMBER_TYPE_MAX", "int value should be <= 25.")
    if not 1 <= max_values <= L.SELECT_VALUES_MAX:
        errors.add((*path, "max_values"), "NUMBER_TYPE_MAX", "int value should be <= 25.")
    if select.get("type") != 3:
        return
    options = select.get("options") or []
    errors.bad_length((*path, "options"), options, 1, L.SELECT_OPTIONS_MAX)
    values: set[str] = set()
    for index, option in enumerate(options):
        here = (*path, "options", index)
        errors.bad_length((*here, "label"), option.get("label"), 1, L.SELECT_OPTION_TEXT_MAX)
        errors.bad_length((*here, "value"), option.get("value"), 1, L.SELECT_OPTION_TEXT_MAX)
        errors.max_length((*here, "description"), option.get("description"), 100)
        if option.get("value") in values:
            errors.add(
                (*here, "value"),
                "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                "Select component option values must be unique",
            )
        values.add(option.get("value"))
    if max_values > len(options):
        errors.add(
            (*path, "max_values"),
            "SELECT_COMPONENT_MAX_VALUES_INVALID",
            "max_values cannot exceed the number of options",
        )


def validate_choices(data: dict[str, Any] | None, errors: FormErrors) -> None:
    """Autocomplete result (type 8): at most 25 choices, names 1-100, string values <= 100."""
    choices = (data or {}).get("choices")
    if choices is None:
        errors.add(("data", "choices"), "BASE_TYPE_REQUIRED", "This field is required")
        return
    errors.max_length(("data", "choices"), choices, L.MAX_AUTOCOMPLETE_CHOICES)
    for index, choice in enumerate(choices):
        here = ("data", "choices", index)
        errors.bad_length((*here, "name"), choice.get("name"), 1, L.COMMAND_CHOICE_TEXT_MAX)
        if isinstance(choice.get("value"), str):
            errors.max_length((*here, "value"), choice["value"], L.COMMAND_CHOICE_TEXT_MAX)


def validate_modal(data: dict[str, Any] | None, errors: FormErrors) -> None:
    """Modal (type 9): custom_id, title <= 45, 1-5 top-level components with valid inputs."""
    data = data or {}
    errors.bad_length(("data", "custom_id"), data.get("custom_id"), 1, L.CUSTOM_ID_MAX)
    errors.bad_length(("data", "title"), data.get("title"), 1, L.MODAL_TITLE_MAX)
    components = data.get("components") or []
    errors.bad_length(("data", "components"), components, 1, L.MODAL_MAX_COMPONENTS)
    seen: set[str] = set()
    for path, component in walk_components(components, ("data", "components")):
        if component.get("type") == 4:
            errors.bad_length((*path, "custom_id"), component.get("custom_id"), 1, L.CUSTOM_ID_MAX)
            errors.max_length((*path, "value"), component.get("value"), 4000)
            errors.max_length((*path, "placeholder"), component.get("placeholder"), 100)
        custom_id = component.get("custom_id")
        if custom_id is not None:
            if custom_id in seen:
                errors.add(
                    (*path, "custom_id"),
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    "Component custom id cannot be duplicated",
                )
            seen.add(custom_id)


# Entity types 1 (stage instance) and 2 (voice) with the channel type each is hosted in (13 stage,
# 2 voice); 3 (external) has a location instead. Plain numbers: the model imports this module.
_EVENT_CHANNEL_TYPES = {1: 13, 2: 2}
_EXTERNAL = 3


def parse_timestamp(value: Any) -> float | None:
    """Epoch seconds of an ISO 8601 timestamp; None when absent or unparsable."""
    if not isinstance(value, str):
        return None
    try:
        moment = dt.datetime.fromisoformat(value)
    except ValueError:
        return None
    # Discord reads a timestamp without an offset as UTC.
    return (moment if moment.tzinfo else moment.replace(tzinfo=dt.UTC)).timestamp()


def validate_scheduled_event(
    event: dict[str, Any], errors: FormErrors, *, now: float | None, channel_type: int | None
) -> None:
    """Rules of an event as it would be after a create or edit (``event`` in Discord's field
    names); ``now`` is set when the start must lie ahead, ``channel_type`` is the hosting one's."""
    errors.bad_length(("name",), event.get("name"), 1, L.EVENT_NAME_MAX)
    errors.max_length(("description",), event.get("description"), L.EVENT_DESCRIPTION_MAX)
    if event.get("privacy_level") != 2:
        errors.add(("privacy_level",), "BASE_TYPE_CHOICES", "Value must be one of {2}.")
    start, end = _event_time(event, "scheduled_start_time", errors), None
    if event.get("scheduled_end_time") is not None:
        end = _event_time(event, "scheduled_end_time", errors)
    if start is not None and now is not None and start <= now:
        errors.add(
            ("scheduled_start_time",),
            "GUILD_SCHEDULED_EVENT_SCHEDULE_PAST",
            "Cannot schedule event in the past.",
        )
    if start is not None and end is not None and end <= start:
        errors.add(
            ("scheduled_end_time",),
            "GUILD_SCHEDULED_EVENT_END_BEFORE_START",
            "Cannot schedule event to end before starting.",
        )
    kind = event.get("entity_type")
    location = (event.get("entity_metadata") or {}).get("location")
    if kind is None:
        errors.add(("entity_type",), "BASE_TYPE_REQUIRED", "This field is required")
    elif kind == _EXTERNAL:
        if location is None:
            errors.add(
                ("entity_metadata", "location"), "BASE_TYPE_REQUIRED", "This field is required"
            )
        else:
            errors.bad_length(("entity_metadata", "location"), location, 1, L.EVENT_LOCATION_MAX)
        if event.get("scheduled_end_time") is None:
            errors.add(("scheduled_end_time",), "BASE_TYPE_REQUIRED", "This field is required")
        if event.get("channel_id") is not None:
            errors.add(
                ("channel_id",),
                "GUILD_SCHEDULED_EVENT_CHANNEL_NOT_ALLOWED",
                "External events cannot have a channel.",
            )
    elif kind in _EVENT_CHANNEL_TYPES:
        if event.get("channel_id") is None:
            errors.add(("channel_id",), "BASE_TYPE_REQUIRED", "This field is required")
        elif channel_type != _EVENT_CHANNEL_TYPES[kind]:
            errors.add(
                ("channel_id",),
                "GUILD_SCHEDULED_EVENT_INVALID_CHANNEL_TYPE",
                f"Channel must be a {'stage' if kind == 1 else 'voice'} channel.",
            )
        if location is not None:
            errors.add(
                ("entity_metadata", "location"),
                "GUILD_SCHEDULED_EVENT_LOCATION_NOT_ALLOWED",
                "Only external events can have a location.",
            )
    else:
        errors.add(("entity_type",), "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3}.")


def _event_time(event: dict[str, Any], key: str, errors: FormErrors) -> float | None:
    value = event.get(key)
    if value is None:
        errors.add((key,), "BASE_TYPE_REQUIRED", "This field is required")
        return None
    moment = parse_timestamp(value)
    if moment is None:
        errors.add((key,), "DATE_TIME_TYPE_PARSE", f"Could not parse {value}. Should be ISO8601.")
    return moment
