"""Table options for a game of Railroad Ink; every open rules question is an option here."""

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_serializer

from engine.railroad_ink.board import rules

Expansion = Literal["street_lamps", "power_grid"]


class Config(BaseModel):
    """Players, expansions and the house rulings; defaults follow the spec's recommendations."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    players: int = Field(1, ge=1, le=12)
    expansions: frozenset[Expansion] = frozenset()
    rounds: int | None = Field(None, ge=1, le=12)
    """None: 7, or 6 with Street Lamps (with both expansions too, spec A17)."""
    longest_route: Literal["simple", "trail"] = "simple"
    """A3: "simple" never reuses a route segment (a one-piece crossroads counts once);
    "trail" never reuses a join between spaces, so a crossroads may be crossed twice."""
    lamp_activation: Literal["after_special", "round_end"] = "after_special"
    """A6: choose the lit row or column right after the special route, or after all drawing."""
    lamp_line_may_be_empty: bool = True
    """A7: the chosen row or column may hold no unlit lamp."""
    charge_after_line: bool = False
    """A12: False (strict): charging is a move by itself from an already electrified space;
    True: an arrow line may run on into the Accumulator and charge it."""
    accumulator_is_centre: bool = False
    """A10: whether the Accumulator space scores as a filled centre space."""
    tiebreak: Literal["fewer_errors", "none"] = "fewer_errors"
    """A18: ties on points go to fewer errors (unofficial), or stay shared."""

    @field_serializer("expansions")
    def _sorted(self, expansions: frozenset[str]) -> list[str]:
        # A set's order changes with the hash seed; replays must dump byte for byte the same.
        return sorted(expansions)

    @property
    def lamps(self) -> bool:
        return "street_lamps" in self.expansions

    @property
    def power(self) -> bool:
        return "power_grid" in self.expansions

    @property
    def round_count(self) -> int:
        if self.rounds is not None:
            return self.rounds
        r = rules().rounds
        if self.lamps and self.power:
            return r.both
        return r.street_lamps if self.lamps else r.power_grid if self.power else r.base
