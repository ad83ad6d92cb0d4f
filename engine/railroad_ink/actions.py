"""The actions of Railroad Ink: the shared roll and each seat's secret plan for the round."""

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from engine.core import validated

DieKey = Literal["route1", "route2", "route3", "route4", "lamp1", "lamp2", "special"]


class _Action(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Roll(_Action):
    """Faces of the four route dice (three standard, then the junction die) and expansion dice."""

    type: Literal["roll"] = "roll"
    route: tuple[str, str, str, str]
    lamps: tuple[str, ...] = ()
    power: tuple[str, ...] = ()


class Draw(_Action):
    """Draw one die result (or a special route, naming its face) in a cell, turned 0..7."""

    step: Literal["draw"] = "draw"
    die: DieKey
    cell: str
    orientation: int = Field(0, ge=0, le=7)
    face: str | None = None
    """Only for die "special": which of the six special routes."""

    def describe(self) -> str:
        return f"{self.die} {self.face or ''} at {self.cell} turn {self.orientation}".replace(
            "  ", " "
        )


class Activate(_Action):
    """Street Lamps: light every unlit lamp in one row ("row 3") or column ("col C")."""

    step: Literal["activate"] = "activate"
    line: str


class Electrify(_Action):
    """Power Grid: one use of power die 1 or 2.

    An arrow: from `exit` (an exit id such as "N:B1") or `start` (an electrified cell), electrify
    `length` cells in the die's direction, then (`charge`) step onto the Accumulator.
    A "?": electrify `cell`, or `charge` the Accumulator.
    """

    step: Literal["electrify"] = "electrify"
    die: Literal[1, 2]
    exit: str | None = None
    start: str | None = None
    length: int = Field(0, ge=0, le=7)
    cell: str | None = None
    charge: bool = False


Step = Annotated[Draw | Activate | Electrify, Field(discriminator="step")]


class Plan(_Action):
    """A seat's whole round: draws (with lamp activations) in order, then electrifications."""

    type: Literal["plan"] = "plan"
    steps: tuple[Step, ...] = Field((), max_length=20)


Action = Annotated[Roll | Plan, Field(discriminator="type")]
_ACTION: TypeAdapter[Roll | Plan] = TypeAdapter(Action)
_STEP: TypeAdapter[Draw | Activate | Electrify] = TypeAdapter(Step)


def parse_action(data: dict[str, Any]) -> Roll | Plan:
    """Validate a JSON action; a malformed one raises IllegalAction with the first problem."""
    return validated(_ACTION, data)


def parse_step(data: dict[str, Any]) -> Draw | Activate | Electrify:
    """Validate one JSON plan step, as `parse_action` does for whole actions."""
    return validated(_STEP, data)
