"""Ratings with openskill's Plackett-Luce model, derived from the results rows in date order.

Per server and game (and scope 0 for all servers). AI seats are not rated and rate no one; a
person whose seat was handed to the AI counts as last. Rebuilding from scratch gives the same
numbers as the incremental updates, because both replay the same rows in the same order.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
PROVISIONAL_SIGMA = 6.5
"""A rating stays provisional while its uncertainty is at least this (about ten rated games)."""
GLOBAL = 0
START, SCALE = 1500, 40
"""A newcomer's conservative rating (0 in openskill's units) shows as START."""


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float
    sigma: float
    games: int

    @property
    def conservative(self) -> float:
        """What leaderboards sort by: mu − 3·sigma."""
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        return self.sigma >= PROVISIONAL_SIGMA

    @property
    def shown(self) -> int:
        """The rating as players read it: the conservative rating on a scale where a new player
        stands at 1,500."""
        return display(self.conservative)


def display(conservative: float) -> int:
    """mu − 3·sigma on the familiar scale: 1,500 for a newcomer, about 40 points a unit."""
    return round(START + SCALE * conservative)


def fresh() -> Rating:
    start = MODEL.rating()
    return Rating(start.mu, start.sigma, 0)


def participants(rows: Sequence[dict[str, Any]]) -> list[tuple[int, int]]:
    """(user, rank) of the people a finished game rates; empty when fewer than two people played."""
    last = max((r["rank"] for r in rows), default=0) + 1
    people = [
        (r["user_id"], last if r["replaced_by_ai"] else r["rank"])
        for r in rows
        if r["user_id"] is not None and (not r["is_ai"] or r["replaced_by_ai"])
    ]
    return people if len(people) >= 2 else []


def rate(current: dict[int, Rating], people: list[tuple[int, int]]) -> dict[int, Rating]:
    """New ratings of `people` (user, rank) after one game; ties share a rank."""
    teams = [[MODEL.rating(mu=current[u].mu, sigma=current[u].sigma)] for u, _ in people]
    ranks = [float(rank) for _, rank in people]
    rated = MODEL.rate(teams, ranks=ranks)
    return {
        user: Rating(team[0].mu, team[0].sigma, current[user].games + 1)
        for (user, _), team in zip(people, rated, strict=True)
    }
