"""The actions of Propeller Islands as pydantic models; their JSON is the interface's dicts."""

from functools import cache
from typing import Annotated, Any, Literal, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    TypeAdapter,
    model_serializer,
)

from engine.core import validated

# Numbers are strict: JSON's true, 4.0 or "4" are not the interface's integers.
Hex = tuple[StrictInt, StrictInt]
DockSpace = tuple[Annotated[StrictInt, Field(ge=1, le=3)], Annotated[StrictInt, Field(ge=1, le=4)]]
Value = Annotated[StrictInt, Field(ge=1, le=6)]
Space = Annotated[StrictInt, Field(ge=1, le=12)]
Level = Literal["I", "II"]
UseOption = Literal[
    "deploy",
    "resources",
    "energy_to_steel",
    "energy_to_parts",
    "steel_to_energy",
    "parts_to_energy",
]
Line = Literal["C1", "C2", "C3", "C4", "R1", "R2", "R3"]


class _Action(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    @model_serializer(mode="wrap")
    def _drop_none(self, handler: Any) -> dict[str, Any]:
        # Optional keys ("free", "option", "card", "stack") are absent from the interface's dicts.
        return {k: v for k, v in handler(self).items() if v is not None}


class StartPlayer(_Action):
    type: Literal["start_player"]
    seat: StrictInt


class DealCharacters(_Action):
    type: Literal["deal_characters"]
    characters: tuple[str, ...] | tuple[tuple[str, str], ...]


class ShuffleTiles(_Action):
    type: Literal["shuffle_tiles"]
    order: tuple[str, ...]


class ShuffleBlueprints(_Action):
    type: Literal["shuffle_blueprints"]
    level: Level
    order: tuple[str, ...]


class Roll(_Action):
    type: Literal["roll"]
    dice: tuple[StrictInt, ...]


class KeepCharacter(_Action):
    type: Literal["keep_character"]
    character: str


class Claim(_Action):
    type: Literal["claim"]
    space: Space
    at: Hex


class Draft(_Action):
    type: Literal["draft"]
    value: Value


class Adjust(_Action):
    type: Literal["adjust"]
    to: Value
    free: StrictBool | None = None


class Discard(_Action):
    type: Literal["discard"]
    space: Space


class Activate(_Action):
    type: Literal["activate"]


class Use(_Action):
    type: Literal["use"]
    tile: Hex
    option: UseOption | None = None


class Done(_Action):
    type: Literal["done"]


class Complete(_Action):
    type: Literal["complete"]
    card: str


class EndTurn(_Action):
    type: Literal["end_turn"]


class Deploy(_Action):
    type: Literal["deploy"]
    from_: DockSpace = Field(alias="from")
    to: Hex

    @model_serializer(mode="plain")
    def _dump(self) -> dict[str, Any]:
        return {"type": "deploy", "from": list(self.from_), "to": list(self.to)}


class RewardChoice(_Action):
    type: Literal["reward"]
    line: Line


class Place(_Action):
    type: Literal["place"]
    at: Hex


class DepotChoice(_Action):
    type: Literal["depot"]
    tile: Hex


class Choose(_Action):
    type: Literal["choose"]
    resource: str


class Install(_Action):
    type: Literal["install"]
    tile: Hex


class Keep(_Action):
    type: Literal["keep"]


class Take(_Action):
    type: Literal["take"]
    card: str | None = None
    stack: Level | None = None


Action = Annotated[
    StartPlayer
    | DealCharacters
    | ShuffleTiles
    | ShuffleBlueprints
    | Roll
    | KeepCharacter
    | Claim
    | Draft
    | Adjust
    | Discard
    | Activate
    | Use
    | Done
    | Complete
    | EndTurn
    | Deploy
    | RewardChoice
    | Place
    | DepotChoice
    | Choose
    | Install
    | Keep
    | Take,
    Field(discriminator="type"),
]
_ACTION: TypeAdapter[Action] = TypeAdapter(Action)

DECLINES = ("done", "keep", "end_turn")
"""The action types a seat uses to pass; applied by the engine when they are the only choice."""


def parse_action(data: Any) -> Action:
    """Validate a JSON action (or pass a parsed one through); malformed ones raise IllegalAction."""
    if isinstance(data, _Action):
        return data  # type: ignore[return-value]
    return validated(_ACTION, data)


ActionT = TypeVar("ActionT", bound=_Action)


@cache
def made(kind: type[ActionT], **fields: Any) -> ActionT:
    """`kind` built from trusted fields without validation, once: legal lists rebuild the same
    actions every step, and a frozen action can be shared."""
    return kind.model_construct(**fields)
