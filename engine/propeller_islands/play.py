"""The turn machine: who acts, which actions are legal now, and what each one does."""

from engine.core import CHANCE, IllegalAction
from engine.propeller_islands import actions as A
from engine.propeller_islands.components import (
    RESOURCES,
    blueprints,
    capitol_ids,
    category,
    characters,
    rewards,
    rules,
    tile_name,
    tiles,
)
from engine.propeller_islands.island import (
    NEIGHBOURS,
    activatable,
    any_value,
    banner_links,
    can_deploy,
    cell_at,
    depots,
    frontier,
    level,
    place_links,
    vacant,
)
from engine.propeller_islands.state import Bonus, Cell, Player, State, Task, Turn

SETUP_TYPES = ("start_player", "deal_characters", "shuffle_tiles", "shuffle_blueprints")
STAGE_TYPES = {
    "draft": ("draft",),
    "act": ("adjust", "claim", "discard", "activate"),
    "activating": ("use", "done"),
    "blueprint": ("complete", "end_turn"),
}
TASK_TYPES = {
    "deploy": ("deploy",),
    "rewards": ("reward",),
    "place": ("place",),
    "c3": ("use", "done"),
    "r1": ("depot", "done"),
    "radio": ("use",),
    "warehouse": ("depot",),
    "choose": ("choose",),
    "install": ("install", "keep"),
    "take": ("take",),
    "pay": (),
}
WHAT = {
    "setup": "to set up the game",
    "roll": "to roll the dice",
    "keep_character": "to keep a character",
    "start_tiles": "to claim a starting tile",
    "draft": "to draft a die",
    "act": "to claim, discard or activate",
    "activating": "to use buildings or finish activating",
    "blueprint": "to complete a blueprint or end the turn",
    "bonus": "to use the bonus die",
    "deploy": "to deploy a worker",
    "rewards": "to pick which dock reward comes first",
    "place": "to place the reward tile",
    "c3": "to activate two buildings (reward C3)",
    "r1": "to pick depots (reward R1)",
    "radio": "to pick the Radio Station's target",
    "warehouse": "to pick the Warehouse's depot",
    "choose": "to choose energy or steel",
    "install": "to install an upgrade token",
    "take": "to take a new blueprint",
    "pay": "to receive a dock reward",
}
TRADES = {
    "energy_to_steel": ("energy", 2, "steel", 1),
    "energy_to_parts": ("energy", 2, "parts", 1),
    "steel_to_energy": ("steel", 1, "energy", 2),
    "parts_to_energy": ("parts", 1, "energy", 2),
}
COSTS = {"09": ("energy", 2), "10": ("steel", 1)}


def hexs(at: tuple[int, int]) -> str:
    return f"[{at[0]}, {at[1]}]"


def wrap(v: int, d: int) -> int:
    """Die value v moved by d steps, 6+1 = 1."""
    return (v - 1 + d) % 6 + 1


def steps(a: int, b: int) -> int:
    return min((a - b) % 6, (b - a) % 6)


def reach(value: int, widen: bool) -> set[int]:
    """Offer spaces a die value reaches (widened by ±1 for Jacques at fame 10+)."""
    spaces = rules().offer_spaces
    values = (wrap(value, -1), value, wrap(value, 1)) if widen else (value,)
    return {s for v in values for s in spaces[v]}


def expecting(s: State) -> tuple[int | None, str, tuple[str, ...]]:
    """Who acts now, the point of play (waiting_for) and the action types accepted there."""
    if s.phase == "over":
        return None, "over", ()
    if s.tasks:
        t = s.tasks[-1]
        return t.seat, t.kind, TASK_TYPES[t.kind]
    n = s.config.players
    if s.phase == "setup":
        return CHANCE, "setup", (SETUP_TYPES[min(s.setup_step, 3)],)
    if s.phase == "roll":
        return CHANCE, "roll", ("roll",)
    if s.phase == "keep_character":
        return (s.start_player + s.order_index) % n, "keep_character", ("keep_character",)
    if s.phase == "start_tiles":
        return (s.start_player - 1 - s.order_index) % n, "start_tiles", ("claim",)
    if s.phase == "turns" and s.turn is not None:
        return s.turn.seat, s.turn.stage, STAGE_TYPES.get(s.turn.stage, ())
    if s.bonus is not None:
        return s.bonus.seat, "bonus", ("adjust", "use", "done")
    return None, s.phase, ()


