"""Points by place for Swiss and round-robin events, and the standings with their tiebreaks.

Points: a win is worth 60 and last place 0 at every table size, with the places between evenly
spaced, so your points are 60 × the share of your opponents you finished ahead of:
  2 players: 60, 0            3 players: 60, 30, 0          4 players: 60, 40, 20, 0
  5 players: 60, 45, 30, 15, 0                              6 players: 60, 48, 36, 24, 12, 0
60 is the smallest win that keeps every place a whole number from 2 to 6 players. Players the
game itself could not separate share the places they span and split those places' points: two
tied for 2nd at a table of 4 take (40 + 20) ÷ 2 = 30 each. A bye is worth 30, a middle place at
any table (3rd of 5, between 2nd and 3rd of 4), never more than a win. A seat its player left
mid-game, finished by the AI, scores the points of the place it reached, marked as forfeited.

Standings order players by total points, then by the tiebreaks in `TIEBREAKS`, in that order.
"""

import random
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

WIN = 60
"""Points for first place at any table size; last place scores 0."""

BYE = 30
"""Points for a bye: the middle place at any table."""

TIEBREAKS: tuple[tuple[str, str], ...] = (
    ("points", "Points from every round: 60 for a win, 0 for last, a bye 30."),
    (
        "opponents",
        "The average points, now, of everyone you sat with (each time you sat with them); "
        "a bye adds nobody. Higher means you met the stronger players.",
    ),
    ("wins", "How many games you finished first in, a shared first included."),
    (
        "score",
        "Your game score as a share of the table winner's (40 against 50 is 0.8), "
        "averaged over your games.",
    ),
    ("roll", "A random draw made once from the event's seed, for anyone still level."),
)
"""Each column of the standings, in the order they decide, with its meaning for players."""


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat of a finished game: place 1 wins; players the game could not separate share a
    place (1, 2, 2, 4); `score` is the game's own measure (VP, cities powered)."""

    player: int
    place: int
    score: float
    forfeit: bool = False


@dataclass(frozen=True, slots=True)
class Game:
    """One table of a round, every seat's result."""

    round: int
    seats: tuple[Seat, ...]

    def __post_init__(self) -> None:
        if len(self.seats) < 2:
            raise ValueError("a game has at least 2 seats")
        if len({s.player for s in self.seats}) != len(self.seats):
            raise ValueError("a player sits twice at one table")
        places = sorted(s.place for s in self.seats)
        # Shared places count as all the places they span (1, 2, 2, 4), so a place is always
        # one more than the number of seats strictly ahead of it.
        if any(p != 1 + sum(q < p for q in places) for p in places):
            raise ValueError(f"places {places} skip or overlap (expected e.g. 1, 2, 2, 4)")


@dataclass(frozen=True, slots=True)
class Result:
    """What one round gave one player: a game's place and points, or a bye."""

    round: int
    points: Fraction
    place: int = 0
    tied: int = 1
    """How many players shared the place (1 when nobody did)."""
    table_size: int = 0
    """0 for a bye."""
    forfeit: bool = False

    @property
    def bye(self) -> bool:
        """Whether the round was a bye rather than a game."""
        return self.table_size == 0


@dataclass(frozen=True, slots=True)
class Ranked:
    """One line of the standings: the values of `TIEBREAKS` in order, and every round."""

    player: int
    points: Fraction
    opponents: Fraction
    wins: int
    score: float
    roll: float
    results: tuple[Result, ...]

    def values(self) -> tuple[Fraction, Fraction, int, float, float]:
        """The tiebreak values in the order of `TIEBREAKS`."""
        return (self.points, self.opponents, self.wins, self.score, self.roll)


@dataclass(frozen=True, slots=True)
class Ranking:
    """Standings in order, and each tiebreak's (name, words) to print with them."""

    rows: tuple[Ranked, ...]
    tiebreaks: tuple[tuple[str, str], ...] = TIEBREAKS


def place_points(place: int, tied: int, table_size: int) -> Fraction:
    """Points for each of `tied` players sharing places place … place + tied − 1 at a table."""
    if table_size < 2 or place < 1 or tied < 1 or place + tied - 1 > table_size:
        raise ValueError(f"{tied} players from place {place} do not fit a table of {table_size}")
    # Evenly spaced places average to the mean of the first and last spanned.
    last = place + tied - 1
    return Fraction(WIN * (2 * table_size - place - last), 2 * (table_size - 1))


def game_results(game: Game) -> dict[int, Result]:
    """Each seat's place points at one table."""
    size = len(game.seats)
    tied = defaultdict[int, int](int)
    for seat in game.seats:
        tied[seat.place] += 1
    return {
        s.player: Result(
            round=game.round,
            points=place_points(s.place, tied[s.place], size),
            place=s.place,
            tied=tied[s.place],
            table_size=size,
            forfeit=s.forfeit,
        )
        for s in game.seats
    }


def standings(
    games: Iterable[Game],
    byes: Mapping[int, Collection[int]],
    rng: random.Random,
    players: Collection[int] = (),
    bye_points: Fraction | int = BYE,
) -> Ranking:
    """Everyone in `players`, games or byes, ordered by points and then each of `TIEBREAKS`;
    `byes` maps a round to who sat it out. `rng` draws one roll per player, in id order."""
    if not 0 <= bye_points <= WIN:
        raise ValueError(f"a bye of {bye_points} is outside 0..{WIN}")
    games = list(games)
    results: dict[int, list[Result]] = {p: [] for p in players}
    opponents: dict[int, list[int]] = defaultdict(list)
    ratios: dict[int, list[float]] = defaultdict(list)
    for game in games:
        for player, result in game_results(game).items():
            results.setdefault(player, []).append(result)
        best = max(s.score for s in game.seats if s.place == 1)
        for a, b in combinations(game.seats, 2):
            opponents[a.player].append(b.player)
            opponents[b.player].append(a.player)
        for seat in game.seats:
            # A winner on 0 leaves nothing to divide by: everyone then did as well as they did.
            ratios[seat.player].append(seat.score / best if best else 1.0)
    for round_no, sitting_out in byes.items():
        for player in sitting_out:
            results.setdefault(player, []).append(
                Result(round=round_no, points=Fraction(bye_points))
            )
    totals = {p: sum((r.points for r in rs), Fraction(0)) for p, rs in results.items()}
    # Every player draws, in id order, so a roll does not depend on who happens to tie.
    rolls = {p: rng.random() for p in sorted(results)}
    rows = []
    for player, rs in results.items():
        met = opponents[player]
        rows.append(
            Ranked(
                player=player,
                points=totals[player],
                opponents=sum((totals[o] for o in met), Fraction(0)) / len(met)
                if met
                else Fraction(0),
                wins=sum(1 for r in rs if r.place == 1),
                score=sum(ratios[player]) / len(ratios[player]) if ratios[player] else 0.0,
                roll=rolls[player],
                results=tuple(sorted(rs, key=lambda r: r.round)),
            )
        )
    rows.sort(key=lambda r: tuple(-v for v in r.values()))
    return Ranking(rows=tuple(rows))
