"""Board, chart, rules and scoring-tile data for Powerline, validated from `data/powerline/`."""

from functools import cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from data import load_json

COLORS = ("red", "yellow", "blue", "green", "white", "black")
COLOR_INITIALS = ("R", "Y", "B", "G", "W", "K")
StationType = Literal["wind", "hydro", "solar", "biogas"]


class _Data(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class StationData(_Data):
    id: str
    type: StationType
    pos: tuple[int, int]
    vp: int = Field(gt=0)


class LineData(_Data):
    id: str
    ends: tuple[str, str]
    city_vp: int = Field(gt=0)
    building: Literal["opera", "church"] | None
    pips: tuple[int, ...] = Field(min_length=2)


class BoardData(_Data):
    source: str
    stations: tuple[StationData, ...]
    lines: tuple[LineData, ...]
    relabel: dict[int, tuple[int, int, int, int, int, int]]

    @model_validator(mode="after")
    def _consistent(self) -> "BoardData":
        ids = {s.id for s in self.stations}
        for line in self.lines:
            if not set(line.ends) <= ids:
                raise ValueError(f"{line.id} joins an unknown station")
            if not all(1 <= p <= 6 for p in line.pips):
                raise ValueError(f"{line.id} has a pip outside 1..6")
        for board, faces in self.relabel.items():
            if sorted(faces) != [1, 2, 3, 4, 5, 6]:
                raise ValueError(f"relabel of board {board} is not a permutation")
        return self


class ChartColumn(_Data):
    workers: int
    suns: tuple[bool, ...]


class ChartData(_Data):
    columns: tuple[ChartColumn, ...] = Field(min_length=6, max_length=6)
    line_limits: tuple[int, ...] = Field(min_length=6, max_length=6)


class ChartsData(_Data):
    source: str
    green: ChartData
    blue: ChartData


class SoloTitle(_Data):
    min: int
    title: str


class RulesData(_Data):
    source: str
    rounds: int
    scoring_after: tuple[int, int, int]
    start_vp: int
    start_energy: int
    jokers_above_scoring: dict[Literal["A", "B"], tuple[int, int, int]]
    end_penalty: tuple[int, ...]
    end_penalty_each_further: int
    adventure_loss_cap: int
    default_scoring_tiles: tuple[str, str, str]
    solo_titles: tuple[SoloTitle, ...]


class Bracket(_Data):
    min: int
    max: int | None = None
    vp: int


class ScoringRow(_Data):
    brackets: tuple[Bracket, ...] = ()
    per_unit: int = 0

    def pays(self, count: int) -> int:
        """VP this row pays for `count` of the measured pieces."""
        if self.per_unit:
            return self.per_unit * count
        for b in self.brackets:
            if count >= b.min and (b.max is None or count <= b.max):
                return b.vp
        return 0


class Measure(_Data):
    kind: Literal[
        "supplied_cities",
        "covered_stations",
        "sun_jokers",
        "emptied_columns",
        "line_tokens",
        "wind_hydro",
        "island_tokens",
    ]
    building: Literal["opera", "church"] | None = None
    types: tuple[StationType, ...] | None = None
    columns: tuple[int, ...] = ()
    line: str | None = None


class ScoringTile(_Data):
    colour: Literal["red", "green", "yellow", "special"]
    title: str
    measure: Measure
    rows: tuple[ScoringRow, ScoringRow, ScoringRow]


class TilesData(_Data):
    source: str
    tiles: dict[str, ScoringTile]


class Layout:
    """One player board with its pips resolved: the static facts the rules look up."""

    def __init__(self, board: int, data: BoardData) -> None:
        faces = data.relabel[board]
        self.board = board
        self.station_ids = tuple(s.id for s in data.stations)
        self.station_vp = tuple(s.vp for s in data.stations)
        self.station_type = tuple(s.type for s in data.stations)
        self.line_ids = tuple(line.id for line in data.lines)
        self.line_index = {line_id: i for i, line_id in enumerate(self.line_ids)}
        self.pips = tuple(tuple(faces[p - 1] for p in line.pips) for line in data.lines)
        self.length = tuple(len(p) for p in self.pips)
        self.city_vp = tuple(line.city_vp for line in data.lines)
        self.building = tuple(line.building for line in data.lines)
        self.ends = tuple(
            tuple(self.station_ids.index(e) for e in line.ends) for line in data.lines
        )
        self.station_lines = tuple(
            tuple(i for i, ends in enumerate(self.ends) if s in ends)
            for s in range(len(self.station_ids))
        )


@cache
def board_data() -> BoardData:
    return BoardData.model_validate(load_json("powerline", "board"))


@cache
def charts() -> ChartsData:
    return ChartsData.model_validate(load_json("powerline", "charts"))


@cache
def rules() -> RulesData:
    return RulesData.model_validate(load_json("powerline", "rules"))


@cache
def tiles() -> dict[str, ScoringTile]:
    return TilesData.model_validate(load_json("powerline", "scoring_tiles")).tiles


@cache
@cache
def layout(board: int) -> Layout:
    """The resolved layout of board number `board` (1..6)."""
    return Layout(board, board_data())


def board_numbers() -> tuple[int, ...]:
    return tuple(sorted(board_data().relabel))
