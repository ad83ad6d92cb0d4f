"""The gateway websocket: HELLO, heartbeats, IDENTIFY/READY, RESUME with replay, dispatches."""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from standin import limits as L
from standin import payloads

if TYPE_CHECKING:
    from standin.core import StandIn

log = logging.getLogger(__name__)

HEARTBEAT_INTERVAL_MS = 41_250
REPLAY_BUFFER = 2_000
EventData = dict[str, Any] | Callable[[int], dict[str, Any] | None]


class Connection:
    """One websocket; a single writer task keeps frames in order."""

    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.closed_by_server = False
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._writer = asyncio.create_task(self._write(), name="standin-gateway-writer")

    def send(self, frame: dict[str, Any]) -> None:
        """Queue one frame (plain JSON TEXT; discord.py accepts uncompressed text)."""
        self._queue.put_nowait(json.dumps(frame))

    async def close(self, code: int, reason: str = "") -> None:
        """Flush queued frames, then close with ``code``."""
        self.closed_by_server = True
        self._queue.put_nowait(None)
        try:
            await asyncio.wait_for(asyncio.shield(self._writer), 1.0)
        except asyncio.CancelledError:
            # The writer was stopped because the client left meanwhile; only our own
            # cancellation goes on up.
            if not self._writer.cancelled():
                raise
        except Exception:
            log.debug("gateway writer ended badly before close", exc_info=True)
        await self.ws.close(code=code, message=reason.encode())

    def stop(self) -> None:
        """Stop writing (the socket is gone)."""
        self._writer.cancel()

    async def _write(self) -> None:
        while (text := await self._queue.get()) is not None:
            try:
                await self.ws.send_str(text)
            except (ConnectionResetError, RuntimeError):
                return


