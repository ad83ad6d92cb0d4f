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
    format: str = "wbc"
    """"wbc" (heats, semifinal, final), "swiss" or "round_robin" (rounds stored as heats)."""
    pods: list[int] | None = None
    """The table sizes a Swiss or round-robin round may use; None for the WBC format."""
    signup_role_id: int | None = None
    champion_role_id: int | None = None
    event_id: int | None = None
    """The server's scheduled event of the tournament, if the bot could make one."""
    starts_at: datetime | None = None
    announced: bool = False


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
        format=row["format"],
        pods=json.loads(row["pods"]) if row["pods"] else None,
        signup_role_id=row["signup_role_id"],
        champion_role_id=row["champion_role_id"],
        event_id=row["event_id"],
        starts_at=datetime.fromisoformat(row["starts_at"]) if row["starts_at"] else None,
        announced=bool(row["announced"]),
    )


@dataclass(frozen=True, slots=True)
class CheckInRow:
    """A check-in window before a stage; who has not checked in when it closes is absent."""

    tournament_id: int
    stage: str
    heat: int
    closes_at: datetime
    message_id: int | None
    closed: bool


def _check_in(row: Row) -> CheckInRow:
    return CheckInRow(
        tournament_id=row["tournament_id"],
        stage=row["stage"],
        heat=row["heat"],
        closes_at=datetime.fromisoformat(row["closes_at"]),
        message_id=row["message_id"],
        closed=bool(row["closed"]),
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

    async def update(self, tid: int, **fields: Any) -> None:
        """Set columns of a tournament (format, roles, event, announced)."""
        values = [
            json.dumps(v)
            if isinstance(v, list)
            else v.isoformat()
            if isinstance(v, datetime)
            else v
            for v in fields.values()
        ]
        sets = ", ".join(f"{k} = ?" for k in fields)
        await self.repo.execute(f"UPDATE tournaments SET {sets} WHERE id = ?", (*values, tid))

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
            "INSERT INTO tournament_players (tournament_id, user_id, name, registered_at) "
            "VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
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

    async def players(self, tid: int, active: bool = False) -> dict[int, str]:
        """Registered people's names by user id, in the order they registered (with `active`,
        only those who have not withdrawn)."""
        rows = await self.repo.all(
            "SELECT user_id, name FROM tournament_players WHERE tournament_id = ? "
            + ("AND withdrawn_at IS NULL " if active else "")
            + "ORDER BY registered_at, user_id",
            (tid,),
        )
        return {r["user_id"]: r["name"] for r in rows}

    async def withdrawn(self, tid: int) -> set[int]:
        """Who registered and then withdrew."""
        rows = await self.repo.all(
            "SELECT user_id FROM tournament_players "
            "WHERE tournament_id = ? AND withdrawn_at IS NOT NULL",
            (tid,),
        )
        return {r["user_id"] for r in rows}

    async def claim_announcement(self, tid: int) -> bool:
        """True for the one caller that announces the champion, whatever processes race."""
        changed = await self.repo.execute(
            "UPDATE tournaments SET announced = 1 WHERE id = ? AND announced = 0", (tid,)
        )
        return changed > 0

    async def withdraw(self, tid: int, user_id: int, now: datetime) -> bool:
        """Mark a player withdrawn; False if they were not registered or already withdrew."""
        changed = await self.repo.execute(
            "UPDATE tournament_players SET withdrawn_at = ? "
            "WHERE tournament_id = ? AND user_id = ? AND withdrawn_at IS NULL",
            (now.isoformat(), tid, user_id),
        )
        return changed > 0

    async def open_check_in(self, tid: int, stage: str, heat: int, closes_at: datetime) -> bool:
        """Open the check-in window of a stage; False if it was opened before."""
        changed = await self.repo.execute(
            "INSERT INTO tournament_checkins (tournament_id, stage, heat, closes_at) "
            "VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (tid, stage, heat, closes_at.isoformat()),
        )
        return changed > 0

    async def check_in_row(self, tid: int, stage: str, heat: int) -> CheckInRow | None:
        row = await self.repo.one(
            "SELECT * FROM tournament_checkins WHERE tournament_id = ? AND stage = ? AND heat = ?",
            (tid, stage, heat),
        )
        return _check_in(row) if row else None

    async def check_in_message(self, tid: int, stage: str, heat: int, message_id: int) -> None:
        await self.repo.execute(
            "UPDATE tournament_checkins SET message_id = ? "
            "WHERE tournament_id = ? AND stage = ? AND heat = ?",
            (message_id, tid, stage, heat),
        )

    async def close_check_in(self, tid: int, stage: str, heat: int) -> bool:
        """Close a window; False if it was closed already (another process closed it)."""
        changed = await self.repo.execute(
            "UPDATE tournament_checkins SET closed = 1 "
            "WHERE tournament_id = ? AND stage = ? AND heat = ? AND closed = 0",
            (tid, stage, heat),
        )
        return changed > 0

    async def due_check_ins(self, now: datetime) -> list[CheckInRow]:
        """Open windows whose time is up."""
        rows = await self.repo.all(
            "SELECT * FROM tournament_checkins WHERE closed = 0 AND closes_at <= ?",
            (now.isoformat(),),
        )
        return [_check_in(r) for r in rows]

    async def check_in(self, tid: int, stage: str, heat: int, user_id: int, now: datetime) -> bool:
        """Record a player present; False if they had checked in already."""
        changed = await self.repo.execute(
            "INSERT INTO tournament_present VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (tid, stage, heat, user_id, now.isoformat()),
        )
        return changed > 0

    async def present(self, tid: int, stage: str, heat: int) -> set[int]:
        rows = await self.repo.all(
            "SELECT user_id FROM tournament_present "
            "WHERE tournament_id = ? AND stage = ? AND heat = ?",
            (tid, stage, heat),
        )
        return {r["user_id"] for r in rows}

    async def add_bye(self, tid: int, heat: int, user_id: int) -> None:
        await self.repo.execute(
            "INSERT INTO tournament_byes VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
            (tid, heat, user_id),
        )

    async def byes(self, tid: int) -> dict[int, list[int]]:
        """Each round's byes, by round."""
        rows = await self.repo.all(
            "SELECT heat, user_id FROM tournament_byes WHERE tournament_id = ? ORDER BY heat",
            (tid,),
        )
        out: dict[int, list[int]] = {}
        for r in rows:
            out.setdefault(r["heat"], []).append(r["user_id"])
        return out

    async def post(self, tid: int, stage: str, heat: int) -> int | None:
        """The message id of a stage's results post, once it is posted."""
        row = await self.repo.one(
            "SELECT message_id FROM tournament_posts "
            "WHERE tournament_id = ? AND stage = ? AND heat = ?",
            (tid, stage, heat),
        )
        return row["message_id"] if row else None

    async def save_post(self, tid: int, stage: str, heat: int, message_id: int) -> None:
        await self.repo.execute(
            "INSERT INTO tournament_posts VALUES (?, ?, ?, ?) ON CONFLICT "
            "(tournament_id, stage, heat) DO UPDATE SET message_id = excluded.message_id",
            (tid, stage, heat, message_id),
        )

    async def place_of_game(self, game_id: int) -> tuple[int, str, int] | None:
        """The tournament, stage and heat a game was played in; None for a game of none."""
        row = await self.repo.one(
            "SELECT tournament_id, stage, heat FROM tournament_games WHERE game_id = ?",
            (game_id,),
        )
        return (row["tournament_id"], row["stage"], row["heat"]) if row else None

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

    async def stage_players(self, tid: int, stage: str) -> set[int]:
        """Everyone seated at a table of a stage (the AI's own seats have no one)."""
        rows = await self.repo.all(
            "SELECT DISTINCT s.user_id FROM tournament_games g JOIN seats s "
            "ON s.game_id = g.game_id WHERE g.tournament_id = ? AND g.stage = ? "
            "AND s.user_id IS NOT NULL",
            (tid, stage),
        )
        return {r["user_id"] for r in rows}

    async def all_games(self, tid: int) -> list[int]:
        """Every game of the tournament, in the order they were made."""
        rows = await self.repo.all(
            "SELECT game_id FROM tournament_games WHERE tournament_id = ? ORDER BY game_id",
            (tid,),
        )
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
