"""Semifinal seeding of heat winners, alternates by margin of defeat, and the final field."""

import math
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from itertools import groupby
from typing import Any

from pydantic import BaseModel, ConfigDict

from .margins import average_finish, margin_of_defeat, margin_of_victory, num, ratio
from .models import HeatGame, Margin, SeatResult

Roll = Callable[[int], float]
"""A die for one player: called only for players tied on every other key; higher wins."""

MAX_ROLL_OFFS = 20
"""A group still tied after this many re-rolls means a broken die, not bad luck."""

SEMIFINAL_TABLES = 5
"""The seed's semifinal: five tables, whose winners plus a sixth player make the final."""

History = list[tuple[HeatGame, SeatResult]]
_ORDINALS = ("first", "second", "third")


class Tiebreak(BaseModel):
    """One key of a ranking: its name, the value compared, and the arithmetic behind it."""

    model_config = ConfigDict(frozen=True)

    name: str
    value: Any
    explain: str


class Entry(BaseModel):
    """A ranked player: keys in the order applied, and the tuple they sort by (ascending)."""

    model_config = ConfigDict(frozen=True)

    player: int
    keys: tuple[Tiebreak, ...]
    sort_key: tuple[Any, ...]
    rolls: tuple[float, ...] = ()

    def explain(self) -> str:
        """One line per key, for the posted list of winners and alternates."""
        return "\n".join(f"{k.name}: {k.explain}" for k in self.keys)


class Seeding(BaseModel):
    """Ordered winners and alternates, the semifinal field, and every roll used (to replay)."""

    model_config = ConfigDict(frozen=True)

    winners: tuple[Entry, ...]
    alternates: tuple[Entry, ...]
    field: tuple[int, ...]
    rolls: dict[int, tuple[float, ...]]


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, … 11th, 12th, 13th, 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def replay(rolls: Mapping[int, Sequence[float]]) -> Roll:
    """A die that gives back recorded rolls, each player's in order, to reproduce a seeding."""
    queues = {player: list(values) for player, values in rolls.items()}

    def roll(player: int) -> float:
        if not queues.get(player):
            raise ValueError(f"no recorded roll left for player {player}")
        return queues[player].pop(0)

    return roll


