"""The offline sandbox: the real bot against the loopback stand-in, with simulated people.

Three people (one with DMs closed) and AI seats play a whole game of every hosted game that has
a sandbox script (`bot.games.<game>.sandbox`), each in a channel of its own, through slash
commands, buttons, selects and DMs; midway they look at an opponent's board and at `/mygames`.
The transcript and every image the bot posted are written to a folder.

By default the bot runs in this process on a SQLite file, on a clock the script moves. With
`--postgres` it stores in PostgreSQL (`postgres.py`), and with `--shards N` it runs as N
`python -m bot` processes, one shard each, with a server on each shard (`shards.py`).
"""

import argparse
import asyncio
import importlib
import logging
import secrets
import sys
from collections.abc import AsyncIterator, Awaitable, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

from pydantic import SecretStr

from bot.app import GameBot, point_at
from bot.sandbox.postgres import NoPostgres, free_port, sandbox_database
from bot.sandbox.processes import Exited
from bot.service.clock import ManualClock
from bot.service.hosting import hosted
from bot.service.service import Service
from bot.settings import Settings
from standin import Channel, Guild, Interaction, Message, StandIn, User

log = logging.getLogger(__name__)

PEOPLE = ("Ada", "Ben", "Chloé")
STUCK = 10
"""Moves in a row a turn-based game may take without its log growing (an undone purchase, a
maximum bid set) before the script gives up on it instead of trying forever."""


def press_lobby(
    server: StandIn, person: User, lobby: Message, game_id: int, action: str
) -> Awaitable[Interaction]:
    """`person` uses the lobby: "join", "leave", "start" or "cancel" press that button; "ai"
    (or "ai:strong", "ai:casual") picks that AI player in the lobby's menu."""
    if action.startswith("ai"):
        level = action.partition(":")[2] or "standard"
        return server.select(person, lobby, f"pl:lobby-ai:{game_id}", [level])
    return server.click(person, lobby, f"pl:lobby:{game_id}:{action}")


class Failed(RuntimeError):
    """The bot did not do its part (a game that stopped moving, a process that did not exit
    cleanly); the message says what, and the transcript is written."""


