"""Rows of the game tables and the transactions that change them."""

import json
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

from bot.store.backend import Database, Row, Session


@dataclass(frozen=True, slots=True)
class GameRow:
    id: int
    game: str
    guild_id: int | None
    channel_id: int
    thread_id: int | None
    host_id: int
    status: str
    config: dict[str, Any]
    options: dict[str, Any]
    seed: int
    version: int
    snapshot: str | None
    deadline: datetime | None
    lobby_message_id: int | None
    status_message_id: int | None
    clock_started: datetime | None = None
    """When the running round's or turn's clock began (its reminders fall after it)."""
    paused_at: datetime | None = None
    """Since when the clock stands still for a person on vacation."""
    challenge: str | None = None
    """The daily challenge this game is someone's entry in (None: a table of its own)."""

    @property
    def where(self) -> int:
        """The channel or thread the table plays in."""
        return self.thread_id or self.channel_id


class Pending(NamedTuple):
    """An event waiting in the outbox."""

    id: int
    game_id: int
    kind: str
    payload: dict[str, Any]
    attempts: int
    """Earlier tries that failed in a way that passes."""
    queued: datetime


@dataclass(frozen=True, slots=True)
class PanelRow:
    """Where a seat's live "your turn" panel is: a DM, or a channel message (DMs closed)."""

    channel_id: int
    message_id: int
    dm: bool


@dataclass(frozen=True, slots=True)
class SeatRow:
    game_id: int
    seat: int
    user_id: int | None
    name: str
    is_ai: bool
    replaced_by_ai: bool
    left_game: bool
    timeouts: int
    dms_closed: bool
    reminders_sent: int
    nudged: bool
    """This round's "you are the last one" DM went out (it counts towards the reminder cap)."""
    muted: bool = False
    """Its player wants no reminders or nudges from this game."""
    bank_seconds: float | None = None
    """A time-bank seat's time left, as of the start of its running turn."""
    turn_since: datetime | None = None
    """When its running turn began (a time-bank seat's clock runs from then)."""
    ai_level: str | None = None
    """How well an AI seat added in the lobby plays (None: a person's seat; standard)."""


@dataclass(frozen=True, slots=True)
class DraftRow:
    round: int
    steps: list[dict[str, Any]]
    vacation: bool


