"""The actions of Powerline: the chance seat's roll and each seat's secret plan."""

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from engine.core import validated
from engine.powerline.board import COLORS

Color = Literal["red", "yellow", "blue", "green", "white", "black"]
Pip = Annotated[int, Field(ge=1, le=6)]


class _Action(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Roll(_Action):
    type: Literal["roll"] = "roll"
    dice: dict[Color, Pip]

    @model_validator(mode="after")
    def _all_dice(self) -> "Roll":
        if set(self.dice) != set(COLORS):
            raise ValueError("a roll gives a value to each of the six dice")
        return self

    def value(self, color: str) -> int:
        return self.dice[color]  # type: ignore[index]


class Placement(_Action):
    """One worker: on a segment of a line (0-based from its first-named station) or the island."""

    color: Color
    line: str | None = None
    segment: int | None = None
    joker: bool = False
    island: bool = False

    @model_validator(mode="after")
    def _target(self) -> "Placement":
        if self.island and (self.line is not None or self.segment is not None):
            raise ValueError("a worker goes either to the island or to a line segment")
        if not self.island and (self.line is None or self.segment is None):
            raise ValueError("a worker on a line needs both line and segment")
        return self

    def describe(self) -> str:
        if self.island:
            return f"{self.color} → island"
        return f"{self.color} → {self.line} seg {self.segment}" + (" (joker)" if self.joker else "")


class Plan(_Action):
    """A seat's round: workers in deployment order, and whether it spends the vacation tile."""

    type: Literal["plan"] = "plan"
    placements: tuple[Placement, ...] = Field(max_length=6)
    vacation: bool = False


Action = Annotated[Roll | Plan, Field(discriminator="type")]
_ACTION = TypeAdapter(Action)
_PLACEMENT = TypeAdapter(Placement)


def parse_action(data: dict) -> Roll | Plan:
    """Validate a JSON action; a malformed one raises IllegalAction with the first problem."""
    return validated(_ACTION, data)


def parse_placement(data: dict) -> Placement:
    """Validate one JSON placement, as `parse_action` does for whole actions."""
    return validated(_PLACEMENT, data)
