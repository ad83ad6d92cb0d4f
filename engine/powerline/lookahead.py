"""The strong level's look one round ahead: which chart column to spend, judged by how well the
board and chart it leaves play next round's sampled dice."""

from collections.abc import Callable, Sequence
from random import Random
from time import perf_counter
from typing import Any

from engine.powerline.board import COLORS, charts
from engine.powerline.planning import ISLAND

Move = tuple[int, int, int, bool]
Search = Callable[[dict[str, Any]], tuple[float, list[Move]]]
"""The round's search on a view: the best plan's value and its moves."""


def look_ahead(
    view: dict[str, Any],
    seat: int,
    search: Search,
    rng: Random,
    keep: int,
    samples: int,
    deadline: float | None = None,
) -> list[Move] | None:
    """Of the best plans on each column (the `keep` best-valued), the one whose value plus the
    mean best value of the next round over `samples` sampled rolls is highest; None when there
    is no choice to make or the deadline passes first."""
    chart = view["seats"][seat]["chart"]
    if view["round"] >= view["rounds"] or sum(1 for c in chart if c) <= 1:
        return None
    plans = []
    for n, left in enumerate(chart, start=1):
        if left:
            only = [c if i == n - 1 else 0 for i, c in enumerate(chart)]
            value, path = search(with_seat(view, seat, chart=only))
            if path:
                plans.append((value, path))
    plans.sort(key=lambda p: -p[0])
    plans = plans[:keep]
    if len(plans) < 2:
        return None
    rolls = [{c: rng.randint(1, 6) for c in COLORS} for _ in range(samples)]
    best, best_path = -float("inf"), None
    for value, path in plans:
        later = next_view(view, seat, path)
        total = 0.0
        for roll in rolls:
            if deadline is not None and perf_counter() > deadline:
                return None
            total += search({**later, "dice": roll})[0]
        if value + total / samples > best:
            best, best_path = value + total / samples, path
    return best_path


def with_seat(view: dict[str, Any], seat: int, **changes: Any) -> dict[str, Any]:
    """The view with some of `seat`'s fields replaced."""
    seats = list(view["seats"])
    seats[seat] = {**seats[seat], **changes}
    return {**view, "seats": seats}


def next_view(view: dict[str, Any], seat: int, path: Sequence[Move]) -> dict[str, Any]:
    """The view next round once `seat` has built `path` (its other seats as they are now)."""
    me = view["seats"][seat]
    lines = [dict(line) for line in me["lines"]]
    stacks = list(me["island_stacks"])
    jokers = me["jokers"]
    for color, line, seg, joker in path:
        jokers -= joker
        if line == ISLAND:
            if "adventure_island" in view["variants"]:
                stacks[view["dice"][COLORS[color]] - 1] += 1
            continue
        if lines[line]["direction"] == 0:
            lines[line]["direction"] = 1 if seg == 0 else -1
        lines[line]["built"] += 1
    n = len(path)
    chart = list(me["chart"])
    suns = charts().blue if "construction_limits" in view["variants"] else charts().green
    column = suns.columns[n - 1].suns
    jokers += column[len(column) - chart[n - 1]]
    chart[n - 1] -= 1
    next_scoring = view["next_scoring"]
    if view["round"] in view["scoring_after"]:
        jokers += view["jokers_above_scoring"][next_scoring - 1]
        next_scoring += 1
    later = with_seat(view, seat, lines=lines, chart=chart, jokers=jokers, island_stacks=stacks)
    return {**later, "round": view["round"] + 1, "next_scoring": next_scoring}
