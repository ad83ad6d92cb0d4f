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
    "trail" may also cross a crossroads a second time by its two other sides (it counts
    twice); no other space may be entered twice."""
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
    mixed_contact: Literal["illegal", "if_joined"] = "illegal"
    """A1: a highway end touching a railway end or exit is always illegal, or allowed if the
    drawing joins properly elsewhere (the unjoined end then scores as an error)."""
    undrawn_route_die: Literal["final_board", "round_start", "optional"] = "final_board"
    """A2: a route die may stay undrawn only if it fits nowhere on the final board, only if it
    fitted nowhere at the round's start, or whenever the player likes (expansion dice exempt)."""
    one_exit_network_points: int | None = Field(None, ge=0)
    """A4: points for a network reaching a single exit; None: the rules table's value (0)."""
    centre_counts: Literal["space", "segment"] = "space"
    """A5: a central space scores once, or once per route segment (an overpass twice)."""
    lit_lamp_in_line: bool = True
    """A8: the chosen line may hold lamps already lit (they gain nothing); False: it may not,
    unless every line does."""
    accumulator_joins_networks: bool = False
    """A10: the Accumulator is no network connector; True: route ends facing it all join."""
    accumulator_excuses_ends: bool = True
    """A10: a route end facing the Accumulator is not an error; False: it is one."""
    exit_line_needs_link: bool = False
    """A11: an arrow line from an exit needs no route joining its first space to the exit;
    True: that space must have a route end of the exit's type facing it."""
    power_dice_optional: bool = True
    """A13: each power die gives one optional action (at least one space or one charge);
    False: a die that has a legal action must be used."""
    power_exit_rule: Literal["accumulator", "electrified"] = "accumulator"
    """A15: an exit counts for power if its electrified inner space is linked by electrified
    spaces to the Accumulator; "electrified": if its inner space is electrified at all."""
    wild_power_needs_route: bool = True
    """A14: a "?" power die electrifies a space holding a route; False: any space but the
    Accumulator, empty ones too (a route drawn there later is electrified)."""
    full_charge: Literal["illegal", "wasted"] = "illegal"
    """A16: charging a full Accumulator (3 charges) is illegal, or allowed and adds nothing."""

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
