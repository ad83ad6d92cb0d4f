"""Table options for a game of Power Grid (original edition, WBC house rules by default)."""

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.power_grid.rules import MapName, contiguous, game_map, player_count


class Config(BaseModel):
    """Players, map, regions in play and the house-rule options of issue 9's interface."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    # strict: a JSON config's numbers are integers and its flags booleans (no 4.0, "4", 1, "yes").
    players: int = Field(ge=2, le=6, strict=True)
    map: MapName = "germany"
    regions: tuple[str, ...] | None = None
    """Regions in play; None: the players pick them in turn order (WBC)."""
    bid_order: Literal["seat", "turn"] = "seat"
    hidden_money: bool = Field(False, strict=True)
    step3_refill: Literal["rules", "late"] = "rules"
    routes_through_unused_regions: bool = Field(False, strict=True)

    @model_validator(mode="after")
    def _check(self) -> "Config":
        if self.regions is not None:
            need = player_count(self.players).regions_in_play
            known = set(game_map(self.map).regions)
            if len(self.regions) != need:
                raise ValueError(f"{self.players} players play in {need} regions")
            if len(set(self.regions)) != need:
                raise ValueError("the regions in play must be distinct")
            if not set(self.regions) <= known:
                raise ValueError(f"regions of this map are {', '.join(sorted(known))}")
            if not contiguous(self.map, set(self.regions)):
                raise ValueError("the regions in play must be contiguous")
        return self
