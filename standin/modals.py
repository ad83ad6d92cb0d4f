"""Filling in a modal the bot showed: the submitted component tree, checked like the client does."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from standin.errors import DriverError
from standin.validate import SELECT_TYPES


def fill_modal(
    components: list[dict[str, Any]], values: Mapping[str, str | Sequence[str]]
) -> tuple[list[dict[str, Any]], set[str]]:
    """Build the submitted component tree (rows/labels with values) from the modal definition."""
    used: set[str] = set()
    submitted: list[dict[str, Any]] = []
    for top in components:
        kind = top.get("type")
        if kind == 1:
            children = [_fill_input(c, values, used) for c in top.get("components") or []]
            submitted.append({"type": 1, "id": top.get("id"), "components": children})
        elif kind == 18:
            inner = _fill_input(top["component"], values, used)
            submitted.append({"type": 18, "id": top.get("id"), "component": inner})
        elif kind == 10:
            submitted.append({"type": 10, "id": top.get("id")})
    return submitted, used


def _fill_input(
    component: dict[str, Any], values: Mapping[str, str | Sequence[str]], used: set[str]
) -> dict[str, Any]:
    custom_id = component.get("custom_id")
    kind = component.get("type")
    given = values.get(custom_id) if custom_id is not None else None
    if custom_id is not None and custom_id in values:
        used.add(custom_id)
    if kind == 4:
        text = "" if given is None else given
        if not isinstance(text, str):
            raise DriverError(f"text input {custom_id!r} takes a string, got {text!r}")
        required = component.get("required", True)
        if required and not text:
            raise DriverError(f"text input {custom_id!r} is required")
        low, high = component.get("min_length", 0), component.get("max_length", 4000)
        if text and not low <= len(text) <= high:
            raise DriverError(f"text input {custom_id!r} needs {low}..{high} characters")
        return {"type": 4, "id": component.get("id"), "custom_id": custom_id, "value": text}
    if kind in SELECT_TYPES:
        chosen = list(given) if given is not None and not isinstance(given, str) else []
        if isinstance(given, str):
            chosen = [given]
        offered = [o["value"] for o in component.get("options") or []]
        if kind == 3 and any(v not in offered for v in chosen):
            raise DriverError(f"select {custom_id!r} offers {offered}, not {chosen}")
        return {"type": kind, "id": component.get("id"), "custom_id": custom_id, "values": chosen}
    return {"type": kind, "id": component.get("id")}
