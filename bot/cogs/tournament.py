"""`/tournament …`: events in the WBC format (heats, semifinal, final) or Swiss or round robin
in pods, with check-in, a scheduled event, a thread per table, one post per stage kept up to
date, and the champion announced."""

import contextlib
import io
import secrets
from datetime import timedelta
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import GameBot
from bot.service.errors import UserError
from bot.service.hosting import hosting
from bot.service.options import TableOptions
from bot.service.service import Table
from bot.service.tournament.checkins import Closed, closes_words, stage_of
from bot.service.tournament.config import EXAMPLE, FORMAT_NAMES, pod_sizes, tournament_config
from bot.service.tournament.runner import Event, Place, Tournaments
from bot.service.tournament.when import start_time
from bot.store.tournaments import TournamentRow
from bot.ui import answer
from bot.ui.commands import DEADLINES, GAMES, Deadline
from bot.ui.common import moderates, said
from bot.ui.roles import give_role
from bot.ui.tournament import (
    CheckInButton,
    check_in_closed_text,
    check_in_text,
    check_in_view,
    format_words,
    stage_post,
    standings_embed,
    standings_rows,
)
from bot.ui.web import with_page
from bot.workers import draw
from render.standings import standings_image

FORMATS = [app_commands.Choice(name=words, value=key) for key, words in FORMAT_NAMES.items()]


