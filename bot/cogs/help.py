"""`/help`: the games this bot hosts and the commands it has."""

import discord
from discord import app_commands
from discord.ext import commands

from engine import registry


class Help(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="What this bot can do: its games and commands")
    async def help(self, interaction: discord.Interaction) -> None:
        embed = discord.Embed(title="Board games in your channels", colour=0xE69F00)
        games = [f"**{g.title}** — {g.summary}" for g in map(registry.get, registry.names())]
        embed.add_field(name="Games", value="\n".join(f"• {g}" for g in games), inline=False)
        lines = []
        for command in sorted(self.bot.tree.get_commands(), key=lambda c: c.name):
            if isinstance(command, app_commands.Group):
                lines += [
                    f"`/{command.name} {sub.name}` — {sub.description}" for sub in command.commands
                ]
            else:
                lines.append(f"`/{command.name}` — {command.description}")
        embed.add_field(name="Commands", value="\n".join(lines), inline=False)
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Help(bot))
