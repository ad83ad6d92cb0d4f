"""Why the rules refuse an action, as the message the player sees, and the uses they accept."""

from collections.abc import Iterator
from functools import cache

from engine.propeller_islands import actions as A
from engine.propeller_islands.components import (
    RESOURCES,
    blueprints,
    category,
    characters,
    rules,
    tile_name,
    tiles,
)
from engine.propeller_islands.effects import TRADES
from engine.propeller_islands.flow import reach, steps, wrap
from engine.propeller_islands.island import (
    NEIGHBOURS,
    activatable,
    any_value,
    cell_at,
    depots,
    level,
    neighbours,
    vacant,
)
from engine.propeller_islands.state import State

COSTS = {"09": ("energy", 2), "10": ("steel", 1)}
OPTIONS: dict[str, tuple[str, ...]] = {"01": ("deploy", "resources"), "13": tuple(TRADES)}
"""The options of the buildings that take one, by kind."""


OPTION_WORDS = {
    "deploy": "deploy a worker",
    "resources": "take its resources",
    "energy_to_steel": "trade 2 energy for 1 steel",
    "energy_to_parts": "trade 2 energy for 1 part",
    "steel_to_energy": "trade 1 steel for 2 energy",
    "parts_to_energy": "trade 1 part for 2 energy",
}
"""A building's options as the choices a player makes."""
TOKEN_KINDS = {"P": "production upgrade", "B": "banner", "W": "wild die upgrade"}


def _name(tile: str) -> str:
    """A tile as a refusal names it: its name, "Capitol" for either side of the Capitol."""
    return "Capitol" if tile.startswith("01") else tile_name(tile)


def _either(options: tuple[str, ...]) -> str:
    """A building's options in words: "deploy a worker or take its resources"."""
    words = [OPTION_WORDS[o] for o in options]
    return ", ".join(words[:-1]) + " or " + words[-1]


def _out_of_reach(space: int, value: int, widen: bool) -> str | None:
    """Why a die value can't take the tile in offer space `space`, named as on the forge
    picture ("O7"); None if it reaches it."""
    spaces = sorted(reach(value, widen))
    if space in spaces:
        return None
    names = [f"O{s}" for s in spaces]
    either = ", ".join(names[:-1]) + " or " + names[-1]
    return f"O{space} is out of your die's reach: a {value} reaches {either}."


def use_problem(s: State, seat: int, a: A.Use, mode: str) -> tuple[str | None, int]:
    """Why `use` is refused (or None) and the energy Marie's extra activation costs."""
    p = s.players[seat]
    c = cell_at(p, *a.tile)
    if c is None:
        return "Your island has no tile there.", 0
    name = _name(c.tile)
    cat = category(c.tile)
    if cat in ("depot", "landmark"):
        return f"A {cat} like the {name} cannot be activated.", 0
    if c.worker != "ready":
        return f"The {name} there has no ready worker.", 0
    kind = "01" if cat == "capitol" else c.tile[:2]
    allowed = OPTIONS.get(kind, ())
    if a.option is None and allowed:
        return f"The {name} needs a choice: {_either(allowed)}.", 0
    if a.option is not None and a.option not in allowed:
        if not allowed:
            return f"The {name} has no choice to make.", 0
        return f"The {name} can't do that: it can {_either(allowed)}.", 0
    extra = 0
    if mode != "free" and not any_value(c):
        value = s.turn.value if mode == "turn" and s.turn else s.bonus.value if s.bonus else 0
        if tiles()[c.tile].number != value:
            need = f"The {name} needs a {tiles()[c.tile].number}, not a {value}."
            marie = level(p, "marie")
            if mode != "turn" or not marie:
                return need, 0
            if s.turn is not None and s.turn.extra:
                return need[:-1] + ", and Marie's extra activation is used this turn.", 0
            extra = 1 if marie == 1 else 0
    energy = p.energy - extra
    if energy < 0:
        return f"Marie's extra activation costs 1 energy and you have {p.energy}.", 0
    if kind in COSTS:
        res, n = COSTS[kind]
        have = energy if res == "energy" else getattr(p, res)
        if have < n:
            return f"The {name} costs {n} {res} and you have {have}.", 0
    if kind == "13" and a.option:
        res, n = TRADES[a.option][:2]
        have = energy if res == "energy" else getattr(p, res)
        if have < n:
            return f"That trade costs {n} {res} and you have {have}.", 0
    if (kind == "08" or a.option == "deploy") and not any(p.dock):
        return "You have no worker left on your dock to deploy.", 0
    if (kind == "08" or a.option == "deploy") and not vacant(p):
        return "You have no vacant worker housing space on your island.", 0
    if kind == "12" and not depots(p):
        return "The Warehouse needs a depot on your island.", 0
    return None, extra


