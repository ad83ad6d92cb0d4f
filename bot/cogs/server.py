"""`/server`: what a server sets for all of its games (its playing hours)."""

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import GameBot
from bot.service.errors import UserError
from bot.service.hours import zones_like
from bot.ui import answer
from bot.ui.common import moderates


class ServerCog(commands.GroupCog, group_name="server"):
    """Settings of this server, for moderators."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(
        name="hours",
        extras={"role": "moderator"},
        description="When this server's deadlines may fall (new games)",
    )
    @app_commands.guild_only()
    @app_commands.describe(
        zone="The server's time zone, e.g. Europe/Paris",
        start="Deadlines from this time of day, e.g. 08:00",
        end="…until this time of day, e.g. 23:00",
    )
    async def hours(
        self,
        interaction: discord.Interaction,
        zone: app_commands.Range[str, 1, 60],
        start: app_commands.Range[str, 1, 5],
        end: app_commands.Range[str, 1, 5],
    ) -> None:
        if interaction.guild_id is None or not moderates(interaction, interaction.guild_id):
            raise UserError("Only a moderator (Manage Channels) can set this server's hours.")
        hours = await self.bot.service.set_hours(interaction.guild_id, zone, start, end)
        await answer.send(
            interaction,
            f"✅ Deadlines of games opened from now on fall between {hours.words()}; one that "
            "would fall outside moves to the next opening. Everyone sees deadlines in their own "
            "time.",
            ephemeral=True,
        )

    @hours.autocomplete("zone")
    async def _zones(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=z, value=z) for z in zones_like(current or "Europe")]


async def setup(bot: GameBot) -> None:
    await bot.add_cog(ServerCog(bot))
