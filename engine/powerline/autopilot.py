"""A heuristic Powerline player: searches this round's plans and scores each resulting board.

It plays for seats whose owner timed out and for AI seats, and sees only a seat's view. Levels:
casual walks greedily with noise, standard searches the round, strong also looks a round ahead,
weighs the island more heavily and keeps the vacation tile for the costlier of the last two rounds.
"""

import hashlib
import json
import math
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache
from random import Random
from typing import Any

from engine.core import Level
from engine.powerline.actions import Plan
from engine.powerline.board import COLORS, Layout, ScoringRow, rules, tiles
from engine.powerline.game import GAME
from engine.powerline.lookahead import look_ahead, next_view, with_seat
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

Move = tuple[int, int, int, bool]
"""(colour, line or ISLAND, segment, joker), as `planning.candidates` yields them."""


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
    contract: float = 1.0
    """Share of a column-emptying tile's VP (H, I) credited to each tile that brings it nearer."""
    island: float = 1.0
    """Weight of the VP a worker sent to the island loses (above 1: build rather than idle)."""


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
    columns: list[float] = field(default_factory=list)
    """By workers placed (0..6): VP for the chart tile that plan spends (`_column_values`)."""
    line_value: list[list[float]] = field(default_factory=list)
    """Per line and token count: potential beyond banked VP (city VP included when complete)."""
    line_odds: list[list[float]] = field(default_factory=list)
    station_before: list[float] = field(default_factory=list)
    open_before: int = 0
    crowd: list[float] = field(default_factory=list)
    """`crowding` by the number of open lines."""
    scoring: list[tuple[ScoringRow, str, frozenset[int], int]] = field(default_factory=list)
    """Scored right after this round: row, measure, lines or stations it counts, count now."""
    gains: dict[int, float] = field(default_factory=dict)
    """`_board_gain` by this plan's tokens per line, 3 bits a line (as in a draft's key)."""

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
        self.crowd = [self.crowding(k) for k in range(len(lay.length) + 1)]
        if self.scoring_now is not None:
            self.scoring = list(self.scored(self.scoring_now))

    def scored(self, scoring: int) -> Iterator[tuple[ScoringRow, str, frozenset[int], int]]:
        """The rows of this scoring that count complete cities or covered stations."""
        lay, built = self.lay, self.seat.built
        complete = {i for i, n in enumerate(lay.length) if built[i] == n}
        for letter in self.letters:
            tile = tiles()[letter]
            m = tile.measure
            if m.kind == "supplied_cities":
                counted = frozenset(
                    i for i in range(len(lay.length)) if m.building in (None, lay.building[i])
                )
                before = len(counted & complete)
            elif m.kind == "covered_stations":
                counted = frozenset(
                    s
                    for s, kind in enumerate(lay.station_type)
                    if m.types is None or kind in m.types
                )
                before = sum(1 for s in counted if set(lay.station_lines[s]) <= complete)
            else:
                continue
            yield tile.rows[scoring - 1], m.kind, counted, before

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


def _board_gain(ctx: _Ctx, after: Sequence[int]) -> float:
    """Change in banked VP plus potential once each line has `after` tokens."""
    lay, line_value = ctx.lay, ctx.line_value
    value = 0.0
    stations: set[int] = set()
    n_open = ctx.open_before
    completed = []
    for line, (b, a) in enumerate(zip(ctx.seat.built, after, strict=True)):
        if a != b:
            value += line_value[line][a] - line_value[line][b]
            stations.update(lay.ends[line])
            if a == lay.length[line]:
                completed.append(line)
                n_open -= b > 0
            else:
                n_open += b == 0
    # Keep these sums in this order (lines, then stations as the set yields them): another order
    # changes values in the last bit, and so which of two near-equal plans gets played.
    line_odds, station_lines, station_vp = ctx.line_odds, lay.station_lines, lay.station_vp
    for s in stations:
        odds = 1.0
        for i in station_lines[s]:
            odds *= line_odds[i][after[i]]
        value += station_vp[s] * odds - ctx.station_before[s]
    value -= ctx.crowd[n_open] - ctx.crowd[ctx.open_before]
    if completed and ctx.scoring_now is not None:
        value += _scoring_gain(ctx, completed, after)
    return value


