"""Table options for a game of Powerline."""

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_serializer, model_validator

from engine.powerline.board import board_numbers, tiles

Variant = Literal["construction_limits", "adventure_island", "contracts", "special_contracts"]


class Config(BaseModel):
    """Players, boards, variants and scoring tiles; anything left unset is drawn from the seed."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    players: int = Field(1, ge=1, le=6)
    boards: tuple[int, ...] | None = None
    variants: frozenset[Variant] = frozenset()
    scoring_tiles: tuple[str, str, str] | None = None
    vacation_tile: bool = True
    contract_draw: Literal["by_colour", "any"] = "by_colour"
    """With contracts: one red, green and yellow tile, or three from all nine (rules note p.7)."""
    special_contracts: Literal["mixed", "alone"] = "mixed"
    """With special contracts: J, K, L shuffled in with the others, or exactly J, K and L."""

    @field_serializer("variants")
    def _sorted(self, variants: frozenset[str]) -> list[str]:
        # A set's order changes with the hash seed; replays must dump byte for byte the same.
        return sorted(variants)

    @model_validator(mode="after")
    def _check(self) -> "Config":
        if self.boards is not None:
            if len(self.boards) != self.players:
                raise ValueError(f"{self.players} players need {self.players} boards")
            if len(set(self.boards)) != len(self.boards):
                raise ValueError("each player needs a different board")
            if not set(self.boards) <= set(board_numbers()):
                raise ValueError("boards are numbered 1 to 6")
        if self.scoring_tiles is not None:
            letters = self.scoring_tiles
            if len(set(letters)) != 3 or not set(letters) <= set(tiles()):
                raise ValueError("scoring tiles are three different letters from A to L")
        return self

    @property
    def centre_side(self) -> Literal["A", "B"]:
        """Side B of the centre board is the contracts variant's; it gives fewer jokers."""
        return "B" if "contracts" in self.variants else "A"
