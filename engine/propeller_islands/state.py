"""Propeller Islands game state: plain dataclasses, copied on write, serialised through pydantic."""

from dataclasses import dataclass, field
from typing import Literal

from pydantic import TypeAdapter

from engine.propeller_islands.config import Config

Phase = Literal["setup", "keep_character", "start_tiles", "roll", "turns", "bonus", "over"]
Stage = Literal["draft", "act", "activating", "blueprint", "finished"]
Worker = Literal["ready", "lying"]


@dataclass(slots=True)
class Cell:
    """One tile on an island."""

    q: int
    r: int
    tile: str
    worker: Worker | None = None
    tokens: dict[str, str] = field(default_factory=dict)
    """Installed upgrade tokens by kind (P, B, W)."""

    def copy(self) -> "Cell":
        return Cell(self.q, self.r, self.tile, self.worker, dict(self.tokens))


@dataclass(slots=True)
class Player:
    character: str | None
    dealt: list[str]
    energy: int
    steel: int
    parts: int
    fame: int
    dock: list[bool]
    """12 worker spaces, row-major: index (row-1)*4 + (column-1); True holds a worker."""
    cells: list[Cell]
    hand: list[str]
    completed: list[str]
    unused: list[str]
    dice: list[int]
    """Values of the dice this seat used this round (its dock's die spaces)."""
    amelia_used: bool = False

    def copy(self, cells: bool = True) -> "Player":
        """A copy whose lists and tiles may be changed; with `cells` False it shares the tiles
        (`Ctx.cell` copies one before changing it)."""
        return Player(
            self.character,
            list(self.dealt),
            self.energy,
            self.steel,
            self.parts,
            self.fame,
            list(self.dock),
            [c.copy() for c in self.cells] if cells else list(self.cells),
            list(self.hand),
            list(self.completed),
            list(self.unused),
            list(self.dice),
            self.amelia_used,
        )


@dataclass(slots=True)
class Turn:
    seat: int
    stage: Stage = "draft"
    drafted: int | None = None
    value: int | None = None
    paid: bool = False
    free: bool = False
    extra: bool = False
    """Marie's extra activation used this turn."""

    def copy(self) -> "Turn":
        return Turn(
            self.seat, self.stage, self.drafted, self.value, self.paid, self.free, self.extra
        )


@dataclass(slots=True)
class Bonus:
    die: int
    seat: int
    value: int
    adjusted: bool = False
    used: bool = False

    def copy(self) -> "Bonus":
        return Bonus(self.die, self.seat, self.value, self.adjusted, self.used)


@dataclass(slots=True)
class Task:
    """A pending choice (or, kind "pay", a queued dock reward the engine pays itself)."""

    kind: str
    seat: int
    lines: list[str] = field(default_factory=list)
    tile: str | None = None
    token: str | None = None
    count: int = 0
    used: list[tuple[int, int]] = field(default_factory=list)
    source: str | None = None

    def copy(self) -> "Task":
        return Task(
            self.kind,
            self.seat,
            list(self.lines),
            self.tile,
            self.token,
            self.count,
            list(self.used),
            self.source,
        )


@dataclass(slots=True)
class State:
    config: Config
    phase: Phase = "setup"
    setup_step: int = 0
    """0 start_player, 1 deal_characters, 2 shuffle_tiles, 3 blueprints I, 4 blueprints II."""
    round: int = 1
    start_player: int = 0
    order_index: int = 0
    """Position in the current order (keep_character, start_tiles, turns)."""
    players: list[Player] = field(default_factory=list)
    offer: list[str | None] = field(default_factory=lambda: [None] * 12)
    stack: list[str] = field(default_factory=list)
    discarded: list[str] = field(default_factory=list)
    bp_offer: dict[str, list[str]] = field(default_factory=lambda: {"I": [], "II": []})
    bp_stack: dict[str, list[str]] = field(default_factory=lambda: {"I": [], "II": []})
    forge: list[int] = field(default_factory=lambda: [0] * 6)
    """Dice per value 1..6."""
    dice_to_roll: int = 0
    turn: Turn | None = None
    bonus: Bonus | None = None
    tasks: list[Task] = field(default_factory=list)
    """Pending choices, top last."""

    def copy(self) -> "State":
        """A copy whose containers may be changed; players are shared until `player_mut`."""
        return State(
            self.config,
            self.phase,
            self.setup_step,
            self.round,
            self.start_player,
            self.order_index,
            list(self.players),
            list(self.offer),
            list(self.stack),
            list(self.discarded),
            {k: list(v) for k, v in self.bp_offer.items()},
            {k: list(v) for k, v in self.bp_stack.items()},
            list(self.forge),
            self.dice_to_roll,
            self.turn.copy() if self.turn else None,
            self.bonus.copy() if self.bonus else None,
            [t.copy() for t in self.tasks],
        )


_STATE = TypeAdapter(State)


def dump_state(state: State) -> str:
    return _STATE.dump_json(state).decode()


def load_state(text: str) -> State:
    return _STATE.validate_json(text)
