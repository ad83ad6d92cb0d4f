"""Errors: Discord-shaped API errors for the bot, driver errors for the test author."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from standin.limits import Code

PathPart = str | int


class DriverError(AssertionError):
    """The test asked the stand-in for something a real person could not do."""


class CommandMismatch(DriverError):
    """A driver invocation does not match the synced command definition."""


class NotAcknowledged(DriverError):
    """The bot did not acknowledge an interaction in time."""


class ApiError(Exception):
    """A Discord REST error: status, JSON code, message and optional form errors.

    ``violation`` says whether the bot broke a Discord rule (as opposed to a user-side refusal
    such as closed DMs), which decides whether ``StandIn.assert_clean`` complains.
    """

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        *,
        errors: dict[str, Any] | None = None,
        violation: bool = True,
    ) -> None:
        super().__init__(f"{status} {message} (code {code})")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        self.violation = violation

    def body(self) -> dict[str, Any]:
        """JSON body as Discord sends it."""
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = self.errors
        return body


@dataclass(frozen=True)
class ErrorRecord:
    """One error the stand-in answered, kept for assertions."""

    method: str
    path: str
    status: int
    code: int
    message: str
    errors: dict[str, Any] | None
    violation: bool


class FormErrors:
    """Collects field errors and renders Discord's nested ``errors`` object (code 50035)."""

    def __init__(self) -> None:
        self.items: list[tuple[tuple[PathPart, ...], str, str]] = []

    def __bool__(self) -> bool:
        return bool(self.items)

    def add(self, path: Sequence[PathPart], code: str, message: str) -> None:
        """Record one error at a dotted path such as ``components.0.components``."""
        self.items.append((tuple(path), code, message))

    def max_length(self, path: Sequence[PathPart], value: Any, limit: int) -> None:
        """Add BASE_TYPE_MAX_LENGTH when ``len(value) > limit``."""
        if value is not None and len(value) > limit:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")

    def bad_length(self, path: Sequence[PathPart], value: Any, low: int, high: int) -> None:
        """Add BASE_TYPE_BAD_LENGTH when ``len(value)`` is outside ``[low, high]``."""
        size = len(value) if value is not None else 0
        if not low <= size <= high:
            self.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")

    def to_dict(self) -> dict[str, Any]:
        """Nest the collected errors the way Discord does."""
        root: dict[str, Any] = {}
        for path, code, message in self.items:
            node = root
            for part in path:
                node = node.setdefault(str(part), {})
            node.setdefault("_errors", []).append({"code": code, "message": message})
        return root

    def raise_if_any(self) -> None:
        """Raise 400 / 50035 Invalid Form Body if anything was collected."""
        if self.items:
            raise ApiError(400, Code.INVALID_FORM_BODY, "Invalid Form Body", errors=self.to_dict())
