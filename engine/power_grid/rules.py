"""Plants, rule tables and maps of Power Grid, validated from `data/power_grid/`."""

import csv
import io
from functools import cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from data import load_json, load_text

RESOURCES = ("coal", "oil", "garbage", "uranium")
Resource = Literal["coal", "oil", "garbage", "uranium"]
PlantType = Literal["coal", "oil", "hybrid", "garbage", "uranium", "ecological", "fusion"]
MapName = Literal["germany", "usa"]
STEP3 = 99
"""The Step 3 card inside the plant market and deck; it sorts after every plant."""


class _Data(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")


class Plant(_Data):
    number: int
    type: PlantType
    resources: int = Field(ge=0)
    cities: int = Field(ge=1)
    storage: int = Field(ge=0)


class Track(_Data):
    space_prices: tuple[int, ...]
    tokens_per_space: int

    @property
    def prices(self) -> tuple[int, ...]:
        """One price per token slot, cheapest first."""
        return tuple(p for p in self.space_prices for _ in range(self.tokens_per_space))


class PlayerCount(_Data):
    regions_in_play: int
    plants_removed_original: int
    max_plants_per_player: int
    step2_trigger_cities: int
    game_end_cities: int
    resupply: dict[Literal["step1", "step2", "step3"], dict[Resource, int]]


class Tables(_Data):
    start_money: int
    houses_per_player: int
    house_slot_costs: tuple[int, int, int]
    max_houses_per_city_by_step: dict[int, int]
    payment_by_cities_powered: tuple[int, ...]
    resource_supply_totals: dict[Resource, int]
    resource_market: dict[Resource, Track]
    per_player_count: dict[int, PlayerCount]


class City(_Data):
    name: str
    region: str
    x: int
    y: int


class Connection(_Data):
    a: str
    b: str
    cost: int = Field(ge=0)


class MapData(_Data):
    name: str
    regions: tuple[str, ...]
    cities: tuple[City, ...]
    connections: tuple[Connection, ...]


@cache
def plants() -> dict[int, Plant]:
    """Every base-game plant by number."""
    rows = csv.DictReader(io.StringIO(load_text("power_grid", "power_plants.csv")))
    return {int(r["number"]): Plant.model_validate(r) for r in rows}


@cache
def tables() -> Tables:
    return Tables.model_validate(load_json("power_grid", "tables"))


@cache
def game_map(name: str) -> MapData:
    return MapData.model_validate(load_json("power_grid", f"maps/{name}"))


# Original-edition initial market fill per resource (tables.json lists garbage per edition).
INITIAL_MARKET = {"coal": 24, "oil": 18, "garbage": 6, "uranium": 2}
START_MARKET = (3, 4, 5, 6, 7, 8, 9, 10)
DECK_TOP = 13


def deck_plants() -> list[int]:
    """The 33 plants that setup shuffles: all but the starting market and plant 13."""
    return sorted(n for n in plants() if n not in START_MARKET and n != DECK_TOP)


def player_count(players: int) -> PlayerCount:
    return tables().per_player_count[players]


@cache
def city_regions(name: str) -> dict[str, str]:
    """Each city's region on the map (read only)."""
    return {c.name: c.region for c in game_map(name).cities}


@cache
def region_adjacency(name: str) -> dict[str, frozenset[str]]:
    """Regions joined by at least one connection, per region."""
    m = game_map(name)
    region = {c.name: c.region for c in m.cities}
    adj: dict[str, set[str]] = {r: set() for r in m.regions}
    for e in m.connections:
        ra, rb = region[e.a], region[e.b]
        if ra != rb:
            adj[ra].add(rb)
            adj[rb].add(ra)
    return {r: frozenset(s) for r, s in adj.items()}


def contiguous(name: str, regions: frozenset[str] | set[str]) -> bool:
    """Whether the regions form one connected block on the map."""
    if not regions:
        return True
    adj = region_adjacency(name)
    start = next(iter(regions))
    seen = {start}
    todo = [start]
    while todo:
        for nxt in adj[todo.pop()]:
            if nxt in regions and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen == set(regions)
