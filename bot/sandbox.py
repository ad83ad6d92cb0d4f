"""The offline sandbox: the real bot against the loopback stand-in, with simulated people.

Three people and an AI play a whole game of Powerline through slash commands, buttons, selects
and DMs (one person has DMs closed and plans from the channel); then two of them and an AI play
Railroad Ink with both Electricity dice. The transcript and every image the bot posted are
written to a folder.
"""

import asyncio
import json
import logging
import secrets
from datetime import datetime
from pathlib import Path

from bot.app import GameBot, point_at
from bot.service.powerline import placement_key
from bot.settings import Settings
from engine.powerline import autopilot
from engine.railroad_ink import autopilot as railroad_autopilot
from standin import Channel, Message, StandIn, User

log = logging.getLogger(__name__)

PEOPLE = ("Ada", "Ben", "Chloé")


class Sandbox:
    """One scripted session: the stand-in, the bot, the people, and the transcript."""

    def __init__(self, settings: Settings, out: Path) -> None:
        self.settings = settings
        self.out = out
        self.notes: list[str] = []

    def note(self, text: str) -> None:
        self.notes.append(text)
        log.info("sandbox: %s", text)

    async def run(self) -> Path:
        self.out.mkdir(parents=True, exist_ok=True)
        token = secrets.token_urlsafe(24)
        server = StandIn(token, bot_name="Powerline Bot")
        await server.start()
        self.server = server
        try:
            guild = server.add_guild("Sandbox Server")
            self.channel = server.add_channel(guild, "powerline")
            self.railroad = server.add_channel(guild, "railroad-ink")
            self.people = [server.add_user(name) for name in PEOPLE]
            for person in self.people:
                server.join(person, guild)
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
            bot = GameBot(settings)
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

    async def act(self, interaction_coro) -> Message | None:
        it = await interaction_coro
        return await it.response(timeout=10)

    async def play(self) -> None:
        ada, ben, chloe = self.people
        server = self.server
        self.note("Ada asks for /help in #powerline.")
        await self.act(server.slash(ada, self.channel, "help"))
        self.note("Ada opens a Powerline table with the Adventure Island variant.")
        lobby = await self.act(
            server.slash(ada, self.channel, "powerline open", adventure_island=True)
        )
        assert lobby is not None
        table = await self.bot.service.table_in(self.channel.id)
        assert table is not None
        gid = table.row.id
        for person, action in ((ben, "join"), (chloe, "join"), (ada, "ai"), (ada, "start")):
            self.note(f"{person.name} clicks {action} on the lobby.")
            await self.act(server.click(person, lobby, f"pl:lobby:{gid}:{action}"))
        while True:
            table = await self.bot.service.table(gid)
            if table.row.status != "active":
                break
            round_ = table.state.round
            for seat in table.seats:
                if seat.is_ai or table.state.plans[seat.seat] is not None:
                    continue
                person = next(p for p in self.people if p.id == seat.user_id)
                await self.plan(person, gid, round_, seat.seat)
            await server.wait_for(lambda r=round_: self._moved_on(gid, r), timeout=30)
        await server.wait_for(lambda: self._results_posted(self.channel), timeout=30)
        await self.bot.delivery.flush()  # the final boards still going out by DM
        self.note("The game is over; the results are posted.")
        self.note("Ben looks at the server's leaderboard and his stats.")
        await self.act(server.slash(ben, self.channel, "leaderboard"))
        await self.act(server.slash(ben, self.channel, "stats"))
        await self.play_railroad_ink()

    async def play_railroad_ink(self) -> None:
        """Ada, Ben and an AI play Railroad Ink with both Electricity dice in #railroad-ink."""
        ada, ben, _ = self.people
        server, channel = self.server, self.railroad
        self.note(
            "Ada opens a Railroad Ink table with Street Lamps and Power Grid in #railroad-ink."
        )
        lobby = await self.act(
            server.slash(ada, channel, "railroad open", street_lamps=True, power_grid=True)
        )
        await server.wait_for(lambda: lobby is not None and lobby.embeds, timeout=10)
        table = await self.bot.service.table_in(channel.id)
        assert table is not None
        gid = table.row.id
        for person, action in ((ben, "join"), (ada, "ai"), (ada, "start")):
            await self.act(server.click(person, lobby, f"pl:lobby:{gid}:{action}"))
        while (table := await self.bot.service.table(gid)).row.status == "active":
            round_ = table.state.round
            self.note(f"Ada and Ben draw their routes for round {round_} with /railroad draw.")
            for person in (ada, ben):
                await self.draw_routes(person, gid)
            await server.wait_for(lambda r=round_: self._moved_on(gid, r), timeout=30)
        await server.wait_for(lambda: self._results_posted(channel), timeout=30)
        await self.bot.delivery.flush()
        self.note("The Railroad Ink game is over; the score sheet is posted.")

    async def draw_routes(self, person: User, gid: int) -> None:
        """Enter the plan the autopilot suggests, one slash command per step, then submit."""
        table = await self.bot.service.table(gid)
        seat = next(s.seat for s in table.seats if s.user_id == person.id)
        plan = railroad_autopilot.choose(table.game.view(table.state, seat), seat)
        dm = self.server.dm_channel(person)
        for step in plan.steps:
            data = step.model_dump(mode="json", exclude_none=True)
            if data["step"] == "draw":
                die = f"special:{data['face']}" if data["die"] == "special" else data["die"]
                command = self.server.slash(
                    person,
                    dm,
                    "railroad draw",
                    die=die,
                    cell=data["cell"],
                    orientation=data["orientation"],
                )
            else:
                key = json.dumps(data, separators=(",", ":"), sort_keys=True)
                command = self.server.slash(person, dm, "railroad step", step=key)
            await self.act(command)
        await self.act(self.server.slash(person, dm, "railroad submit"))

    async def _moved_on(self, gid: int, round_: int) -> bool:
        table = await self.bot.service.table(gid)
        return table.row.status != "active" or table.state.round > round_

    def _results_posted(self, channel: Channel) -> bool:
        return any(m.content.startswith("**Game over!**") for m in self.server.messages(channel))

    async def plan(self, person: User, gid: int, round_: int, seat: int) -> None:
        """A person enters the plan the autopilot suggests, as a person would, click by click."""
        table = await self.bot.service.table(gid)
        plan = autopilot.choose(table.game.view(table.state, seat), seat)
        keys = [placement_key(p) for p in plan.placements]
        server = self.server
        if not person.dms_open:
            notice = await server.wait_for(lambda: self._plan_button(gid, round_), timeout=15)
            self.note(
                f"{person.name} (DMs closed) opens the planner from the channel, round {round_}."
            )
            planner = await self.act(server.click(person, notice, f"pl:open:{gid}:{round_}"))
        elif round_ % 2:
            planner = await server.wait_for(
                lambda: self._dm_planner(person, gid, round_), timeout=15
            )
            self.note(f"{person.name} plans round {round_} with the DM planner.")
        else:
            dm = server.dm_channel(person)
            self.note(f"{person.name} plans round {round_} with /powerline place in DMs.")
            for key in keys:
                await self.act(server.slash(person, dm, "powerline place", placement=key))
            if plan.vacation:
                await self.act(server.slash(person, dm, "powerline vacation", on=True))
            await self.act(server.slash(person, dm, "powerline submit"))
            return
        assert planner is not None
        for key in keys:
            await self.act(server.select(person, planner, f"pl:pick:{gid}:{round_}", [key]))
        if plan.vacation:
            await self.act(server.click(person, planner, f"pl:plan:{gid}:{round_}:vacation"))
        await self.act(server.click(person, planner, f"pl:plan:{gid}:{round_}:submit"))

    def _dm_planner(self, person: User, gid: int, round_: int) -> Message | None:
        wanted = f"pl:pick:{gid}:{round_}"
        for message in reversed(self.server.dms(person)):
            if message.find_component(custom_id=wanted):
                return message
        return None

    def _plan_button(self, gid: int, round_: int) -> Message | None:
        wanted = f"pl:open:{gid}:{round_}"
        for message in reversed(self.server.messages(self.channel)):
            if message.find_component(custom_id=wanted):
                return message
        return None

    def write(self) -> Path:
        """transcript.md with every message of the channel and the DMs; images beside it."""
        images = self.out / "images"
        images.mkdir(exist_ok=True)
        lines = ["# Sandbox transcript", "", "## What the people did", ""]
        lines += [f"- {n}" for n in self.notes]
        places: list[tuple[str, Channel]] = [
            ("#powerline", self.channel),
            ("#railroad-ink", self.railroad),
        ]
        places += [
            (f"DMs with {p.name}", self.server.dm_channel(p)) for p in self.people if p.dms_open
        ]
        count = 0
        for title, channel in places:
            lines += ["", f"## {title}", ""]
            for message in self.server.messages(channel):
                who = message.author.name + (" (only they see it)" if message.ephemeral else "")
                lines.append(f"**{who}:** {message.content}".rstrip())
                for embed in message.embeds:
                    lines.append(f"> {embed.get('title', '')}: {embed.get('description', '')}")
                    for field in embed.get("fields", []):
                        lines.append(f"> **{field['name']}** {field['value']}".replace("\n", " · "))
                for attachment in message.attachments:
                    count += 1
                    name = f"{count:03d}-{attachment.filename}"
                    (images / name).write_bytes(self.server.attachment_bytes(attachment))
                    lines.append(f"![{attachment.filename}](images/{name})")
                labels = [c.get("label") for c in message.iter_components() if c.get("label")]
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