def _claim_problem(s: State, seat: int, a: A.Claim, start: bool) -> str | None:
    p = s.players[seat]
    if not start:
        assert s.turn is not None and s.turn.value is not None
        value = s.turn.value
        far = _out_of_reach(a.space, value, level(p, "jacques") >= 2)
        if far:
            return far
    if s.offer[a.space - 1] is None:
        return f"O{a.space} is empty."
    if cell_at(p, *a.at) is not None:
        return "That spot already holds a tile."
    if start and a.at not in {(dq, dr) for dq, dr in NEIGHBOURS}:
        return "Your starting tile must go next to your Capitol."
    # The hex is empty, so it is on the frontier if it has a neighbour.
    if not start and not neighbours(p, *a.at):
        return "That spot is not next to your island."
    return None


def problem(s: State, seat: int, a: A.Action, point: str) -> str | None:
    """Why the rules refuse `a` here (the seat and the type are already accepted), or None."""
    t = a.type
    n = s.config.players
    if t == "start_player":
        return None if 0 <= a.seat < n else f"Seat {a.seat} is not at this table."
    if t == "deal_characters":
        return _deal_problem(s, a)
    if t == "shuffle_tiles":
        if sorted(a.order) != sorted(tiles()):
            return "The tile order must be a permutation of the 70 building tiles."
        return None
    if t == "shuffle_blueprints":
        due = "I" if s.setup_step == 3 else "II"
        if a.level != due:
            return f"Shuffle the level {due} blueprints now (level I before II)."
        if sorted(a.order) != sorted(b for b in blueprints() if b.split("-")[0] == a.level):
            return f"The order must be a permutation of the level {a.level} blueprints."
        return None
    if t == "roll":
        if len(a.dice) != s.dice_to_roll:
            return f"Roll exactly {s.dice_to_roll} dice, not {len(a.dice)}."
        if any(not 1 <= v <= 6 for v in a.dice):
            return "Die values run from 1 to 6."
        return None
    p = s.players[seat]
    if t == "keep_character":
        if a.character not in p.dealt:
            dealt = " or ".join(characters()[c].name for c in p.dealt)
            return f"You were dealt {dealt}: keep one of them."
        return None
    if t == "claim":
        return _claim_problem(s, seat, a, point == "start_tiles")
    if t == "draft":
        return None if s.forge[a.value - 1] else f"There is no {a.value} left in the forge."
    if t == "adjust":
        return adjust_problem(s, seat, a, point)
    if t == "discard":
        assert s.turn is not None and s.turn.value is not None
        far = _out_of_reach(a.space, s.turn.value, False)
        if far:
            return far
        return None if s.offer[a.space - 1] else f"O{a.space} is empty."
    if t == "use":
        mode = {"activating": "turn", "bonus": "bonus"}.get(point, "free")
        return use_problem(s, seat, a, mode)[0]
    if t == "done":
        if point == "c3" and next(uses(s, seat, "free"), None) is not None:
            return "Reward C3 must activate a building while one can be activated."
        return None
    if t == "complete":
        if a.card not in p.hand:
            return f"Blueprint {a.card} is not in your hand."
        card = blueprints()[a.card]
        for res in RESOURCES:
            if getattr(p, res) < getattr(card, res):
                return (
                    f"Blueprint {a.card} costs {card.energy} energy, {card.steel} steel and "
                    f"{card.parts} parts; you lack {res}."
                )
        return None
    if t == "deploy":
        row, column = a.from_
        if not p.dock[(row - 1) * 4 + column - 1]:
            number = (row - 1) * 4 + column
            return f"Dock space {number} (row {row}, column {column}) holds no worker."
        c = cell_at(p, *a.to)
        if c is None or c.worker is not None or c not in vacant(p):
            return "That tile has no vacant worker housing space."
        return None
    if t == "reward":
        lines = s.tasks[-1].lines
        return None if a.line in lines else f"Pick {' or '.join(lines)}: those lines are empty."
    if t == "place":
        if cell_at(p, *a.at) is not None:
            return "That spot already holds a tile."
        # The hex is empty, so it is on the frontier if it has a neighbour.
        return None if neighbours(p, *a.at) else "That spot is not next to your island."
    if t == "depot":
        c = cell_at(p, *a.tile)
        if c is None or category(c.tile) != "depot":
            return "That is not one of your depots."
        if point == "r1" and a.tile in s.tasks[-1].used:
            return "Reward R1 takes two different depots."
        return None
    if t == "choose":
        return None if a.resource in ("energy", "steel") else "Choose energy or steel."
    if t == "install":
        token = s.tasks[-1].token or ""
        kind = rules().tokens[token].kind
        c = cell_at(p, *a.tile)
        if c is None:
            return "Your island has no tile there."
        name = _name(c.tile)
        if c.tile.startswith("01") or kind not in tiles()[c.tile].slots:
            return f"The {name} has no space for a {TOKEN_KINDS[kind]}."
        if kind in c.tokens:
            return f"The {name} already holds a {TOKEN_KINDS[kind]}."
        return None
    if t == "take":
        if (a.card is None) == (a.stack is None):
            return "Take either a face-up card or the top card of a stack."
        if a.card is not None:
            shown = s.bp_offer["I"] + s.bp_offer["II"]
            return None if a.card in shown else f"Blueprint {a.card} is not face up."
        return None if s.bp_stack[a.stack or "I"] else f"The level {a.stack} stack is empty."
    return None


