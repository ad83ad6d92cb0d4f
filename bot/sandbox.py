"""The offline sandbox: the real bot against the loopback stand-in, with simulated people.

Three people (one with DMs closed) and AI seats play a whole game of every hosted game that has
a sandbox script (`bot.games.<game>.sandbox`), each in a channel of its own, through slash
commands, buttons, selects and DMs; midway they look at an opponent's board and at `/mygames`.
The transcript and every image the bot posted are written to a folder.
"""

import asyncio
import importlib
import logging
import secrets
from collections.abc import Awaitable
from datetime import UTC, datetime
from pathlib import Path

from bot.app import GameBot, point_at
from bot.service.clock import ManualClock
from bot.service.hosting import hosted
from bot.settings import Settings
from standin import Channel, Interaction, Message, StandIn, User

log = logging.getLogger(__name__)

PEOPLE = ("Ada", "Ben", "Chloé")


class Sandbox:
    """One scripted session: the stand-in, the bot, the people, and the transcript."""

    def __init__(self, settings: Settings, out: Path) -> None:
        self.settings = settings
        self.out = out
        self.notes: list[str] = []
        self.places: list[tuple[str, Channel]] = []

    def note(self, text: str) -> None:
        self.notes.append(text)
        log.info("sandbox: %s", text)

    async def run(self) -> Path:
        self.out.mkdir(parents=True, exist_ok=True)
        token = secrets.token_urlsafe(24)
        server = StandIn(token, bot_name="Board Games Bot")
        await server.start()
        self.server = server
        try:
            self.guild = server.add_guild("Sandbox Server")
            self.lounge = server.add_channel(self.guild, "lounge")
            self.people = [server.add_user(name) for name in PEOPLE]
            for person in self.people:
                server.join(person, self.guild)
            server.set_dms_open(self.people[2], False)
            settings = self.settings.model_copy(
                update={
                    "discord_token": None,
                    "database": self.out / "sandbox.sqlite3",
                    "discord_api_base": server.api_base,
                    "discord_gateway_url": server.gateway_url,
                    "tick_seconds": 0.5,
                }
            )
            point_at(settings)
            # The people's time: it moves when the script says (a maximum bid answers at a
            # person's pace, minutes, and the transcript need not wait for them).
            self.clock = ManualClock(datetime.now(UTC))
            bot = GameBot(settings, clock=self.clock)
            self.bot = bot
            async with bot:
                await bot.login(token)
                runner = asyncio.create_task(bot.connect(reconnect=False))
                await asyncio.wait_for(bot.wait_until_ready(), 10)
                try:
                    await self.play()
                finally:
                    await bot.close()
                    runner.cancel()
            return self.write()
        finally:
            await server.stop()

    async def act(self, interaction: Awaitable[Interaction]) -> Message | None:
        it = await interaction
        return await it.response(timeout=10)

    async def play(self) -> None:
        ada = self.people[0]
        self.places.append(("#lounge", self.lounge))
        self.note("Ada asks for /help in #lounge.")
        await self.act(self.server.slash(ada, self.lounge, "help"))
        for name, game in hosted().items():
            try:
                script = importlib.import_module(f"bot.games.{name}.sandbox")
            except ModuleNotFoundError:
                continue
            channel = self.server.add_channel(self.guild, game.title.lower().replace(" ", "-"))
            self.places.append((f"#{channel.name}", channel))
            await script.play(self, channel)
        for name, game in hosted().items():
            self.note(f"Ben looks at the server's {game.title} leaderboard and his stats.")
            await self.act(self.server.slash(self.people[1], self.lounge, "leaderboard", game=name))
            await self.act(self.server.slash(self.people[1], self.lounge, "stats", game=name))

    async def open_game(
        self, host: User, channel: Channel, command: str, clicks: list, **options: object
    ) -> int:
        """`host` opens a game with `command`; the lobby's buttons are clicked as `clicks` say
        ((person, action) pairs). Returns the game's id."""
        lobby = await self.act(self.server.slash(host, channel, command, **options))
        assert lobby is not None
        table = await self.bot.service.table_in(channel.id)
        assert table is not None
        for person, action in clicks:
            await self.act(self.server.click(person, lobby, f"pl:lobby:{table.row.id}:{action}"))
        return table.row.id

    async def look_around(self, person: User, channel: Channel, opponent: User) -> None:
        """Midway: `person` looks at an opponent's board and at every game they sit at."""
        self.note(f"{person.name} looks at {opponent.name}'s board and at /mygames.")
        await self.act(self.server.slash(person, channel, "game board", player=opponent))
        await self.act(self.server.slash(person, channel, "game status"))
        await self.act(self.server.slash(person, self.server.dm_channel(person), "mygames"))

    async def moved_on(self, gid: int, round_: int) -> bool:
        table = await self.bot.service.table(gid)
        return table.row.status != "active" or table.game.progress(table.state).round > round_

    async def finish(self, channel: Channel) -> None:
        """Wait for the final results in `channel` and the DMs still going out."""

        def posted() -> bool:
            return any("**Game over!**" in m.content for m in self.server.messages(channel))

        await self.server.wait_for(posted, timeout=30)
        await self.bot.delivery.flush()

    def _named(self, text: str) -> str:
        """Mentions as Discord shows them: "@Ada"."""
        for person in self.people:
            text = text.replace(f"<@{person.id}>", f"@{person.name}")
        return text

    def write(self) -> Path:
        """transcript.md with every message of the channels and the DMs; images beside it."""
        images = self.out / "images"
        images.mkdir(exist_ok=True)
        lines = ["# Sandbox transcript", "", "## What the people did", ""]
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
        path = self.out / "transcript.md"
        path.write_text("\n".join(lines), "utf-8")
        return path


async def run(settings: Settings, out: Path | None = None) -> Path:
    """Play the sandbox session and say where its transcript is."""
    out = out or Path("sandbox-output") / datetime.now().strftime("%Y%m%d-%H%M%S")
    path = await Sandbox(settings, out).run()
    images = len(list((path.parent / "images").iterdir()))
    print(f"Sandbox game played through the bot. Transcript: {path} ({images} images beside it)")
    return path