def _scoring_gain(ctx: _Ctx, completed: list[int], after: Sequence[int]) -> float:
    """Extra VP the scoring right after this round pays for the cities and stations completed."""
    lay = ctx.lay
    gain = 0.0
    for row, kind, counted, before in ctx.scoring:
        if kind == "supplied_cities":
            count = before + sum(1 for i in completed if i in counted)
        else:
            newly = {s for i in completed for s in lay.ends[i] if s in counted}
            count = before + sum(
                1 for s in newly if all(after[i] == lay.length[i] for i in lay.station_lines[s])
            )
        gain += row.pays(count) - row.pays(before)
    return gain


VARIANT_WEIGHTS: dict[str, Weights] = {
    "construction_limits": Weights(rate=0.5, steep=0.8, unfinished=2.0, crowding=1.0, island=1.5),
    "contracts": Weights(rate=0.5, start_odds=0.45, crowding=0.0, island=2.0),
}
"""Where a variant slows building (fewer lines a round, fewer jokers): lines are started and
finished more slowly, so expect less per round. Swept on solo seeds 1000-1299, not the bench's."""

PLAIN_WEIGHTS = Weights(island=1.5)
"""The standard and strong levels without those variants (`Weights()` is the casual level's)."""


LOOKAHEAD_PLANS = 3
"""How many of the best plans by column the strong level weighs against next round's dice."""

LOOKAHEAD_ROLLS = 6
"""Sampled rolls of the next round on which it weighs each."""


STRONG_ISLAND: dict[str, float] = {"construction_limits": 4.0, "contracts": 3.25}
"""The strong level's `island` weight by variant: it idles far less for a little VP, which its
look-ahead wins back. Swept on solo seeds 1000-1199 (loss to the island against title rate)."""

PLAIN_STRONG_ISLAND = 3.5
"""The strong level's `island` weight without those variants."""


def strong_island(view: dict[str, Any]) -> float:
    """The strong level's `island` weight for this table's variants."""
    for variant in view["variants"]:
        if variant in STRONG_ISLAND:
            return STRONG_ISLAND[variant]
    return PLAIN_STRONG_ISLAND


def weights_for(view: dict[str, Any]) -> Weights:
    """The standard and strong levels' tuning for this table's variants."""
    for variant in view["variants"]:
        if variant in VARIANT_WEIGHTS:
            return VARIANT_WEIGHTS[variant]
    return PLAIN_WEIGHTS


def view_rng(view: dict[str, Any], seat: int) -> Random:
    """A generator seeded by what the seat sees, so a level's noise repeats for the same view."""
    text = json.dumps([view, seat], sort_keys=True, default=str)
    return Random(hashlib.sha256(text.encode()).digest())


def choose(
    view: dict[str, Any],
    seat: int,
    budget: float | None = None,
    level: Level = "standard",
    weights: Weights | None = None,
) -> Plan:
    """A good legal plan for `seat` in the current round, from that seat's view.

    With a `budget` (seconds) the search stops once it is spent and plays the best plan so far.
    casual: a greedy walk with noise, blind to the variants; standard: the full round's search;
    strong: the best plans by chart column, each also judged by the next round on sampled dice.
    """
    start = time.perf_counter()
    deadline = None if budget is None else start + budget
    if level == "casual":
        ctx = _context(view, seat, weights or Weights())
        best = _casual(ctx, view_rng(view, seat))
    else:
        w = weights or weights_for(view)
        if level == "strong" and weights is None:
            w = replace(w, island=strong_island(view))
        ctx = _context(view, seat, w)
        best = _search(ctx, deadline)
        if level in ENDGAME and _vacation_choice(view, seat):
            end = last_two_rounds(view, seat, w, view_rng(view, seat), deadline)
            if end is not None:
                return _plan(ctx, _Found(path=end[0]), end[1])
        if level == "strong":
            path = look_ahead(
                view,
                seat,
                lambda v: _best(v, seat, w, deadline),
                view_rng(view, seat),
                LOOKAHEAD_PLANS,
                LOOKAHEAD_ROLLS,
                deadline,
            )
            if path is not None:
                best = _Found(path=path)
    return _plan(ctx, best)


