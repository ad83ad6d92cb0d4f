"""A bad day for an operator, measured: two bot processes (shards 0 and 1) on a PostgreSQL cluster
of their own, through the stand-in, with four Powerline games in flight whose people plan by DM
commands round after round, while one fault strikes. What it reports: posts lost or doubled,
interactions never answered, answers that said "nothing was done" of a stored plan, and how long
each game waited for its next round.

Used by the fault suite (tests/bot/test_pg_faults.py) and by `bench.faults`, which prints the
figures for every fault.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import signal
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg

from bot.errors import UNREACHABLE, UNSURE
from bot.games.powerline.words import placement_key
from bot.sandbox import press_lobby
from bot.sandbox.postgres import Cluster
from engine import registry
from engine.powerline import autopilot
from standin import Channel, Interaction, NotAcknowledged, StandIn, User
from tests.bot.helpers import answer, first_content
from tests.bot.process import Process, bot_env, launch, stop

ACK = 3.0
"""Discord's time to acknowledge an interaction."""
LAST = 15
"""Powerline's rounds: a game resolves at most 14 rounds into a next one."""
READ_FAULTS = (
    OSError,
    TimeoutError,
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    asyncpg.exceptions.InternalClientError,
)
"""What the harness's own reads meet while the server is down or restarting."""
OLD_REFUSAL = "Something went wrong on our side"
"""What the bot said of a database fault before it had a sentence of its own (`bench.faults`
runs older checkouts too)."""
ANSWERED = 40.0
"""How long a person waits for the answer after "thinking…" before counting it lost."""


@dataclass
class Report:
    """What one fault did to the games."""

    fault: str
    lost: int = 0
    """Round posts and board DMs that never came."""
    doubled: int = 0
    unanswered: int = 0
    """Interactions not acknowledged in time, or whose answer never came."""
    misled: int = 0
    """Plans stored although their author was told nothing was done."""
    refused: int = 0
    """Commands answered "the database is not answering … nothing was done"."""
    unsure: int = 0
    """Commands answered "… could not tell in time whether it was kept"."""
    stalls: dict[str, float] = field(default_factory=dict)
    """Per game, the longest time from its people starting to plan a round to the next
    round's post (refusals and retries included)."""
    stopped_in: float | None = None
    """Seconds the surviving processes took to exit on SIGTERM."""
    errors: list[str] = field(default_factory=list)
    odd: list[str] = field(default_factory=list)
    """Which posts were lost or doubled."""

    def stall(self, games: list[str]) -> float:
        return max((self.stalls.get(g, 0.0) for g in games), default=0.0)


