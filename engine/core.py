"""The contract every game engine implements, and what engines share."""

from collections.abc import Iterable
from random import Random
from typing import Any, Protocol

from pydantic import BaseModel

CHANCE = -1
"""The seat that rolls dice and draws cards; its actions come from `Game.sample_chance`."""


class IllegalAction(Exception):
    """An action the rules refuse; the message is a sentence a player understands."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Game(Protocol):
    """A game: pure functions over immutable-by-convention states."""

    name: str
    title: str
    summary: str
    """One line for menus and /help: players and what the game is about."""
    Config: type[BaseModel]

    def new(self, config: Any, seed: int) -> Any: ...
    def to_act(self, state: Any) -> set[int]: ...
    def sample_chance(self, state: Any, rng: Random) -> Any: ...
    def legal_actions(self, state: Any, seat: int) -> Iterable[Any]: ...
    def apply(self, state: Any, seat: int, action: Any) -> Any: ...
    def view(self, state: Any, seat: int | None) -> dict[str, Any]: ...
    def is_over(self, state: Any) -> bool: ...
    def outcome(self, state: Any) -> list[dict[str, Any]]:
        """Per seat: seat, score, rank (ties shared), tiebreak keys, the primary and secondary
        measures that tournaments compare, and details."""
        ...

    def dump_state(self, state: Any) -> str: ...
    def load_state(self, text: str) -> Any: ...
    def parse_action(self, data: dict[str, Any]) -> Any: ...


def shared_ranks(keys: list[tuple[int, ...]]) -> list[int]:
    """Competition ranks (1 = best) for per-seat sort keys, higher is better; equal keys share."""
    return [1 + sum(other > key for other in keys) for key in keys]