ENDGAME: tuple[Level, ...] = ("strong",)
"""Levels that weigh the vacation tile against the last round's sampled dice."""

ENDGAME_ROLLS = 24
"""Sampled rolls of the last round on which the next-to-last round's choice is weighed."""


def _vacation_choice(view: dict[str, Any], seat: int) -> bool:
    """Whether this is the next-to-last round with the vacation tile still held."""
    me = view["seats"][seat]
    return bool(view["vacation_tile"] and me["vacation"]) and view["round"] == view["rounds"] - 1


def last_two_rounds(
    view: dict[str, Any], seat: int, w: Weights, rng: Random, deadline: float | None = None
) -> tuple[list[Move], bool] | None:
    """The next-to-last round's plan and whether to spend the vacation tile on it: each column
    and each choice is judged with the last round's best plan on sampled rolls, the island
    free in whichever round the tile is spent. None if the deadline passes first."""
    free = replace(w, island=0.0)
    rolls = [{c: rng.randint(1, 6) for c in COLORS} for _ in range(ENDGAME_ROLLS)]
    chart = view["seats"][seat]["chart"]
    best, best_path, best_vacation = -math.inf, list[Move](), False
    for n, left in enumerate(chart, start=1):
        if not left:
            continue
        only = with_seat(view, seat, chart=[c if i == n - 1 else 0 for i, c in enumerate(chart)])
        for vacation in (False, True):
            if deadline is not None and time.perf_counter() > deadline:
                return None
            value, path = _best(only, seat, free if vacation else w, None)
            if not path or (vacation and all(m[1] != ISLAND for m in path)):
                continue
            later = next_view(view, seat, path)
            later = with_seat(later, seat, vacation=not vacation)
            then = free if not vacation else w
            total = sum(_best({**later, "dice": roll}, seat, then, None)[0] for roll in rolls)
            if value + total / len(rolls) > best:
                best, best_path, best_vacation = value + total / len(rolls), path, vacation
    return (best_path, best_vacation) if best_path else None


def _best(
    view: dict[str, Any], seat: int, w: Weights, deadline: float | None
) -> tuple[float, list[Move]]:
    """The search's best plan for this view: its value and moves."""
    found = _search(_context(view, seat, w), deadline)
    return found.value, found.path


def _plan(ctx: _Ctx, best: "_Found", vacation: bool | None = None) -> Plan:
    """The plan of these moves, with the vacation tile spent as `_use_vacation` says unless
    `vacation` says."""
    placements = tuple(to_placement(ctx.seat, *p) for p in best.path)
    island = sum(1 for p in best.path if p[1] == ISLAND)
    if vacation is None:
        vacation = bool(ctx.seat.vacation) and _use_vacation(ctx, island)
    return Plan(placements=placements, vacation=vacation)


def _context(view: dict[str, Any], seat: int, w: Weights) -> _Ctx:
    """What the search needs to know about this decision, tabulated."""
    ctx_seat = Seat.from_view(view, seat)
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
    ctx.columns = _column_values(view, ctx_seat.chart, letters, w)
    ctx.prepare()
    return ctx


