"""Whose turn it is and which action types it accepts, the die arithmetic, and the context an
action is applied in."""

from engine.core import CHANCE
from engine.propeller_islands.components import rules
from engine.propeller_islands.state import Cell, Player, State, Task

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


def queue(s: State) -> list[int] | None:
    """Seats in the order they will next move: pending choices (the newest first), then the
    character picks left, the starting tiles (in reverse order) and the round's draft turns (two
    each from the start player); or the bonus die's holder alone, since a seat that could do
    nothing with the die is passed over. None in the setup and once over."""
    if s.phase in ("setup", "over"):
        return None
    n = s.config.players
    draft = [(s.start_player + k) % n for k in range(2 * n)]
    if s.phase == "keep_character":
        keep = [(s.start_player + k) % n for k in range(s.order_index, n)]
        rest = keep + [(s.start_player - 1 - k) % n for k in range(n)] + draft
    elif s.phase == "start_tiles":
        rest = [(s.start_player - 1 - k) % n for k in range(s.order_index, n)] + draft
    elif s.phase == "turns":
        rest = draft[s.order_index :]
    elif s.bonus is not None:
        rest = [s.bonus.seat]
    else:
        rest = draft
    return [t.seat for t in reversed(s.tasks)] + rest


VERBS = {
    "keep_character": "keep a character",
    "claim": "claim a tile",
    "draft": "draft a die",
    "adjust": "change the die",
    "discard": "discard a tile",
    "activate": "activate buildings",
    "use": "activate a building",
    "done": "finish this step",
    "complete": "complete a blueprint",
    "end_turn": "end the turn",
    "deploy": "deploy a worker",
    "reward": "pick a dock reward",
    "place": "place a tile",
    "depot": "pick a depot",
    "choose": "choose energy or steel",
    "install": "install an upgrade",
    "keep": "set the upgrade aside",
    "take": "take a blueprint",
}
"""The players' action types as the moves they make (refusals name them)."""


def waiting(s: State) -> str:
    """What the game waits for, without seat numbers: "a player to draft a die"."""
    seat, point, _ = expecting(s)
    if seat is None:
        return "nobody: the game is over"
    if seat == CHANCE:
        return "the setup" if point == "setup" else "the roll of the dice"
    return f"a player {WHAT[point]}"


class Ctx:
    """One action being applied: a private copy of the state and the choices it raises."""

    __slots__ = ("owned", "owned_cells", "raised", "s")

    def __init__(self, state: State) -> None:
        self.s = state.copy()
        self.owned: set[int] = set()
        self.owned_cells: set[tuple[int, int]] = set()  # (seat, index) of the tiles copied
        self.raised: list[Task] = []

    def p(self, seat: int) -> Player:
        """Seat's player, copied before its first change; its tiles are shared until `cell`."""
        if seat not in self.owned:
            self.s.players[seat] = self.s.players[seat].copy(cells=False)
            self.owned.add(seat)
        return self.s.players[seat]

    def cell(self, seat: int, at: tuple[int, int]) -> Cell:
        """Seat's tile at hex `at`, copied before its first change."""
        cells = self.p(seat).cells
        i = next(i for i, c in enumerate(cells) if (c.q, c.r) == at)
        if (seat, i) not in self.owned_cells:
            cells[i] = cells[i].copy()
            self.owned_cells.add((seat, i))
        return cells[i]

    def ask(self, kind: str, seat: int, **data: object) -> None:
        self.raised.append(Task(kind, seat, **data))  # type: ignore[arg-type]

    def flush(self) -> None:
        """Raised choices go on top of the stack, the first raised asked first."""
        self.s.tasks.extend(reversed(self.raised))
        self.raised.clear()