def _deal_problem(s: State, a: A.DealCharacters) -> str | None:
    n = s.config.players
    names: list[str] = []
    for entry in a.characters:
        if s.config.character_deal == 1 and not isinstance(entry, str):
            return "Deal one character to each seat."
        if s.config.character_deal == 2 and isinstance(entry, str):
            return "Deal two characters to each seat."
        names.extend([entry] if isinstance(entry, str) else entry)
    if len(a.characters) != n:
        return f"Deal to exactly {n} seats."
    if len(set(names)) != len(names):
        return "Every dealt character must be different."
    if unknown := [c for c in names if c not in characters()]:
        return f"Unknown character {unknown[0]!r}."
    return None


def adjust_problem(s: State, seat: int, a: A.Adjust, point: str) -> str | None:
    p = s.players[seat]
    if point == "bonus":
        b = s.bonus
        assert b is not None
        nelson = level(p, "nelson")
        if not nelson:
            return "Only Nelson at fame 5+ may change the bonus die."
        if not a.free:
            return "Nobody pays energy to change the bonus die: Nelson counts it as another value."
        if b.adjusted or b.used:
            return "Nelson sets the bonus value once, before his first bonus activation."
        if a.to == b.value:
            return f"A free change must change the die: it shows {b.value} already."
        if nelson == 1 and steps(b.value, a.to) > 1:
            lo, hi = wrap(b.value, -1), wrap(b.value, 1)
            return f"Nelson may count the bonus {b.value} as {lo} or {hi}."
        return None
    turn = s.turn
    assert turn is not None and turn.value is not None
    if a.free:
        charles = level(p, "charles")
        if not charles:
            return "Only Sir Charles at fame 5+ changes the die for free."
        if turn.free:
            return "Sir Charles's free change is used this turn."
        if a.to == turn.value:
            return f"A free change must change the die: it shows {turn.value} already."
        if steps(turn.value, a.to) > charles:
            steps_ = "1 step" if charles == 1 else f"{charles} steps"
            return f"Sir Charles may change the {turn.value} by at most {steps_}."
        return None
    if turn.paid:
        return "You already paid to change the die this turn."
    if steps(turn.value, a.to) != 1:
        lo, hi = wrap(turn.value, -1), wrap(turn.value, 1)
        return f"Paying changes the {turn.value} by exactly one step, to {lo} or {hi}."
    if p.energy < 1:
        return "Changing the die costs 1 energy and you have none."
    return None


# Here rather than in legal.py: Reward C3's `done` is refused while one of these exists.
def legal_uses(s: State, seat: int, mode: str) -> list[A.Use]:
    return list(uses(s, seat, mode))


def uses(s: State, seat: int, mode: str) -> Iterator[A.Use]:
    """`legal_uses` one at a time, for callers that need only the first."""
    for c in s.players[seat].cells:
        if not activatable(c):
            continue
        for option in OPTIONS.get(c.tile[:2], (None,)):
            a = _use((c.q, c.r), option)
            if use_problem(s, seat, a, mode)[0] is None:
                yield a


@cache
def _use(tile: tuple[int, int], option: str | None) -> A.Use:
    # Keyed by position, not by keyword as `made` is: uses are enumerated at every activation.
    return A.made(A.Use, type="use", tile=tile, option=option)
