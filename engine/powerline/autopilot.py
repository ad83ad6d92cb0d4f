"""A heuristic Powerline player: searches this round's plans and scores each resulting board.

It plays for seats whose owner timed out and for AI seats, and sees only a seat's view.
"""

import math
from dataclasses import dataclass, field
from random import Random
from typing import Any

from engine.powerline.actions import Plan
from engine.powerline.board import Layout, rules, tiles
from engine.powerline.game import GAME
from engine.powerline.planning import (
    ISLAND,
    Draft,
    Seat,
    can_submit,
    candidates,
    to_placement,
)
from engine.powerline.state import State

ADVENTURE_CAP = rules().adventure_loss_cap


@dataclass(frozen=True, slots=True)
class Weights:
    """Tuning of the position estimate, swept by hand on solo seeds 1000-1099 (not the bench's)."""

    rate: float = 0.6
    """Segments a started line can expect to gain per remaining round."""
    steep: float = 1.1
    """How sharply completion odds fall once the remaining segments exceed that pace."""
    start_odds: float = 0.35
    """Completion odds of a line not yet started, relative to a started one."""
    unfinished: float = 3.0
    """Expected end penalty of a line left unfinished."""
    open_lines: int = 4
    """Open lines beyond this many cost `crowding` each (squared)."""
    crowding: float = 2.0
    joker_flex: float = 2.0
    """What a joker is worth for its flexibility while rounds remain."""
    max_jokers: int = 1
    """Jokers the search may spend in one plan."""


@dataclass(slots=True)
class _Ctx:
    seat: Seat
    lay: Layout
    rounds_left: int
    weights: Weights
    scoring_now: int | None
    joker_hold: float
    letters: tuple[str, ...]
    island_stacks: list[int] | None
    """Adventure Island stacks by die face, or None on the plain island (1 VP a worker)."""
    line_value: list[list[float]] = field(default_factory=list)
    """Per line and token count: potential beyond banked VP (city VP included when complete)."""
    line_odds: list[list[float]] = field(default_factory=list)
    station_before: list[float] = field(default_factory=list)
    open_before: int = 0
    memo: dict[tuple[tuple[int, int], ...], float] = field(default_factory=dict)

    def prepare(self) -> None:
        """Tabulate line and station values once per decision; the search only looks them up."""
        lay, w = self.lay, self.weights
        for i, n in enumerate(lay.length):
            values, odds = [], []
            for b in range(n + 1):
                if b == n:
                    values.append(float(lay.city_vp[i]))
                    odds.append(1.0)
                elif b == 0:
                    values.append(0.0)
                    odds.append(w.start_odds * self.odds(n))
                else:
                    q = self.odds(n - b)
                    values.append(lay.city_vp[i] * q - w.unfinished * (1.0 - q))
                    odds.append(q)
            self.line_value.append(values)
            self.line_odds.append(odds)
        built = list(self.seat.built)
        self.station_before = [self.station_value(s, built) for s in range(len(lay.station_vp))]
        self.open_before = self.open_lines(built)

    def odds(self, remaining: int) -> float:
        """Chance that a started line with `remaining` segments still gets completed."""
        if remaining == 0:
            return 1.0
        if self.rounds_left == 0:
            return 0.0
        margin = self.weights.rate * self.rounds_left - remaining
        return 1.0 / (1.0 + math.exp(-self.weights.steep * margin))

    def station_value(self, station: int, built: list[int]) -> float:
        odds = 1.0
        for i in self.lay.station_lines[station]:
            odds *= self.line_odds[i][built[i]]
        return self.lay.station_vp[station] * odds

    def open_lines(self, built: list[int]) -> int:
        return sum(1 for i, b in enumerate(built) if 0 < b < self.lay.length[i])

    def crowding(self, n_open: int) -> float:
        excess = n_open - self.weights.open_lines
        return self.weights.crowding * excess * excess if excess > 0 else 0.0


def _board_gain(ctx: _Ctx, draft: Draft) -> float:
    """Change in banked VP plus potential from the tokens a draft places (memoised per shape)."""
    key = tuple(sorted(draft.progress.items()))
    cached = ctx.memo.get(key)
    if cached is not None:
        return cached
    before = list(ctx.seat.built)
    after = before.copy()
    value = 0.0
    stations: set[int] = set()
    for line, k in key:
        after[line] += k
        value += ctx.line_value[line][after[line]] - ctx.line_value[line][before[line]]
        stations.update(ctx.lay.ends[line])
    for s in stations:
        value += ctx.station_value(s, after) - ctx.station_before[s]
    value -= ctx.crowding(ctx.open_lines(after)) - ctx.crowding(ctx.open_before)
    if ctx.scoring_now is not None:
        value += _scoring_gain(ctx, before, after)
    ctx.memo[key] = value
    return value


def _evaluate(ctx: _Ctx, draft: Draft, island_cost: int) -> float:
    """Estimated worth of ending the plan here."""
    n = draft.count
    value = _board_gain(ctx, draft) - island_cost
    value -= draft.jokers_used * ctx.joker_hold
    if n == 1:
        value += ctx.joker_hold
    return value


