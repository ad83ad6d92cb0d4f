"""`/settings`: what a person sets for themself, in every server (time zone, quiet hours, the
"you're next" heads-up, the daily digest). Every answer is for them alone."""

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import GameBot
from bot.service.hours import clock_text, zones_like
from bot.service.preferences import Preferences
from bot.ui import answer


def summary(prefs: Preferences) -> str:
    """Every setting in words, with the times of day in the person's own zone."""
    quiet = prefs.quiet
    hour = f"{clock_text(prefs.digest_at)} {prefs.zone}"
    lines = [
        "**Your settings** (in every server)",
        f"Time zone: {prefs.zone}",
        f"Quiet hours: {quiet.words()}: no reminders or nudges then; one due then comes as they end"
        if quiet
        else "Quiet hours: none",
        "“You're next” heads-up: on: a DM when the seat before yours starts its turn"
        if prefs.heads_up
        else "“You're next” heads-up: off",
        f"Daily digest: on, at {hour}: one DM a day with the games waiting for you, in place of "
        "reminders and nudges"
        if prefs.digest
        else "Daily digest: off",
        "Your turn panels still come whatever you set here: they are how you move.",
    ]
    return "\n".join(lines)


class PreferencesCog(commands.GroupCog, group_name="settings"):
    """Your own settings, in every server."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        super().__init__()

    async def _told(self, interaction: discord.Interaction, done: str, prefs: Preferences) -> None:
        await answer.send(interaction, f"✅ {done}\n\n{summary(prefs)}", ephemeral=True)

    @app_commands.command(name="show", description="Your time zone, quiet hours, heads-up, digest")
    async def show(self, interaction: discord.Interaction) -> None:
        prefs = await self.bot.service.preferences(interaction.user.id)
        await answer.send(interaction, summary(prefs), ephemeral=True)

    @app_commands.command(name="zone", description="Your time zone, for quiet hours and digest")
    @app_commands.describe(zone="Your time zone, e.g. Europe/Paris")
    async def zone(
        self, interaction: discord.Interaction, zone: app_commands.Range[str, 1, 60]
    ) -> None:
        prefs = await self.bot.service.set_zone(interaction.user.id, zone)
        await self._told(interaction, f"Your time zone is {prefs.zone}.", prefs)

    @zone.autocomplete("zone")
    async def _zones(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=z, value=z) for z in zones_like(current or "Europe")]

    @app_commands.command(name="quiet", description="Hours without reminders (neither: none)")
    @app_commands.describe(
        start="From this time of day in your zone, e.g. 23:00",
        end="…until this time of day, e.g. 08:00",
    )
    async def quiet(
        self,
        interaction: discord.Interaction,
        start: app_commands.Range[str, 1, 5] | None = None,
        end: app_commands.Range[str, 1, 5] | None = None,
    ) -> None:
        prefs = await self.bot.service.set_quiet(interaction.user.id, start, end)
        quiet = prefs.quiet
        done = f"Quiet hours: {quiet.words()}." if quiet else "No quiet hours."
        await self._told(interaction, done, prefs)

    @app_commands.command(name="heads-up", description="A DM when the seat before yours moves")
    @app_commands.describe(on="On or off (off at first)")
    async def heads_up(self, interaction: discord.Interaction, on: bool) -> None:
        prefs = await self.bot.service.set_heads_up(interaction.user.id, on)
        await self._told(interaction, f"Heads-up {'on' if on else 'off'}.", prefs)

    @app_commands.command(name="digest", description="One DM a day with your games, no reminders")
    @app_commands.describe(
        on="On or off (off at first)", at="When, in your time zone (18:00 at first)"
    )
    async def digest(
        self,
        interaction: discord.Interaction,
        on: bool,
        at: app_commands.Range[str, 1, 5] | None = None,
    ) -> None:
        prefs = await self.bot.service.set_digest(interaction.user.id, on, at)
        await self._told(interaction, f"Daily digest {'on' if on else 'off'}.", prefs)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(PreferencesCog(bot))
