"""Margins of victory and defeat, the secondary ratio and average finish, each with arithmetic."""

import math
from collections.abc import Sequence

from .models import HeatGame, Margin

TIEBREAK_DIVISOR = 1000
"""The seed divides a tiebreak win's money difference by 1000 ($27 vs $11 → 0.016)."""


def num(x: float) -> str:
    """A measure as a person writes it: 14, not 14.0."""
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def fixed(value: float, places: int = 3) -> str:
    """A result to `places` decimals, as the seed prints margins (1.167) and finishes (2.67)."""
    return "∞" if math.isinf(value) else f"{value:.{places}f}"


def ratio(a: float, b: float) -> tuple[float, str]:
    """a / b with its arithmetic; x / 0 is infinite and 0 / 0 counts as 1 (no difference)."""
    value = (1.0 if a == 0 else math.inf) if b == 0 else a / b
    return value, f"{num(a)} / {num(b)} = {fixed(value)}"


def margin_of_victory(game: HeatGame, winner: int) -> Margin:
    """Outright: winner's primary ÷ second's; won on tiebreak: secondary difference ÷ 1000."""
    w = game.seat(winner)
    if w.rank != 1:
        raise ValueError(f"player {winner} did not win this game of heat {game.heat}")
    second = game.by_rank()[1]
    if w.primary > second.primary:
        value, text = ratio(w.primary, second.primary)
        return Margin(value=value, kind="outright", explain=text)
    value = (w.secondary - second.secondary) / TIEBREAK_DIVISOR
    text = f"({num(w.secondary)} − {num(second.secondary)}) / {TIEBREAK_DIVISOR} = {fixed(value)}"
    return Margin(value=value, kind="tiebreak", explain=text)


def margin_of_defeat(game: HeatGame, player: int) -> Margin:
    """How close a non-winner came, higher is closer: own primary ÷ the winner's; level on the
    primary it is 1 (12 / 12), with how far behind on the secondary to order level finishes."""
    p = game.seat(player)
    if p.rank == 1:
        raise ValueError(f"player {player} won this game of heat {game.heat}")
    w = game.winner()
    value, text = ratio(p.primary, w.primary)
    if w.primary > p.primary:
        return Margin(value=value, kind="outright", explain=text)
    # Level on the primary (the winner's own measure first, as in the game): closer than any
    # loss on it, however much secondary was lost; among level finishes, less behind is closer.
    behind = w.secondary - p.secondary
    text += f", lost on tiebreak by {num(w.secondary)} − {num(p.secondary)} = {num(behind)}"
    return Margin(value=1.0, kind="tiebreak", explain=text, behind=behind)


def average_finish(ranks: Sequence[int]) -> tuple[float, str]:
    """Mean finishing place over the heats entered, lower is better: (2 + 3 + 3) / 3 = 2.67."""
    if not ranks:
        raise ValueError("no heats entered")
    value = sum(ranks) / len(ranks)
    return value, f"({' + '.join(map(str, ranks))}) / {len(ranks)} = {fixed(value, 2)}"