def waiting(s: State) -> str:
    seat, point, _ = expecting(s)
    if seat is None:
        return "nobody: the game is over"
    who = "the chance seat" if seat == CHANCE else f"seat {seat}"
    return f"{who} {WHAT[point]}"


class Ctx:
    """One action being applied: a private copy of the state and the choices it raises."""

    __slots__ = ("owned", "raised", "s")

    def __init__(self, state: State) -> None:
        self.s = state.copy()
        self.owned: set[int] = set()
        self.raised: list[Task] = []

    def p(self, seat: int) -> Player:
        """Seat's player, copied before its first change."""
        if seat not in self.owned:
            self.s.players[seat] = self.s.players[seat].copy()
            self.owned.add(seat)
        return self.s.players[seat]

    def ask(self, kind: str, seat: int, **data: object) -> None:
        self.raised.append(Task(kind, seat, **data))  # type: ignore[arg-type]

    def flush(self) -> None:
        """Raised choices go on top of the stack, the first raised asked first."""
        self.s.tasks.extend(reversed(self.raised))
        self.raised.clear()


# --------------------------------------------------------------------------- effects


def gain(p: Player, resource: str, n: int) -> None:
    setattr(p, resource, getattr(p, resource) + n)


def gain_fame(ctx: Ctx, seat: int, n: int) -> None:
    """Fame, with Amelia's once-per-round bonus judged at the level before the gain."""
    if n <= 0:
        return
    p = ctx.p(seat)
    before = p.fame
    p.fame += n
    if p.character == "amelia" and not p.amelia_used:
        first, second = rules().trumpets
        if before >= first:
            p.amelia_used = True
            if before >= second:
                ctx.ask("choose", seat, source="amelia")
            else:
                p.energy += 1


def place_tile(ctx: Ctx, seat: int, tile: str, at: tuple[int, int]) -> None:
    """A normal placement: links score, then a depot's benefit."""
    p = ctx.p(seat)
    cell = Cell(at[0], at[1], tile)
    p.cells.append(cell)
    gain_fame(ctx, seat, place_links(p, cell))
    if category(tile) == "depot":
        depot_benefit(ctx, seat, tile)


def depot_benefit(ctx: Ctx, seat: int, tile: str) -> None:
    p = ctx.p(seat)
    kind = tile[:2]
    if kind == "02":
        p.energy += 3
    elif kind == "03":
        p.steel += 1
        p.parts += 1
    elif can_deploy(p):
        ctx.ask("deploy", seat)


def refill(s: State, space: int) -> None:
    s.offer[space - 1] = s.stack.pop(0) if s.stack else None


def line_spaces(line: str) -> list[int]:
    """Dock indexes (row-major) of a line C1–C4 or R1–R3."""
    k = int(line[1]) - 1
    return [k + 4 * row for row in range(3)] if line[0] == "C" else [4 * k + c for c in range(4)]


def pay_reward(ctx: Ctx, seat: int, line: str) -> None:
    p = ctx.p(seat)
    reward = rewards()[line]
    if reward.kind == "resources":
        for res, n in reward.resources.items():
            gain(p, res, n)
    elif reward.kind == "fame":
        gain_fame(ctx, seat, reward.fame)
    elif reward.kind == "place_top_tile":
        if ctx.s.stack:
            ctx.ask("place", seat, tile=ctx.s.stack.pop(0))
    elif reward.kind == "activate_two":
        ctx.ask("c3", seat, count=2)
    elif reward.kind == "depots":
        ctx.ask("r1", seat)
    elif can_deploy(p):
        ctx.ask("deploy", seat)


def use_effect(ctx: Ctx, seat: int, a: A.Use, extra_energy: int) -> None:
    """Lay the worker down, pay, resolve the effect, then a PROD token's +1."""
    p = ctx.p(seat)
    c = cell_at(p, *a.tile)
    assert c is not None
    c.worker = "lying"
    p.energy -= extra_energy
    kind = c.tile[:2]
    if c.tile.startswith("01"):
        if a.option == "deploy":
            ctx.ask("deploy", seat)
        else:
            for res, n in capitol_ids()[c.tile].resources.items():
                gain(p, res, n)
    elif kind == "05":
        p.parts += 1
    elif kind == "06":
        p.energy += 2
    elif kind == "07":
        p.steel += 1
    elif kind == "08":
        ctx.ask("deploy", seat)
    elif kind == "09":
        p.energy -= 2
        p.parts += 1
        p.steel += 1
    elif kind == "10":
        p.steel -= 1
        p.parts += 2
    elif kind == "11":
        ctx.ask("radio", seat, tile=c.tile)
    elif kind == "12":
        ctx.ask("warehouse", seat)
    elif kind == "13":
        pay, n_pay, get, n_get = TRADES[a.option or ""]
        gain(p, pay, -n_pay)
        gain(p, get, n_get)
    if (token := c.tokens.get("P")) is not None:
        gain(p, rules().tokens[token].resource or "energy", 1)


