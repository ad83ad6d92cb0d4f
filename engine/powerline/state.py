"""Powerline game state: plain dataclasses, copied on write, serialised through pydantic."""

from dataclasses import dataclass, field
from typing import Literal

from pydantic import TypeAdapter

from engine.powerline.actions import Plan
from engine.powerline.config import Config

Phase = Literal["roll", "plan", "over"]


@dataclass(slots=True)
class PlayerState:
    """One seat's board. Lines are built from one end, so a count and a direction describe each."""

    board: int
    vp: int
    built: list[int]
    """Tokens per line, in line order."""
    direction: list[int]
    """Per line: 0 not started, +1 built from segment 0 upward, -1 from the last segment down."""
    chart: list[int]
    """Worker tiles left per column (index 0 = the 1-worker column)."""
    jokers: int
    energy: int
    vacation: bool
    island_stacks: list[int]
    """Adventure Island: tokens on the die faces 1..6."""
    island_tokens: int
    """Plain island with tile L in play: one token per worker sent there."""
    ledger: dict[str, int]
    """Where the VP came from; sums to `vp`."""

    def copy(self) -> "PlayerState":
        return PlayerState(
            self.board,
            self.vp,
            self.built.copy(),
            self.direction.copy(),
            self.chart.copy(),
            self.jokers,
            self.energy,
            self.vacation,
            self.island_stacks.copy(),
            self.island_tokens,
            self.ledger.copy(),
        )


@dataclass(slots=True)
class SeatReport:
    """What one seat did and gained in the last resolved round."""

    plan: Plan
    vp_before: int
    vp_after: int
    island_loss: int = 0
    cities: list[str] = field(default_factory=list)
    stations: list[str] = field(default_factory=list)
    jokers_gained: int = 0
    scoring: dict[str, int] = field(default_factory=dict)
    end_penalty: int = 0


@dataclass(slots=True)
class RoundReport:
    round: int
    dice: dict[str, int]
    seats: list[SeatReport]
    scoring: int | None = None
    """Which scoring (1..3) followed this round, if any."""


@dataclass(slots=True)
class State:
    config: Config
    boards: tuple[int, ...]
    scoring_tiles: tuple[str, str, str]
    round: int
    phase: Phase
    dice: dict[str, int] | None
    plans: tuple[Plan | None, ...]
    players: tuple[PlayerState, ...]
    last_round: RoundReport | None = None


_STATE = TypeAdapter(State)


def dump_state(state: State) -> str:
    return _STATE.dump_json(state).decode()


def load_state(text: str) -> State:
    return _STATE.validate_json(text)
