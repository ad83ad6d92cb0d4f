"""The actions of Power Grid as in issue 9's interface: JSON objects with a "type" key."""

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from engine.core import validated
from engine.power_grid.rules import Resource

Count = Annotated[int, Field(ge=0)]


class _Action(BaseModel):
    # strict: JSON booleans and floats are refused where integers are expected.
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True, serialize_by_alias=True)


class Shuffle(_Action):
    """Chance: the deck's draw order (top first) and, at setup, the plants removed unseen."""

    type: Literal["shuffle"] = "shuffle"
    deck: list[int]
    removed: list[int] = []


class TurnOrder(_Action):
    """Chance: the random first-round player order, first player first."""

    type: Literal["turn_order"] = "turn_order"
    order: list[int]


class PickRegion(_Action):
    type: Literal["pick_region"] = "pick_region"
    region: str


class Open(_Action):
    type: Literal["open"] = "open"
    plant: int
    bid: int


class Pass(_Action):
    type: Literal["pass"] = "pass"


class Bid(_Action):
    type: Literal["bid"] = "bid"
    amount: int


class Drop(_Action):
    type: Literal["drop"] = "drop"


class DiscardPlant(_Action):
    type: Literal["discard_plant"] = "discard_plant"
    plant: int
    return_: dict[Resource, Count] = Field(default_factory=dict, alias="return")


class Buy(_Action):
    type: Literal["buy"] = "buy"
    resources: dict[Resource, Count]


class Done(_Action):
    type: Literal["done"] = "done"


class Build(_Action):
    type: Literal["build"] = "build"
    cities: list[str]


class Power(_Action):
    type: Literal["power"] = "power"
    plants: list[int]
    hybrid: dict[Literal["coal", "oil"], Count] = Field(default_factory=dict)


Action = Annotated[
    Shuffle
    | TurnOrder
    | PickRegion
    | Open
    | Pass
    | Bid
    | Drop
    | DiscardPlant
    | Buy
    | Done
    | Build
    | Power,
    Field(discriminator="type"),
]
_ACTION: TypeAdapter[Action] = TypeAdapter(Action)
# The actions with no field but their type, validated once: nearly half of a game's actions.
_BARE = {kind: _ACTION.validate_python({"type": kind}) for kind in ("pass", "drop", "done")}
# An action already made, checked by its exact type first: isinstance() on a pydantic model
# goes through ABCMeta.
_MADE = frozenset(
    (Shuffle, TurnOrder, PickRegion, Open, Pass, Bid, Drop, DiscardPlant, Buy, Done, Build, Power)
)


def parse_action(data: object) -> Action:
    """Validate a JSON action; a malformed one raises IllegalAction with the first problem."""
    if type(data) in _MADE or isinstance(data, BaseModel):
        return data  # type: ignore[return-value]
    if type(data) is dict and len(data) == 1 and type(kind := data.get("type")) is str:
        bare = _BARE.get(kind)
        if bare is not None:
            return bare
    return validated(_ACTION, data)
