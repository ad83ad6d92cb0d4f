"""Boundary models: one seat's result, one game of a heat, and a margin with its arithmetic."""

from itertools import pairwise
from typing import Literal, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

DONE = ("finished", "adjudicated")
"""The game statuses whose results count in a tournament."""


class SeatResult(BaseModel):
    """One seat's result: finishing rank (1 wins), primary measure (cities, VP) and secondary."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    player: int
    rank: int = Field(ge=1)
    # Both measures feed ratios, so they must be finite and not negative (x / 0 is handled).
    primary: float = Field(ge=0, allow_inf_nan=False)
    secondary: float = Field(ge=0, allow_inf_nan=False)


class HeatGame(BaseModel):
    """One table of a heat (or of the semifinal): its size and every seat's result."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    heat: int = Field(ge=1)
    table_size: int = Field(ge=2)
    seats: list[SeatResult]

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        """Ranks are 1..n once each and agree with (primary, secondary), or margins mean nothing."""
        if len(self.seats) != self.table_size:
            raise ValueError(f"table_size {self.table_size} but {len(self.seats)} seats")
        if len({s.player for s in self.seats}) != len(self.seats):
            raise ValueError("a player sits twice at one table")
        if sorted(s.rank for s in self.seats) != list(range(1, self.table_size + 1)):
            raise ValueError("ranks must be 1..table_size, each once")
        for better, worse in pairwise(self.by_rank()):
            # Equal pairs are fine: the game's later tiebreaks (e.g. most cities) decided them.
            if (better.primary, better.secondary) < (worse.primary, worse.secondary):
                raise ValueError(
                    f"rank {better.rank} has lower (primary, secondary) than rank {worse.rank}"
                )
        return self

    def by_rank(self) -> list[SeatResult]:
        """The seats from winner to last place."""
        return sorted(self.seats, key=lambda s: s.rank)

    def winner(self) -> SeatResult:
        """The rank-1 seat."""
        return self.by_rank()[0]

    def seat(self, player: int) -> SeatResult:
        """The given player's seat; ValueError if they did not play this game."""
        for s in self.seats:
            if s.player == player:
                return s
        raise ValueError(f"player {player} did not play this game of heat {self.heat}")


class Margin(BaseModel):
    """A margin of victory or defeat, with the arithmetic shown so players can check it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    value: float
    kind: Literal["outright", "tiebreak"]
    explain: str
    behind: float = 0
    """A defeat level on the primary measure (value 1): how far the winner's secondary was
    ahead; among equal values, less behind is closer. 0 for everything else."""

    def closeness(self) -> tuple[float, float]:
        """Ascending sort key of a margin: larger value first, then less behind."""
        return (-self.value, self.behind)