def _scoring_gain(ctx: _Ctx, before: list[int], after: list[int]) -> float:
    """Extra VP the scoring right after this round pays for the cities and stations completed."""
    lay = ctx.lay
    gain = 0.0
    for letter in ctx.letters:
        tile = tiles()[letter]
        m = tile.measure
        if m.kind == "supplied_cities":
            counts = [
                sum(
                    1
                    for i, n in enumerate(lay.length)
                    if b[i] == n and m.building in (None, lay.building[i])
                )
                for b in (before, after)
            ]
        elif m.kind == "covered_stations":
            counts = [
                sum(
                    1
                    for s, ls in enumerate(lay.station_lines)
                    if all(b[i] == lay.length[i] for i in ls)
                    and (m.types is None or lay.station_type[s] in m.types)
                )
                for b in (before, after)
            ]
        else:
            continue
        row = tile.rows[(ctx.scoring_now or 1) - 1]
        gain += row.pays(counts[1]) - row.pays(counts[0])
    return gain


def choose(view: dict[str, Any], seat: int, weights: Weights | None = None) -> Plan:
    """A good legal plan for `seat` in the current round, from that seat's view."""
    ctx_seat = Seat.from_view(view, seat)
    w = weights or Weights()
    rounds = view["rounds"]
    scoring_now = (
        view["scoring_after"].index(view["round"]) + 1
        if view["round"] in view["scoring_after"]
        else None
    )
    letters = tuple(t["letter"] for t in view["scoring_tiles"])
    next_k = view["next_scoring"] or 3
    g_value = sum(
        tiles()[letter].rows[k - 1].per_unit
        for letter in letters
        if tiles()[letter].measure.kind == "sun_jokers"
        for k in range(next_k, 4)
    )
    rounds_left = rounds - view["round"]
    ctx = _Ctx(
        seat=ctx_seat,
        lay=ctx_seat.layout,
        rounds_left=rounds_left,
        weights=w,
        scoring_now=scoring_now,
        joker_hold=g_value + (w.joker_flex if rounds_left > 0 else 0.0),
        letters=letters,
        island_stacks=list(view["seats"][seat]["island_stacks"])
        if "adventure_island" in view["variants"]
        else None,
    )
    ctx.prepare()
    best = _search(ctx)
    placements = tuple(to_placement(ctx_seat, *p) for p in best[1])
    vacation = bool(ctx_seat.vacation) and _use_vacation(ctx, best[2])
    return Plan(placements=placements, vacation=vacation)


def _use_vacation(ctx: _Ctx, island: int) -> bool:
    """Spend the tile on a round with several island workers, or late when any remain."""
    return island >= 3 or (island > 0 and ctx.rounds_left <= 1)


def _search(ctx: _Ctx) -> tuple[float, list[tuple[int, int, int, bool]], int]:
    seat = ctx.seat
    best: list[Any] = [-math.inf, [], 0]
    path: list[tuple[int, int, int, bool]] = []
    stacks = ctx.island_stacks

    def visit(draft: Draft, island_cost: int) -> None:
        if can_submit(seat, draft):
            value = _evaluate(ctx, draft, island_cost)
            if value > best[0]:
                best[0], best[1], best[2] = value, path.copy(), draft.island
        for cand in candidates(seat, draft):
            color, line, seg, joker = cand
            if joker and not _worth_joker(ctx, draft, line):
                continue
            cost = 0
            if line == ISLAND:
                cost = 1
                if stacks is not None:
                    face = seat.dice[color] - 1
                    stacks[face] += 1
                    cost = min(stacks[face], ADVENTURE_CAP)
            nxt = draft.copy()
            nxt.add(color, line, seg, joker)
            path.append(cand)
            visit(nxt, island_cost + cost)
            path.pop()
            if line == ISLAND and stacks is not None:
                stacks[seat.dice[color] - 1] -= 1

    visit(Draft(), 0)
    return best[0], best[1], best[2]


def _worth_joker(ctx: _Ctx, draft: Draft, line: int) -> bool:
    """Only consider jokers that finish a line or nearly so: the search stays small."""
    if line == ISLAND or draft.jokers_used >= ctx.weights.max_jokers:
        return False
    n = ctx.lay.length[line]
    done = ctx.seat.built[line] + draft.progress.get(line, 0)
    return done > 0 and n - done <= 2


def random_plan(seat: Seat, rng: Random, stop: float = 0.3) -> Plan:
    """A uniformly chosen walk through the legal placements: the baseline and fuzzing player."""
    draft = Draft()
    path: list[tuple[int, int, int, bool]] = []
    while True:
        options = list(candidates(seat, draft))
        if can_submit(seat, draft) and (not options or rng.random() < stop):
            break
        pick = rng.choice(options)
        draft.add(*pick)
        path.append(pick)
    vacation = bool(seat.vacation) and draft.island > 0 and rng.random() < 0.2
    return Plan(placements=tuple(to_placement(seat, *p) for p in path), vacation=vacation)


def act(state: State, seat: int) -> Plan:
    """The autopilot as a policy over states; it still decides from the seat's view alone."""
    return choose(GAME.view(state, seat), seat)