@dataclass
class Bed:
    """The processes, the stand-in, the database and the games of one fault's run."""

    root: Path
    bot_root: Path | None = None
    """Another checkout of the bot to run (the benchmark's "before"); None: this one."""
    lease_seconds: float | None = None
    pace: float = 0.5
    """Seconds a person takes before planning a round: the games must outlast the fault."""
    cluster: Cluster = field(init=False)
    server: StandIn = field(init=False)
    url: str = ""
    procs: list[Process] = field(default_factory=list)
    envs: list[dict[str, str]] = field(default_factory=list)
    games: dict[str, int] = field(default_factory=dict)
    """Game name ("s0-a": shard 0's guild, first game) → id."""
    channels: dict[str, Channel] = field(default_factory=dict)
    people: list[User] = field(default_factory=list)
    report: Report = field(default_factory=lambda: Report(""))
    rounds: dict[str, int] = field(default_factory=dict)
    """Rounds each game has resolved under the players."""
    doing: dict[str, str] = field(default_factory=dict)
    """What each game's people are doing now (for a run that hangs)."""
    _stop: asyncio.Event = field(default_factory=asyncio.Event)
    _runs: int = 0

    async def start(self) -> None:
        self.cluster = Cluster().start()
        self.url = await self.cluster.create_database("faults")
        token = "MTQ0." + secrets.token_urlsafe(32)
        self.server = StandIn(token, bot_name="Board Games Bot", shards=2, identify_spacing=0.3)
        await self.server.start()
        guilds = await guild_per_shard(self.server)
        everywhere = list(guilds.values())
        self.people = [self.server.add_user(n, guilds=everywhere) for n in ("Ada", "Ben")]
        env = {**bot_env(self.server, token, self.url), "TICK_SECONDS": "0.2", "SHARD_COUNT": "2"}
        env["IDENTIFY_SECONDS"] = "0.3"
        if self.lease_seconds is not None:
            env["LEASE_SECONDS"] = str(self.lease_seconds)
        if self.bot_root is not None:
            env["PYTHONPATH"] = str(self.bot_root)
        self.envs = [{**env, "SHARD_IDS": str(shard)} for shard in (0, 1)]
        for shard in (0, 1):
            await self.launch(shard)
        for shard, guild in guilds.items():
            for name in ("a", "b"):
                channel = self.server.add_channel(guild, f"powerline-{name}")
                self.channels[f"s{shard}-{name}"] = channel
                self.games[f"s{shard}-{name}"] = await self._open(channel)

    async def launch(self, shard: int) -> None:
        self._runs += 1
        self.procs.append(await launch(self.server, self.envs[shard], self.root, self._runs))

    async def close(self) -> None:
        await stop(self.procs)
        await self.server.stop()
        self.cluster.stop()

    # ---- the people ---------------------------------------------------------------------------

    async def _open(self, channel: Channel) -> int:
        ada, ben = self.people
        lobby = await answer(self.server.slash(ada, channel, "powerline open"), timeout=10)
        gid = int(lobby.embeds[0]["title"].rsplit("#", 1)[1])
        for person, action in ((ben, "join"), (ada, "start")):
            await answer(press_lobby(self.server, person, lobby, gid, action), timeout=10)
        return gid

    async def play(self, name: str) -> None:
        """Plan and submit round after round in game `name`, as both people, until told to stop;
        each round's wait for the next round's post is measured."""
        gid, channel = self.games[name], self.channels[name]
        round_ = 1
        while not self._stop.is_set() and round_ < LAST:
            await self._wait_post(channel, f"**Round {round_} of 15**", None)
            await asyncio.sleep(self.pace)
            planned = time.monotonic()
            for person in self.people:
                # A person plans from their DM: a board that never comes holds the game up.
                self.doing[f"{gid}"] = f"{person.name} waits for the round {round_} board DM"
                if not await self._wait_board(person, gid, round_, 120):
                    self.report.errors.append(f"{name}: {person.name}'s round {round_} DM")
                    return
                await self._submit(gid, person, round_)
            self.doing[f"{gid}"] = f"waits for round {round_ + 1}"
            if not await self._wait_post(channel, f"**Round {round_ + 1} of 15**", 120):
                self.report.errors.append(f"{name}: round {round_ + 1} never came")
                return
            waited = time.monotonic() - planned
            self.report.stalls[name] = max(self.report.stalls.get(name, 0.0), waited)
            self.rounds[name] = round_
            round_ += 1

    async def _wait_post(self, channel: Channel, text: str, timeout: float | None) -> bool:
        deadline = None if timeout is None else time.monotonic() + timeout
        while not posts(self.server, channel, text):
            if deadline is not None and time.monotonic() > deadline:
                return False
            await asyncio.sleep(0.05)
        return True

    async def _wait_board(self, person: User, gid: int, round_: int, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while not boards(self.server, person, gid, round_):
            if time.monotonic() > deadline:
                return False
            await asyncio.sleep(0.05)
        return True

    async def _submit(self, gid: int, person: User, round_: int) -> None:
        """The person's plan, step by step, then submitted; a step answered "nothing was done"
        is tried again a second later from a cleared draft, as a person would."""
        dm = self.server.dm_channel(person)
        retry = False
        while True:
            try:
                plan = await self._plan(gid, person, round_)
            except READ_FAULTS:
                # The people cannot see the database: they act anyway, and are answered. A
                # submit that was kept ends their round: another would be the next round's.
                await self._command(person, dm, "powerline submit", game=gid)
                if await self._submitted(gid, person, round_):
                    return
                await asyncio.sleep(1.0)
                continue
            if plan is None:
                return  # their plan is in (an earlier try's, stored)
            keys, vacation = plan
            steps = [("powerline clear", {})] if retry else []
            steps += [("powerline place", {"placement": key}) for key in keys]
            if vacation:
                steps.append(("powerline vacation", {"on": True}))
            steps.append(("powerline submit", {}))
            for command, options in steps:
                self.doing[f"{gid}"] = f"{person.name}: /{command} {options}"
                text = await self._command(person, dm, command, game=gid, **options)
                self.doing[f"{gid}"] += f" → {text[:80]}"
                if text.startswith("✅ Plan submitted"):
                    return
                if text == UNSURE:
                    self.report.unsure += 1
                    if await self._submitted(gid, person, round_):
                        return  # told to look, and it was kept
                    break
                if command == "powerline submit" and await self._submitted(gid, person, round_):
                    self.report.misled += 1  # stored, and told otherwise
                    return
                if text == UNREACHABLE:
                    break
            retry = True
            await asyncio.sleep(1.0)

    async def _command(self, person: User, dm: Channel, command: str, **options: Any) -> str:
        """One slash command; what it finally said. Counts it unanswered if Discord would show
        "This interaction failed" or the answer never came."""
        it: Interaction = await self.server.slash(person, dm, command, **options)
        try:
            await it.response(timeout=ACK + 0.5)
        except NotAcknowledged:
            self.report.unanswered += 1
            return UNREACHABLE
        if it.dead:
            self.report.unanswered += 1
            return UNREACHABLE
        try:
            message = await answer(it, timeout=ANSWERED)
        except AssertionError:
            self.report.unanswered += 1
            return UNREACHABLE
        text = message.content
        if text == UNREACHABLE or text.startswith(OLD_REFUSAL):
            self.report.refused += 1
            return UNREACHABLE
        return text

    async def _plan(self, gid: int, person: User, round_: int) -> tuple[list[str], bool] | None:
        """The autopilot's plan for the person's seat in `round_`, from the stored state; None
        once their plan for it is in (the game may be a round further: that round's DM is
        still to come)."""
        game_row = await _one(self.url, "SELECT snapshot FROM games WHERE id = $1", gid)
        seat_row = await _one(
            self.url, "SELECT seat FROM seats WHERE game_id = $1 AND user_id = $2", gid, person.id
        )
        game = registry.get("powerline")
        seat = seat_row["seat"]
        state = game.load_state(game_row["snapshot"])
        if game.progress(state).round != round_ or seat not in game.to_act(state):
            return None
        plan = autopilot.choose(game.view(state, seat), seat)
        return [placement_key(p) for p in plan.placements], plan.vacation

    async def _submitted(self, gid: int, person: User, round_: int) -> bool:
        """Whether the person's plan for `round_` is stored (read again until it answers)."""
        while True:
            try:
                row = await _one(
                    self.url,
                    "SELECT count(*) AS n FROM actions a JOIN seats s ON s.game_id = a.game_id "
                    "AND s.seat = a.seat WHERE a.game_id = $1 AND s.user_id = $2",
                    gid,
                    person.id,
                )
                return bool(row["n"] >= round_)
            except READ_FAULTS:
                await asyncio.sleep(0.5)

    # ---- a run --------------------------------------------------------------------------------

    async def run(self, fault: str, strike: Callable[[Bed], Awaitable[None]]) -> Report:
        """Play a round in every game, strike, play on until every game has resolved two more
        rounds and every post is out; then count."""
        self.report = Report(fault)
        players = [asyncio.create_task(self.play(name)) for name in self.games]
        await self._until(lambda: all(self.rounds.get(n, 0) >= 1 for n in self.games), 60)
        before = dict(self.rounds)
        await strike(self)
        await self._until(
            lambda: all(self.rounds.get(n, 0) >= before[n] + 2 for n in self.games), 180
        )
        self._stop.set()
        await asyncio.wait(players, timeout=150)
        for task in players:
            if task.done() and not task.cancelled() and task.exception() is not None:
                self.report.errors.append(f"a player failed: {task.exception()!r}")
            task.cancel()
        await self._settled(60)
        self._count()
        await self._terminate()
        return self.report

    async def _until(self, done: Callable[[], bool], timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not done():
            if time.monotonic() > deadline:
                self.report.errors.append(f"timed out after {timeout} s: {self.doing}")
                for proc in self.procs:
                    # Where its tasks wait, in its log (an older bot would die of it).
                    if proc.returncode is None and self.bot_root is None:
                        proc.send_signal(signal.SIGUSR1)
                await self._dump()
                return
            await asyncio.sleep(0.1)

    async def _dump(self) -> None:
        """What the outbox and the stand-in hold, beside the logs, for a run that hangs."""
        lines = []
        with contextlib.suppress(*READ_FAULTS):
            conn = await asyncpg.connect(self.url, timeout=5)
            try:
                for row in await conn.fetch(
                    "SELECT o.id, o.game_id, o.kind, o.sent_at, o.attempts, o.retry_at, o.error, "
                    "o.created_at, (SELECT string_agg(p.part || '=' || p.message_id, ' ') "
                    "FROM outbox_posts p WHERE p.outbox_id = o.id) AS parts "
                    "FROM outbox o ORDER BY o.id"
                ):
                    lines.append(str(dict(row)))
                lines += [str(dict(r)) for r in await conn.fetch("SELECT * FROM delivery_leases")]
            finally:
                await conn.close()
        for person in self.people:
            for m in self.server.dms(person):
                first = m.edits[0]["content"] if m.edits else m.content
                lines.append(f"DM {person.name} {m.id} {first[:90]!r}")
        for channel in self.server.world.channels.values():
            if channel.is_dm:
                lines.append(
                    f"DM channel {channel.id} with {channel.recipient}: {len(channel.messages)}"
                )
        (self.root / "dump.txt").write_text("\n".join(lines))

    async def _settled(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with contextlib.suppress(*READ_FAULTS):
                row = await _one(self.url, "SELECT count(*) AS n FROM outbox WHERE sent_at IS NULL")
                if row["n"] == 0:
                    return
            await asyncio.sleep(0.2)
        self.report.errors.append("posts still pending")

    def _count(self) -> None:
        """Each resolved round's post once in its channel, and each person's board once."""
        for name, gid in self.games.items():
            channel = self.channels[name]
            for r in range(1, min(self.rounds.get(name, 0) + 1, LAST) + 1):
                counts = {"round post": len(posts(self.server, channel, f"**Round {r} of 15**"))}
                for p in self.people:
                    counts[f"{p.name}'s board"] = boards(self.server, p, gid, r)
                for what, n in counts.items():
                    self.report.lost += n == 0
                    self.report.doubled += max(0, n - 1)
                    if n != 1:
                        self.report.odd.append(f"{name} round {r}: {what} ×{n}")

    async def _terminate(self) -> None:
        """SIGTERM the processes still running; how long they take to exit."""
        alive = [p for p in self.procs if p.returncode is None]
        started = time.monotonic()
        for proc in alive:
            proc.send_signal(signal.SIGTERM)
        for proc in alive:
            try:
                await asyncio.wait_for(proc.wait(), 30)
            except TimeoutError:
                self.report.errors.append("a process did not exit within 30 s of SIGTERM")
        self.report.stopped_in = time.monotonic() - started

    # ---- faults -------------------------------------------------------------------------------

    async def terminate_connections(self, seconds: float = 10.0, every: float = 0.3) -> None:
        """pg_terminate_backend on every connection to the bots' database, repeatedly."""
        admin = await asyncpg.connect(self.cluster.url())
        try:
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                await admin.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = 'faults' AND pid <> pg_backend_pid()"
                )
                await asyncio.sleep(every)
        finally:
            await admin.close()

    def _pg_ctl(self, action: str) -> None:
        # restart starts a stopped server too, with the options of its last start; its output
        # goes to the log, or the server would hold pg_ctl's pipes open.
        log = str(self.cluster.root / "log")
        pg_ctl = str(self.cluster.bin / "pg_ctl")
        self.cluster._run(
            pg_ctl, "-D", str(self.cluster.data), "-l", log, "-m", "fast", "-w", action
        )

    async def restart_server(self) -> None:
        await asyncio.to_thread(self._pg_ctl, "restart")

    async def stop_server(self, seconds: float = 30.0) -> None:
        await asyncio.to_thread(self._pg_ctl, "stop")
        await asyncio.sleep(seconds)
        await asyncio.to_thread(self._pg_ctl, "restart")

    async def lock_game(self, name: str, seconds: float = 60.0) -> None:
        """Hold game `name`'s row with SELECT … FOR UPDATE, as an operator's stray session."""
        conn = await asyncpg.connect(self.url)
        try:
            async with conn.transaction():
                await conn.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", self.games[name])
                await asyncio.sleep(seconds)
        finally:
            await conn.close()

    async def kill_shard(self, shard: int) -> None:
        """kill -9 the process of `shard`; it is not restarted."""
        proc = self.procs[shard]
        proc.kill()
        await proc.wait()


async def _one(url: str, sql: str, *args: Any) -> asyncpg.Record:
    conn = await asyncpg.connect(url, timeout=2)
    try:
        row = await conn.fetchrow(sql, *args, timeout=5)
    finally:
        await conn.close()
    assert row is not None
    return row


async def guild_per_shard(server: StandIn) -> dict[int, Any]:
    """A guild on each of the two shards (a guild's id carries its creation millisecond)."""
    found: dict[int, Any] = {}
    while len(found) < 2:
        guild = server.add_guild(f"Board Games {len(found) + 1}")
        found.setdefault((guild.id >> 22) % 2, guild)
        await asyncio.sleep(0.002)
    return found


def posts(server: StandIn, channel: Channel, text: str) -> list[str]:
    return [
        m.content
        for m in server.messages(channel)
        if m.author.bot and not m.ephemeral and text in m.content
    ]


def boards(server: StandIn, person: User, gid: int, round_: int) -> int:
    """How many board DMs of a Powerline game's round a person got (as first sent)."""
    head, tail = f"[Powerline game #{gid}](", f"), round {round_}: your board."
    return sum(
        1
        for m in server.dms(person)
        if m.author.bot and first_content(m).startswith(head) and tail in first_content(m)
    )
