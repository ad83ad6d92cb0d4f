"""A heuristic Propeller Islands player: tries each legal action on a state rebuilt from the
seat's view and keeps the one whose position scores best (one ply; two for the draft), its own
follow-up choices (activations, deploys, dock rewards) played out greedily first, within a fixed
amount of work per level.

Levels: casual weighs as the AI before issue 33 did, blurred by seeded noise; standard also
weighs who leads once the game is sure to end, so it neither ends a game it would lose nor misses
ending one it leads; strong is standard with more work allowed.
It plays for seats whose owner timed out and for AI seats, and sees only a seat's view.
"""

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from random import Random
from typing import Any

from engine.core import Level, spent
from engine.propeller_islands import actions as A
from engine.propeller_islands import legal, play
from engine.propeller_islands.ai_eval import Weights, dock_vp, evaluate
from engine.propeller_islands.components import blueprints, tiles
from engine.propeller_islands.config import Config
from engine.propeller_islands.flow import TASK_TYPES, expecting
from engine.propeller_islands.game import GAME
from engine.propeller_islands.island import place_links
from engine.propeller_islands.state import Bonus, Cell, Player, State, Task, Turn

FOLLOW_UPS = frozenset({"activating", *TASK_TYPES})


def _player(s: dict[str, Any], own: bool) -> Player:
    cells = [
        Cell(c["at"][0], c["at"][1], c["tile"], c["worker"], dict(c["tokens"])) for c in s["island"]
    ]
    return Player(
        character=s["character"],
        dealt=list(s["dealt"]),
        energy=s["energy"],
        steel=s["steel"],
        parts=s["parts"],
        fame=s["fame"],
        dock=[w for row in s["dock"] for w in row],
        cells=cells,
        hand=[c["id"] for c in s["hand"]] if own and s["hand"] is not None else [],
        completed=[c["id"] for c in s["completed"]],
        unused=list(s["unused"]),
        dice=list(s["dice"]),
    )


def state_from_view(view: dict[str, Any], seat: int) -> State:
    """A state consistent with `view`: hidden stacks hold the unseen tiles and cards."""
    players = [_player(s, s["seat"] == seat) for s in view["seats"]]
    offer = [o["tile"] for o in view["offer"]]
    seen = {t for t in offer if t} | set(view["discarded"])
    seen |= {c.tile for p in players for c in p.cells}
    seen |= {t.tile for t in [Task(**k) for k in view["tasks"]] if t.tile}
    stack = [t for t in tiles() if t not in seen][: view["stack_count"]]
    known = {c["id"] for lv in view["blueprint_offer"].values() for c in lv}
    known |= {b for p in players for b in p.hand + p.completed}
    bp_stack = {
        lv: [b for b in blueprints() if blueprints()[b].level == lv and b not in known][:count]
        for lv, count in view["blueprint_stack_count"].items()
    }
    t, b = view["turn"], view["bonus"]
    return State(
        config=Config(players=view["players"], capitol_side=view["capitol_side"]),
        phase=view["phase"],
        setup_step=5,
        round=view["round"],
        start_player=view["start_player"],
        order_index=view["turn_index"],
        players=players,
        offer=offer,
        stack=stack,
        discarded=list(view["discarded"]),
        bp_offer={lv: [c["id"] for c in cs] for lv, cs in view["blueprint_offer"].items()},
        bp_stack=bp_stack,
        forge=[view["forge"][str(v)] for v in range(1, 7)],
        dice_to_roll=view["dice_to_roll"],
        turn=Turn(**t) if t else None,
        bonus=Bonus(**b) if b else None,
        tasks=[Task(**{**k, "used": [tuple(h) for h in k["used"]]}) for k in view["tasks"]],
    )


def _prune(s: State, seat: int, options: list[A.Action], ahead: bool) -> list[A.Action]:
    """Per offer space only the claim hex with the most guild links (what the estimate sees
    of a hex), deploys only from the dock space that best advances the dock lines, and in the
    look-ahead (`ahead`) no further adjusts."""
    p = s.players[seat]
    best: dict[int, tuple[int, A.Action]] = {}
    out: list[A.Action] = []
    take = max(
        (i for i in range(12) if p.dock[i]),
        key=lambda i: dock_vp([d and j != i for j, d in enumerate(p.dock)]),
        default=None,
    )
    for a in options:
        if a.type == "claim":
            links = place_links(p, Cell(a.at[0], a.at[1], s.offer[a.space - 1] or ""))
            if a.space not in best or links > best[a.space][0]:
                best[a.space] = (links, a)
        elif a.type == "deploy":
            if (a.from_[0] - 1) * 4 + a.from_[1] - 1 == take:
                out.append(a)
        elif not ahead or a.type not in ("draft", "adjust"):
            out.append(a)
    return out + [a for _, a in best.values()]


