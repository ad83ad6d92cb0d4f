"""`/help`: the games this bot hosts and the commands it has."""

import discord
from discord import app_commands
from discord.ext import commands

from bot.service.planners import hosted_games
from engine import registry


class Help(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="What this bot can do: its games and commands")
    async def help(self, interaction: discord.Interaction) -> None:
        games = [f"• **{g.title}** — {g.summary}" for g in map(registry.get, hosted_games())]
        lines = []
        for command in sorted(self.bot.tree.get_commands(), key=lambda c: c.name):
            if isinstance(command, app_commands.Group):
                lines += [
                    f"`/{command.name} {sub.name}` — {sub.description}" for sub in command.commands
                ]
            else:
                lines.append(f"`/{command.name}` — {command.description}")
        # The description holds 4096 characters; a field only 1024, too few for every command.
        embed = discord.Embed(
            title="Board games in your channels",
            description="**Games**\n" + "\n".join(games) + "\n\n**Commands**\n" + "\n".join(lines),
            colour=0xE69F00,
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Help(bot))
