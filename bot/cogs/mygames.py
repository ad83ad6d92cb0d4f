"""`/mygames`: every game a person sits at, those waiting for them first, with a button to the
next one waiting."""

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import GameBot
from bot.service.errors import UserError
from bot.service.service import Service, Table
from bot.store.repo import PanelRow
from bot.ui import answer
from bot.ui.clicks import Clicked
from bot.ui.common import bot_of, guarded
from bot.ui.dashboard import mine, my_line, urgency


class MyGames(commands.Cog):
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @app_commands.command(name="mygames", description="Every game you sit at, in every server")
    async def mygames(self, interaction: discord.Interaction) -> None:
        # Every server's: the list is the asker's own seats, shown to them alone.
        user = interaction.user.id
        tables, panels = await _dashboard(self.bot.service, user)
        if not tables:
            raise UserError("You have no seat at any game. Open one with `/<game> open`.")
        web = self.bot.web
        lines = [
            my_line(t, user, panels.get(t.row.id), web.game_url(t.row.id) if web else None)
            for t in tables
        ]
        waiting = sum(1 for t in tables if mine(t, user))
        title = f"Your games: {waiting} waiting for you" if waiting else "Your games"
        embed = discord.Embed(title=title, description="\n".join(lines)[:4000])
        # discord.py takes no view=None on a first response: MISSING is its "no view".
        view = _next_view() if waiting else discord.utils.MISSING
        await answer.send(interaction, embed=embed, ephemeral=True, view=view)


class NextWaiting(Clicked, discord.ui.DynamicItem[discord.ui.Button], template=r"pl:next"):
    """On /mygames: the first game waiting for whoever clicks, as things stand at the click."""

    def __init__(self) -> None:
        button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label="Next game waiting for me", style=discord.ButtonStyle.primary, custom_id="pl:next"
        )
        super().__init__(button)

    async def callback(self, interaction: discord.Interaction) -> None:
        async def act() -> None:
            user = interaction.user.id
            tables, panels = await _dashboard(bot_of(interaction).service, user)
            first = next((t for t in tables if mine(t, user)), None)
            if first is None:
                raise UserError(
                    "No game is waiting for you any more: your moves are all in. `/mygames` "
                    "lists your games as they stand now."
                )
            line = my_line(first, user, panels.get(first.row.id))
            await answer.send(interaction, line, ephemeral=True)

        await guarded(interaction, act)


def _next_view() -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(NextWaiting())
    return view


async def _dashboard(service: Service, user_id: int) -> tuple[list[Table], dict[int, PanelRow]]:
    """The person's games in /mygames order (`_urgency`), and the live panels of those waiting
    for them, by game."""
    tables = await service.games_of(user_id, guild_id=None, lobbies=True)
    tables.sort(key=lambda t: urgency(t, user_id))
    panels = {}
    for table in tables:
        seat = table.seat_of(user_id)
        if seat is not None and mine(table, user_id):
            panel = await service.live_panel(table.row.id, seat.seat)
            if panel is not None:
                panels[table.row.id] = panel
    return tables, panels


async def setup(bot: GameBot) -> None:
    bot.add_dynamic_items(NextWaiting)
    await bot.add_cog(MyGames(bot))