def deploy_worker(ctx: Ctx, seat: int, a: A.Deploy) -> None:
    p = ctx.p(seat)
    index = (a.from_[0] - 1) * 4 + a.from_[1] - 1
    p.dock[index] = False
    c = cell_at(p, *a.to)
    assert c is not None
    c.worker = "ready"
    row, col = a.from_
    emptied = [
        line for line in (f"C{col}", f"R{row}") if not any(p.dock[i] for i in line_spaces(line))
    ]
    if len(emptied) == 2:
        ctx.ask("rewards", seat, lines=emptied)
    elif emptied:
        pay_reward(ctx, seat, emptied[0])


# --------------------------------------------------------------------------- refusals


def use_problem(s: State, seat: int, a: A.Use, mode: str) -> tuple[str | None, int]:
    """Why `use` is refused (or None) and the energy Marie's extra activation costs."""
    p = s.players[seat]
    c = cell_at(p, *a.tile)
    if c is None:
        return f"There is no tile at {hexs(a.tile)} on your island.", 0
    name = tile_name(c.tile)
    cat = category(c.tile)
    if cat in ("depot", "landmark"):
        return f"A {cat} like the {name} cannot be activated.", 0
    if c.worker != "ready":
        return f"The {name} at {hexs(a.tile)} has no ready worker.", 0
    kind = "01" if cat == "capitol" else c.tile[:2]
    allowed = ("deploy", "resources") if kind == "01" else tuple(TRADES) if kind == "13" else ()
    if a.option is None and allowed:
        return f"The {name} needs an option: {', '.join(allowed)}.", 0
    if a.option is not None and a.option not in allowed:
        if not allowed:
            return f"The {name} takes no option.", 0
        return f"The {name} has no option {a.option!r}: use one of {', '.join(allowed)}.", 0
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
        widen = level(p, "jacques") >= 2
        if a.space not in reach(value, widen):
            return f"Offer space {a.space} is not next to forge space {value}."
    if s.offer[a.space - 1] is None:
        return f"Offer space {a.space} is empty."
    if cell_at(p, *a.at) is not None:
        return f"Hex {hexs(a.at)} already holds a tile."
    if start and a.at not in {(dq, dr) for dq, dr in NEIGHBOURS}:
        return f"Your starting tile must go next to your Capitol, and {hexs(a.at)} is not."
    if not start and a.at not in frontier(p):
        return f"Hex {hexs(a.at)} is not next to your island."
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
            return f"You were dealt {' and '.join(p.dealt)}, not {a.character!r}."
        return None
    if t == "claim":
        return _claim_problem(s, seat, a, point == "start_tiles")
    if t == "draft":
        return None if s.forge[a.value - 1] else f"There is no {a.value} left in the forge."
    if t == "adjust":
        return _adjust_problem(s, seat, a, point)
    if t == "discard":
        assert s.turn is not None and s.turn.value is not None
        if a.space not in reach(s.turn.value, False):
            return f"Offer space {a.space} is not next to forge space {s.turn.value}."
        return None if s.offer[a.space - 1] else f"Offer space {a.space} is empty."
    if t == "use":
        mode = {"activating": "turn", "bonus": "bonus"}.get(point, "free")
        return use_problem(s, seat, a, mode)[0]
    if t == "done":
        if point == "c3" and legal_uses(s, seat, "free"):
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
        if not p.dock[(a.from_[0] - 1) * 4 + a.from_[1] - 1]:
            return f"Dock space {hexs(a.from_)} holds no worker."
        c = cell_at(p, *a.to)
        if c is None or c.worker is not None or c not in vacant(p):
            return f"There is no vacant worker housing space at {hexs(a.to)}."
        return None
    if t == "reward":
        lines = s.tasks[-1].lines
        return None if a.line in lines else f"Pick one of {' and '.join(lines)}."
    if t == "place":
        if cell_at(p, *a.at) is not None:
            return f"Hex {hexs(a.at)} already holds a tile."
        return None if a.at in frontier(p) else f"Hex {hexs(a.at)} is not next to your island."
    if t == "depot":
        c = cell_at(p, *a.tile)
        if c is None or category(c.tile) != "depot":
            return f"There is no depot of yours at {hexs(a.tile)}."
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
            return f"There is no tile at {hexs(a.tile)} on your island."
        name = tile_name(c.tile)
        if c.tile.startswith("01") or kind not in tiles()[c.tile].slots:
            return f"The {name} has no {kind} slot for {token}."
        if kind in c.tokens:
            return f"The {name} already holds a {kind} token ({c.tokens[kind]})."
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