def _column_values(
    view: dict[str, Any], chart: tuple[int, ...], letters: tuple[str, ...], w: Weights
) -> list[float]:
    """By workers placed: the part of a scoring tile for emptied columns (H, I) that spending a
    tile of that column earns (the tile pays at every scoring once its columns are empty)."""
    values = [0.0] * (len(COLORS) + 1)
    rnd = view["round"]
    for letter in letters:
        tile = tiles()[letter]
        if tile.measure.kind != "emptied_columns":
            continue
        target = tile.measure.columns
        left = sum(chart[c - 1] for c in target)
        if left == 0:
            continue
        # The first scoring still reachable: one tile a round, this round included.
        pays = 0.0
        for k, after in enumerate(view["scoring_after"]):
            if after >= rnd and after - rnd + 1 >= left:
                pays = sum(row.pays(1) for row in tile.rows[k:])
                break
        for c in target:
            values[c] += w.contract * pays / left
    return values


def _use_vacation(ctx: _Ctx, island: int) -> bool:
    """Spend the tile on a round with several island workers, or late when any remain."""
    return island >= 3 or (island > 0 and ctx.rounds_left <= 1)


@dataclass(slots=True)
class _Found:
    """The best plan met so far: its value and its moves."""

    value: float = -math.inf
    path: list[Move] = field(default_factory=list)


class _OutOfTime(Exception):
    """Unwinds the search once its time budget is spent."""


Option = tuple[int, int, tuple[int, ...], int, int, int, tuple[tuple[Move, Move], ...]]
"""A next segment: (pip, direction once built, faces whose `match` bit flips, step of the key,
flip of `jokers_fit`, rank after the island's 0, its moves by colour and joker)."""


class _Tables:
    """What the search looks up about a board's lines, built once per board."""

    def __init__(self, lay: Layout) -> None:
        n_lines = len(lay.line_ids)
        # A draft's key: its tokens per line (3 bits each), then a bit per line it started at
        # the far end, its workers (3 bits), black first, jokers (3), island dice faces (3 each).
        self.tokens_mask = (1 << 3 * n_lines) - 1
        self.worker_unit = 1 << 4 * n_lines
        self.black_first = self.worker_unit << 3
        self.joker_unit = self.worker_unit << 4
        self.face_unit = [self.worker_unit << 7 + 3 * f for f in range(6)]
        self.jokable = [[0 < d < n and n - d <= 2 for d in range(n + 1)] for n in lay.length]
        """Whether a joker is worth spending on a line with d tokens (`_worth_joker`)."""
        self.options = [
            [[self._options(i, pips, way, d) for d in range(len(pips) + 1)] for way in (0, 1, -1)]
            for i, pips in enumerate(lay.pips)
        ]
        """By line, direction (0, 1, -1) and tokens: its `Option`s, as `next_segments`."""
        self.line_of = {1 << i: i for i in range(n_lines)}
        # Built once, so that the search allocates nothing per draft that the GC would track.
        self.island_moves = [(c, ISLAND, 0, False) for c in range(len(COLORS))]
        self.alone = [(c,) for c in range(len(COLORS))]

    def _options(self, line: int, pips: tuple[int, ...], way: int, d: int) -> tuple[Option, ...]:
        """The `Option`s of a line with direction `way` and d tokens."""
        jokable, n_lines = self.jokable[line], len(self.jokable)
        unit = 1 << 3 * line
        options = []
        for j, (seg, pip) in enumerate(_open_segments(pips, way, d)):
            after = way or (-1 if seg else 1)
            flips = _faces(pips, way, d) ^ _faces(pips, after, d + 1)
            step = unit + (1 << 3 * n_lines + line if after != way and seg else 0)
            options.append(
                (
                    pip,
                    after,
                    tuple(flips),
                    step,
                    (jokable[d] != jokable[d + 1]) << line,
                    1 + 2 * line + j,
                    tuple(
                        ((c, line, seg, False), (c, line, seg, True)) for c in range(len(COLORS))
                    ),
                )
            )
        return tuple(options)


def _open_segments(pips: tuple[int, ...], way: int, d: int) -> tuple[tuple[int, int], ...]:
    """(segment, pip) open next on a line with direction `way` and d tokens (`next_segments`)."""
    n = len(pips)
    if d >= n:
        return ()
    if way == 0:
        return ((0, pips[0]), (n - 1, pips[n - 1]))
    seg = d if way > 0 else n - 1 - d
    return ((seg, pips[seg]),)


