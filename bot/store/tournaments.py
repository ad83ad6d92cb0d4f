"""Rows of the tournament tables: tournaments, their players, their games and stored rolls."""

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from bot.store.backend import Row
from bot.store.repo import Repo

Stage = Literal["registration", "heat", "semifinal", "final", "finished"]
"""The stages the tournaments table allows."""


@dataclass(frozen=True, slots=True)
class TournamentRow:
    id: int
    guild_id: int
    channel_id: int
    game: str
    name: str
    organiser_id: int
    stage: str
    heats: int
    heats_started: int
    config: dict[str, Any]
    options: dict[str, Any]
    seed: int


@dataclass(frozen=True, slots=True)
class TournamentGameRow:
    """One table of a tournament: its place in the bracket and the game played there."""

    stage: str
    heat: int
    table_no: int
    game_id: int


def _tournament(row: Row) -> TournamentRow:
    return TournamentRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        game=row["game"],
        name=row["name"],
        organiser_id=row["organiser_id"],
        stage=row["stage"],
        heats=row["heats"],
        heats_started=row["heats_started"],
        config=json.loads(row["config"]),
        options=json.loads(row["options"]),
        seed=row["seed"],
    )


class TournamentsRepo:
    """All SQL of the tournament tables, on the session of the `Repo` block it runs in."""

    def __init__(self, repo: Repo) -> None:
        self.repo = repo

    async def tournament(self, tid: int) -> TournamentRow | None:
        row = await self.repo.one("SELECT * FROM tournaments WHERE id = ?", (tid,))
        return _tournament(row) if row else None

    async def insert_tournament(
        self,
        guild_id: int,
        channel_id: int,
        game: str,
        name: str,
        organiser_id: int,
        heats: int,
        config: dict[str, Any],
        options: dict[str, Any],
        seed: int,
        now: datetime,
    ) -> int:
        """A tournament in registration; returns its new id."""
        return await self.repo.insert(
            "INSERT INTO tournaments (guild_id, channel_id, game, name, organiser_id, stage, "
            "heats, config, options, seed, created_at) VALUES (?, ?, ?, ?, ?, 'registration', "
            "?, ?, ?, ?, ?)",
            (
                guild_id,
                channel_id,
                game,
                name,
                organiser_id,
                heats,
                json.dumps(config),
                json.dumps(options),
                seed,
                now.isoformat(),
            ),
        )

    async def set_stage(self, tid: int, stage: Stage) -> None:
        await self.repo.execute("UPDATE tournaments SET stage = ? WHERE id = ?", (stage, tid))

    async def start_heat(self, tid: int, heat: int) -> None:
        """Move the tournament into heat number `heat`."""
        await self.repo.execute(
            "UPDATE tournaments SET stage = 'heat', heats_started = ? WHERE id = ?", (heat, tid)
        )

    async def add_player(self, tid: int, user_id: int, name: str, now: datetime) -> None:
        """Register a person; one already registered keeps their name and place in line."""
        await self.repo.execute(
            "INSERT INTO tournament_players VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (tid, user_id, name, now.isoformat()),
        )

    async def remove_player(self, tid: int, user_id: int) -> None:
        await self.repo.execute(
            "DELETE FROM tournament_players WHERE tournament_id = ? AND user_id = ?",
            (tid, user_id),
        )

    async def player_count(self, tid: int) -> int:
        row = await self.repo.one(
            "SELECT count(*) AS n FROM tournament_players WHERE tournament_id = ?", (tid,)
        )
        return int(row["n"]) if row else 0

    async def players(self, tid: int) -> dict[int, str]:
        """Registered people's names by user id, in the order they registered."""
        rows = await self.repo.all(
            "SELECT user_id, name FROM tournament_players WHERE tournament_id = ? "
            "ORDER BY registered_at, user_id",
            (tid,),
        )
        return {r["user_id"]: r["name"] for r in rows}

    async def add_game(self, tid: int, stage: str, heat: int, table_no: int, game_id: int) -> None:
        await self.repo.execute(
            "INSERT INTO tournament_games VALUES (?, ?, ?, ?, ?)",
            (tid, stage, heat, table_no, game_id),
        )

    async def game_ids(self, tid: int, stage: str, heat: int | None = None) -> list[int]:
        """The games of a stage (of one heat, with `heat`) by heat and table."""
        sql = "SELECT game_id FROM tournament_games WHERE tournament_id = ? AND stage = ?"
        args: tuple[int | str, ...] = (tid, stage)
        if heat is not None:
            sql += " AND heat = ?"
            args += (heat,)
        rows = await self.repo.all(sql + " ORDER BY heat, table_no", args)
        return [r["game_id"] for r in rows]

    async def stage_games(self, tid: int, stage: str) -> list[tuple[int, int]]:
        """The games of a stage as (game id, heat), by heat and table."""
        rows = await self.repo.all(
            "SELECT game_id, heat FROM tournament_games "
            "WHERE tournament_id = ? AND stage = ? ORDER BY heat, table_no",
            (tid, stage),
        )
        return [(r["game_id"], r["heat"]) for r in rows]

    async def bracket(self, tid: int) -> list[TournamentGameRow]:
        """Every table so far: heats, then the semifinal, then the final, by heat and table."""
        rows = await self.repo.all(
            "SELECT stage, heat, table_no, game_id FROM tournament_games "
            "WHERE tournament_id = ? ORDER BY CASE stage WHEN 'heat' THEN 0 "
            "WHEN 'semifinal' THEN 1 ELSE 2 END, heat, table_no",
            (tid,),
        )
        return [
            TournamentGameRow(
                stage=r["stage"], heat=r["heat"], table_no=r["table_no"], game_id=r["game_id"]
            )
            for r in rows
        ]

    async def organiser_of_game(self, game_id: int) -> int | None:
        """The organiser of the tournament a game belongs to; None for a game of none."""
        row = await self.repo.one(
            "SELECT t.organiser_id FROM tournament_games g JOIN tournaments t "
            "ON t.id = g.tournament_id WHERE g.game_id = ?",
            (game_id,),
        )
        return row["organiser_id"] if row else None

    async def rolls(self, tid: int, stage: str) -> list[tuple[int, float]]:
        """The stored tiebreak rolls of a stage as (user id, roll)."""
        rows = await self.repo.all(
            "SELECT user_id, roll FROM tournament_rolls WHERE tournament_id = ? AND stage = ?",
            (tid, stage),
        )
        return [(r["user_id"], r["roll"]) for r in rows]

    async def save_roll(self, tid: int, stage: str, user_id: int, roll: float) -> None:
        """Store a person's roll of a stage, over one stored before."""
        await self.repo.execute(
            "INSERT INTO tournament_rolls VALUES (?, ?, ?, ?) ON CONFLICT "
            "(tournament_id, stage, user_id) DO UPDATE SET roll = excluded.roll",
            (tid, stage, user_id, roll),
        )