def _adjust_problem(s: State, seat: int, a: A.Adjust, point: str) -> str | None:
    p = s.players[seat]
    if point == "bonus":
        b = s.bonus
        assert b is not None
        nelson = level(p, "nelson")
        if not nelson:
            return "Only Nelson at fame 5+ may change the bonus die."
        if not a.free:
            return 'Nobody pays energy on the bonus die: send "free": true.'
        if b.adjusted or b.used:
            return "Nelson sets the bonus value once, before his first bonus activation."
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
        if steps(turn.value, a.to) > charles:
            return f"Sir Charles may change the {turn.value} by at most {charles} step(s)."
        return None
    if turn.paid:
        return "You already paid to change the die this turn."
    if steps(turn.value, a.to) != 1:
        lo, hi = wrap(turn.value, -1), wrap(turn.value, 1)
        return f"Paying changes the {turn.value} by exactly one step, to {lo} or {hi}."
    if p.energy < 1:
        return "Changing the die costs 1 energy and you have none."
    return None


# --------------------------------------------------------------------------- legal actions


def _options(c: Cell) -> tuple[str | None, ...]:
    if c.tile.startswith("01"):
        return ("deploy", "resources")
    return tuple(TRADES) if c.tile[:2] == "13" else (None,)


def legal_uses(s: State, seat: int, mode: str) -> list[A.Use]:
    out = []
    for c in s.players[seat].cells:
        if not activatable(c):
            continue
        for option in _options(c):
            a = A.Use.model_construct(type="use", tile=(c.q, c.r), option=option)
            if use_problem(s, seat, a, mode)[0] is None:
                out.append(a)
    return out


def _claims(s: State, seat: int, start: bool) -> list[A.Action]:
    p = s.players[seat]
    if start:
        hexes = [h for h in NEIGHBOURS if cell_at(p, *h) is None]
        spaces = range(1, 13)
    else:
        assert s.turn is not None and s.turn.value is not None
        hexes = frontier(p)
        spaces = sorted(reach(s.turn.value, level(p, "jacques") >= 2))
    return [
        A.Claim.model_construct(type="claim", space=sp, at=h)
        for sp in spaces
        if s.offer[sp - 1] is not None
        for h in hexes
    ]


def _adjusts(s: State, seat: int, point: str) -> list[A.Action]:
    values = [
        A.Adjust.model_construct(type="adjust", to=v, free=free)
        for free in (None, True)
        for v in range(1, 7)
    ]
    return [a for a in values if _adjust_problem(s, seat, a, point) is None]  # type: ignore[arg-type]