def _faces(pips: tuple[int, ...], way: int, d: int) -> set[int]:
    """The pips that the next worker on such a line may need."""
    return {pip for _, pip in _open_segments(pips, way, d)}


@cache
def _tables(lay: Layout) -> _Tables:
    """The board's tables (there are six boards)."""
    return _Tables(lay)


@lru_cache(maxsize=1024)
def _columns(
    chart: tuple[int, ...], limits: tuple[int, ...], n_lines: int
) -> tuple[list[list[bool]], list[list[bool]]]:
    """By workers and lines used: may the plan be submitted (`can_submit`), and can it still
    become one (`planning._feasible`)?"""
    workers = len(COLORS)
    submit = [
        [n > 0 and chart[n - 1] > 0 and limits[n - 1] >= used for used in range(n_lines + 2)]
        for n in range(workers + 1)
    ]
    feasible = [
        [any(submit[m][used] for m in range(max(n, 1), workers + 1)) for used in range(n_lines + 2)]
        for n in range(workers + 2)
    ]
    return submit, feasible


@dataclass(slots=True)
class _Memo:
    """By draft key: the value of the best plan through it and, unless that plan ends there,
    its next move and the key of the draft that move makes."""

    value: dict[int, float] = field(default_factory=dict)
    move: dict[int, Move] = field(default_factory=dict)
    then: dict[int, int] = field(default_factory=dict)


def _search(ctx: _Ctx, deadline: float | None) -> _Found:
    """The best plan; with a deadline, the best found in time or a greedy dive's if better."""
    dive = _dive(ctx) if deadline is not None else None
    found = _Found()
    memo = _Memo()
    # Start with the colour the dive started with: a short budget may not see the other.
    starts = (0, len(COLORS) - 1)
    if dive is not None and dive.path and dive.path[0][0]:
        starts = starts[::-1]
    try:
        value = _visit(ctx, deadline, found, memo, starts)
    except _OutOfTime:
        if dive is not None and dive.value > found.value:
            return dive
        return found
    path, key = [], 0
    while key in memo.move:
        path.append(memo.move[key])
        key = memo.then[key]
    return _Found(value, path)


