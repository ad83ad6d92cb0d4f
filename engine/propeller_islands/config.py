"""Table options for a game of Propeller Islands."""

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, field_validator, model_validator


class Config(BaseModel):
    """Players, Capitol side, character deal and the youngest-first tie-break order."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    players: StrictInt = Field(ge=2, le=4)
    capitol_side: Literal["A", "B"] = "A"
    character_deal: Literal[1, 2] = 1
    age_order: tuple[StrictInt, ...] | None = None
    """All seats, youngest first: the last tie-break."""

    @field_validator("character_deal", mode="before")
    @classmethod
    def _whole_number(cls, value: object) -> object:
        # A Literal of ints also matches true, 2.0 or "2"; the interface lists only 1 and 2.
        if type(value) is not int:
            raise ValueError("character_deal is 1 or 2")
        return value

    @model_validator(mode="after")
    def _check(self) -> "Config":
        if self.character_deal == 2 and self.players > 3:
            raise ValueError("dealing two characters each works with 2 or 3 players only")
        if self.age_order is not None and sorted(self.age_order) != list(range(self.players)):
            raise ValueError("age_order must list every seat once, youngest first")
        return self

    @property
    def dice(self) -> int:
        """2n+1 dice."""
        return 2 * self.players + 1
