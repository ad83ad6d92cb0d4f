"""A heuristic Propeller Islands player: tries each legal action on a state rebuilt from the
seat's view and keeps the one whose position scores best (one ply; two for the draft), its own
follow-up choices (activations, deploys, dock rewards) played out greedily first.

It plays for seats whose owner timed out and for AI seats, and sees only a seat's view.
"""

from dataclasses import dataclass
from random import Random
from typing import Any

from engine.core import spent
from engine.propeller_islands import actions as A
from engine.propeller_islands import legal, play, scoring
from engine.propeller_islands.components import blueprints, category, rules, tiles
from engine.propeller_islands.config import Config
from engine.propeller_islands.effects import line_spaces
from engine.propeller_islands.flow import TASK_TYPES, expecting
from engine.propeller_islands.game import GAME
from engine.propeller_islands.island import activatable, place_links
from engine.propeller_islands.state import Bonus, Cell, Player, State, Task, Turn


@dataclass(frozen=True, slots=True)
class Weights:
    """Worth of things in VP while the game goes on; tuned by hand on seeds 5000+."""

    energy: float = 0.45
    steel: float = 0.8
    parts: float = 1.0
    worker: float = 1.0
    """A worker standing on a building (it produces every round)."""
    dock: float = 0.7
    """Scale of the progress towards dock-line rewards."""
    tile: float = 1.4
    cut: float = 1.5
    """Per tile left in the stack beyond 5: what ending the game now (empty dock, last
    blueprint) forfeits."""
    token: float = 1.2
    hand: float = 0.35
    """Per VP of a card in hand, less its cost."""


# Rough VP of each dock-line reward, and of a follow-up choice still to be made.
LINE_VP = {"C1": 2.0, "C2": 1.0, "C3": 2.0, "C4": 3.0, "R1": 2.0, "R2": 1.3, "R3": 2.0}
TASK_VP = {"place": 2.0, "radio": 1.0, "warehouse": 1.5, "r1": 1.5, "choose": 0.6}
LINES = {line: line_spaces(line) for line in LINE_VP}
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


def _dock_vp(dock: list[bool]) -> float:
    """Progress towards the rewards of the lines not yet cleared, more the nearer a line is."""
    value = 0.0
    for line, spaces in LINES.items():
        left = sum(1 for i in spaces if dock[i])
        if left:
            value += LINE_VP[line] * (1 - left / len(spaces)) ** 2
    return value


def _resources(e: int, st: int, pa: int, late: float, w: Weights) -> float:
    """Worth of resources: as currency early, as their end-of-game VP late."""
    early = w.energy * e + w.steel * st + w.parts * pa
    return (1 - late) * early + late * (e / 3 + st / 2 + pa)


def _pending(s: State, seat: int, late: float, w: Weights) -> float:
    """Worth of the seat's own choices still to be made (the search stops short of them)."""
    p = s.players[seat]
    value = 0.0
    for t in s.tasks:
        if t.seat != seat:
            continue
        if t.kind == "deploy":
            value += w.worker
        elif t.kind == "c3":
            value += t.count
        elif t.kind == "rewards":
            value += sum(LINE_VP[line] for line in t.lines)
        else:
            value += TASK_VP.get(t.kind, 1.0)
    if s.turn and s.turn.seat == seat and s.turn.stage == "blueprint":
        # The blueprint this turn may still complete: its VP and token for its cost.
        value += max(
            (
                card.vp + 1.0 - _resources(card.energy, card.steel, card.parts, late, w)
                for card in (blueprints()[h] for h in p.hand)
                if p.energy >= card.energy and p.steel >= card.steel and p.parts >= card.parts
            ),
            default=0.0,
        )
    return max(0.0, value)


def evaluate(s: State, seat: int, w: Weights) -> float:
    """Estimated final VP of `seat` from this position."""
    p = s.players[seat]
    b = scoring.breakdown(p)
    if s.phase == "over":
        return float(b["total"])
    late = max(0.0, 1.0 - 0.1 * max(0, len(s.stack) - 5))
    value = p.fame + b["blueprints"] + sum(b["landmarks"].values())
    value += (1 - late) * _resources(p.energy, p.steel, p.parts, 0.0, w) + late * b["resources"]
    working = sum(1 for c in p.cells if c.worker and category(c.tile) in ("guild", "hub"))
    value += w.worker * working * (1 - 0.7 * late)
    value += w.dock * _dock_vp(p.dock)
    value += w.tile * sum(1 for c in p.cells if category(c.tile) in ("guild", "hub"))
    value += w.token * sum(len(c.tokens) for c in p.cells) + 0.5 * len(p.unused)
    value += sum(
        max(0.0, w.hand * (1 - late) * (card.vp - 0.5 * (card.energy + card.steel + card.parts)))
        for card in (blueprints()[h] for h in p.hand)
    )
    value += 0.3 * sum(1 for c in p.cells if activatable(c))
    if not any(p.dock) or len(p.completed) >= rules().end_blueprints:
        value -= w.cut * max(0, len(s.stack) - 5)
    return value + _pending(s, seat, late, w)


def _resolve(s: State, seat: int, w: Weights) -> State:
    """`s` after the seat's own follow-up choices (activations, deploys, dock rewards...), each
    made greedily one ply deep, so an action is judged by what it leads to."""
    for _ in range(16):
        who, point, _ = expecting(s)
        if who != seat or point not in FOLLOW_UPS:
            break
        options = _prune(s, seat, legal.legal(s, seat), True)
        if not options:
            break
        s = max((play.apply(s, seat, x) for x in options), key=lambda t: evaluate(t, seat, w))
    return s


def _score(state: State, seat: int, a: A.Action, w: Weights) -> float:
    after = _resolve(play.apply(state, seat, a), seat, w)
    if a.type == "draft" or (a.type == "adjust" and after.turn and after.turn.stage == "act"):
        options = _prune(after, seat, legal.legal(after, seat), True)
        return max(
            (evaluate(_resolve(play.apply(after, seat, x), seat, w), seat, w) for x in options),
            default=evaluate(after, seat, w),
        ) - (0.4 if a.type == "adjust" else 0.0)
    return evaluate(after, seat, w)


def _prune(s: State, seat: int, options: list[A.Action], ahead: bool) -> list[A.Action]:
    """Per offer space only the claim hex with the most guild links (what the estimate sees
    of a hex), deploys only from the dock space that best advances the dock lines, and in the
    look-ahead (`ahead`) no further adjusts."""
    p = s.players[seat]
    best: dict[int, tuple[int, A.Action]] = {}
    out: list[A.Action] = []
    take = max(
        (i for i in range(12) if p.dock[i]),
        key=lambda i: _dock_vp([d and j != i for j, d in enumerate(p.dock)]),
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


def choose(
    view: dict[str, Any], seat: int, weights: Weights | None = None, budget: float | None = None
) -> A.Action:
    """A good legal action for `seat`, from that seat's view alone (the best of those weighed
    within `budget` seconds, if given)."""
    w = weights or Weights()
    over = spent(budget)
    state = state_from_view(view, seat)
    options = _prune(state, seat, legal.legal(state, seat), False)
    if len(options) == 1:
        return options[0]
    best, best_value = options[0], float("-inf")
    for i, a in enumerate(options):
        if i and over():
            break
        value = _score(state, seat, a, w)
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
