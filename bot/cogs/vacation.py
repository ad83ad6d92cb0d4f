"""`/vacation`: a person's declared time away, which stops the clocks that wait for them."""

from datetime import date

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import GameBot
from bot.service.errors import UserError
from bot.service.vacations import ALLOWANCE_DAYS, Away
from bot.ui import answer


def _words(away: Away) -> str:
    """Where the person stands: the span, the allowance left, the games that wait or don't."""
    lines = []
    if away.current:
        starts, ends = (int(t.timestamp()) for t in (away.current.starts, away.current.ends))
        lines.append(f"🏖️ Away from <t:{starts}:f> to <t:{ends}:f> (<t:{ends}:R>).")
    else:
        lines.append("You have no vacation running or declared.")
    lines.append(f"Vacation days left this year: {away.remaining} of {ALLOWANCE_DAYS}.")
    if away.waits:
        lines.append("Clocks that stop for you: " + ", ".join(away.waits) + ".")
    if away.runs:
        lines.append(
            "Games that don't stop for vacations (their hosts or tournaments refused): "
            + ", ".join(away.runs)
            + "; the autopilot plays for you there when time runs out."
        )
    return "\n".join(lines)


class VacationCog(commands.GroupCog, group_name="vacation"):
    """Time away from every game at once."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="take", description="Declare days away; your clocks stop then")
    @app_commands.describe(
        days=f"How many days (up to {ALLOWANCE_DAYS} a year in all)",
        start="The first day, as 2026-12-24 (from midnight in your /settings zone); default: now",
    )
    async def take(
        self,
        interaction: discord.Interaction,
        days: app_commands.Range[int, 1, ALLOWANCE_DAYS],
        start: app_commands.Range[str, 10, 10] | None = None,
    ) -> None:
        first = None
        if start is not None:
            try:
                first = date.fromisoformat(start)
            except ValueError:
                raise UserError(f"“{start}” is not a date like 2026-12-24.") from None
        away = await self.bot.service.take_vacation(interaction.user.id, days, first)
        await answer.send(interaction, _words(away), ephemeral=True)
        await self.bot.delivery.after_change()

    @app_commands.command(name="end", description="Back early: your clocks run again now")
    async def end(self, interaction: discord.Interaction) -> None:
        away = await self.bot.service.end_vacation(interaction.user.id)
        await answer.send(interaction, "Welcome back.\n" + _words(away), ephemeral=True)
        await self.bot.delivery.after_change()

    @app_commands.command(name="show", description="Your vacation and the days left this year")
    async def show(self, interaction: discord.Interaction) -> None:
        away = await self.bot.service.away(interaction.user.id)
        await answer.send(interaction, _words(away), ephemeral=True)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(VacationCog(bot))
