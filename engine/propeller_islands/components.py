"""Component data of Propeller Islands (tiles, blueprints, dock, characters), validated from
`data/propeller_islands/`."""

from functools import cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from data import load_json

Guild = Literal["I", "S", "C"]
Category = Literal["depot", "guild", "hub", "landmark"]
Resource = Literal["energy", "steel", "parts"]
RESOURCES: tuple[Resource, ...] = ("energy", "steel", "parts")
GAME = "propeller_islands"


class _Data(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class TileType(_Data):
    name: str
    category: Category
    copies: int = Field(gt=0)
    effect: str
    text: str
    source: Literal["rules", "design"]


class TileCopy(_Data):
    id: str
    type: str
    number: int | None = Field(None, ge=1, le=6)
    wild: bool
    """A printed "?": activates on any value."""
    banner: Guild | None
    hub: Guild | None
    slots: str
    """Upgrade slot kinds: P production, B banner, W wild die."""


class TilesData(_Data):
    source: str
    types: dict[str, TileType]
    copies: tuple[TileCopy, ...]

    @model_validator(mode="after")
    def _consistent(self) -> "TilesData":
        for c in self.copies:
            kind = self.types[c.type]
            if kind.category in ("depot", "landmark") and (c.number or c.wild or c.slots):
                raise ValueError(f"{c.id}: depots and landmarks have no number or slots")
            if kind.category in ("guild", "hub") and c.number is None and not c.wild:
                raise ValueError(f"{c.id}: a building needs a number or '?'")
            if set(c.slots) - set("PBW"):
                raise ValueError(f"{c.id}: unknown slot kind")
        for t, kind in self.types.items():
            if sum(1 for c in self.copies if c.type == t) != kind.copies:
                raise ValueError(f"type {t} does not have {kind.copies} copies")
        return self


class Blueprint(_Data):
    id: str
    level: Literal["I", "II"]
    energy: int = Field(ge=0)
    steel: int = Field(ge=0)
    parts: int = Field(ge=0)
    token: str
    vp: int = Field(gt=0)


class BlueprintsData(_Data):
    source: str
    cards: tuple[Blueprint, ...]


class Reward(_Data):
    line: str
    kind: Literal["place_top_tile", "resources", "activate_two", "fame", "depots", "deploy"]
    resources: dict[Resource, int] = {}
    fame: int = 0
    text: str


class DockData(_Data):
    source: str
    rows: int
    columns: int
    rewards: tuple[Reward, ...]


class Character(_Data):
    id: str
    name: str
    basic: str
    advanced: str
    source: Literal["rules", "design"]


class CharactersData(_Data):
    source: str
    characters: tuple[Character, ...]


class Token(_Data):
    kind: Literal["P", "B", "W"]
    copies: int
    resource: Resource | None = None
    guild: Guild | None = None


class Capitol(_Data):
    id: str
    name: str
    resources: dict[Resource, int]
    hub: Literal["*"] | None
    """"*" matches every guild."""


class Start(_Data):
    energy: int
    steel: int
    parts: int
    fame: int
    dock_workers: int


class RulesData(_Data):
    source: str
    offer_spaces: dict[int, tuple[int, int, int]]
    trumpets: tuple[int, int]
    start: Start
    workers: int
    max_dice_per_value: int
    end_blueprints: int
    tokens: dict[str, Token]
    capitols: dict[Literal["A", "B"], Capitol]


@cache
def tiles_data() -> TilesData:
    return TilesData.model_validate(load_json(GAME, "tiles"))


@cache
def tiles() -> dict[str, TileCopy]:
    """Every building tile copy by id, in data order."""
    return {c.id: c for c in tiles_data().copies}


@cache
def tile_types() -> dict[str, TileType]:
    return dict(tiles_data().types)


@cache
def blueprints() -> dict[str, Blueprint]:
    return {c.id: c for c in BlueprintsData.model_validate(load_json(GAME, "blueprints")).cards}


@cache
def dock() -> DockData:
    return DockData.model_validate(load_json(GAME, "dock"))


@cache
def rewards() -> dict[str, Reward]:
    return {r.line: r for r in dock().rewards}


@cache
def characters() -> dict[str, Character]:
    data = CharactersData.model_validate(load_json(GAME, "characters"))
    return {c.id: c for c in data.characters}


@cache
def rules() -> RulesData:
    return RulesData.model_validate(load_json(GAME, "rules"))


@cache
def capitol_ids() -> dict[str, Capitol]:
    """The Capitol sides by tile id ("01A", "01B")."""
    return {c.id: c for c in rules().capitols.values()}


@cache
def category(tile: str) -> str:
    """depot, guild, hub, landmark or capitol."""
    if tile.startswith("01"):
        return "capitol"
    return tile_types()[tile[:2]].category


def tile_name(tile: str) -> str:
    if tile.startswith("01"):
        return capitol_ids()[tile].name
    return tile_types()[tile[:2]].name
