"""The sandbox on several bot processes, as a large deployment runs: the stand-in recommends N
shards, `python -m bot` runs once per shard (`SHARD_COUNT=N`, `SHARD_IDS=i`) on one PostgreSQL
database, and the people play in a server on each shard, the games taking turns over the
servers. The script reads the games through a service of its own on that database (it never
writes), and the transcript ends with a summary for the operator."""

import asyncio
import re
from collections import Counter
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from bot.sandbox import Sandbox
from bot.sandbox.processes import Process, bot_env, errors_in, ready, spawn, terminate
from bot.service.clock import SystemClock
from bot.service.service import Service
from bot.settings import Settings
from bot.store.database import open_database
from bot.store.repo import Repo
from standin import Channel, Guild

TICK_SECONDS = 0.5
"""How often each process looks for due deadlines and posts nobody sent (the games here move
by people's commands, whose posts go out at once)."""
ROUND_POST = re.compile(r"\bRound \d+\b")
"""A channel post about one round (dice rolled, round built, phase over), told by its first line."""


class Sharded(Sandbox):
    """The sandbox against `shards` bot processes of one shard each, on one PostgreSQL."""

    def __init__(
        self,
        settings: Settings,
        out: Path,
        database: str,
        where: str,
        shards: int,
        games: Sequence[str] = (),
    ) -> None:
        super().__init__(settings, out, database, games)
        self.where = where
        """The PostgreSQL database in words, for the transcript."""
        self.shards = shards
        self.logs = f"the processes' logs ({out}/shard-*.log)"
        self.procs: list[Process] = []
        self.exits: list[int] = []
        self.facts: dict[str, Any] = {}
        """What the database says at the end: the `starts` rows and the outbox's counts."""

    def log_of(self, shard: int) -> Path:
        return self.out / f"shard-{shard}.log"

    def shard_of(self, guild: Guild) -> int:
        """Discord's routing: a server's events go to shard (id >> 22) % count."""
        return (guild.id >> 22) % self.shards

    async def make_guilds(self) -> list[Guild]:
        """A server on each shard. A guild's id carries the millisecond it was made, so guilds
        made a moment apart fall on other shards; one that falls on a shard already served is
        removed before the bot connects, so nothing ever sees it."""
        found: dict[int, Guild] = {}
        while len(found) < self.shards:
            guild = self.server.add_guild("Sandbox Server")
            if self.shard_of(guild) in found:
                del self.server.world.guilds[guild.id]
            else:
                found[self.shard_of(guild)] = guild
            await asyncio.sleep(0.001)
        for shard, guild in found.items():
            guild.name = f"Sandbox Server {shard + 1}"
        return [found[shard] for shard in range(self.shards)]

    def title(self, channel: Channel) -> str:
        assert channel.guild is not None
        shard = self.shard_of(channel.guild)
        return f"#{channel.name} · {channel.guild.name}, shard {shard} (process {shard + 1})"

    @asynccontextmanager
    async def serving(self, token: str) -> AsyncIterator[None]:
        """The processes started, connected and ready for the length of the block; then
        stopped with SIGTERM, as systemd stops them, also after a failure or Ctrl-C."""
        db = await open_database(self.database)
        # The processes run on the real clock; this service only reads, on the same one.
        self.service = Service(Repo(db), SystemClock())
        env = {
            **bot_env(self.server, token, self.database),
            "SHARD_COUNT": str(self.shards),
            "TICK_SECONDS": str(TICK_SECONDS),
        }
        try:
            for shard in range(self.shards):
                shard_env = {**env, "SHARD_IDS": str(shard)}
                self.procs.append(await spawn(shard_env, self.out, self.log_of(shard)))
            # They take turns to IDENTIFY, one per identify_spacing (Discord's 5 s).
            wait = 30 + 1.1 * self.server.identify_spacing * self.shards
            await self.server.wait_for(self._ready, timeout=wait, interval=0.1)
            yield
            self.exits = list(await asyncio.gather(*map(terminate, self.procs)))
            for shard, code in enumerate(self.exits):
                if code:
                    self.failures.append(
                        f"process {shard + 1} (shard {shard}) exited {code}; its log is "
                        f"{self.log_of(shard)}"
                    )
            self.facts = await self._facts()
        finally:
            await asyncio.gather(*map(terminate, self.procs))
            await db.close()

    async def list_pages(self) -> None:
        """No pages: the shard processes serve no web companion (give one WEB_PORT to see it)."""

    def _ready(self) -> bool:
        """Every process says it is ready, and shard 0's has synced the commands."""
        up = [ready(proc, self.log_of(shard)) for shard, proc in enumerate(self.procs)]
        return all(up) and bool(self.server.world.commands.get(None))

    async def settled(self) -> None:
        """Until the outbox has nothing pending, whichever process sends it."""
        await self.server.wait_for(self._no_pending, timeout=30, interval=0.05)

    async def _no_pending(self) -> bool:
        async with self.service.repo.reading() as repo:
            health = await repo.health(self.service.clock.now())
        return health["outbox_pending"] == 0

    async def _facts(self) -> dict[str, Any]:
        async with self.service.repo.reading() as repo:
            starts = await repo.all("SELECT started_at, version, shards FROM starts ORDER BY id")
            outbox = await repo.one("SELECT count(*) AS events, count(sent_at) AS sent FROM outbox")
            posts = await repo.one("SELECT count(*) AS n FROM outbox_posts")
        assert outbox is not None and posts is not None
        return {
            "starts": [(r["started_at"], r["version"], r["shards"]) for r in starts],
            "events": int(outbox["events"]),
            "sent": int(outbox["sent"]),
            "posts": int(posts["n"]),
        }

    def _served(self, guild: Guild) -> str:
        shard = self.shard_of(guild)
        proc = self.procs[shard]
        return (
            f"shard {shard}, process {shard + 1} (pid {proc.pid}, log `{self.log_of(shard).name}`)"
        )

    def preamble(self) -> list[str]:
        lines = [
            "## Servers and bot processes",
            "",
            f"{self.shards} `python -m bot` processes, one gateway shard each "
            f"(`SHARD_COUNT={self.shards}`, `SHARD_IDS` 0 to {self.shards - 1}), share one "
            f"PostgreSQL: {self.where}. Discord sends a server's events to shard "
            f"(server id >> 22) % {self.shards}, and every DM to shard 0.",
            "",
        ]
        lines += [f"- {guild.name}: {self._served(guild)}" for guild in self.guilds]
        return [*lines, f"- DMs: shard 0, process 1 (pid {self.procs[0].pid})", ""]

    def _games(self, guild: Guild) -> list[str]:
        """The server's game channels, each with whether its game ended."""
        return [
            f"#{channel.name} ({'over' if self._over(channel) else 'NOT over'})"
            for _, channel in self.places
            if channel.guild is guild and channel is not self.lounges[guild.id]
        ]

    def _over(self, channel: Channel) -> bool:
        return any("**Game over!**" in m.content for m in self.server.messages(channel))

    def _round_posts(self) -> Counter[tuple[int, str]]:
        """Each round post of the bot in the servers' channels, and how often it was posted."""
        return Counter(
            (channel.id, message.content)
            for _, channel in self.places
            for message in self.server.messages(channel)
            if message.author.bot
            and not message.ephemeral
            and ROUND_POST.search(message.content.split("\n", 1)[0])
        )

    def summary(self) -> list[str]:
        if not self.exits:
            return []
        lines = ["", "## Operator summary", ""]
        for shard, (proc, code) in enumerate(zip(self.procs, self.exits, strict=True)):
            errors = len(errors_in(self.log_of(shard)))
            lines.append(
                f"- Process {shard + 1} (pid {proc.pid}): shard {shard} of {self.shards}, "
                f"exited {code} after SIGTERM, {errors or 'no'} error lines in "
                f"`{self.log_of(shard).name}`."
            )
        for guild in self.guilds:
            shard = self.shard_of(guild)
            games = ", ".join(self._games(guild)) or "no game"
            lines.append(f"- {guild.name} on shard {shard} (process {shard + 1}): {games}.")
        starts = "; ".join(f"`{s}` at {at} (version {v})" for at, v, s in self.facts["starts"])
        lines.append(f"- `starts` rows: {len(self.facts['starts'])}: {starts}.")
        pending = self.facts["events"] - self.facts["sent"]
        lines.append(
            f"- Posts delivered: {self.facts['sent']} of {self.facts['events']} outbox events "
            f"({self.facts['posts']} messages posted), {pending or 'none'} pending."
        )
        rounds = self._round_posts()
        twice = sum(n - 1 for n in rounds.values())
        lines.append(
            f"- Round posts: {sum(rounds.values())}, "
            + ("each posted once." if not twice else f"{twice} DUPLICATES.")
        )
        lines.append(f"- Database: {self.where}.")
        return lines