class Sandbox:
    """One scripted session: the stand-in, the bot, the people, and the transcript. The bot
    runs in this process; `shards.Sharded` runs it as processes of their own."""

    shards = 1
    service: Service
    """The bot's game service, for the script to read what a person would see."""
    clock: ManualClock | None = None
    """The people's time, which the script moves (a maximum bid answers at a person's pace,
    minutes, and the transcript need not wait for them); None when nobody can move it."""
    logs = "the bot's log above"
    """Where the bot's log is, for a failure to point at."""

    def __init__(
        self,
        settings: Settings,
        out: Path,
        database: str | None = None,
        games: Sequence[str] = (),
        serve: bool = False,
    ) -> None:
        self.settings = settings
        self.out = out
        self.serve = serve
        """After playing, keep the web companion up (until Ctrl-C) for a person to browse."""
        self.pages: list[tuple[str, str]] = []
        """Each game's web page: its label and link."""
        self.database = database or str(out / "sandbox.sqlite3")
        self.games = list(games) or list(hosted())
        """The games to play, by engine name (those with a sandbox script)."""
        self.failures: list[str] = []
        """What went wrong with the bot that the people did not see (a process's exit)."""
        self.notes: list[str] = []
        self.places: list[tuple[str, Channel]] = []
        self.lounges: dict[int, Channel] = {}
        self._still: dict[int, tuple[int, int]] = {}
        """Per game: its action count when last asked, and how many times in a row it was so."""

    def note(self, text: str) -> None:
        self.notes.append(text)
        log.info("sandbox: %s", text)

    async def run(self) -> Path:
        self.out.mkdir(parents=True, exist_ok=True)
        token = secrets.token_urlsafe(24)
        server = StandIn(token, bot_name="Board Games Bot", shards=self.shards)
        await server.start()
        self.server = server
        try:
            self.guilds = await self.make_guilds()
            self.lounges = {g.id: server.add_channel(g, "lounge") for g in self.guilds}
            # Ada moderates (Manage Channels): she sets the servers' playing hours.
            self.people = [
                server.add_user(name, guilds=self.guilds, manage_channels=name == PEOPLE[0])
                for name in PEOPLE
            ]
            server.set_dms_open(self.people[2], False)
            async with self.serving(token):
                try:
                    await self.play()
                    await self.list_pages()
                except BaseException:
                    # What happened up to the failure (or Ctrl-C) is what the operator needs.
                    log.info("sandbox: stopped; what happened so far: %s", self.write())
                    raise
                if self.serve:
                    await self.browse(self.write())
            # Written again once the bot is down: what its shutdown adds is in it too.
            return self.write()
        finally:
            await server.stop()

    async def make_guilds(self) -> list[Guild]:
        """The servers the people play in: one here."""
        return [self.server.add_guild("Sandbox Server")]

    @asynccontextmanager
    async def serving(self, token: str) -> AsyncIterator[None]:
        """The bot connected and ready for the length of the block."""
        settings = self.settings.model_copy(
            update={
                "discord_token": None,
                "database": self.database,
                "discord_api_base": self.server.api_base,
                "discord_gateway_url": self.server.gateway_url,
                "tick_seconds": 0.5,
                "web_port": free_port(),
                "web_host": "127.0.0.1",
                "web_secret": SecretStr(secrets.token_urlsafe(24)),
                "public_url": None,
            }
        )
        point_at(settings)
        self.clock = ManualClock(datetime.now(UTC))
        bot = GameBot(settings, clock=self.clock)
        async with bot:
            await bot.login(token)
            runner = asyncio.create_task(bot.connect(reconnect=False))
            await asyncio.wait_for(bot.wait_until_ready(), 10)
            self.service = bot.service
            self._bot = bot
            try:
                yield
            finally:
                await bot.close()
                runner.cancel()

    async def list_pages(self) -> None:
        """Each game's web page, for the transcript (and for `browse`)."""
        web = self._bot.web
        if web is None:
            return
        async with self.service.repo.reading() as repo:
            rows = await repo.all("SELECT id FROM games WHERE status <> 'cancelled' ORDER BY id")
        for row in rows:
            table = await self.service.table(row["id"])
            self.pages.append((table.label, web.game_url(table.row.id)))

    async def browse(self, transcript: Path) -> None:
        """The web pages kept up for a person to open, until Ctrl-C (a normal end here)."""
        print(f"Sandbox game played through the bot. Transcript: {transcript}")
        print("Its games on the web (Ctrl-C stops the sandbox):")
        print("\n".join(f"  {label}: {url}" for label, url in self.pages), flush=True)
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            # Ctrl-C is how a person ends browsing: the bot then closes as after any run.
            print("Stopping.", flush=True)

    async def settled(self) -> None:
        """Until every post the bot owes is out (a person reads a redrawn panel first)."""
        await self._bot.delivery.flush()

    async def act(self, interaction: Awaitable[Interaction]) -> Message | None:
        """What a person does, once the bot has answered it: the message it answered with. An
        answer that takes the bot over 2 s is acknowledged first and comes after (a follow-up,
        or the loader or clicked message redrawn); this waits for it, as a person would."""
        it = await interaction
        message = await it.response(timeout=10)

        def answered() -> bool:
            if it.response_type == 5:
                # A "thinking…" loader: redrawn as the answer, or deleted for a follow-up.
                loader = it.response_message
                shown = loader is not None and not loader.deleted
                return not it.loading_pending and (shown or bool(it.followups))
            clicked = it.message
            if it.response_type == 6 and clicked is not None:
                return bool(it.followups) or (clicked.edited_at or 0) >= it.created_at
            return True

        await self.server.wait_for(answered, timeout=10)
        return it.followups[-1] if it.deferred and it.followups else message

    def lounge(self, guild: Guild) -> Channel:
        """The server's #lounge, in the transcript from its first use."""
        channel = self.lounges[guild.id]
        if all(place is not channel for _, place in self.places):
            self.places.append((self.title(channel), channel))
        return channel

    def title(self, channel: Channel) -> str:
        """The channel's heading in the transcript."""
        return f"#{channel.name}"

    async def play(self) -> None:
        ada, first = self.people[0], self.guilds[0]
        self.note("Ada asks for /help in #lounge.")
        await self.act(self.server.slash(ada, self.lounge(first), "help"))
        for guild in self.guilds:
            self.note(
                f"Ada, a moderator, sets {guild.name}'s playing hours: deadlines fall between "
                "08:00 and 23:00, Europe/London time."
            )
            hours = {"zone": "Europe/London", "start": "08:00", "end": "23:00"}
            await self.act(self.server.slash(ada, self.lounge(guild), "server hours", **hours))
        played: dict[str, Guild] = {}
        for name in self.games:
            try:
                script = importlib.import_module(f"bot.games.{name}.sandbox")
            except ModuleNotFoundError:
                continue
            # The games take turns over the servers, so that each is served by its shard.
            guild = self.guilds[len(played) % len(self.guilds)]
            played[name] = guild
            channel = self.server.add_channel(guild, hosted()[name].title.lower().replace(" ", "-"))
            self.places.append((self.title(channel), channel))
            await script.play(self, channel)
            if len(played) == 1:
                await self.coached(channel)
        for name in self.games:
            script = importlib.import_module(f"bot.games.{name}.sandbox")
            if hasattr(script, "play_daily"):
                await script.play_daily(self, self.lounge(played.get(name, first)))
        for name in self.games:
            lounge = self.lounge(played.get(name, first))
            self.note(
                f"Ben looks at the server's {hosted()[name].title} leaderboard and his stats."
            )
            await self.act(self.server.slash(self.people[1], lounge, "leaderboard", game=name))
            await self.act(self.server.slash(self.people[1], lounge, "stats", game=name))

    async def open_game(
        self, host: User, channel: Channel, command: str, clicks: list, **options: object
    ) -> int:
        """`host` opens a game with `command`; the lobby's buttons are clicked as `clicks` say
        ((person, action) pairs). Returns the game's id."""
        lobby = await self.act(self.server.slash(host, channel, command, **options))
        assert lobby is not None
        table = await self.service.table_in(channel.id)
        assert table is not None
        for person, action in clicks:
            await self.act(press_lobby(self.server, person, lobby, table.row.id, action))
        return table.row.id

    async def look_around(self, person: User, channel: Channel, opponent: User) -> None:
        """Midway: `person` looks at an opponent's board and at every game they sit at."""
        self.note(f"{person.name} looks at {opponent.name}'s board and at /mygames.")
        await self.act(self.server.slash(person, channel, "game board", player=opponent))
        await self.act(self.server.slash(person, channel, "game status"))
        mine = await self.act(self.server.slash(person, self.server.dm_channel(person), "mygames"))
        if mine is not None and any(
            c.get("custom_id") == "pl:next" for c in mine.iter_components()
        ):
            self.note(f"{person.name} taps “Next game waiting for me”.")
            await self.act(self.server.click(person, mine, "pl:next"))

    async def moving(self, gid: int) -> None:
        """Before a person's move in a turn-based game: fail if the game has not moved over the
        last STUCK of them (a post that never came, say; the bot's log tells why)."""
        count = await self.service.action_count(gid)
        last, times = self._still.get(gid, (-1, 0))
        times = times + 1 if count == last else 0
        if times >= STUCK:
            raise Failed(f"game #{gid} has not moved for {STUCK} moves; why is in {self.logs}")
        self._still[gid] = (count, times)

    async def coached(self, channel: Channel) -> None:
        """After the first game: Ada asks the coach about her play (the report comes by DM)."""
        table = await self.service.table_in(channel.id, ended=True)
        assert table is not None
        self.note(f"Ada asks the coach about {table.label} with /game coach.")
        ada = self.people[0]
        await self.act(self.server.slash(ada, channel, "game coach", game=table.row.id))
        await self.settled()

    async def next_day(self) -> bool:
        """Move the clock past midnight in every server's zone and wait for what the tick
        posts then (the days' tables); False when the bot runs on the real clock (processes)."""
        if self.clock is None:
            return False
        now = self.clock.now()
        self.clock.current = now.replace(hour=0, minute=0, second=5) + timedelta(days=1, hours=14)
        await asyncio.sleep(2 * self._bot.settings.tick_seconds + 0.5)
        await self.settled()
        return True

    async def moved_on(self, gid: int, round_: int) -> bool:
        table = await self.service.table(gid)
        return table.row.status != "active" or table.game.progress(table.state).round > round_

    async def finish(self, channel: Channel) -> None:
        """Wait for the final results in `channel` and the DMs still going out."""

        def posted() -> bool:
            return any("**Game over!**" in m.content for m in self.server.messages(channel))

        await self.server.wait_for(posted, timeout=30)
        await self.settled()

    def _named(self, text: str) -> str:
        """Mentions as Discord shows them: "@Ada"."""
        for person in self.people:
            text = text.replace(f"<@{person.id}>", f"@{person.name}")
        return text

    def preamble(self) -> list[str]:
        """Transcript lines before what the people did."""
        return []

    def summary(self) -> list[str]:
        """Transcript lines after every message: the games' web pages (`--serve` keeps them up)."""
        if not self.pages:
            return []
        if not self.serve:
            text = (
                "Each game also had a live web page while the sandbox ran; `scripts/run sandbox "
                "--serve` (the default in a terminal) plays again and keeps them up to browse."
            )
            return ["## On the web", "", text, ""]
        lines = ["## On the web", "", "Up until the sandbox is stopped (Ctrl-C):"]
        return [*lines, "", *(f"- {label}: {url}" for label, url in self.pages), ""]

    def write(self) -> Path:
        """transcript.md with every message of the channels and the DMs; images beside it."""
        images = self.out / "images"
        images.mkdir(exist_ok=True)
        lines = ["# Sandbox transcript", "", *self.preamble(), "## What the people did", ""]
        lines += [f"- {n}" for n in self.notes]
        places = list(self.places)
        places += [
            (f"DMs with {p.name}", self.server.dm_channel(p)) for p in self.people if p.dms_open
        ]
        count = 0
        for title, channel in places:
            lines += ["", f"## {title}", ""]
            for message in self.server.messages(channel):
                who = message.author.name + (" (only they see it)" if message.ephemeral else "")
                # A panel is redrawn in place: its earlier versions say what was done on it.
                earlier = [e["content"].split("\n", 1)[0] for e in message.edits if e["content"]]
                if earlier:
                    lines.append(f"*(edited in place; before: {' → '.join(earlier)})*")
                lines.append(f"**{who}:** {self._named(message.content)}".rstrip())
                for embed in message.embeds:
                    lines.append(f"> {embed.get('title', '')}: {embed.get('description', '')}")
                    for field in embed.get("fields", []):
                        lines.append(f"> **{field['name']}** {field['value']}".replace("\n", " · "))
                for attachment in message.attachments:
                    count += 1
                    name = f"{count:03d}-{attachment.filename}"
                    (images / name).write_bytes(self.server.attachment_bytes(attachment))
                    lines.append(f"![{attachment.filename}](images/{name})")
                labels = [c["label"] for c in message.iter_components() if c.get("label")]
                if labels:
                    lines.append("> buttons: " + ", ".join(labels))
                lines.append("")
        lines += self.summary()
        path = self.out / "transcript.md"
        path.write_text("\n".join(lines), "utf-8")
        return path