def _visit(
    ctx: _Ctx,
    deadline: float | None,
    found: _Found,
    memo: _Memo,
    starts: tuple[int, int],
) -> float:
    """Value of the best plan, whose moves it leaves in `memo`: the first of equals in
    `planning.candidates` order, as an exhaustive search picks. `found`: the best met so far."""
    # A draft's key (see `_Tables`) fixes what may follow it and what that is worth, so a draft
    # is searched once and, reached again, reuses its best continuation from `memo`. Ties are
    # settled by rank in candidates order, not by search order, so the search is free to try line
    # placements before the island (which costs VP), and the dive's first colour first: good
    # plans come early, for a budget.
    seat, lay = ctx.seat, ctx.lay
    t = _tables(lay)
    submit, feasible = _columns(seat.chart, seat.line_limits, len(lay.line_ids))
    dice, hold, gains, columns = seat.dice, ctx.joker_hold, ctx.gains, ctx.columns
    options, jokable, line_of, face_unit = t.options, t.jokable, t.line_of, t.face_unit
    worker_unit, black_first, joker_unit = t.worker_unit, t.black_first, t.joker_unit
    tokens_mask, island_moves, alone = t.tokens_mask, t.island_moves, t.alone
    values, next_move, next_key = memo.value, memo.move, memo.then
    joker_cap = min(seat.jokers, ctx.weights.max_jokers)
    island_weight = ctx.weights.island
    stacks = ctx.island_stacks
    done = list(seat.built)
    dirs = list(seat.direction)
    # Bit i of match[p]: line i's next segment (either end, if unstarted) needs a p; and of
    # jokers_fit: a joker is worth spending there. The search only looks at those lines.
    match = [0] * 7
    jokers_fit = 0
    for line, (d, way) in enumerate(zip(done, dirs, strict=True)):
        for face in _faces(lay.pips[line], way, d):
            match[face] |= 1 << line
        jokers_fit |= jokable[line][d] << line
    path: list[Move] = []
    clock = time.perf_counter

    def visit(
        n: int,
        last: int,
        step: int,
        used: int,
        jokers: int,
        cost: int,
        key: int,
        mine: int,
        jokers_fit: int,
    ) -> float:
        # Of equal plans, the first in candidates order: the one ending here (rank -1), else
        # the one whose next move is the first among its siblings.
        top, top_rank, top_child = -math.inf, -1, 0
        top_move: Move | None = None
        submitted = n and submit[n][used]
        if submitted:
            code = key & tokens_mask
            gain = gains.get(code)
            if gain is None:
                gain = gains[code] = _board_gain(ctx, done)
            top = gain - cost * island_weight
            top -= jokers * hold
            top += columns[n]
            if n == 1:
                top += hold
            if top > found.value:
                found.value, found.path = top, path.copy()
        if deadline is not None and clock() > deadline:
            raise _OutOfTime
        if not feasible[n + 1][used]:
            values[key] = top
            return top
        can_open = feasible[n + 1][used + 1]
        joker_ok = jokers < joker_cap
        # A last worker sent to the island only loses VP on this plan, already valued, unless
        # its column is worth more than the island costs.
        to_island = not (
            submitted
            and hold >= 0
            and not feasible[n + 2][used]
            and n < len(COLORS)
            and columns[n + 1] - island_weight <= columns[n] + (hold if n == 1 else 0)
        )
        for color in starts if n == 0 else alone[last + step]:
            die = dice[color]
            # `first`: the rank of the colour in candidates order, where red comes before black.
            if n:
                base, st, first = key + worker_unit, step, 0
            elif color == 0:
                base, st, first = key + worker_unit, 1, 0
            else:
                base, st, first = key + worker_unit + black_first, -1, 1
            lines = match[die] | jokers_fit if joker_ok else match[die]
            if not can_open:
                lines &= mine
            while lines:
                bit = lines & -lines
                lines ^= bit
                line = line_of[bit]
                d, way = done[line], dirs[line]
                for pip, after, flips, delta, joker_flip, order, moves in options[line][way][d]:
                    if pip == die:
                        joker = False
                        child = base + delta
                    elif joker_ok and jokable[line][d]:
                        joker = True
                        child = base + delta + joker_unit
                    else:
                        continue
                    move = moves[color][joker]
                    value = values.get(child)
                    if value is None:
                        for face in flips:
                            match[face] ^= bit
                        done[line] = d + 1
                        dirs[line] = after
                        path.append(move)
                        value = visit(
                            n + 1,
                            color,
                            st,
                            used + (not mine & bit),
                            jokers + joker,
                            cost,
                            child,
                            mine | bit,
                            jokers_fit ^ joker_flip,
                        )
                        path.pop()
                        done[line] = d
                        dirs[line] = way
                        for face in flips:
                            match[face] ^= bit
                    if value > top or (value == top and first << 6 | order < top_rank):
                        top, top_rank, top_move, top_child = value, first << 6 | order, move, child
            if not to_island:
                continue
            extra = 1
            if stacks is None:
                child = base
            else:
                face = die - 1
                stacks[face] += 1
                extra = min(stacks[face], ADVENTURE_CAP)
                child = base + face_unit[face]
            move = island_moves[color]
            value = values.get(child)
            if value is None:
                path.append(move)
                value = visit(n + 1, color, st, used, jokers, cost + extra, child, mine, jokers_fit)
                path.pop()
            if stacks is not None:
                stacks[face] -= 1
            if value > top or (value == top and first << 6 < top_rank):
                top, top_rank, top_move, top_child = value, first << 6, move, child
        values[key] = top
        if top_move is not None:
            next_move[key] = top_move
            next_key[key] = top_child
        return top

    return visit(0, -1, 0, 0, 0, 0, 0, 0, jokers_fit)


