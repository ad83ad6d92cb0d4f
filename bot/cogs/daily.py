"""`/daily`: today's challenges on everyone's same dice, played alone in DMs; the day's and the
week's tables, another finisher's board, streaks, the season and the late-day reminder."""

import io
from datetime import date
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import GameBot
from bot.service.challenges import SEASON_RULES, WEEK_BEST
from bot.service.dailies import challenge as find
from bot.service.dailies import challenges
from bot.service.errors import UserError
from bot.ui import answer
from bot.ui.common import moderates, said
from bot.ui.daily import SHOWN, day_words, standing_words, streak_words, table_lines
from bot.ui.presenter import presenter
from bot.workers import draw

CHALLENGES = [app_commands.Choice(name=d.title, value=k) for k, (_, d) in challenges().items()]
"""Every hosted game's daily challenges, as a command's choices."""

Scope = Literal["server", "all servers"]


class DailyCog(commands.GroupCog, group_name="daily"):
    """The daily challenges."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="play", description="Play today's challenge in your DMs")
    @app_commands.describe(challenge="Which of today's challenges")
    @app_commands.choices(challenge=CHALLENGES)
    async def play(self, interaction: discord.Interaction, challenge: str) -> None:
        _, daily = find(challenge)
        dm = interaction.user.dm_channel or await interaction.user.create_dm()
        table, fresh = await self.bot.service.play_daily(
            challenge,
            interaction.user.id,
            interaction.user.display_name,
            interaction.guild_id,
            interaction.channel_id or dm.id,
            dm.id,
        )
        round_ = table.game.progress(table.state).round if table.state else 1
        if fresh:
            text = (
                f"🎲 Today's **{daily.title}** daily is yours in your DMs: round 1's dice are "
                "there. Everyone plays these same dice, a round at a time, until the day ends. "
                "No DM? Allow DMs from this server's members, then use `/daily play` again."
            )
        elif table.row.status == "active":
            host = table.hosted.command
            text = (
                f"You're in round {round_} of today's {daily.title} daily: your planner is in your "
                f"DMs (`/{host} show game:{table.row.id}` there brings it back)."
            )
        else:
            text = (
                f"You've played today's {daily.title} daily. `/daily today` shows where you "
                "stand; `/daily compare` shows another finisher's board."
            )
        await answer.send(interaction, text, ephemeral=True)
        await self.bot.delivery.after_change()

    @app_commands.command(name="today", description="Today's challenges, your results and streak")
    async def today(self, interaction: discord.Interaction) -> None:
        service, user = self.bot.service, interaction.user.id
        where = "in this server" if interaction.guild_id else "in all servers"
        lines = []
        for key, (_, daily) in challenges().items():
            board = await service.daily_day(key, interaction.guild_id, user)
            special = daily.today(board.day)
            title = f"**{daily.title}**" + (f" ({special})" if special else "")
            mine = board.mine
            if mine is None:
                others = len(board.placed)
                started = "1 player has" if others == 1 else f"{others} players have"
                state = f"not played yet ({started} started it {where})"
            else:
                state = standing_words(board, mine, where)
            lines.append(f"• {title}: {state}")
        streak = await service.streak(user, interaction.guild_id)
        lines = [f"📅 Today's dailies ({day_words(board.day)})", *lines, streak_words(streak)]
        closes = int(board.closes_at.timestamp())
        lines.append(f"The day closes <t:{closes}:R>. `/daily play` starts a challenge.")
        await answer.send(interaction, "\n".join(lines), ephemeral=True)

    @app_commands.command(name="leaderboard", description="A day's table of a challenge")
    @app_commands.describe(
        challenge="Which challenge",
        scope="This server's players or everyone's",
        day="A past day, as 2026-11-25 (default: today)",
    )
    @app_commands.choices(challenge=CHALLENGES)
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        challenge: str,
        scope: Scope = "server",
        day: app_commands.Range[str, 10, 10] | None = None,
    ) -> None:
        _, daily = find(challenge)
        guild = interaction.guild_id if scope == "server" else None
        if scope == "server" and guild is None:
            raise UserError("In DMs there is no server: choose “all servers”.")
        board = await self.bot.service.daily_day(challenge, guild, interaction.user.id, _day(day))
        where = "in this server" if guild else "in all servers"
        lines = [f"🏁 **{daily.title}** — {day_words(board.day)}, {where}"]
        host, _ = find(challenge)
        for p in board.scored[:SHOWN]:
            lines.append(f"{p.rank}. {said(p.entry.name)} — {host.score(p.entry.score)}")
        if len(board.scored) > SHOWN:
            lines.append(f"… and {len(board.scored) - SHOWN} more")
        playing = len(board.placed) - len(board.scored)
        if not board.scored:
            lines.append("Nobody has finished yet.")
        if playing:
            lines.append(f"{playing} still playing.")
        if board.mine is not None:
            lines.append(f"You: {standing_words(board, board.mine, where)}.")
        await answer.send(interaction, "\n".join(lines), ephemeral=True)

    @app_commands.command(name="compare", description="Another finisher's board of today's dice")
    @app_commands.describe(challenge="Which challenge", person="Whose board")
    @app_commands.choices(challenge=CHALLENGES)
    async def compare(
        self, interaction: discord.Interaction, challenge: str, person: discord.User
    ) -> None:
        table = await self.bot.service.daily_compare(
            challenge, interaction.user.id, person.id, interaction.guild_id
        )
        assert table.state is not None
        view = table.game.view(table.state, 0)
        image = await draw(presenter(table.row.game).board, view, 0, [table.seats[0].name])
        board = await self.bot.service.daily_day(challenge, interaction.guild_id, person.id)
        _, daily = find(challenge)
        theirs = board.mine
        score = standing_words(board, theirs, "here") if theirs else ""
        await answer.send(
            interaction,
            f"{said(table.seats[0].name)}'s {daily.title} daily: {score}.",
            file=discord.File(io.BytesIO(image), "board.png"),
            ephemeral=True,
        )

    @app_commands.command(name="week", description="This week's table: the best 5 days of 7")
    @app_commands.describe(challenge="Which challenge")
    @app_commands.choices(challenge=CHALLENGES)
    async def week(self, interaction: discord.Interaction, challenge: str) -> None:
        guild = _guild(interaction)
        host, daily = find(challenge)
        monday, rows = await self.bot.service.daily_week(challenge, guild)
        lines = [
            f"📆 **{daily.title}**, week of {day_words(monday)}: each player's best "
            f"{WEEK_BEST} days of 7",
            *table_lines(rows, host.measure),
        ]
        await answer.send(interaction, "\n".join(lines), ephemeral=True)

    @app_commands.command(name="season", description="This server's season ladder")
    async def season(self, interaction: discord.Interaction) -> None:
        rows = await self.bot.service.season_ladder(_guild(interaction))
        lines = ["🏆 **This season** (a quarter of the year)", *table_lines(rows, "points")]
        lines.append(SEASON_RULES)
        await answer.send(interaction, "\n".join(lines), ephemeral=True)

    @app_commands.command(name="remind", description="A DM late on days you haven't played")
    @app_commands.describe(on="On or off")
    async def remind(self, interaction: discord.Interaction, on: bool) -> None:
        due = await self.bot.service.set_reminder(interaction.user.id, interaction.guild_id, on)
        text = (
            f"⏰ On: a DM <t:{int(due.timestamp())}:t> on days you haven't played a daily "
            "(once you have played one), in this server's time zone."
            if due
            else "Daily reminders are off."
        )
        await answer.send(interaction, text, ephemeral=True)

    @app_commands.command(name="setup", description="Moderators: where the day's table goes")
    @app_commands.describe(
        leaderboard="Where each day's table is posted (default: where /daily was used)",
        role="A role for the season's leader (the bot needs Manage Roles, above it)",
    )
    async def setup_(
        self,
        interaction: discord.Interaction,
        leaderboard: discord.TextChannel | None = None,
        role: discord.Role | None = None,
    ) -> None:
        guild = _guild(interaction)
        if not moderates(interaction, guild):
            raise UserError("Only moderators (Manage Channels) set up this server's dailies.")
        fields = {}
        if leaderboard is not None:
            fields["channel_id"] = leaderboard.id
        if role is not None:
            if role.managed or role.is_default():
                raise UserError(f"{role.name} can't be given: it is managed or @everyone.")
            fields["champion_role"] = role.id
        if fields:
            await self.bot.service.set_daily_server(guild, **fields)
        now = await self.bot.service.daily_server(guild)
        where = f"<#{now['channel_id']}>" if now.get("channel_id") else "where /daily was used"
        given = f"<@&{now['champion_role']}>" if now.get("champion_role") else "no role"
        await answer.send(
            interaction,
            f"Dailies here: the day's leaderboard goes {where}; the season's leader gets {given}.",
            ephemeral=True,
        )


def _guild(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise UserError("This is a server's table: use it in a server.")
    return interaction.guild_id


def _day(text: str | None) -> date | None:
    if text is None:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise UserError(f"“{text}” is not a date like 2026-11-25.") from None


async def setup(bot: GameBot) -> None:
    await bot.add_cog(DailyCog(bot))