async def run(
    settings: Settings,
    out: Path | None = None,
    *,
    postgres: bool = False,
    shards: int = 1,
    games: Sequence[str] = (),
    serve: bool = False,
) -> Path:
    """Play the sandbox session and say where its transcript is: in this process on SQLite, or
    on PostgreSQL (`postgres`), as `shards` processes of one shard each if more than one."""
    # shards.py builds on Sandbox, defined above.
    from bot.sandbox.shards import Sharded

    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    out = out or Path("sandbox-output") / stamp
    if not postgres:
        sandbox = Sandbox(settings, out, games=games, serve=serve)
        path = await sandbox.run()
    else:
        name = "sandbox_" + stamp.replace("-", "_")
        async with sandbox_database(settings.database, name) as (url, where):
            log.info("sandbox: PostgreSQL %s", where)
            sandbox = (
                Sharded(settings, out, url, where, shards, games)
                if shards > 1
                else Sandbox(settings, out, url, games, serve)
            )
            path = await sandbox.run()
    images = len(list((path.parent / "images").iterdir()))
    print(f"Sandbox game played through the bot. Transcript: {path} ({images} images beside it)")
    if summary := sandbox.summary():
        print("\n".join(summary).strip())
    if sandbox.failures:
        raise Failed("; ".join(sandbox.failures))
    return path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--postgres",
        action="store_true",
        help="store in PostgreSQL: a new database on the server DATABASE names if it is a "
        "postgresql:// URL, else on a throwaway cluster from the machine's binaries",
    )
    parser.add_argument(
        "--shards",
        type=_positive,
        default=1,
        help="run the bot as this many processes, one shard each, with a server on each "
        "(more than one needs --postgres)",
    )
    parser.add_argument(
        "--serve",
        action=argparse.BooleanOptionalAction,
        default=sys.stdin.isatty(),
        help="after playing, keep the web companion up (its links are printed) until Ctrl-C "
        "(default: in a terminal, yes)",
    )
    parser.add_argument(
        "--games",
        type=lambda text: [name for name in text.split(",") if name],
        default=[],
        help="only these games' scripts, by name, comma-separated (default: every game)",
    )


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of shards (1 or more)")
    return int(text)


def main(settings: Settings, args: argparse.Namespace) -> None:
    """`python -m bot sandbox`: refuse what cannot run in one sentence, else play."""
    if args.shards > 1 and not args.postgres:
        raise SystemExit(
            f"--shards {args.shards} runs {args.shards} bot processes, and several processes "
            "need PostgreSQL: add --postgres."
        )
    unknown = [name for name in args.games if name not in hosted()]
    if unknown:
        raise SystemExit(f"No game {', '.join(unknown)}: the games are {', '.join(hosted())}.")
    try:
        asyncio.run(
            run(
                settings,
                postgres=args.postgres,
                shards=args.shards,
                games=args.games,
                serve=args.serve,
            )
        )
    except NoPostgres as exc:
        raise SystemExit(f"Not started: {exc}.") from None
    except (Failed, Exited) as exc:
        raise SystemExit(f"Sandbox failed: {exc}.") from None
    except KeyboardInterrupt:
        print("Sandbox stopped; its bot processes and database are gone too.", file=sys.stderr)
        raise SystemExit(130) from None
