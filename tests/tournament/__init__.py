"""Tests of the pure tournament logic; `game` builds a table from results listed best first."""

from itertools import count

from bot.service.tournament import HeatGame, SeatResult

_fillers = count(1000)


def game(heat: int, *rows: tuple[int | None, float, float], size: int | None = None) -> HeatGame:
    """A table of `heat` from (player, primary, secondary) rows in finishing order; a None
    player, and any seats added to reach `size`, are fresh filler players scoring (0, 0)."""
    rows_ = list(rows) + [(None, 0, 0)] * ((size or len(rows)) - len(rows))
    seats = [
        SeatResult(
            player=next(_fillers) if player is None else player,
            rank=i + 1,
            primary=primary,
            secondary=secondary,
        )
        for i, (player, primary, secondary) in enumerate(rows_)
    ]
    return HeatGame(heat=heat, table_size=len(seats), seats=seats)