def _when(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


def _game(row: Row) -> GameRow:
    return GameRow(
        id=row["id"],
        game=row["game"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        thread_id=row["thread_id"],
        host_id=row["host_id"],
        status=row["status"],
        config=json.loads(row["config"]),
        options=json.loads(row["options"]),
        seed=row["seed"],
        version=row["version"],
        snapshot=row["snapshot"],
        deadline=_when(row["deadline"]),
        lobby_message_id=row["lobby_message_id"],
        status_message_id=row["status_message_id"],
        clock_started=_when(row["clock_started"]),
        paused_at=_when(row["paused_at"]),
        challenge=row["challenge"],
    )


def _seat(row: Row) -> SeatRow:
    return SeatRow(
        game_id=row["game_id"],
        seat=row["seat"],
        user_id=row["user_id"],
        name=row["name"],
        is_ai=bool(row["is_ai"]),
        replaced_by_ai=bool(row["replaced_by_ai"]),
        left_game=bool(row["left_game"]),
        timeouts=row["timeouts"],
        dms_closed=bool(row["dms_closed"]),
        reminders_sent=row["reminders_sent"],
        nudged=bool(row["nudged"]),
        muted=bool(row["muted"]),
        bank_seconds=row["bank_seconds"],
        turn_since=_when(row["turn_since"]),
        ai_level=row["ai_level"],
    )


class Conflict(Exception):
    """Another writer changed the game since it was read; reload and try again."""


class Repo:
    """All SQL of the game tables, behind methods that read as what they do."""

    def __init__(self, database: Database) -> None:
        self.database = database
        # The session of the reading() or transaction() block this task is in, if any.
        self._session: ContextVar[Session | None] = ContextVar(f"session{id(self)}", default=None)

    @property
    def dialect(self) -> str:
        return self.database.dialect

    @asynccontextmanager
    async def reading(self) -> AsyncIterator["Repo"]:
        """Consistent reads, never seeing another task's half-done transaction."""
        if self._session.get() is not None:
            yield self
            return
        async with self.database.reading() as session:
            token = self._session.set(session)
            try:
                yield self
            finally:
                self._session.reset(token)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator["Repo"]:
        """Changes that commit together; on PostgreSQL, the games it reads stay locked."""
        current = self._session.get()
        if current is not None:
            if not current.in_transaction:
                raise RuntimeError("a transaction cannot start inside reading()")
            yield self
            return
        async with self.database.transaction() as session:
            token = self._session.set(session)
            try:
                yield self
            finally:
                self._session.reset(token)

    @asynccontextmanager
    async def _current(self, writing: bool) -> AsyncIterator[Session]:
        """The block's session; outside a block, one of its own for this statement."""
        session = self._session.get()
        if session is None:
            async with self.transaction() if writing else self.reading():
                session = self._session.get()
                assert session is not None
                yield session
        else:
            yield session

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        """One statement; outside a block it commits on its own."""
        async with self._current(writing=True) as session:
            return await session.execute(sql, args)

    async def one(self, sql: str, args: Sequence[Any] = ()) -> Row | None:
        async with self._current(writing=False) as session:
            return await session.one(sql, args)

    async def all(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        async with self._current(writing=False) as session:
            return await session.all(sql, args)

    async def insert(self, sql: str, args: Sequence[Any] = ()) -> int:
        """An INSERT of one row; returns its new id."""
        async with self.transaction():
            row = await self.one(f"{sql} RETURNING id", args)
        assert row is not None
        return int(row["id"])

    def _locking(self) -> str:
        """Rows read in a PostgreSQL transaction are locked, so read-modify-write is atomic
        across processes (SQLite's BEGIN IMMEDIATE already excludes every other writer)."""
        session = self._session.get()
        writing = session is not None and session.in_transaction
        return " FOR UPDATE" if self.dialect == "postgres" and writing else ""

    async def game(self, game_id: int) -> GameRow | None:
        row = await self.one(f"SELECT * FROM games WHERE id = ?{self._locking()}", (game_id,))
        return _game(row) if row else None

    async def open_game_in(self, where: int) -> GameRow | None:
        row = await self.one(
            "SELECT * FROM games WHERE coalesce(thread_id, channel_id) = ? "
            "AND status IN ('lobby', 'active') AND challenge IS NULL",
            (where,),
        )
        return _game(row) if row else None

    async def last_game_in(self, where: int) -> GameRow | None:
        """The newest game that played in a channel or thread, whatever its status."""
        row = await self.one(
            "SELECT * FROM games WHERE coalesce(thread_id, channel_id) = ? ORDER BY id DESC "
            "LIMIT 1",
            (where,),
        )
        return _game(row) if row else None

    async def games_of(self, user_id: int, statuses: tuple[str, ...]) -> list[GameRow]:
        marks = ",".join("?" * len(statuses))
        rows = await self.all(
            f"SELECT g.* FROM games g JOIN seats s ON s.game_id = g.id "
            f"WHERE s.user_id = ? AND s.left_game = 0 AND g.status IN ({marks}) ORDER BY g.id",
            (user_id, *statuses),
        )
        return [_game(r) for r in rows]

    async def due_ids(self, now: datetime) -> list[int]:
        """Running games whose next reminder or deadline has come (by the indexed next_due)."""
        rows = await self.all(
            "SELECT id FROM games WHERE status = 'active' AND next_due IS NOT NULL "
            "AND next_due <= ? ORDER BY next_due",
            (now.isoformat(),),
        )
        return [r["id"] for r in rows]

    async def identify_turn(self, bucket: int, now: float, spacing: float) -> float:
        """Take the bucket's turn to identify if `spacing` seconds have passed since its last
        one (0.0), else the seconds left to wait. `now` is wall-clock time, shared by processes."""
        if await self.execute(
            "UPDATE identify_slots SET at = ? WHERE bucket = ? AND at <= ?",
            (now, bucket, now - spacing),
        ):
            return 0.0
        if await self.execute(
            "INSERT INTO identify_slots (bucket, at) VALUES (?, ?) ON CONFLICT DO NOTHING",
            (bucket, now),
        ):
            return 0.0
        row = await self.one("SELECT at FROM identify_slots WHERE bucket = ?", (bucket,))
        return max(0.01, float(row["at"]) + spacing - now) if row else 0.01

    async def health(self, now: datetime) -> dict[str, Any]:
        """What an operator watches: the outbox's backlog and its oldest event, the leases held
        now and by whom, the running games and those whose deadline has passed."""
        pending = await self.one(
            "SELECT count(*) AS n, min(created_at) AS oldest FROM outbox WHERE sent_at IS NULL"
        )
        leases = await self.all(
            "SELECT owner, count(*) AS n FROM delivery_leases WHERE until > ? GROUP BY owner "
            "ORDER BY owner",
            (now.isoformat(),),
        )
        games = await self.one(
            "SELECT count(*) AS running, sum(CASE WHEN deadline IS NOT NULL AND deadline < ? "
            "THEN 1 ELSE 0 END) AS overdue FROM games WHERE status = 'active'",
            (now.isoformat(),),
        )
        oldest = pending["oldest"] if pending else None
        return {
            "outbox_pending": int(pending["n"]) if pending else 0,
            "outbox_lag_seconds": (now - datetime.fromisoformat(oldest)).total_seconds()
            if oldest
            else 0.0,
            "leases": {r["owner"]: int(r["n"]) for r in leases},
            "games_running": int(games["running"] or 0) if games else 0,
            "games_overdue": int(games["overdue"] or 0) if games else 0,
        }

    async def claim_due(self, game_id: int, now: datetime) -> bool:
        """In a transaction: take a due game for this process. False when it is no longer due or
        another process holds it (PostgreSQL skips the locked row instead of waiting)."""
        skip = " FOR UPDATE SKIP LOCKED" if self.dialect == "postgres" else ""
        row = await self.one(
            f"SELECT id FROM games WHERE id = ? AND status = 'active' AND next_due <= ?{skip}",
            (game_id, now.isoformat()),
        )
        return row is not None

    async def set_next_due(self, game_id: int, at: datetime | None) -> None:
        await self.execute(
            "UPDATE games SET next_due = ? WHERE id = ?", (at.isoformat() if at else None, game_id)
        )

    async def insert_game(self, **fields: Any) -> int:
        fields["config"] = json.dumps(fields["config"])
        fields["options"] = json.dumps(fields["options"])
        cols = ", ".join(fields)
        marks = ", ".join("?" * len(fields))
        return await self.insert(
            f"INSERT INTO games ({cols}) VALUES ({marks})", tuple(fields.values())
        )

    async def update_game(self, game: GameRow, now: datetime, **fields: Any) -> None:
        """Write `fields` and bump the version, if nobody else wrote since `game` was read."""
        for column in ("config", "options"):
            if column in fields:
                fields[column] = json.dumps(fields[column])
        fields = {k: v.isoformat() if isinstance(v, datetime) else v for k, v in fields.items()}
        fields["updated_at"] = now.isoformat()
        sets = ", ".join(f"{k} = ?" for k in fields)
        changed = await self.execute(
            f"UPDATE games SET {sets}, version = version + 1 WHERE id = ? AND version = ?",
            (*fields.values(), game.id, game.version),
        )
        if changed != 1:
            raise Conflict(f"game {game.id} changed meanwhile")

    async def set_message(self, game_id: int, column: str, message_id: int) -> None:
        if column not in ("lobby_message_id", "status_message_id"):
            raise ValueError(column)
        await self.execute(f"UPDATE games SET {column} = ? WHERE id = ?", (message_id, game_id))

    async def seats(self, game_id: int) -> list[SeatRow]:
        rows = await self.all("SELECT * FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))
        return [_seat(r) for r in rows]

    async def add_seat(
        self, game_id: int, seat: int, user_id: int | None, name: str, ai_level: str | None = None
    ) -> None:
        await self.execute(
            "INSERT INTO seats (game_id, seat, user_id, name, is_ai, ai_level) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, seat, user_id, name, user_id is None, ai_level),
        )

    async def remove_seat(self, game_id: int, seat: int) -> None:
        """Drop a lobby seat and close the gap so seats stay numbered 0..n-1."""
        await self.execute("DELETE FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat))
        # Through negative numbers: PostgreSQL checks the key row by row, in no set order.
        await self.execute(
            "UPDATE seats SET seat = -seat WHERE game_id = ? AND seat > ?", (game_id, seat)
        )
        await self.execute(
            "UPDATE seats SET seat = -seat - 1 WHERE game_id = ? AND seat < 0", (game_id,)
        )

    async def update_seat(self, game_id: int, seat: int, **fields: Any) -> None:
        fields = {k: v.isoformat() if isinstance(v, datetime) else v for k, v in fields.items()}
        sets = ", ".join(f"{k} = ?" for k in fields)
        await self.execute(
            f"UPDATE seats SET {sets} WHERE game_id = ? AND seat = ?",
            (*fields.values(), game_id, seat),
        )

    async def reset_reminders(self, game_id: int) -> None:
        await self.execute(
            "UPDATE seats SET reminders_sent = 0, nudged = 0 WHERE game_id = ?", (game_id,)
        )

    async def append_action(
        self, game_id: int, seq: int, seat: int, action: dict[str, Any], source: str, now: datetime
    ) -> None:
        await self.execute(
            "INSERT INTO actions (game_id, seq, seat, action, source, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (
                game_id,
                seq,
                seat,
                json.dumps(action, separators=(",", ":")),
                source,
                now.isoformat(),
            ),
        )

    async def actions(self, game_id: int) -> list[tuple[int, dict[str, Any], str]]:
        rows = await self.all(
            "SELECT seat, action, source FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
        )
        return [(r["seat"], json.loads(r["action"]), r["source"]) for r in rows]

    async def acted_since(self, game_id: int, seats: tuple[int, ...], seq: int) -> bool:
        """Whether any of `seats` has an action at or after position `seq` of the log."""
        marks = ", ".join("?" for _ in seats)
        row = await self.one(
            f"SELECT 1 AS hit FROM actions WHERE game_id = ? AND seq >= ? AND seat IN ({marks}) "
            "LIMIT 1",
            (game_id, seq, *seats),
        )
        return row is not None

    async def last_action(self, game_id: int) -> tuple[int, int, dict[str, Any], str] | None:
        """The newest logged action: its position, seat, action and source."""
        row = await self.one(
            "SELECT seq, seat, action, source FROM actions WHERE game_id = ? "
            "ORDER BY seq DESC LIMIT 1",
            (game_id,),
        )
        if row is None:
            return None
        return row["seq"], row["seat"], json.loads(row["action"]), row["source"]

    async def drop_actions_from(self, game_id: int, seq: int) -> None:
        """Take the log back to its first `seq` actions (a move undone)."""
        await self.execute("DELETE FROM actions WHERE game_id = ? AND seq >= ?", (game_id, seq))

    async def action_count(self, game_id: int) -> int:
        row = await self.one("SELECT count(*) AS n FROM actions WHERE game_id = ?", (game_id,))
        return int(row["n"]) if row else 0

    async def draft(self, game_id: int, seat: int) -> DraftRow | None:
        row = await self.one("SELECT * FROM drafts WHERE game_id = ? AND seat = ?", (game_id, seat))
        if row is None:
            return None
        return DraftRow(row["round"], json.loads(row["steps"]), bool(row["vacation"]))

    async def save_draft(self, game_id: int, seat: int, draft: DraftRow, now: datetime) -> None:
        await self.execute(
            "INSERT INTO drafts (game_id, seat, round, steps, vacation, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, seat) DO UPDATE SET "
            "round = excluded.round, steps = excluded.steps, "
            "vacation = excluded.vacation, updated_at = excluded.updated_at",
            (
                game_id,
                seat,
                draft.round,
                json.dumps(draft.steps),
                draft.vacation,
                now.isoformat(),
            ),
        )

    async def record_start(self, at: datetime, version: str, shards: str) -> None:
        await self.execute(
            "INSERT INTO starts (started_at, version, shards) VALUES (?, ?, ?)",
            (at.isoformat(), version, shards),
        )

    async def premoves(self, game_id: int, seat: int) -> list[dict[str, Any]]:
        """A seat's pre-moves in the order set: {"premove": key, "scope": its phase, "amount":
        a number or None, "due": when a paced one is made, or None} each."""
        rows = await self.all(
            "SELECT premove, scope, amount, due FROM premoves WHERE game_id = ? AND seat = ? "
            "ORDER BY position",
            (game_id, seat),
        )
        return [
            {
                "premove": r["premove"],
                "scope": json.loads(r["scope"]),
                "amount": r["amount"],
                "due": datetime.fromisoformat(r["due"]) if r["due"] else None,
            }
            for r in rows
        ]

    async def premove_due(self, game_id: int) -> datetime | None:
        """When the game's next paced pre-move is made, if one waits."""
        row = await self.one(
            "SELECT min(due) AS due FROM premoves WHERE game_id = ? AND due IS NOT NULL",
            (game_id,),
        )
        return datetime.fromisoformat(row["due"]) if row and row["due"] else None

    async def save_premoves(
        self, game_id: int, seat: int, premoves: list[dict[str, Any]], now: datetime
    ) -> None:
        await self.execute("DELETE FROM premoves WHERE game_id = ? AND seat = ?", (game_id, seat))
        for position, p in enumerate(premoves):
            due = p.get("due")
            await self.execute(
                "INSERT INTO premoves (game_id, seat, position, premove, scope, amount, due, "
                "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game_id,
                    seat,
                    position,
                    p["premove"],
                    json.dumps(p["scope"]),
                    p.get("amount"),
                    due.isoformat() if due else None,
                    now.isoformat(),
                ),
            )

    async def panel(self, game_id: int, seat: int) -> PanelRow | None:
        """The seat's live "your turn" panel, if it has one."""
        row = await self.one(
            "SELECT channel_id, message_id, dm FROM panels WHERE game_id = ? AND seat = ?",
            (game_id, seat),
        )
        return PanelRow(row["channel_id"], row["message_id"], bool(row["dm"])) if row else None

    async def panels(self, game_id: int) -> dict[int, PanelRow]:
        rows = await self.all(
            "SELECT seat, channel_id, message_id, dm FROM panels WHERE game_id = ?", (game_id,)
        )
        return {r["seat"]: PanelRow(r["channel_id"], r["message_id"], bool(r["dm"])) for r in rows}

    async def set_panel(self, game_id: int, seat: int, panel: PanelRow | None) -> None:
        await self.execute("DELETE FROM panels WHERE game_id = ? AND seat = ?", (game_id, seat))
        if panel is not None:
            await self.execute(
                "INSERT INTO panels (game_id, seat, channel_id, message_id, dm) "
                "VALUES (?, ?, ?, ?, ?)",
                (game_id, seat, panel.channel_id, panel.message_id, panel.dm),
            )

    async def server_hours(self, guild_id: int) -> Row | None:
        return await self.one(
            "SELECT zone, hours_start, hours_end FROM servers WHERE guild_id = ?", (guild_id,)
        )

    async def set_server_hours(self, guild_id: int, zone: str, start: int, end: int) -> None:
        await self.execute(
            "INSERT INTO servers (guild_id, zone, hours_start, hours_end) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET zone = excluded.zone, "
            "hours_start = excluded.hours_start, hours_end = excluded.hours_end",
            (guild_id, zone, start, end),
        )

    async def owe_reply(
        self, interaction_id: int, game_id: int, seat: int, words: str, due: datetime
    ) -> None:
        await self.execute(
            "INSERT INTO owed_replies VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (interaction_id, game_id, seat, words, due.isoformat()),
        )

    async def forget_reply(self, interaction_id: int) -> None:
        await self.execute("DELETE FROM owed_replies WHERE interaction_id = ?", (interaction_id,))

    async def take_owed_replies(self, now: datetime, limit: int) -> list[Row]:
        """Remove and return replies owed past their time (one process takes each)."""
        return await self.all(
            "DELETE FROM owed_replies WHERE interaction_id IN (SELECT interaction_id FROM "
            "owed_replies WHERE due <= ? ORDER BY due LIMIT ?) "
            "RETURNING interaction_id, game_id, seat, words",
            (now.isoformat(), limit),
        )

    async def queue(self, game_id: int, kind: str, payload: dict[str, Any], now: datetime) -> None:
        await self.execute(
            "INSERT INTO outbox (game_id, kind, payload, created_at) VALUES (?, ?, ?, ?)",
            (game_id, kind, json.dumps(payload), now.isoformat()),
        )

    async def pending(
        self, now: datetime | None = None, limit: int = 50
    ) -> list[tuple[int, int, str, dict[str, Any], int]]:
        """Unsent events in order (id, game, kind, payload, attempts); an event waiting to be
        retried holds back the later events of its game, so a game's posts keep their order."""
        at = (now or datetime.max).isoformat()
        rows = await self.all(
            "SELECT id, game_id, kind, payload, attempts FROM outbox o WHERE sent_at IS NULL "
            "AND coalesce(retry_at, '') <= ? AND NOT EXISTS (SELECT 1 FROM outbox w WHERE "
            "w.game_id = o.game_id AND w.sent_at IS NULL AND w.id < o.id AND w.retry_at > ?) "
            "ORDER BY id LIMIT ?",
            (at, at, limit),
        )
        return [
            (r["id"], r["game_id"], r["kind"], _payload(r["payload"]), r["attempts"]) for r in rows
        ]

    async def lease_games(
        self, owner: str, now: datetime, until: datetime, limit: int
    ) -> list[int]:
        """Take the delivery of up to `limit` games whose oldest unsent event is due, for `owner`
        until `until`; a game another live process holds is left to it."""
        at = now.isoformat()
        rows = await self.all(
            "SELECT o.game_id FROM outbox o WHERE o.sent_at IS NULL "
            "AND coalesce(o.retry_at, '') <= ? AND NOT EXISTS (SELECT 1 FROM outbox w "
            "WHERE w.game_id = o.game_id AND w.sent_at IS NULL AND w.id < o.id) "
            "AND NOT EXISTS (SELECT 1 FROM delivery_leases l WHERE l.game_id = o.game_id "
            "AND l.until > ? AND l.owner <> ?) ORDER BY o.id LIMIT ?",
            (at, at, owner, limit),
        )
        taken = []
        for row in rows:
            if await self.execute(
                "INSERT INTO delivery_leases (game_id, owner, until) VALUES (?, ?, ?) "
                "ON CONFLICT (game_id) DO UPDATE SET owner = excluded.owner, "
                "until = excluded.until "
                "WHERE delivery_leases.until <= ? OR delivery_leases.owner = excluded.owner",
                (row["game_id"], owner, until.isoformat(), at),
            ):
                taken.append(row["game_id"])
        return taken

    async def renew_lease(self, game_id: int, owner: str, until: datetime) -> bool:
        """Extend a lease; False when it lapsed and another process took the game."""
        return bool(
            await self.execute(
                "UPDATE delivery_leases SET until = ? WHERE game_id = ? AND owner = ?",
                (until.isoformat(), game_id, owner),
            )
        )

    async def release_lease(self, game_id: int, owner: str) -> None:
        await self.execute(
            "DELETE FROM delivery_leases WHERE game_id = ? AND owner = ?", (game_id, owner)
        )

    async def pending_of(self, game_id: int, now: datetime) -> list[Pending]:
        """A game's unsent events in order, up to the first that waits to be retried."""
        rows = await self.all(
            "SELECT id, game_id, kind, payload, attempts, retry_at, created_at FROM outbox "
            "WHERE game_id = ? AND sent_at IS NULL ORDER BY id",
            (game_id,),
        )
        events = []
        for r in rows:
            if (r["retry_at"] or "") > now.isoformat():
                break
            queued = datetime.fromisoformat(r["created_at"])
            events.append(
                Pending(
                    r["id"], r["game_id"], r["kind"], _payload(r["payload"]), r["attempts"], queued
                )
            )
        return events

    async def last_posted(self, game_id: int, before: int) -> int | None:
        """The newest message a game's events before outbox event `before` posted."""
        row = await self.one(
            "SELECT MAX(p.message_id) AS newest FROM outbox_posts p JOIN outbox o "
            "ON o.id = p.outbox_id WHERE o.game_id = ? AND o.id < ?",
            (game_id, before),
        )
        return row["newest"] if row else None

    async def owned(self, message_ids: list[int]) -> set[int]:
        """Which of these messages an outbox event already owns."""
        if not message_ids:
            return set()
        marks = ", ".join("?" * len(message_ids))
        rows = await self.all(
            f"SELECT message_id FROM outbox_posts WHERE message_id IN ({marks})", message_ids
        )
        return {r["message_id"] for r in rows}

    async def mark_sent(self, outbox_id: int, now: datetime, error: str | None = None) -> None:
        await self.execute(
            "UPDATE outbox SET sent_at = ?, error = ? WHERE id = ?",
            (now.isoformat(), error, outbox_id),
        )

    async def retry_later(self, outbox_id: int, attempts: int, at: datetime, error: str) -> None:
        await self.execute(
            "UPDATE outbox SET attempts = ?, retry_at = ?, error = ? WHERE id = ?",
            (attempts, at.isoformat(), error, outbox_id),
        )

    async def recent(self, game_id: int, kind: str, limit: int) -> list[dict[str, Any]]:
        """The payloads of a game's newest events of one kind, oldest first."""
        rows = await self.all(
            "SELECT payload FROM outbox WHERE game_id = ? AND kind = ? ORDER BY id DESC LIMIT ?",
            (game_id, kind, limit),
        )
        return [_payload(r["payload"]) for r in reversed(rows)]

    async def posted(self, outbox_id: int) -> dict[str, int]:
        """The messages an event has posted so far, by part."""
        rows = await self.all(
            "SELECT part, message_id FROM outbox_posts WHERE outbox_id = ?", (outbox_id,)
        )
        return {r["part"]: r["message_id"] for r in rows}

    async def mark_posted(self, outbox_id: int, part: str, message_id: int, now: datetime) -> None:
        await self.execute(
            "INSERT INTO outbox_posts VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (outbox_id, part, message_id, now.isoformat()),
        )


def _payload(text: str) -> dict[str, Any]:
    """An event's payload; a broken one reads as empty, and its handler refuses it."""
    try:
        data = json.loads(text)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


class ResultsRepo:
    """Results rows (immutable) and the ratings derived from them."""

    def __init__(self, repo: Repo) -> None:
        self.repo = repo

    async def insert(self, rows: list[dict[str, Any]]) -> None:
        for row in rows:
            cols = ", ".join(row)
            marks = ", ".join("?" * len(row))
            await self.repo.execute(
                f"INSERT INTO results ({cols}) VALUES ({marks})", tuple(row.values())
            )

    async def of_game(self, game_id: int) -> list[dict[str, Any]]:
        rows = await self.repo.all(
            "SELECT * FROM results WHERE game_id = ? ORDER BY seat", (game_id,)
        )
        return [dict(r) for r in rows]

    async def rated_games(self, game: str, guild_id: int | None) -> list[list[dict[str, Any]]]:
        """Rated finished games of a scope (None: all servers), in the order they finished."""
        where = "game = ? AND rated = 1 AND status = 'finished'"
        args: tuple = (game,)
        if guild_id is not None:
            where += " AND guild_id = ?"
            args += (guild_id,)
        rows = await self.repo.all(
            f"SELECT * FROM results WHERE {where} ORDER BY finished_at, game_id, seat", args
        )
        games: dict[int, list[dict[str, Any]]] = {}
        for row in rows:
            games.setdefault(row["game_id"], []).append(dict(row))
        return list(games.values())

    async def ratings(
        self, scope: int, game: str, users: list[int]
    ) -> dict[int, tuple[float, float, int]]:
        marks = ",".join("?" * len(users))
        rows = await self.repo.all(
            f"SELECT user_id, mu, sigma, games FROM ratings WHERE scope = ? AND game = ? "
            f"AND user_id IN ({marks})",
            (scope, game, *users),
        )
        return {r["user_id"]: (r["mu"], r["sigma"], r["games"]) for r in rows}

    async def save_rating(
        self,
        scope: int,
        game: str,
        user: int,
        game_id: int,
        mu: float,
        sigma: float,
        games: int,
        at: str,
    ) -> None:
        await self.repo.execute(
            "INSERT INTO ratings VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (scope, game, user_id) "
            "DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, games = excluded.games, "
            "updated_at = excluded.updated_at",
            (scope, game, user, mu, sigma, games, at),
        )
        await self.repo.execute(
            "INSERT INTO rating_history VALUES (?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (scope, game, user_id, game_id) DO UPDATE SET mu = excluded.mu, "
            "sigma = excluded.sigma, at = excluded.at",
            (scope, game, user, game_id, mu, sigma, at),
        )

    async def clear_ratings(self, scope: int, game: str) -> None:
        await self.repo.execute("DELETE FROM ratings WHERE scope = ? AND game = ?", (scope, game))
        await self.repo.execute(
            "DELETE FROM rating_history WHERE scope = ? AND game = ?", (scope, game)
        )

    async def leaderboard(
        self, scope: int, game: str, limit: int, offset: int
    ) -> tuple[list[dict[str, Any]], int]:
        """Rated people of a scope by conservative rating, with their game statistics."""
        guild_filter = "" if scope == 0 else "AND r.guild_id = ?"
        args: tuple = (game,) if scope == 0 else (game, scope)
        rows = await self.repo.all(
            f"""
            SELECT t.user_id, t.mu, t.sigma, t.games AS rated_games,
                   t.mu - 3 * t.sigma AS conservative, s.games, s.wins, s.avg_score, s.best,
                   s.name
            FROM ratings t JOIN (
                SELECT r.user_id, count(*) AS games,
                       sum(CASE WHEN r.rank = 1 THEN 1 ELSE 0 END) AS wins,
                       avg(r.score) AS avg_score, max(r.score) AS best, max(r.name) AS name
                FROM results r
                WHERE r.game = ? AND r.status = 'finished' AND r.user_id IS NOT NULL {guild_filter}
                GROUP BY r.user_id
            ) s ON s.user_id = t.user_id
            WHERE t.scope = ? AND t.game = ?
            ORDER BY conservative DESC, t.user_id
            LIMIT ? OFFSET ?
            """,
            (*args, scope, game, limit, offset),
        )
        total = await self.repo.one(
            "SELECT count(*) AS n FROM ratings WHERE scope = ? AND game = ?", (scope, game)
        )
        return [dict(r) for r in rows], int(total["n"]) if total else 0

    async def solo_scores(
        self, game: str, guild_id: int | None, limit: int
    ) -> list[dict[str, Any]]:
        where = "game = ? AND status = 'finished' AND players = 1 AND is_ai = 0"
        args: tuple = (game,)
        if guild_id is not None:
            where += " AND guild_id = ?"
            args += (guild_id,)
        rows = await self.repo.all(
            f"SELECT user_id, name, score, variants, game_id, finished_at FROM results "
            f"WHERE {where} ORDER BY score DESC, finished_at LIMIT ?",
            (*args, limit),
        )
        return [dict(r) for r in rows]

    async def player_games(self, user_id: int, game: str, limit: int) -> list[dict[str, Any]]:
        rows = await self.repo.all(
            "SELECT * FROM results WHERE user_id = ? AND game = ? ORDER BY finished_at DESC, "
            "game_id DESC LIMIT ?",
            (user_id, game, limit),
        )
        return [dict(r) for r in rows]

    async def history(self, scope: int, game: str, user_id: int) -> list[dict[str, Any]]:
        rows = await self.repo.all(
            "SELECT game_id, mu, sigma, at FROM rating_history WHERE scope = ? AND game = ? "
            "AND user_id = ? ORDER BY at, game_id",
            (scope, game, user_id),
        )
        return [dict(r) for r in rows]

    async def reliability(
        self, users: list[int], last: int
    ) -> dict[int, tuple[int, int, int, int]]:
        """Per person, over their `last` games that ended (not lobbies cancelled): the games,
        those they timed out in, those they left, and those with neither."""
        if not users:
            return {}
        marks = ",".join("?" * len(users))
        # A seat handed to the AI (left, replaced, timed out) keeps its user and counts; AI seats
        # have none. The window comes first, so only those games' timeouts are looked up.
        rows = await self.repo.all(
            f"""
            SELECT user_id, count(*) AS games, sum(timed_out) AS timed_out,
                   sum(left_game) AS left_games,
                   sum(CASE WHEN timed_out = 0 AND left_game = 0 THEN 1 ELSE 0 END) AS clean
            FROM (
                SELECT w.user_id, w.left_game,
                       CASE WHEN EXISTS (SELECT 1 FROM actions a WHERE a.game_id = w.game_id
                                         AND a.seat = w.seat AND a.source = 'timeout')
                            THEN 1 ELSE 0 END AS timed_out
                FROM (
                    SELECT user_id, game_id, seat, left_game,
                           row_number() OVER (PARTITION BY user_id
                                              ORDER BY finished_at DESC, game_id DESC) AS n
                    FROM results
                    WHERE user_id IN ({marks})
                      AND status IN ('finished', 'adjudicated', 'abandoned')
                ) w
                WHERE w.n <= ?
            ) t
            GROUP BY user_id
            """,
            (*users, last),
        )
        return {
            r["user_id"]: (
                int(r["games"]),
                int(r["timed_out"]),
                int(r["left_games"]),
                int(r["clean"]),
            )
            for r in rows
        }
