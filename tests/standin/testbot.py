"""A minimal discord.py bot that exercises what the stand-in must support."""

from __future__ import annotations

import asyncio
import io
import struct
import zlib
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

WORDS = ["apple", "apricot", "banana", "blueberry", "cherry", "grape", "guava", "kiwi"]


def tiny_png(width: int = 3, height: int = 2) -> bytes:
    """A valid RGB PNG built by hand, so the tests need no imaging library."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = zlib.crc32(kind + body) & 0xFFFFFFFF
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)

    rows = b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


class JoinView(discord.ui.View):
    """Persistent view: stable custom_id, no timeout, registered with ``add_view``."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Join", custom_id="game:join", style=discord.ButtonStyle.primary)
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        content = f"{interaction.message.content}\n{interaction.user.name} joined"
        await interaction.response.edit_message(content=content)


class MenuView(discord.ui.View):
    """A string select."""

    @discord.ui.select(
        custom_id="menu:map",
        placeholder="Pick a map",
        options=[
            discord.SelectOption(label=m.title(), value=m) for m in ("germany", "usa", "italy")
        ],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(f"map: {select.values[0]}", ephemeral=True)


class NameModal(discord.ui.Modal, title="Name your game"):
    """Two text inputs."""

    name = discord.ui.TextInput(label="Game name", custom_id="form:name", max_length=30)
    notes = discord.ui.TextInput(
        label="Notes", custom_id="form:notes", required=False, style=discord.TextStyle.long
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"named {self.name.value} ({self.notes.value})")


class LayoutRow(discord.ui.ActionRow):
    """A button inside a Components V2 layout."""

    @discord.ui.button(label="Go", custom_id="v2:go")
    async def go(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        view = self.view
        assert isinstance(view, Layout)
        view.title.content = "Board v2 (clicked)"
        await interaction.response.edit_message(view=view)


class Layout(discord.ui.LayoutView):
    """Components V2: text display, action row, container."""

    title = discord.ui.TextDisplay("Board v2")
    row = LayoutRow()
    box = discord.ui.Container(discord.ui.TextDisplay("inside"), accent_colour=0x00FF00)


class ProbeBot(commands.Bot):
    """Records what happened so tests can assert on the client side too."""

    def __init__(self, guild_id: int, *, intents: discord.Intents | None = None) -> None:
        if intents is None:
            intents = discord.Intents.default()
            intents.message_content = True
            intents.members = True
        super().__init__(command_prefix="!", intents=intents, guild_ready_timeout=0.05)
        self.guild_id = guild_id
        self.errors: list[Exception] = []
        self.events: list[str] = []
        self.seen_messages: list[discord.Message] = []
        self.held: discord.Interaction | None = None
        self.read_back: bytes | None = None
        self.slow_delay = 0.0
        self._add_commands()

    async def setup_hook(self) -> None:
        self.add_view(JoinView())
        guild = discord.Object(id=self.guild_id)
        await self.tree.sync()
        await self.tree.sync(guild=guild)

    async def on_resumed(self) -> None:
        self.events.append("resumed")

    async def on_message(self, message: discord.Message) -> None:
        if message.author == self.user:
            return
        self.seen_messages.append(message)
        if message.guild is None:
            await message.channel.send(f"got: {message.content}")

    def _add_commands(self) -> None:
        tree = self.tree
        game = app_commands.Group(name="game", description="Game commands")

        @game.command(name="start", description="Start a game")
        @app_commands.describe(players="How many players", opponent="Who to invite")
        async def start(
            interaction: discord.Interaction,
            players: app_commands.Range[int, 2, 6],
            opponent: discord.Member | None = None,
            ranked: bool = False,
        ) -> None:
            who = opponent.name if opponent else "anyone"
            await interaction.response.send_message(
                f"game for {players}, invite {who}, ranked={ranked}", view=JoinView()
            )

        @game.command(name="pick", description="Pick a word")
        async def pick(interaction: discord.Interaction, word: str) -> None:
            await interaction.response.send_message(f"picked {word}", ephemeral=True)

        @pick.autocomplete("word")
        async def pick_auto(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            if current == "*":  # A bot bug the stand-in must catch: more than 25 choices.
                return [
                    app_commands.Choice(name=f"{w}{i}", value=w) for w in WORDS for i in range(4)
                ]
            return [app_commands.Choice(name=w, value=w) for w in WORDS if w.startswith(current)]

        config = app_commands.Group(name="config", description="Settings", parent=game)

        @config.command(name="set", description="Set a number")
        async def config_set(interaction: discord.Interaction, key: str, value: float) -> None:
            await interaction.response.send_message(f"{key}={value:.2f}", ephemeral=True)

        tree.add_command(game)

        @tree.command(name="layout", description="Components V2")
        async def layout(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(view=Layout())

        @tree.command(name="echo", description="Echo text")
        async def echo(interaction: discord.Interaction, text: str, hidden: bool = False) -> None:
            await interaction.response.send_message(f"echo: {text}", ephemeral=hidden)

        @tree.command(name="menu", description="Show a select")
        async def menu(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("choose", view=MenuView())

        @tree.command(name="bigmenu", description="A select with too many options")
        async def bigmenu(interaction: discord.Interaction) -> None:
            options = [discord.SelectOption(label=f"o{i}", value=str(i)) for i in range(26)]
            view = discord.ui.View()
            view.add_item(discord.ui.Select(custom_id="big", options=options))
            try:
                await interaction.response.send_message("too big", view=view)
            except discord.HTTPException as error:
                self.errors.append(error)
                await interaction.response.send_message("fallback", ephemeral=True)

        @tree.command(name="form", description="Open a modal")
        async def form(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(NameModal())

        @tree.command(name="work", description="Defer, follow up, edit")
        async def work(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await interaction.followup.send("step 1")
            secret = await interaction.followup.send("secret", ephemeral=True, wait=True)
            await interaction.edit_original_response(content="step 1 (edited)")
            await secret.edit(content="secret (edited)")

        @tree.command(name="hold", description="Defer and keep the interaction")
        async def hold(interaction: discord.Interaction) -> None:
            await interaction.response.defer()
            self.held = interaction

        @tree.command(name="board", description="Send a PNG")
        async def board(interaction: discord.Interaction) -> None:
            embed = discord.Embed(title="Board").set_image(url="attachment://board.png")
            file = discord.File(io.BytesIO(tiny_png()), filename="board.png")
            await interaction.response.send_message(embed=embed, file=file)
            message = await interaction.original_response()
            self.read_back = await message.attachments[0].read()

        @tree.command(name="slow", description="Answers after slow_delay seconds")
        async def slow(interaction: discord.Interaction) -> None:
            await asyncio.sleep(self.slow_delay)
            try:
                await interaction.response.send_message("finally")
            except discord.HTTPException as error:
                self.errors.append(error)

        @tree.command(name="dm", description="DM someone")
        async def dm(interaction: discord.Interaction, member: discord.Member) -> None:
            await interaction.response.defer(ephemeral=True)
            try:
                await member.send("your secret plan")
            except discord.Forbidden as error:
                self.errors.append(error)
                await interaction.followup.send("cannot DM them", ephemeral=True)
            else:
                await interaction.followup.send("sent", ephemeral=True)

        admin = app_commands.Command(
            name="admin",
            description="Managers only",
            callback=_admin_callback,
        )
        admin.default_permissions = discord.Permissions(manage_channels=True)
        tree.add_command(admin, guild=discord.Object(id=self.guild_id))


async def _admin_callback(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("admin ok", ephemeral=True)


def describe(bot: ProbeBot) -> dict[str, Any]:
    """Small summary used in assertion messages."""
    return {"errors": bot.errors, "events": bot.events}