class Session:
    """A gateway session: survives disconnects so RESUME can replay what was missed."""

    def __init__(self, session_id: str, intents: int, shard: list[int] | None) -> None:
        self.id = session_id
        self.intents = intents
        self.shard = shard
        self.seq = 0
        self.sent: list[dict[str, Any]] = []
        self.connection: Connection | None = None

    def handles(self, guild_id: int | None) -> bool:
        """Discord's routing: a guild's events go to shard (guild_id >> 22) % count, DMs to 0."""
        if self.shard is None:
            return True
        shard, count = self.shard
        return shard == (0 if guild_id is None else (guild_id >> 22) % count)

    def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Number the event, remember it for replay, and send it if connected."""
        self.seq += 1
        frame = {"op": 0, "t": event, "s": self.seq, "d": data}
        self.sent.append(frame)
        del self.sent[:-REPLAY_BUFFER]
        if self.connection is not None:
            self.connection.send(frame)


class Gateway:
    """Serves ``/gateway`` and fans dispatches out to the live sessions."""

    def __init__(self, core: StandIn) -> None:
        self.core = core
        self.sessions: dict[str, Session] = {}
        self.connections: set[Connection] = set()
        self.identifies = 0
        self.resumes = 0
        self.last_identify: dict[int, float] = {}
        """When each bucket last identified (monotonic seconds)."""

    @property
    def connected(self) -> bool:
        """True if a session is attached to an open websocket."""
        return any(s.connection is not None for s in self.sessions.values())

    def dispatch(self, event: str, data: EventData, *, intent: int | None = None) -> None:
        """Send an event to every session of the shard it belongs to (``data`` may be built per
        session from its intents)."""
        for session in list(self.sessions.values()):
            if intent is not None and not session.intents & intent:
                continue
            body = data(session.intents) if callable(data) else data
            if body is not None and session.handles(_guild_of(event, body)):
                session.dispatch(event, body)

    def send_op(self, op: int, data: Any = None) -> int:
        """Send a non-dispatch opcode (7 RECONNECT, 9 INVALID_SESSION) to every live socket."""
        count = 0
        for session in self.sessions.values():
            if session.connection is not None:
                session.connection.send({"op": op, "d": data, "s": None, "t": None})
                count += 1
        return count

    async def close_all(self, code: int) -> None:
        """Close every socket with ``code`` (4000 keeps sessions resumable)."""
        for connection in list(self.connections):
            await connection.close(code)

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        """One websocket connection from HELLO to close."""
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        if request.query.get("encoding", "json") != "json":
            self.core.violation(f"gateway: unsupported encoding {request.query.get('encoding')}")
        if request.query.get("v", str(L.API_VERSION)) != str(L.API_VERSION):
            self.core.violation(f"gateway: unsupported version v={request.query.get('v')}")
        connection = Connection(ws)
        self.connections.add(connection)
        hello = {"heartbeat_interval": HEARTBEAT_INTERVAL_MS, "_trace": ["standin"]}
        connection.send({"op": 10, "d": hello, "s": None, "t": None})
        session: Session | None = None
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                close = await self._on_frame(connection, msg.data, session)
                if isinstance(close, Session):
                    session = close
                elif close is not None:
                    await connection.close(close[0], close[1])
                    break
        finally:
            self.connections.discard(connection)
            connection.stop()
            if session is not None and session.connection is connection:
                session.connection = None
                # A clean close by the client ends the session; anything else stays resumable.
                if ws.close_code in (1000, 1001) and not connection.closed_by_server:
                    self.sessions.pop(session.id, None)
        return ws

    async def _on_frame(
        self, connection: Connection, text: str, session: Session | None
    ) -> Session | tuple[int, str] | None:
        try:
            frame = json.loads(text)
            op, data = frame["op"], frame.get("d")
        except (ValueError, KeyError, TypeError):
            self.core.violation(f"gateway: undecodable frame {text[:80]!r}")
            return L.CLOSE_DECODE_ERROR, "Error while decoding payload."
        if op == 1:
            connection.send({"op": 11, "d": None, "s": None, "t": None})
            return None
        if op == 2:
            return self._identify(connection, data or {}, session)
        if op == 6:
            return self._resume(connection, data or {}, session)
        if session is None:
            self.core.violation(f"gateway: op {op} before IDENTIFY")
            return L.CLOSE_NOT_AUTHENTICATED, "Not authenticated."
        if op == 8:
            self._request_members(session, data or {})
            return None
        if op in (3, 4):
            return None  # Presence and voice state updates change nothing here.
        self.core.violation(f"gateway: unknown opcode {op}")
        return L.CLOSE_UNKNOWN_OPCODE, "Unknown opcode."

    def _identify(
        self, connection: Connection, data: dict[str, Any], session: Session | None
    ) -> Session | tuple[int, str] | None:
        if session is not None:
            self.core.violation("gateway: IDENTIFY sent twice on one connection")
            return L.CLOSE_ALREADY_AUTHENTICATED, "Already authenticated."
        if data.get("token") != self.core.token:
            self.core.violation("gateway: IDENTIFY with a wrong token")
            return L.CLOSE_AUTH_FAILED, "Authentication failed."
        shard = data.get("shard")
        if shard is not None and not (
            isinstance(shard, list)
            and len(shard) == 2
            and all(isinstance(n, int) for n in shard)
            and 0 <= shard[0] < shard[1]
        ):
            self.core.violation(f"gateway: IDENTIFY with an invalid shard {shard!r}")
            return L.CLOSE_INVALID_SHARD, "Invalid shard."
        bucket = shard[0] % 1 if shard else 0  # max_concurrency is 1 (GET /gateway/bot)
        now, last = time.monotonic(), self.last_identify.get(bucket)
        if last is not None and now - last < self.core.identify_spacing:
            self.core.violation(
                f"gateway: IDENTIFY {now - last:.2f} s after the last of bucket {bucket} "
                f"(one per {self.core.identify_spacing:g} s)"
            )
            connection.send({"op": 9, "d": False, "s": None, "t": None})
            return None
        self.last_identify[bucket] = now
        self.identifies += 1
        session = Session(secrets.token_hex(16), int(data.get("intents") or 0), shard)
        session.connection = connection
        self.sessions[session.id] = session
        core = self.core
        bot = core.bot_user
        guilds = [
            g for g in core.world.guilds.values() if bot.id in g.members and session.handles(g.id)
        ]
        ready: dict[str, Any] = {
            "v": L.API_VERSION,
            "user": payloads.client_user(bot),
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": core.gateway_url,
            "application": {"id": str(core.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "_trace": ["standin"],
        }
        if session.shard is not None:
            ready["shard"] = session.shard
        session.dispatch("READY", ready)
        all_members = bool(session.intents & L.INTENT_GUILD_MEMBERS)
        for guild in guilds:
            session.dispatch(
                "GUILD_CREATE", payloads.guild_create(guild, all_members=all_members, bot_id=bot.id)
            )
        return session

    def _resume(
        self, connection: Connection, data: dict[str, Any], session: Session | None
    ) -> Session | tuple[int, str] | None:
        if session is not None:
            self.core.violation("gateway: RESUME on an identified connection")
            return L.CLOSE_ALREADY_AUTHENTICATED, "Already authenticated."
        if data.get("token") != self.core.token:
            self.core.violation("gateway: RESUME with a wrong token")
            return L.CLOSE_AUTH_FAILED, "Authentication failed."
        resumed = self.sessions.get(str(data.get("session_id")))
        if resumed is None:
            # Not resumable: tell the client to IDENTIFY afresh, as Discord does.
            connection.send({"op": 9, "d": False, "s": None, "t": None})
            return None
        if resumed.connection is not None and resumed.connection is not connection:
            old = resumed.connection
            resumed.connection = None
            asyncio.get_running_loop().create_task(old.close(4000))
        last_seen = int(data.get("seq") or 0)
        for frame in resumed.sent:
            if frame["s"] > last_seen:
                connection.send(frame)
        resumed.connection = connection
        self.resumes += 1
        resumed.dispatch("RESUMED", {"_trace": ["standin"]})
        return resumed

    def _request_members(self, session: Session, data: dict[str, Any]) -> None:
        guild = self.core.world.guilds.get(int(data.get("guild_id") or 0))
        if guild is None:
            return
        wanted = {int(u) for u in data.get("user_ids") or []}
        query = str(data.get("query") or "").lower()
        members = [
            m
            for m in guild.members.values()
            if (not wanted or m.user.id in wanted) and m.user.name.lower().startswith(query)
        ]
        limit = int(data.get("limit") or 0)
        if limit:
            members = members[:limit]
        chunk: dict[str, Any] = {
            "guild_id": str(guild.id),
            "members": [payloads.member(m) for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        session.dispatch("GUILD_MEMBERS_CHUNK", chunk)


def _guild_of(event: str, body: dict[str, Any]) -> int | None:
    """The guild an event belongs to (None: a DM, or an event of no guild)."""
    whole_guild = event in ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE")
    guild = body.get("id") if whole_guild else body.get("guild_id")
    return int(guild) if guild else None