def semifinal_size(n_winners: int, n_alternates: int) -> list[int]:
    """Semifinal table sizes (seats = their sum): 5×5 with 25 players present, else 5×4;
    smaller fields get fewer 4-player tables (5 each if everyone still gets a seat)."""
    if n_winners < 0 or n_alternates < 0:
        raise ValueError("negative player count")
    available = n_winners + n_alternates
    if available < 4:
        raise ValueError(f"{available} players cannot fill a semifinal table of 4")
    # Tables before table size: the seed plays 5×4 rather than 4×5, keeping five finalists;
    # 25 or more present gives 5×5 (the top 25 winners when there are more).
    tables = min(SEMIFINAL_TABLES, available // 4)
    return [5 if available >= 5 * tables else 4] * tables


def _histories(games: Iterable[HeatGame]) -> dict[int, History]:
    """Each player's games in heat order; a player sits at one table per heat at most."""
    out: dict[int, History] = {}
    for game in sorted(games, key=lambda g: g.heat):
        for seat in game.seats:
            history = out.setdefault(seat.player, [])
            if history and history[-1][0].heat == game.heat:
                raise ValueError(f"player {seat.player} played twice in heat {game.heat}")
            history.append((game, seat))
    return dict(sorted(out.items()))


def _later(margin: Margin | None) -> tuple[int, tuple[float, float]]:
    """Sort key for a margin that may be missing (a single game); missing ranks last."""
    return (1, (0.0, 0.0)) if margin is None else (0, margin.closeness())


def _won_nth(history: History, i: int) -> Tiebreak:
    """Whether the i-th heat entered (0-based) was won."""
    name = f"win in {_ORDINALS[i]} heat entered"
    if i >= len(history):
        return Tiebreak(name=name, value=False, explain=f"no {_ORDINALS[i]} heat entered")
    game, seat = history[i]
    result = "won" if seat.rank == 1 else f"finished {ordinal(seat.rank)}"
    return Tiebreak(name=name, value=seat.rank == 1, explain=f"heat {game.heat}: {result}")


def _winner_row(player: int, history: History) -> tuple[tuple[Any, ...], list[Tiebreak]]:
    """The seed's keys for a heat winner, and the ascending tuple they sort by."""
    wins = [game for game, seat in history if seat.rank == 1]
    losses = [game for game, seat in history if seat.rank != 1]
    first, second, third = (_won_nth(history, i) for i in range(3))
    heats = ("heats " if len(wins) > 1 else "heat ") + ", ".join(str(g.heat) for g in wins)
    count = Tiebreak(
        name="wins",
        value=len(wins),
        explain=f"{len(wins)} of {len(history)} heats entered (won {heats})",
    )
    mv = margin_of_victory(wins[0], player)
    margin = Tiebreak(
        name="margin of victory",
        value=mv.value,
        explain=f"first win, heat {wins[0].heat}: {mv.explain}",
    )
    # The second-best game: a second win if there is one, else the best loss; a winner of a
    # single heat has none and so ranks after winners who played two or more heats.
    m2: Margin | None
    if len(wins) >= 2:
        m2 = margin_of_victory(wins[1], player)
        text = f"second win, heat {wins[1].heat}: {m2.explain}"
    elif losses:
        defeats = [(margin_of_defeat(g, player), g.heat) for g in losses]
        m2, heat = min(defeats, key=lambda d: (d[0].closeness(), d[1]))
        text = f"best other game, heat {heat}, margin of defeat: {m2.explain}"
    else:
        m2, text = None, "single heat entered: ranks after winners who played two or more"
    second_game = Tiebreak(
        name="second-best game", value=None if m2 is None else m2.value, explain=text
    )
    w, runner_up = wins[0].by_rank()[:2]
    cash, cash_text = ratio(w.secondary, runner_up.secondary)
    cash_key = Tiebreak(
        name="secondary ratio", value=cash, explain=f"first win, heat {wins[0].heat}: {cash_text}"
    )
    size = Tiebreak(
        name="table size",
        value=wins[0].table_size,
        explain=f"first win, heat {wins[0].heat}: {wins[0].table_size} players",
    )
    avg, avg_text = average_finish([seat.rank for _, seat in history])
    finish = Tiebreak(name="average finish", value=avg, explain=f"{avg_text} (lower is better)")
    keys = [first, count, second, third, margin, second_game, cash_key, size, finish]
    sort_key = (
        not first.value,
        -len(wins),
        not second.value,
        not third.value,
        -mv.value,
        _later(m2),
        -cash,
        -wins[0].table_size,
        avg,
    )
    return sort_key, keys


def _defeat_row(player: int, history: History) -> tuple[tuple[Any, ...], list[Tiebreak]]:
    """A non-winner's keys: best margin of defeat, then the same ties as a margin of victory."""
    games = []
    for game, seat in history:
        m = margin_of_defeat(game, player)
        cash, cash_text = ratio(seat.secondary, game.winner().secondary)
        games.append((m, cash, cash_text, game, seat))
    # "The heat that gives the highest number"; equal numbers fall to the same later ties.
    games.sort(key=lambda g: (g[0].closeness(), -g[1], -g[3].table_size, g[3].heat))
    m, cash, cash_text, game, seat = games[0]
    where = f"heat {game.heat}, {ordinal(seat.rank)} of {game.table_size}"
    best = Tiebreak(name="margin of defeat", value=m.value, explain=f"best, {where}: {m.explain}")
    m2: Margin | None = None
    if len(games) > 1:
        m2, _, _, game2, seat2 = games[1]
        where2 = f"heat {game2.heat}, {ordinal(seat2.rank)} of {game2.table_size}"
        second_game = Tiebreak(
            name="second-best game", value=m2.value, explain=f"{where2}: {m2.explain}"
        )
    else:
        second_game = Tiebreak(
            name="second-best game", value=None, explain="single game: ranks after two or more"
        )
    cash_key = Tiebreak(name="secondary ratio", value=cash, explain=f"{where}: {cash_text}")
    size = Tiebreak(
        name="table size", value=game.table_size, explain=f"{where}: {game.table_size} players"
    )
    sort_key = (m.closeness(), _later(m2), -cash, -game.table_size)
    return sort_key, [best, second_game, cash_key, size]


def _roll_off(
    tied: list[int], roll: Roll | None, rolls: dict[int, list[float]], depth: int = 0
) -> list[int]:
    """Order players tied on every key by a high roll, re-rolling those who tie again."""
    if roll is None:
        raise ValueError(f"players {tied} tie on every key; a roll is needed")
    if depth >= MAX_ROLL_OFFS:
        raise ValueError(f"players {tied} still tie after {MAX_ROLL_OFFS} rolls")
    for player in tied:
        value = float(roll(player))
        if math.isnan(value):
            raise ValueError(f"roll for player {player} is not a number")
        rolls.setdefault(player, []).append(value)
    out: list[int] = []
    by_roll = sorted(tied, key=lambda p: -rolls[p][-1])
    for _, group in groupby(by_roll, key=lambda p: rolls[p][-1]):
        again = list(group)
        out.extend(again if len(again) == 1 else _roll_off(again, roll, rolls, depth + 1))
    return out


def _rank(
    rows: Mapping[int, tuple[tuple[Any, ...], list[Tiebreak]]], roll: Roll | None, limit: int | None
) -> tuple[Entry, ...]:
    """Sort by the keys; roll off full ties that start within the first `limit` places."""
    players = sorted(rows, key=lambda p: rows[p][0])  # stable: full ties stay in player order
    rolls: dict[int, list[float]] = {}
    order: list[int] = []
    for _, group in groupby(players, key=lambda p: rows[p][0]):
        tied = list(group)
        if len(tied) > 1 and (limit is None or len(order) < limit):
            tied = _roll_off(tied, roll, rolls)
        order.extend(tied)
    entries = []
    for player in order:
        sort_key, keys = rows[player]
        used = tuple(rolls.get(player, ()))
        text = ", then ".join(num(r) for r in used) if used else "not needed"
        dice = Tiebreak(name="roll", value=used, explain=text)
        entries.append(
            Entry(
                player=player,
                keys=(*keys, dice),
                sort_key=(*sort_key, tuple(-r for r in used)),
                rolls=used,
            )
        )
    return tuple(entries)


def rank_alternates(
    games: Sequence[HeatGame],
    roll: Roll | None = None,
    absent: Collection[int] = (),
    limit: int | None = None,
) -> tuple[Entry, ...]:
    """Players who won none of `games`, closest finish first; only ties within the first
    `limit` places are rolled off (ValueError if one needs a roll and `roll` is None)."""
    histories = _histories(games)
    rows = {
        player: _defeat_row(player, history)
        for player, history in histories.items()
        if player not in absent and all(seat.rank != 1 for _, seat in history)
    }
    return _rank(rows, roll, limit)


def seed_semifinal(
    games: Sequence[HeatGame], seats: int, roll: Roll, absent: Collection[int] = ()
) -> Seeding:
    """Order every present heat winner by the seed's tiebreaks, and every non-winner by
    margin of defeat; the field is the top winners, topped up with alternates, up to `seats`."""
    if seats < 0:
        raise ValueError("negative seat count")
    histories = {p: h for p, h in _histories(games).items() if p not in absent}
    winner_rows = {
        p: _winner_row(p, h) for p, h in histories.items() if any(s.rank == 1 for _, s in h)
    }
    winners = _rank(winner_rows, roll, None)
    alternates = rank_alternates(games, roll, absent=set(absent) | set(winner_rows))
    field = [e.player for e in winners[:seats]]
    field += [e.player for e in alternates[: seats - len(field)]]
    rolls = {e.player: e.rolls for e in (*winners, *alternates) if e.rolls}
    return Seeding(winners=winners, alternates=alternates, field=tuple(field), rolls=rolls)


def final_field(
    semifinal_games: Sequence[HeatGame], roll: Roll | None = None, absent: Collection[int] = ()
) -> list[int]:
    """The present semifinal winners in table order, then the present non-winners with the
    highest margins of defeat, one for the 6th seat and one for each absent winner; `roll` is
    needed only if a place is tied on every key."""
    players = [s.player for g in semifinal_games for s in g.seats]
    if len(set(players)) != len(players):
        raise ValueError("a player sits at two semifinal tables")
    # Heat numbers mean nothing in the semifinal; one shared number keeps _histories simple.
    games = [g.model_copy(update={"heat": 1}) for g in semifinal_games]
    winners = [g.winner().player for g in semifinal_games]
    present = [w for w in winners if w not in absent]
    seats = len(winners) + 1 - len(present)
    others = rank_alternates(games, roll, absent=absent, limit=seats)
    if not games or len(others) < seats:
        raise ValueError("too few semifinal players present to fill the final")
    return present + [e.player for e in others[:seats]]