@app_commands.guild_only()
class Tournament(commands.GroupCog, group_name="tournament", group_description="Run a tournament"):
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @property
    def tours(self) -> Tournaments:
        return self.bot.tournaments

    async def _here(self, interaction: discord.Interaction, tournament: int) -> TournamentRow:
        """The tournament, refused if it is another server's (a moderator's rights hold only in
        their own)."""
        if interaction.guild_id is None:
            raise UserError("Tournaments belong to a server: use this in its channel.")
        return await self.tours.get(tournament, interaction.guild_id)

    async def _flush(self) -> None:
        await self.bot.delivery.after_change()

    def _place(self, interaction: discord.Interaction) -> Place:
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            raise UserError("Run tournaments from a text channel: each table gets a thread of it.")

        async def place(label: str, players: list[int]) -> tuple[int, int | None]:
            thread = await channel.create_thread(
                name=label[:100], type=discord.ChannelType.public_thread
            )
            for user_id in players:
                with contextlib.suppress(discord.HTTPException):
                    await thread.add_user(discord.Object(user_id))
            return channel.id, thread.id

        return place

    @app_commands.command(
        name="create", extras={"role": "host"}, description="Create a tournament in this channel"
    )
    @app_commands.guild_only()
    @app_commands.describe(
        game="The game played at every table",
        format="WBC heats then semifinal and final, or Swiss or round robin in pods",
        heats="WBC: how many heats (1-3)",
        rounds="Swiss or round robin: how many rounds (default 3)",
        pods="Swiss or round robin: table sizes, the first preferred, like “4,5” (default 4,5)",
        options=f"Table rules over the game's tournament defaults, like “{EXAMPLE}”",
        starts="When it starts, YYYY-MM-DD HH:MM in the server's zone: makes a server event",
        signup_role="Only members with this role may register",
        champion_role="The role the champion is given",
    )
    @app_commands.choices(game=GAMES, format=FORMATS)
    async def create(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 60],
        game: str,
        format: str = "wbc",
        heats: app_commands.Range[int, 1, 3] = 3,
        rounds: app_commands.Range[int, 1, 12] = 3,
        pods: app_commands.Range[str, 1, 20] | None = None,
        deadline: Deadline = "24 hours",
        options: app_commands.Range[str, 1, 300] | None = None,
        starts: app_commands.Range[str, 1, 30] | None = None,
        signup_role: discord.Role | None = None,
        champion_role: discord.Role | None = None,
    ) -> None:
        config = tournament_config(game, options)
        plugin = hosting(game)
        guild = interaction.guild
        assert guild is not None
        zone = await self.tours.zone(guild.id)
        starts_at = start_time(starts, zone, self.bot.service.clock.now()) if starts else None
        event = Event(
            format=format,
            pods=pod_sizes(pods, plugin) if format != "wbc" else None,
            starts_at=starts_at,
            signup_role_id=signup_role.id if signup_role else None,
            champion_role_id=champion_role.id if champion_role else None,
        )
        t = await self.tours.create(
            guild.id,
            interaction.channel_id or 0,
            interaction.user.id,
            name,
            game,
            heats if format == "wbc" else rounds,
            config,
            TableOptions(deadline_minutes=DEADLINES[deadline], vacations=False),
            secrets.randbits(32),
            event,
        )
        lines = [
            f"**{said(t.name)}** (tournament #{t.id}, {plugin.title}, {format_words(t)}) "
            f"is open: register with `/tournament register {t.id}`."
        ]
        if signup_role is not None:
            lines.append(f"Sign-up is for members with {signup_role.mention}.")
        if starts_at is not None:
            lines.append(await self._schedule(interaction, t, DEADLINES[deadline]))
        rules = "\n".join(f"• {line}" for line in plugin.options_in_words(t.config))
        lines.append(f"Every table plays:\n{rules}")
        await answer.send(
            interaction, "\n".join(lines), allowed_mentions=discord.AllowedMentions.none()
        )

    async def _schedule(
        self, interaction: discord.Interaction, t: TournamentRow, deadline_minutes: int
    ) -> str:
        """The server's scheduled event of the tournament, linking its channel; what to say."""
        guild, channel = interaction.guild, interaction.channel
        assert guild is not None and t.starts_at is not None
        when = f"<t:{int(t.starts_at.timestamp())}:F>"
        if not guild.me.guild_permissions.manage_events:
            return (
                f"It starts {when}. (I couldn't add it to the server's events: I need the Manage "
                "Events permission.)"
            )
        place = channel.jump_url if isinstance(channel, discord.abc.GuildChannel) else ""
        try:
            event = await self._make_event(guild, t, place, deadline_minutes)
        except discord.HTTPException as exc:
            return (
                f"It starts {when}. (Discord refused the server event: {exc.text or exc.status}.)"
            )
        await self.tours.set_event(t.id, event.id)
        return f"It starts {when}: it is in the server's events."

    async def _make_event(
        self, guild: discord.Guild, t: TournamentRow, place: str, deadline_minutes: int
    ) -> discord.ScheduledEvent:
        assert t.starts_at is not None
        return await guild.create_scheduled_event(
            name=t.name,
            start_time=t.starts_at,
            end_time=t.starts_at + timedelta(minutes=deadline_minutes * (t.heats + 2)),
            entity_type=discord.EntityType.external,
            privacy_level=discord.PrivacyLevel.guild_only,
            location=place[:100],
            description=f"{hosting(t.game).title} tournament #{t.id}: register with "
            f"/tournament register {t.id} in its channel ({place}).",
        )

    @app_commands.command(name="register", description="Register for a tournament")
    async def register(self, interaction: discord.Interaction, tournament: int) -> None:
        await self._here(interaction, tournament)
        roles = [r.id for r in getattr(interaction.user, "roles", [])]
        n = await self.tours.register(
            tournament, interaction.user.id, interaction.user.display_name, roles=roles
        )
        await answer.send(
            interaction, f"✅ You are registered ({n} players so far).", ephemeral=True
        )

    @app_commands.command(name="unregister", description="Sit out a tournament's next heats")
    async def unregister(self, interaction: discord.Interaction, tournament: int) -> None:
        await self._here(interaction, tournament)
        n = await self.tours.register(tournament, interaction.user.id, "", on=False)
        await answer.send(
            interaction, f"✅ You are no longer registered ({n} players remain).", ephemeral=True
        )

    @app_commands.command(name="withdraw", description="Leave a tournament under way")
    @app_commands.describe(player="The organiser may withdraw someone else")
    async def withdraw(
        self,
        interaction: discord.Interaction,
        tournament: int,
        player: discord.Member | None = None,
    ) -> None:
        t = await self._here(interaction, tournament)
        who = player or interaction.user
        mod = moderates(interaction, t.guild_id)
        games = await self.tours.withdraw(tournament, who.id, interaction.user.id, mod)
        tables = (
            f" The AI finishes their seat at game #{', #'.join(map(str, games))} (forfeited)."
            if games
            else ""
        )
        await answer.send(
            interaction,
            f"✅ {said(who.display_name)} withdrew from {said(t.name)} and won't be paired again."
            + tables,
            ephemeral=who.id == interaction.user.id and not games,
        )
        await self._flush()

    @app_commands.command(
        name="checkin",
        extras={"role": "host"},
        description="Open the check-in for the next stage (organiser)",
    )
    @app_commands.guild_only()
    @app_commands.describe(
        minutes="How long it stays open (5 minutes to 7 days)", close="Close it now instead"
    )
    async def checkin(
        self,
        interaction: discord.Interaction,
        tournament: int,
        minutes: app_commands.Range[int, 5, 10080] = 60,
        close: bool = False,
    ) -> None:
        t = await self._here(interaction, tournament)
        mod = moderates(interaction, t.guild_id)
        if close:
            stage, present = await self.tours.close_check_in(tournament, interaction.user.id, mod)
            await answer.send(
                interaction,
                f"✅ The check-in for {stage.words} of {said(t.name)} is closed: {present} "
                "checked in.",
            )
            await self._check_in_closed(await self.tours.closed(t, stage))
            return
        t, stage, window, invited = await self.tours.open_check_in(
            tournament, interaction.user.id, mod, minutes
        )
        closes = closes_words(window.closes_at)
        await answer.send(
            interaction,
            check_in_text(t, stage, closes, 0, len(invited)),
            view=check_in_view(t.id),
        )
        message = await interaction.original_response()
        await self.tours.check_in_message(t.id, stage, message.id)
        for user_id in invited:
            with contextlib.suppress(discord.HTTPException):
                user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
                await user.send(
                    f"⏰ {said(t.name)}: check in for {stage.words} by {closes}, with the "
                    f"*Check in* button in {message.jump_url}, or you will be absent from it."
                )

    @app_commands.command(
        name="heat",
        extras={"role": "host"},
        description="Start the next heat or Swiss or round-robin round (organiser)",
    )
    @app_commands.guild_only()
    async def heat(self, interaction: discord.Interaction, tournament: int) -> None:
        t = await self._here(interaction, tournament)
        place = self._place(interaction)
        mod = moderates(interaction, t.guild_id)
        # Every check runs before anything is posted, so a refusal stays private.
        await self.tours.start_heat(tournament, interaction.user.id, mod, place, check=True)
        await answer.defer(interaction, ephemeral=True, thinking=True)
        games = await self.tours.start_heat(tournament, interaction.user.id, mod, place)
        t = await self.tours.get(tournament)
        await self._stage_started(interaction, t, "heat", t.heats_started, games)

    @app_commands.command(
        name="semifinal",
        extras={"role": "host"},
        description="Seed and start the semifinal (organiser)",
    )
    @app_commands.guild_only()
    async def semifinal(self, interaction: discord.Interaction, tournament: int) -> None:
        t = await self._here(interaction, tournament)
        place = self._place(interaction)
        mod = moderates(interaction, t.guild_id)
        # Every check runs before anything is posted, so a refusal stays private.
        await self.tours.start_semifinal(tournament, interaction.user.id, mod, place, check=True)
        await answer.defer(interaction, ephemeral=True, thinking=True)
        games = await self.tours.start_semifinal(tournament, interaction.user.id, mod, place)
        await self._stage_started(interaction, t, "semifinal", 1, games)

    @app_commands.command(
        name="final", extras={"role": "host"}, description="Start the final (organiser)"
    )
    @app_commands.guild_only()
    async def final(self, interaction: discord.Interaction, tournament: int) -> None:
        t = await self._here(interaction, tournament)
        place = self._place(interaction)
        mod = moderates(interaction, t.guild_id)
        # Every check runs before anything is posted, so a refusal stays private.
        await self.tours.start_final(tournament, interaction.user.id, mod, place, check=True)
        await answer.defer(interaction, ephemeral=True, thinking=True)
        game = await self.tours.start_final(tournament, interaction.user.id, mod, place)
        await self._stage_started(interaction, t, "final", 1, [game])

    async def _stage_started(
        self,
        interaction: discord.Interaction,
        t: TournamentRow,
        stage: str,
        heat: int,
        games: list[int],
    ) -> None:
        """The stage's one post in the tournament's channel (edited as its tables finish), the
        organiser's answer, and the server's event marked as under way."""
        named = stage_of(t, stage, heat)
        await self._check_in_closed(await self.tours.closed(t, named))
        channel = self.bot.get_channel(t.channel_id)
        assert isinstance(channel, discord.abc.Messageable)
        content, _ = await self._stage_post(t, stage, heat)
        post = await channel.send(content, allowed_mentions=discord.AllowedMentions.none())
        await self.tours.save_post(t.id, stage, heat, post.id)
        if interaction.guild is not None:
            event = await self._event(interaction.guild, t)
            if event is not None and event.status is discord.EventStatus.scheduled:
                with contextlib.suppress(discord.HTTPException):
                    await event.start(reason="the first stage started")
        await answer.send(
            interaction,
            f"✅ {named.words.capitalize()} has started at {len(games)} table(s), each in its "
            "thread.",
            ephemeral=True,
        )
        await self._flush()

    async def _check_in_closed(self, closed: Closed | None) -> None:
        """A closed check-in's message says so, its button gone (a deleted one is let be)."""
        if closed is None:
            return
        channel = self.bot.get_partial_messageable(closed.tournament.channel_id)
        with contextlib.suppress(discord.NotFound, discord.Forbidden):
            await channel.get_partial_message(closed.message_id).edit(
                content=check_in_closed_text(closed), view=None
            )

    async def close_due_check_ins(self) -> None:
        """At each tick: check-ins whose time is up are closed and their messages say so."""
        for closed in await self.tours.close_due_check_ins():
            await self._check_in_closed(closed)

    async def table_over(self, table: Table) -> None:
        """After a tournament table's results: its stage's post is brought up to date and, once
        the last stage has finished, the champion is announced."""
        found = await self.tours.place_of(table.row.id)
        if found is None:
            return
        t, stage, heat = found
        message_id = await self.tours.post(t.id, stage, heat)
        channel = self.bot.get_channel(t.channel_id)
        if message_id is not None and isinstance(channel, discord.abc.Messageable):
            content, finished = await self._stage_post(t, stage, heat)
            kwargs: dict[str, Any] = {}
            if t.format != "wbc" and finished:
                kwargs["embed"], file = await self._standings(t)
                kwargs["attachments"] = [file]
            with contextlib.suppress(discord.NotFound):
                await channel.get_partial_message(message_id).edit(content=content, **kwargs)
        champion = await self.tours.champion(t.id)
        if champion is not None:
            await self._announce(t, champion)

    async def _stage_post(self, t: TournamentRow, stage: str, heat: int) -> tuple[str, bool]:
        """A stage's post as its tables stand, and whether every one has finished."""
        tables = await self.tours.stage_tables(t.id, stage, heat)
        byes = await self.tours.bye_names(t.id, heat) if stage == "heat" else []
        content = stage_post(t, stage_of(t, stage, heat).words, tables, byes)
        return content, all(row.winner for row in tables)

    async def _standings(self, t: TournamentRow) -> tuple[discord.Embed, discord.File]:
        """A Swiss or round-robin event's standings in words and as an image."""
        standings = await self.tours.swiss_standings(t.id)
        image = await draw(standings_image, *standings_rows(t, standings))
        file = discord.File(io.BytesIO(image), filename="standings.png")
        return standings_embed(t, standings), file

    async def _event(self, guild: discord.Guild, t: TournamentRow) -> discord.ScheduledEvent | None:
        """The tournament's scheduled event, from the cache or Discord; None if it has none (or
        a moderator deleted it)."""
        if t.event_id is None:
            return None
        event = guild.get_scheduled_event(t.event_id)
        if event is None:
            with contextlib.suppress(discord.NotFound):
                event = await guild.fetch_scheduled_event(t.event_id)
        return event

    async def _announce(self, t: TournamentRow, champion: int) -> None:
        """The champion, once: a post in the tournament's channel, their role, the event ended."""
        if not await self.tours.claim_announcement(t.id):
            return
        guild = self.bot.get_guild(t.guild_id)
        channel = self.bot.get_channel(t.channel_id)
        if guild is None or not isinstance(channel, discord.abc.Messageable):
            return
        crowned = ""
        if t.champion_role_id is not None:
            crowned = await give_role(guild, t.champion_role_id, champion, f"champion of {t.name}")
        event = await self._event(guild, t)
        if event is not None and event.status is discord.EventStatus.active:
            with contextlib.suppress(discord.HTTPException):
                await event.end(reason="the champion is decided")
        await channel.send(
            f"🏆 <@{champion}> is the champion of **{said(t.name)}**!{crowned} "
            f"`/tournament standings {t.id}` shows how everyone finished.",
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(champion)]),
        )

    @app_commands.command(
        name="standings",
        description="WBC: the semifinal seeding with its arithmetic; Swiss, round robin: points",
    )
    async def standings(self, interaction: discord.Interaction, tournament: int) -> None:
        t = await self._here(interaction, tournament)
        if t.format != "wbc":
            embed, file = await self._standings(t)
            await answer.send(
                interaction, embed=embed, file=file, view=self._bracket_page(tournament)
            )
            return
        names = await self.tours.players(tournament)
        seeding = await self.tours.seeding(tournament)
        champion = await self.tours.winner(tournament)
        lines = []
        if champion is not None:
            lines.append(f"🏆 Champion: **{said(str(names.get(champion, champion)))}**\n")
        field = set(seeding.field)
        for label, entries in (("Winners", seeding.winners), ("Alternates", seeding.alternates)):
            lines.append(f"**{label}**")
            for i, entry in enumerate(entries[:25]):
                mark = "✅ " if entry.player in field else ""
                why = entry.explain().replace("\n", "; ")
                who = said(str(names.get(entry.player, entry.player)))
                lines.append(f"{i + 1}. {mark}{who} — {why}")
        text = "\n".join(lines)
        embed = discord.Embed(
            title=f"{said(t.name)} — standings ({t.stage})", description=text[:4000]
        )
        embed.set_footer(text="✅ = in the semifinal field. Every figure shows its arithmetic.")
        await answer.send(interaction, embed=embed, view=self._bracket_page(tournament))

    @app_commands.command(name="bracket", description="Every table of the tournament so far")
    async def bracket(self, interaction: discord.Interaction, tournament: int) -> None:
        await self._here(interaction, tournament)
        t = await self.tours.get(tournament)
        lines = []
        for stage, heat, no, game, players, status in await self.tours.bracket(tournament):
            where = f"Heat {heat}" if stage == "heat" else stage.capitalize()
            who = ", ".join(map(said, players))
            lines.append(f"{where}, table {no} (#{game}): {who} — {status}")
        embed = discord.Embed(
            title=f"{said(t.name)} — bracket",
            description="\n".join(lines)[:4000] or "No tables yet.",
        )
        await answer.send(interaction, embed=embed, view=self._bracket_page(tournament))

    def _bracket_page(self, tournament: int) -> discord.ui.View:
        """The bracket's web page as a link button (no button without a web server)."""
        web = self.bot.web
        page = with_page(None, web.tournament_url(tournament) if web else None)
        return page or discord.utils.MISSING

    @app_commands.command(
        name="adjudicate",
        extras={"role": "host"},
        description="End a game that cannot finish (organiser)",
    )
    @app_commands.guild_only()
    async def adjudicate(self, interaction: discord.Interaction, game: int) -> None:
        table = await self.bot.service.table_for(game, interaction.user.id, interaction.guild_id)
        mod = moderates(interaction, table.row.guild_id)
        await self.tours.adjudicate(game, interaction.user.id, mod)
        await answer.send(interaction, f"Game #{game} is adjudicated.", ephemeral=True)
        await self._flush()


async def setup(bot: GameBot) -> None:
    cog = Tournament(bot)
    await bot.add_cog(cog)
    bot.add_dynamic_items(CheckInButton)
    bot.delivery.tables_over.append(cog.table_over)
    bot.ticked.append(cog.close_due_check_ins)