class _Search:
    """One decision's search: its weights, its work so far (states made and weighed) and its
    cap; past the cap, options are judged as they stand, unresolved."""

    __slots__ = ("cap", "nodes", "over", "seat", "w")

    def __init__(self, seat: int, w: Weights, cap: int, over: Callable[[], bool]) -> None:
        self.seat, self.w, self.cap, self.nodes, self.over = seat, w, cap, 0, over

    def spent(self) -> bool:
        return self.nodes >= self.cap or self.over()

    def apply(self, s: State, a: A.Action) -> State:
        self.nodes += 1
        return play.apply(s, self.seat, a)

    def value(self, s: State) -> float:
        self.nodes += 1
        return evaluate(s, self.seat, self.w)

    def resolve(self, s: State) -> State:
        """`s` after the seat's own follow-up choices (activations, deploys, dock rewards...),
        each made greedily one ply deep, so an action is judged by what it leads to."""
        for _ in range(16):
            if self.spent():
                break
            who, point, _ = expecting(s)
            if who != self.seat or point not in FOLLOW_UPS:
                break
            options = _prune(s, self.seat, legal.legal(s, self.seat), True)
            if not options:
                break
            s = max((self.apply(s, x) for x in options), key=self.value)
        return s

    def score(self, state: State, a: A.Action, ahead: bool) -> float:
        """Worth of `a`: its position once resolved; after a draft (or an adjust into the act
        stage), the best act that follows, if `ahead` and the work cap allows."""
        after = self.resolve(self.apply(state, a))
        lookahead = a.type == "draft" or (
            a.type == "adjust" and after.turn is not None and after.turn.stage == "act"
        )
        if not lookahead or not ahead:
            return self.value(after)
        options = _prune(after, self.seat, legal.legal(after, self.seat), True)
        values = []
        for x in options:
            if self.spent():
                break
            values.append(self.value(self.resolve(self.apply(after, x))))
        # A look-ahead the cap cut before its first act judges the draft on the die alone.
        best = max(values) if values else self.value(after) - (2.0 if options else 0.0)
        return best - (0.4 if a.type == "adjust" else 0.0)


@dataclass(frozen=True, slots=True)
class Plan:
    """How a level plays: its weights, the noise on its estimates, its work cap."""

    weights: Weights
    noise: float
    cap: int


PLANS: dict[Level, Plan] = {
    # Today's (pre-issue-33) weighing, blind to who leads, its estimates blurred.
    "casual": Plan(Weights(), 1.5, 400),
    "standard": Plan(Weights(win=10.0), 0.0, 300),
    "strong": Plan(Weights(win=10.0), 0.0, 450),
}


def _rng(view: dict[str, Any], seat: int) -> Random:
    """The seeded noise of a decision: the same view always draws the same."""
    text = json.dumps([view, seat], sort_keys=True, default=str)
    return Random(int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big"))


def choose(
    view: dict[str, Any],
    seat: int,
    weights: Weights | None = None,
    budget: float | None = None,
    level: Level = "standard",
) -> A.Action:
    """A good legal action for `seat` at `level`, from that seat's view alone; the work is
    capped per level and `budget` (seconds) only cuts it shorter."""
    plan = PLANS[level]
    state = state_from_view(view, seat)
    options = _prune(state, seat, legal.legal(state, seat), False)
    if len(options) == 1:
        return options[0]
    search = _Search(seat, weights or plan.weights, plan.cap, spent(budget))
    rng = _rng(view, seat) if plan.noise else None
    best, best_value = options[0], float("-inf")
    for i, a in enumerate(options):
        if i and search.over():
            break
        # Every option gets at least its one-ply worth, whatever the cap.
        value = search.score(state, a, not search.spent())
        if rng is not None:
            value += rng.gauss(0.0, plan.noise)
        if value > best_value:
            best, best_value = a, value
    return best


def random_action(options: list[A.Action], rng: Random) -> A.Action:
    """The baseline and fuzzing player: a random action type, then a random action of it."""
    kind = rng.choice(sorted({a.type for a in options}))
    return rng.choice([a for a in options if a.type == kind])


def act(state: State, seat: int) -> A.Action:
    """The autopilot as a policy over states; it still decides from the seat's view alone."""
    return choose(GAME.view(state, seat), seat)
