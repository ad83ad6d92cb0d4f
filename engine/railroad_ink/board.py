"""Faces, dice, board geometry and scoring tables for Railroad Ink, validated from data files."""

from dataclasses import dataclass
from functools import cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from data import load_json

SIDES = "NESW"
"""Side indices: 0 N (up), 1 E (right), 2 S (down), 3 W (left)."""
DR = (-1, 0, 1, 0)
DC = (0, 1, 0, -1)
Side = Literal["N", "E", "S", "W"]
Route = Literal["H", "R"]
ROUTE_NAMES = {"H": "highway", "R": "railway"}


class _Data(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class FaceData(_Data):
    name: str
    sides: str = Field(pattern=r"^[HR.]{4}$")
    segments: tuple[str, ...] = Field(min_length=1, max_length=2)
    station: bool = False
    lamp: bool = False

    @model_validator(mode="after")
    def _partition(self) -> "FaceData":
        joined = "".join(self.segments)
        routed = {SIDES[d] for d in range(4) if self.sides[d] != "."}
        if sorted(joined) != sorted(routed) or len(set(joined)) != len(joined):
            raise ValueError(f"{self.name}: segments must partition the sides with routes")
        for seg in self.segments:
            kinds = {self.sides[SIDES.index(s)] for s in seg}
            if len(kinds) > 1 and not self.station:
                raise ValueError(f"{self.name}: only a station joins highway and railway")
        return self


class TilesData(_Data):
    source: str
    faces: dict[str, FaceData]
    specials: tuple[str, ...] = Field(min_length=6, max_length=6)

    @model_validator(mode="after")
    def _known(self) -> "TilesData":
        if not set(self.specials) <= set(self.faces):
            raise ValueError("a special route names an unknown face")
        return self


class ExitData(_Data):
    side: Side
    index: int = Field(ge=0)
    type: Route


class DieData(_Data):
    name: str
    faces: tuple[str, ...] = Field(min_length=6, max_length=6)


class RoundsData(_Data):
    base: int
    street_lamps: int
    power_grid: int
    both: int


class RulesData(_Data):
    source: str
    size: int = Field(ge=3)
    exits: tuple[ExitData, ...]
    centre: tuple[tuple[int, int], ...]
    accumulator: tuple[int, int]
    network_points: tuple[int, ...]
    rounds: RoundsData
    specials_per_game: int
    max_charges: int
    dice: dict[str, DieData]
    route_dice: tuple[str, ...]
    lamp_dice: int
    power_dice: int

    @model_validator(mode="after")
    def _consistent(self) -> "RulesData":
        if len(self.network_points) != len(self.exits) + 1:
            raise ValueError("the network table needs one entry per exit count, 0 included")
        if not set(self.route_dice) | {"lamp", "power"} <= set(self.dice):
            raise ValueError("a die named in route_dice is not described")
        if any(not 0 <= e.index < self.size for e in self.exits):
            raise ValueError("an exit lies off the board")
        if not set(self.dice["power"].faces) <= {"N", "E", "S", "W", "?"}:
            raise ValueError("power faces are directions or '?'")
        return self


@cache
def faces() -> dict[str, FaceData]:
    """Every drawable face (dice and special routes) by id."""
    data = TilesData.model_validate(load_json("railroad_ink", "tiles"))
    known = set(data.faces)
    for die in ("standard", "junction", "lamp"):
        if not set(rules().dice[die].faces) <= known:
            raise ValueError(f"the {die} die shows an unknown face")
    return data.faces


@cache
def specials() -> tuple[str, ...]:
    """The six special routes printed on every board."""
    return TilesData.model_validate(load_json("railroad_ink", "tiles")).specials


@cache
def rules() -> RulesData:
    return RulesData.model_validate(load_json("railroad_ink", "rules"))


SIZE = 7
CELLS = SIZE * SIZE
ACC = 3 * SIZE + 3


def cell_name(i: int) -> str:
    """`C4` is column C (third from the left), row 4 (fourth from the top)."""
    return f"{chr(65 + i % SIZE)}{i // SIZE + 1}"


def parse_cell(name: str) -> int | None:
    """The index of a cell name such as `C4`, or None if there is no such cell."""
    name = name.strip().upper()
    if len(name) != 2 or not ("A" <= name[0] < chr(65 + SIZE)) or not name[1].isdigit():
        return None
    row = int(name[1]) - 1
    return row * SIZE + ord(name[0]) - 65 if 0 <= row < SIZE else None


def _neighbours() -> tuple[tuple[int, ...], ...]:
    out = []
    for i in range(CELLS):
        r, c = divmod(i, SIZE)
        out.append(
            tuple(
                (r + DR[d]) * SIZE + c + DC[d]
                if 0 <= r + DR[d] < SIZE and 0 <= c + DC[d] < SIZE
                else -1
                for d in range(4)
            )
        )
    return tuple(out)


NEIGH = _neighbours()
"""NEIGH[i][d]: the cell across side d of cell i, or -1 at the board edge."""


@dataclass(frozen=True, slots=True)
class Exit:
    id: str
    cell: int
    side: int
    type: str


def _exits() -> tuple[Exit, ...]:
    out = []
    for e in rules().exits:
        r, c = {"N": (0, e.index), "S": (SIZE - 1, e.index)}.get(e.side, (e.index, 0))
        if e.side == "E":
            c = SIZE - 1
        cell = r * SIZE + c
        out.append(Exit(f"{e.side}:{cell_name(cell)}", cell, SIDES.index(e.side), e.type))
    return tuple(out)


EXITS = _exits()
EXIT_BY_ID = {e.id: e for e in EXITS}
EXIT_AT: dict[tuple[int, int], Exit] = {(e.cell, e.side): e for e in EXITS}
EXIT_TYPE = tuple(
    tuple(getattr(EXIT_AT.get((i, d)), "type", None) for d in range(4)) for i in range(CELLS)
)
CENTRE = frozenset(r * SIZE + c for r, c in rules().centre)
if rules().size != SIZE or rules().accumulator != divmod(ACC, SIZE):
    raise ValueError("the engine supports the 7×7 board with the Accumulator in the middle")


@dataclass(frozen=True, slots=True)
class Tile:
    """A face turned to one of its 8 orientations."""

    face: str
    orientation: int
    sides: tuple[str | None, ...]
    """Route type leaving through N, E, S, W (None: blank side)."""
    seg_of: tuple[int, ...]
    """Per side: the index of the inner segment it belongs to, -1 if blank."""
    segments: int
    station: bool
    lamp: bool


def turn(side: int, orientation: int) -> int:
    """Where `side` ends up: mirror left-right first if orientation ≥ 4, then rotate clockwise."""
    mirrored = (4 - side) % 4 if orientation >= 4 else side
    return (mirrored + orientation) % 4


@cache
def tile(face: str, orientation: int) -> Tile:
    f = faces()[face]
    sides: list[str | None] = [None] * 4
    seg_of = [-1] * 4
    for d in range(4):
        if f.sides[d] != ".":
            sides[turn(d, orientation)] = f.sides[d]
    for k, seg in enumerate(f.segments):
        for s in seg:
            seg_of[turn(SIDES.index(s), orientation)] = k
    return Tile(face, orientation, tuple(sides), tuple(seg_of), len(f.segments), f.station, f.lamp)


@cache
def orientations(face: str) -> tuple[int, ...]:
    """The orientations that give different tiles, lowest first (a straight has two)."""
    seen: dict[tuple, int] = {}
    for o in range(8):
        t = tile(face, o)
        key = (
            t.sides,
            tuple(
                sorted({tuple(d for d in range(4) if t.seg_of[d] == k) for k in range(t.segments)})
            ),
        )
        seen.setdefault(key, o)
    return tuple(sorted(seen.values()))


def face_name(face: str) -> str:
    return faces()[face].name
