"""Railroad Ink game state: plain dataclasses, copied on write, serialised through pydantic."""

from dataclasses import dataclass, field
from typing import Literal

from pydantic import TypeAdapter

from engine.railroad_ink.actions import Plan, Roll
from engine.railroad_ink.config import Config

Phase = Literal["roll", "plan", "over"]


@dataclass(frozen=True, slots=True)
class Cell:
    """One drawn route: never changed in place, replaced when a lamp lights or power arrives."""

    face: str
    orientation: int
    round: int
    special: bool = False
    lamp_on: bool = False
    electrified: bool = False


@dataclass(slots=True)
class PlayerState:
    """One seat's board: 49 cells row by row from A1, Accumulator charges, specials used, and
    the empty spaces electrified by a "?" die (spec A14 option), sorted."""

    cells: list[Cell | None]
    charges: int
    specials: list[str]
    powered: list[int] = field(default_factory=list)

    def copy(self) -> "PlayerState":
        return PlayerState(
            self.cells.copy(), self.charges, self.specials.copy(), self.powered.copy()
        )

    def electrified(self, i: int) -> bool:
        """Whether space `i` carries power, with or without a route."""
        c = self.cells[i]
        return c.electrified if c is not None else i in self.powered


@dataclass(slots=True)
class State:
    config: Config
    round: int
    phase: Phase
    roll: Roll | None
    plans: tuple[Plan | None, ...]
    players: tuple[PlayerState, ...]
    last_roll: Roll | None = None
    last_plans: tuple[Plan | None, ...] = ()


_STATE = TypeAdapter(State)


def dump_state(state: State) -> str:
    return _STATE.dump_json(state).decode()


def load_state(text: str) -> State:
    return _STATE.validate_json(text)
