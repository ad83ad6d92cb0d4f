"""Planning a round: which worker may go where, checked one placement at a time."""

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core import IllegalAction
from engine.powerline.actions import Placement, Plan
from engine.powerline.board import COLORS, Layout, charts, layout

ISLAND = -1


@dataclass(frozen=True, slots=True)
class Seat:
    """What the rules need to judge one seat's plan: its board, progress, chart and the dice."""

    layout: Layout
    built: tuple[int, ...]
    direction: tuple[int, ...]
    chart: tuple[int, ...]
    jokers: int
    dice: tuple[int, ...]
    line_limits: tuple[int, ...]
    vacation: bool | None
    """True: the tile is available; False: already spent; None: not in play at this table."""

    @classmethod
    def from_view(cls, view: dict[str, Any], seat: int) -> "Seat":
        """Build from `view(state, seat)`, so AI players see no more than a person would."""
        me = view["seats"][seat]
        limits = charts().blue if "construction_limits" in view["variants"] else charts().green
        vacation = me["vacation"] if view["vacation_tile"] else None
        return cls(
            layout=layout(me["board"]),
            built=tuple(line["built"] for line in me["lines"]),
            direction=tuple(line["direction"] for line in me["lines"]),
            chart=tuple(me["chart"]),
            jokers=me["jokers"],
            dice=tuple(view["dice"][c] for c in COLORS),
            line_limits=limits.line_limits,
            vacation=vacation,
        )


class Draft:
    """A plan under construction: placements so far, and what they imply for the next one."""

    __slots__ = ("count", "dirs", "island", "jokers_used", "last", "progress", "step")

    def __init__(self) -> None:
        self.count = 0
        self.step = 0
        self.last = -1
        self.progress: dict[int, int] = {}
        self.dirs: dict[int, int] = {}
        self.jokers_used = 0
        self.island = 0

    def copy(self) -> "Draft":
        d = Draft()
        d.count, d.step, d.last = self.count, self.step, self.last
        d.progress = self.progress.copy()
        d.dirs = self.dirs.copy()
        d.jokers_used, d.island = self.jokers_used, self.island
        return d

    def next_colors(self) -> tuple[int, ...]:
        """Colour indices the next worker may have: red or black first, then onward in order."""
        if self.count == 0:
            return (0, len(COLORS) - 1)
        nxt = self.last + self.step
        return (nxt,) if 0 <= nxt < len(COLORS) else ()

    def add(self, color: int, line: int, segment: int, joker: bool) -> None:
        """Record a placement already judged legal."""
        if self.count == 0:
            self.step = 1 if color == 0 else -1
        self.count += 1
        self.last = color
        if joker:
            self.jokers_used += 1
        if line == ISLAND:
            self.island += 1
            return
        if line not in self.progress:
            self.progress[line] = 0
        self.progress[line] += 1
        if line not in self.dirs:
            self.dirs[line] = 1 if segment == 0 else -1


def line_dir(seat: Seat, draft: Draft, line: int) -> int:
    d = seat.direction[line]
    return d if d else draft.dirs.get(line, 0)


def next_segments(seat: Seat, draft: Draft, line: int) -> tuple[int, ...]:
    """Segments of `line` open to the next worker: either end if unstarted, else the next one."""
    n = seat.layout.length[line]
    done = seat.built[line] + draft.progress.get(line, 0)
    if done >= n:
        return ()
    d = line_dir(seat, draft, line)
    if d == 0:
        return (0, n - 1)
    return (done,) if d > 0 else (n - 1 - done,)


def _feasible(seat: Seat, count: int, lines: int) -> bool:
    """Can a plan with `count` workers so far on `lines` lines still be completed legally?"""
    return any(
        seat.chart[n - 1] > 0 and seat.line_limits[n - 1] >= lines for n in range(max(count, 1), 7)
    )


def candidates(seat: Seat, draft: Draft) -> Iterator[tuple[int, int, int, bool]]:
    """Legal next placements as (colour, line or ISLAND, segment, joker), each still completable."""
    count = draft.count + 1
    used = len(draft.progress)
    if count > len(COLORS) or not _feasible(seat, count, used):
        return
    can_open = _feasible(seat, count, used + 1)
    jokers_left = draft.jokers_used < seat.jokers
    for color in draft.next_colors():
        die = seat.dice[color]
        yield color, ISLAND, 0, False
        for line in range(len(seat.layout.line_ids)):
            if line not in draft.progress and not can_open:
                continue
            pips = seat.layout.pips[line]
            for seg in next_segments(seat, draft, line):
                if pips[seg] == die:
                    yield color, line, seg, False
                elif jokers_left:
                    yield color, line, seg, True


