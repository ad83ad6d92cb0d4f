"""Results rows when a game ends, and the ratings, leaderboards and statistics derived from them."""

import json
from datetime import datetime
from typing import Any

from bot.service import ratings
from bot.service.options import TableOptions
from bot.store.repo import Repo, ResultsRepo, SeatRow
from engine.core import Outcome


def result_rows(
    row: Any, seats: list[SeatRow], outcome: list[Outcome] | None, status: str, now: datetime
) -> list[dict[str, Any]]:
    """One row per seat; `outcome` is None for a table cancelled before it started."""
    rated = status == "finished" and TableOptions(**row.options).rated
    by_seat = {o["seat"]: o for o in outcome or []}
    rows = []
    for seat in seats:
        o = by_seat.get(seat.seat)
        rows.append(
            {
                "game_id": row.id,
                "game": row.game,
                "guild_id": row.guild_id,
                "channel_id": row.where,
                "user_id": seat.user_id,
                "seat": seat.seat,
                "name": seat.name,
                "status": status,
                "score": o["score"] if o else None,
                "rank": o["rank"] if o else None,
                "tiebreak": json.dumps(o["tiebreak"] if o else []),
                "primary_measure": o["primary"] if o else None,
                "secondary_measure": o["secondary"] if o else None,
                "players": len(seats),
                "variants": json.dumps(sorted(row.config.get("variants", []))),
                "is_ai": seat.is_ai,
                "replaced_by_ai": seat.replaced_by_ai,
                "left_game": seat.left_game,
                "rated": rated,
                "finished_at": now.isoformat(),
            }
        )
    return rows


async def record(
    repo: Repo, row: Any, seats: list[SeatRow], outcome: Any, status: str, now: datetime
) -> dict[int, tuple[int, int]]:
    """Store the results (inside the caller's transaction) and move the ratings they affect;
    each rated person's shown rating before and after, in the game's own server (or overall)."""
    results = ResultsRepo(repo)
    rows = result_rows(row, seats, outcome, status, now)
    await results.insert(rows)
    moved: dict[int, tuple[int, int]] = {}
    if rows and rows[0]["rated"]:
        scopes = [ratings.GLOBAL] + ([row.guild_id] if row.guild_id else [])
        for scope in scopes:
            moved = await _rate(results, scope, row.game, row.id, rows, now.isoformat())
    return moved


async def _rate(
    results: ResultsRepo, scope: int, game: str, game_id: int, rows: list[dict], at: str
) -> dict[int, tuple[int, int]]:
    people = ratings.participants(rows)
    if not people:
        return {}
    stored = await results.ratings(scope, game, [u for u, _ in people])
    current = {u: ratings.Rating(*stored[u]) if u in stored else ratings.fresh() for u, _ in people}
    moved = {}
    for user, new in ratings.rate(current, people).items():
        await results.save_rating(scope, game, user, game_id, new.mu, new.sigma, new.games, at)
        moved[user] = (current[user].shown, new.shown)
    return moved


async def rebuild(repo: Repo, game: str, scope: int) -> int:
    """Recompute a scope's ratings from the results rows; returns the games replayed."""
    results = ResultsRepo(repo)
    await results.clear_ratings(scope, game)
    games = await results.rated_games(game, None if scope == ratings.GLOBAL else scope)
    for rows in games:
        await _rate(results, scope, game, rows[0]["game_id"], rows, rows[0]["finished_at"])
    return len(games)
