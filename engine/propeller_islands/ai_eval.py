"""The AI's estimate of a position: a seat's expected final VP, and once the game is sure to end
this round, its standing against the best other seat."""

import math
from dataclasses import dataclass
from typing import Any

from engine.propeller_islands import scoring
from engine.propeller_islands.components import blueprints, category, rules
from engine.propeller_islands.effects import line_spaces
from engine.propeller_islands.island import activatable
from engine.propeller_islands.state import State


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
    win: float = 0.0
    """Worth of leading when the game is sure to end this round (0: blind to the others, as the
    AI before issue 33 was)."""
    lead: float = 3.0
    """The lead in VP that counts as a win once the end is triggered: the others still have the
    rest of the round to score (1.5 ended more games it then lost, on seeds 0-19)."""
    last_round: int = 20
    """From four rounds before it the worth of leading fades out (2-player games take ~15), so
    seats that all avoid the end cannot stall the game."""


# Rough VP of each dock-line reward, and of a follow-up choice still to be made.
LINE_VP = {"C1": 2.0, "C2": 1.0, "C3": 2.0, "C4": 3.0, "R1": 2.0, "R2": 1.3, "R3": 2.0}
TASK_VP = {"place": 2.0, "radio": 1.0, "warehouse": 1.5, "r1": 1.5, "choose": 0.6}
LINES = {line: line_spaces(line) for line in LINE_VP}


def ending(s: State) -> bool:
    """True once the game will end at the end of this round (or has ended)."""
    return (
        s.phase == "over"
        or not s.stack
        or any(len(p.completed) >= rules().end_blueprints for p in s.players)
        or any(not any(p.dock) for p in s.players)
    )


def margin(s: State, seat: int) -> float:
    """Seat's VP less the best other seat's, dock workers breaking ties."""
    keys = [scoring.breakdown(p)["total"] + 0.01 * sum(p.dock) for p in s.players]
    return keys[seat] - max(k for i, k in enumerate(keys) if i != seat)


def dock_vp(dock: list[bool]) -> float:
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
    """Estimated final VP of `seat` from this position, with `w.win` VP more (or less) for
    leading (trailing) once the end is sure."""
    b = scoring.breakdown(s.players[seat])
    if w.win and ending(s):
        # Fades out in overlong games, so that seats all avoiding the end cannot stall it.
        fade = min(1.0, max(0.0, (w.last_round - s.round) / 4))
        standing = w.win * fade * math.tanh((margin(s, seat) - w.lead) / 2)
        # The standing, not the VP the end forfeits, decides whether to end it.
        return standing + (b["total"] if s.phase == "over" else _estimate(s, seat, w, b, False))
    if s.phase == "over":
        return float(b["total"])
    return _estimate(s, seat, w, b, True)


def _estimate(s: State, seat: int, w: Weights, b: dict[str, Any], cut: bool) -> float:
    """Estimated final VP of `seat` (`b`: its score breakdown now), blind to the others; `cut`:
    less what ending the game early forfeits."""
    p = s.players[seat]
    late = max(0.0, 1.0 - 0.1 * max(0, len(s.stack) - 5))
    value = p.fame + b["blueprints"] + sum(b["landmarks"].values())
    value += (1 - late) * _resources(p.energy, p.steel, p.parts, 0.0, w) + late * b["resources"]
    working = sum(1 for c in p.cells if c.worker and category(c.tile) in ("guild", "hub"))
    value += w.worker * working * (1 - 0.7 * late)
    value += w.dock * dock_vp(p.dock)
    value += w.tile * sum(1 for c in p.cells if category(c.tile) in ("guild", "hub"))
    value += w.token * sum(len(c.tokens) for c in p.cells) + 0.5 * len(p.unused)
    value += sum(
        max(0.0, w.hand * (1 - late) * (card.vp - 0.5 * (card.energy + card.steel + card.parts)))
        for card in (blueprints()[h] for h in p.hand)
    )
    value += 0.3 * sum(1 for c in p.cells if activatable(c))
    if cut and (not any(p.dock) or len(p.completed) >= rules().end_blueprints):
        value -= w.cut * max(0, len(s.stack) - 5)
    return value + _pending(s, seat, late, w)