def legal_next(seat: Seat, draft: Draft) -> Iterator[Placement]:
    """Every legal next placement that still leaves a way to finish the plan legally."""
    for color, line, seg, joker in candidates(seat, draft):
        yield to_placement(seat, color, line, seg, joker)


def to_placement(seat: Seat, color: int, line: int, seg: int, joker: bool) -> Placement:
    if line == ISLAND:
        return Placement(color=COLORS[color], island=True)
    return Placement(color=COLORS[color], line=seat.layout.line_ids[line], segment=seg, joker=joker)


def can_submit(seat: Seat, draft: Draft) -> bool:
    n = draft.count
    return n >= 1 and seat.chart[n - 1] > 0 and seat.line_limits[n - 1] >= len(draft.progress)


def add_placement(seat: Seat, draft: Draft, p: Placement) -> tuple[int, int]:
    """Judge one placement against the draft, record it, and return (line index, segment)."""
    lay = seat.layout
    if draft.count >= len(COLORS):
        raise IllegalAction("All six workers are already planned.")
    color = COLORS.index(p.color)
    allowed = draft.next_colors()
    if color not in allowed:
        if draft.count == 0:
            raise IllegalAction(f"Start with the red or the black worker, not the {p.color} one.")
        prev = COLORS[draft.last]
        if not allowed:
            raise IllegalAction(f"The {prev} worker was the last in your colour order.")
        raise IllegalAction(
            f"After the {prev} worker comes the {COLORS[allowed[0]]} one, not the {p.color} one."
        )
    die = seat.dice[color]
    if p.island:
        if p.joker:
            raise IllegalAction("The island needs no joker: it is always eligible.")
        draft.add(color, ISLAND, 0, False)
        return ISLAND, 0
    line = lay.line_index.get(p.line or "")
    if line is None:
        raise IllegalAction(f"There is no line {p.line}; the lines are L1 to L10.")
    n = lay.length[line]
    seg = p.segment if p.segment is not None else -1
    if not 0 <= seg < n:
        raise IllegalAction(f"{p.line} has segments 0 to {n - 1}; there is no segment {seg}.")
    options = next_segments(seat, draft, line)
    if not options:
        raise IllegalAction(f"{p.line} is already complete.")
    if seg not in options:
        a, b = (lay.station_ids[e] for e in lay.ends[line])
        if len(options) == 2:
            raise IllegalAction(
                f"{p.line} is not started: begin at segment 0 (by {a}) or {n - 1} (by {b})."
            )
        origin = a if line_dir(seat, draft, line) > 0 else b
        raise IllegalAction(
            f"The next segment of {p.line} is {options[0]} (built from {origin}), not {seg}."
        )
    need = lay.pips[line][seg]
    if p.joker:
        if need == die:
            raise IllegalAction(
                f"The {p.color} die shows {die}, as segment {seg} of {p.line} needs: "
                "keep your joker."
            )
        if draft.jokers_used >= seat.jokers:
            have = "no joker" if seat.jokers == 0 else f"only {seat.jokers} joker(s)"
            raise IllegalAction(f"You have {have} on your sun space.")
    elif need != die:
        raise IllegalAction(
            f"The {p.color} die shows {die}, segment {seg} of {p.line} needs a {need}."
        )
    if line not in draft.progress and len(draft.progress) >= max(seat.line_limits):
        raise IllegalAction(f"You may build on at most {max(seat.line_limits)} lines in a round.")
    draft.add(color, line, seg, p.joker)
    return line, seg


def check_plan(seat: Seat, plan: Plan) -> Draft:
    """Judge a whole plan; return its draft or raise IllegalAction with the first problem."""
    draft = Draft()
    for p in plan.placements:
        add_placement(seat, draft, p)
    n = draft.count
    if n == 0:
        raise IllegalAction("Place at least one worker.")
    if seat.chart[n - 1] == 0:
        raise IllegalAction(
            f"Your worker chart has no tiles left in the {n}-worker column: "
            "deploy a different number of workers."
        )
    limit = seat.line_limits[n - 1]
    if len(draft.progress) > limit:
        raise IllegalAction(
            f"With {n} worker(s) you may build on {limit} line(s) under the construction limits, "
            f"but this plan uses {len(draft.progress)}."
        )
    if plan.vacation:
        if seat.vacation is None:
            raise IllegalAction("The vacation tile is not in play at this table.")
        if not seat.vacation:
            raise IllegalAction("You have already used your vacation tile.")
        if draft.island == 0:
            raise IllegalAction("The vacation tile only helps when workers go to the island.")
    return draft


def draft_of(seat: Seat, placements: Sequence[Placement]) -> Draft:
    """The draft after `placements` (each judged in turn)."""
    draft = Draft()
    for p in placements:
        add_placement(seat, draft, p)
    return draft