def legal(s: State, seat: int) -> list[A.Action]:
    """Every legal next action of `seat` (none for the chance seat)."""
    who, point, _ = expecting(s)
    if who is None or who == CHANCE or who != seat:
        return []
    p = s.players[seat]
    out: list[A.Action]
    if point == "keep_character":
        return [
            A.KeepCharacter.model_construct(type="keep_character", character=c) for c in p.dealt
        ]
    if point == "start_tiles":
        return _claims(s, seat, True)
    if point == "draft":
        return [
            A.Draft.model_construct(type="draft", value=v) for v in range(1, 7) if s.forge[v - 1]
        ]
    if point == "act":
        assert s.turn is not None and s.turn.value is not None
        out = _adjusts(s, seat, point) + _claims(s, seat, False)
        out += [
            A.Discard.model_construct(type="discard", space=sp)
            for sp in sorted(reach(s.turn.value, False))
            if s.offer[sp - 1] is not None
        ]
        out.append(A.Activate.model_construct(type="activate"))
        return out
    if point == "activating":
        return [*legal_uses(s, seat, "turn"), A.Done.model_construct(type="done")]
    if point == "blueprint":
        out = [
            A.Complete.model_construct(type="complete", card=b)
            for b in p.hand
            if all(getattr(p, r) >= getattr(blueprints()[b], r) for r in RESOURCES)
        ]
        return [*out, A.EndTurn.model_construct(type="end_turn")]
    if point == "bonus":
        out = _adjusts(s, seat, point) + legal_uses(s, seat, "bonus")
        return [*out, A.Done.model_construct(type="done")]
    task = s.tasks[-1]
    if point == "deploy":
        spots = [(c.q, c.r) for c in vacant(p)]
        return [
            A.Deploy.model_construct(type="deploy", from_=(i // 4 + 1, i % 4 + 1), to=h)
            for i in range(12)
            if p.dock[i]
            for h in spots
        ]
    if point == "rewards":
        return [A.RewardChoice.model_construct(type="reward", line=line) for line in task.lines]
    if point == "place":
        return [A.Place.model_construct(type="place", at=h) for h in frontier(p)]
    if point in ("c3", "radio"):
        uses: list[A.Action] = list(legal_uses(s, seat, "free"))
        return uses or ([A.Done.model_construct(type="done")] if point == "c3" else [])
    if point in ("r1", "warehouse"):
        out = [
            A.DepotChoice.model_construct(type="depot", tile=(c.q, c.r))
            for c in depots(p)
            if (c.q, c.r) not in task.used
        ]
        return [*out, A.Done.model_construct(type="done")] if point == "r1" else out
    if point == "choose":
        return [A.Choose.model_construct(type="choose", resource=r) for r in ("energy", "steel")]
    if point == "install":
        kind = rules().tokens[task.token or ""].kind
        out = [
            A.Install.model_construct(type="install", tile=(c.q, c.r))
            for c in p.cells
            if not c.tile.startswith("01")
            and kind in tiles()[c.tile].slots
            and kind not in c.tokens
        ]
        return [*out, A.Keep.model_construct(type="keep")]
    if point == "take":
        out = [
            A.Take.model_construct(type="take", card=b, stack=None)
            for level_ in ("I", "II")
            for b in s.bp_offer[level_]
        ]
        out += [
            A.Take.model_construct(type="take", card=None, stack=level_)
            for level_ in ("I", "II")
            if s.bp_stack[level_]
        ]
        return out
    return []


# --------------------------------------------------------------------------- doing


def _setup(ctx: Ctx, a: A.Action) -> None:
    s = ctx.s
    n = s.config.players
    if a.type == "start_player":
        s.start_player = a.seat
    elif a.type == "deal_characters":
        for seat, entry in enumerate(a.characters):
            p = ctx.p(seat)
            if isinstance(entry, str):
                p.character = entry
            else:
                p.dealt = list(entry)
    elif a.type == "shuffle_tiles":
        s.offer = list(a.order[:12])
        s.stack = list(a.order[12:])
    else:
        s.bp_offer[a.level] = list(a.order[:3])
        s.bp_stack[a.level] = list(a.order[3:])
    s.setup_step += 1
    if s.setup_step < 5:
        return
    for i in range(n):
        p = ctx.p((s.start_player + i) % n)
        p.hand = [s.bp_stack["I"].pop(0), s.bp_stack["I"].pop(0), s.bp_stack["II"].pop(0)]
    s.phase = "keep_character" if s.config.character_deal == 2 else "start_tiles"
    s.order_index = 0


def _roll(ctx: Ctx, a: A.Roll) -> None:
    s = ctx.s
    for v in a.dice:
        s.forge[v - 1] += 1
    cap = rules().max_dice_per_value
    over = [v for v in range(6) if s.forge[v] > cap]
    if over:
        s.dice_to_roll = s.forge[over[0]] - cap
        s.forge[over[0]] = cap
        return
    s.dice_to_roll = 0
    s.phase = "turns"
    s.order_index = 0
    s.turn = Turn(s.start_player)


def _die_to_dock(ctx: Ctx, seat: int) -> None:
    turn = ctx.s.turn
    assert turn is not None and turn.value is not None
    ctx.p(seat).dice.append(turn.value)
    turn.stage = "blueprint"


def _complete(ctx: Ctx, seat: int, card_id: str) -> None:
    p = ctx.p(seat)
    card = blueprints()[card_id]
    p.energy -= card.energy
    p.steel -= card.steel
    p.parts -= card.parts
    p.hand.remove(card_id)
    p.completed.append(card_id)
    ctx.ask("install", seat, token=card.token)
    nicola = level(p, "nicola")
    if nicola == 2:
        ctx.ask("choose", seat, source="nicola")
    elif nicola == 1:
        p.energy += 1
    ctx.ask("take", seat)
    assert ctx.s.turn is not None
    ctx.s.turn.stage = "finished"


def _install(ctx: Ctx, seat: int, at: tuple[int, int], token: str) -> None:
    p = ctx.p(seat)
    c = cell_at(p, *at)
    assert c is not None
    info = rules().tokens[token]
    c.tokens[info.kind] = token
    if info.guild:
        gain_fame(ctx, seat, banner_links(p, c, info.guild))


def _take(ctx: Ctx, seat: int, a: A.Take) -> None:
    s = ctx.s
    p = ctx.p(seat)
    if a.card is not None:
        level_ = blueprints()[a.card].level
        row = s.bp_offer[level_]
        row[row.index(a.card)] = s.bp_stack[level_].pop(0) if s.bp_stack[level_] else ""
        s.bp_offer[level_] = [b for b in row if b]
        p.hand.append(a.card)
    else:
        p.hand.append(s.bp_stack[a.stack or "I"].pop(0))


def _next_turn(ctx: Ctx) -> None:
    s = ctx.s
    n = s.config.players
    s.order_index += 1
    if s.order_index < 2 * n:
        s.turn = Turn((s.start_player + s.order_index) % n)
        return
    die = next(v + 1 for v in range(6) if s.forge[v])
    s.phase = "bonus"
    s.turn = None
    s.order_index = 0
    s.bonus = Bonus(die, s.start_player, die)


def _next_bonus(ctx: Ctx) -> None:
    s = ctx.s
    n = s.config.players
    assert s.bonus is not None
    s.order_index += 1
    if s.order_index < n:
        seat = (s.start_player + s.order_index) % n
        s.bonus = Bonus(s.bonus.die, seat, s.bonus.die)
        return
    s.bonus = None
    s.order_index = 0
    ended = (
        not s.stack
        or any(len(p.completed) >= rules().end_blueprints for p in s.players)
        or any(not any(p.dock) for p in s.players)
    )
    if ended:
        s.phase = "over"
        return
    for seat in range(n):
        p = ctx.p(seat)
        for c in p.cells:
            if c.worker == "lying":
                c.worker = "ready"
        p.amelia_used = False
        p.dice = []
    s.start_player = (s.start_player + 1) % n
    s.round += 1
    s.phase = "roll"
    s.forge = [0] * 6
    s.dice_to_roll = s.config.dice


def execute(ctx: Ctx, seat: int, a: A.Action, point: str) -> None:
    """Carry out an accepted action on the context's state."""
    s = ctx.s
    t = a.type
    if point == "setup":
        _setup(ctx, a)
    elif t == "roll":
        _roll(ctx, a)
    elif t == "keep_character":
        p = ctx.p(seat)
        p.character = a.character
        s.order_index += 1
        if s.order_index == s.config.players:
            s.phase = "start_tiles"
            s.order_index = 0
    elif point == "start_tiles":
        tile = s.offer[a.space - 1] or ""
        refill(s, a.space)
        place_tile(ctx, seat, tile, a.at)
        s.order_index += 1
        if s.order_index == s.config.players:
            s.phase = "roll"
            s.order_index = 0
            s.dice_to_roll = s.config.dice
    elif t == "draft":
        assert s.turn is not None
        s.forge[a.value - 1] -= 1
        s.turn.drafted = s.turn.value = a.value
        s.turn.stage = "act"
    elif t == "adjust":
        _adjust(ctx, seat, a, point)
    elif t == "claim":
        tile = s.offer[a.space - 1] or ""
        refill(s, a.space)
        _die_to_dock(ctx, seat)
        place_tile(ctx, seat, tile, a.at)
    elif t == "discard":
        s.discarded.append(s.offer[a.space - 1] or "")
        refill(s, a.space)
        ctx.p(seat).energy += 3 if level(s.players[seat], "jacques") else 2
        _die_to_dock(ctx, seat)
    elif t == "activate":
        assert s.turn is not None
        s.turn.stage = "activating"
    elif t == "use":
        _use(ctx, seat, a, point)
    elif t == "done":
        _done(ctx, seat, point)
    elif t == "complete":
        _complete(ctx, seat, a.card)
    elif t == "end_turn":
        _next_turn(ctx)
    else:
        _answer(ctx, seat, a)
    ctx.flush()


def _adjust(ctx: Ctx, seat: int, a: A.Adjust, point: str) -> None:
    s = ctx.s
    if point == "bonus":
        assert s.bonus is not None
        s.bonus.value = a.to
        s.bonus.adjusted = True
        return
    assert s.turn is not None
    if a.free:
        s.turn.free = True
    else:
        s.turn.paid = True
        ctx.p(seat).energy -= 1
    s.turn.value = a.to


def _use(ctx: Ctx, seat: int, a: A.Use, point: str) -> None:
    s = ctx.s
    mode = {"activating": "turn", "bonus": "bonus"}.get(point, "free")
    _, extra = use_problem(s, seat, a, mode)
    if mode == "turn" and s.turn is not None:
        c = cell_at(s.players[seat], *a.tile)
        assert c is not None
        if not any_value(c) and tiles()[c.tile].number != s.turn.value:
            s.turn.extra = True
    elif mode == "bonus" and s.bonus is not None:
        s.bonus.used = True
    elif point == "c3":
        task = s.tasks.pop()
        if task.count > 1:
            s.tasks.append(Task("c3", seat, count=task.count - 1))
    else:
        s.tasks.pop()
    use_effect(ctx, seat, a, extra)


def _done(ctx: Ctx, seat: int, point: str) -> None:
    s = ctx.s
    if point == "activating":
        _die_to_dock(ctx, seat)
    elif point == "bonus":
        _next_bonus(ctx)
    else:
        s.tasks.pop()


def _answer(ctx: Ctx, seat: int, a: A.Action) -> None:
    """Answer the pending choice on top of the stack."""
    s = ctx.s
    task = s.tasks.pop()
    t = a.type
    p = ctx.p(seat)
    if t == "deploy":
        deploy_worker(ctx, seat, a)
    elif t == "reward":
        other = next(line for line in task.lines if line != a.line)
        pay_reward(ctx, seat, a.line)
        ctx.ask("pay", seat, lines=[other])
    elif t == "place":
        place_tile(ctx, seat, task.tile or "", a.at)
    elif t == "depot":
        c = cell_at(p, *a.tile)
        assert c is not None
        if task.kind == "r1" and not task.used:
            s.tasks.append(Task("r1", seat, used=[a.tile]))
        depot_benefit(ctx, seat, c.tile)
    elif t == "choose":
        gain(p, a.resource, 1)
    elif t == "install":
        _install(ctx, seat, a.tile, task.token or "")
    elif t == "keep":
        p.unused.append(task.token or "")
    elif t == "take":
        _take(ctx, seat, a)


def settle(ctx: Ctx) -> None:
    """Apply the auto-steps: queued rewards, dropped choices, forced declines, turn ends."""
    s = ctx.s
    while True:
        seat, point, _ = expecting(s)
        if seat is None or seat == CHANCE:
            return
        if s.tasks and s.tasks[-1].kind == "pay":
            task = s.tasks.pop()
            pay_reward(ctx, task.seat, task.lines[0])
            ctx.flush()
            continue
        if not s.tasks and s.phase == "turns" and point == "finished":
            _next_turn(ctx)
            continue
        if not s.tasks and point not in ("activating", "blueprint", "bonus"):
            return
        acts = legal(s, seat)
        if not acts:
            s.tasks.pop()
            continue
        if len(acts) == 1 and acts[0].type in A.DECLINES:
            execute(ctx, seat, acts[0], point)
            continue
        return


def apply(state: State, seat: int, action: object) -> State:
    """The state after `seat` plays `action` and the auto-steps; a refusal changes nothing."""
    a = A.parse_action(action)
    who, point, types = expecting(state)
    if who is None:
        raise IllegalAction("The game is over.")
    if seat != who:
        raise IllegalAction(f"It is not seat {seat}'s move: waiting for {waiting(state)}.")
    if a.type not in types:
        raise IllegalAction(f"No {a.type} now: waiting for {waiting(state)}.")
    reason = problem(state, seat, a, point)
    if reason is not None:
        raise IllegalAction(reason)
    ctx = Ctx(state)
    execute(ctx, seat, a, point)
    settle(ctx)
    return ctx.s