def _dive(ctx: _Ctx) -> _Found:
    """A greedy plan, one best-valued placement after another: the fallback of a short budget."""
    seat = ctx.seat
    stacks = None if ctx.island_stacks is None else ctx.island_stacks.copy()
    draft, cost = Draft(), 0
    found = _Found()
    path: list[Move] = []
    while True:
        if can_submit(seat, draft):
            value = _value(ctx, draft, cost)
            if value > found.value:
                found.value, found.path = value, path.copy()
        options = _next_steps(ctx, draft, cost, stacks)
        if not options:
            return found
        _, extra, move, draft = max(options, key=lambda o: o[0])
        cost += extra
        path.append(move)
        if move[1] == ISLAND and stacks is not None:
            stacks[seat.dice[move[0]] - 1] += 1


def _next_steps(
    ctx: _Ctx, draft: Draft, cost: int, stacks: list[int] | None
) -> list[tuple[float, int, Move, Draft]]:
    """Each worthwhile next placement: the plan's value after it, its island cost, the move and
    the draft it makes."""
    seat, out = ctx.seat, []
    for move in candidates(seat, draft):
        color, line, _, joker = move
        if joker and not _worth_joker(ctx, draft, line):
            continue
        extra = _island_cost(seat.dice[color], stacks) if line == ISLAND else 0
        nxt = draft.copy()
        nxt.add(*move)
        out.append((_value(ctx, nxt, cost + extra), extra, move, nxt))
    return out


CASUAL_NOISE = 2.0
"""Spread (VP) of the noise the casual level adds to each placement's value."""


def greedy_plan(view: dict[str, Any], seat: int) -> Plan:
    """The best-looking next placement, one after another: the benchmarks' greedy baseline."""
    ctx = _context(view, seat, Weights())
    return _plan(ctx, _casual(ctx, None))


def _casual(ctx: _Ctx, rng: Random | None) -> _Found:
    """A beginner's plan: the best-looking next placement, one after another, misjudged by
    seeded noise (none without `rng`); it stops once stopping looks best."""
    seat = ctx.seat
    stacks = None if ctx.island_stacks is None else ctx.island_stacks.copy()
    draft, cost = Draft(), 0
    path: list[Move] = []
    while True:
        options: list[tuple[float, int, Move, Draft]] = []
        if can_submit(seat, draft):
            options.append((_value(ctx, draft, cost), 0, (-1, ISLAND, 0, False), draft))
        for value, extra, move, nxt in _next_steps(ctx, draft, cost, stacks):
            if rng is not None:
                value += rng.gauss(0.0, CASUAL_NOISE)
            options.append((value, extra, move, nxt))
        _, extra, move, nxt = max(options, key=lambda o: o[0])
        if move[0] < 0:
            return _Found(path=path)
        draft = nxt
        cost += extra
        path.append(move)
        if move[1] == ISLAND and stacks is not None:
            stacks[seat.dice[move[0]] - 1] += 1


def _value(ctx: _Ctx, draft: Draft, island_cost: int) -> float:
    """Estimated worth of ending the plan at `draft`, as the search values it."""
    placed = [draft.progress.get(line, 0) for line in range(len(ctx.lay.line_ids))]
    code = sum(k << 3 * line for line, k in enumerate(placed))
    gain = ctx.gains.get(code)
    if gain is None:
        after = [b + k for b, k in zip(ctx.seat.built, placed, strict=True)]
        gain = ctx.gains[code] = _board_gain(ctx, after)
    value = gain - island_cost * ctx.weights.island
    value -= draft.jokers_used * ctx.joker_hold
    value += ctx.columns[draft.count]
    if draft.count == 1:
        value += ctx.joker_hold
    return value


def _island_cost(die: int, stacks: list[int] | None) -> int:
    """VP one more island worker with this die would cost, before it joins its stack."""
    return 1 if stacks is None else min(stacks[die - 1] + 1, ADVENTURE_CAP)


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
