"""`/tournament …`: heats, semifinal and final after the WBC format, with tables in threads."""

import secrets

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import GameBot
from bot.service.errors import UserError
from bot.service.hosting import hosting
from bot.service.options import TableOptions
from bot.service.tournament.config import EXAMPLE, tournament_config
from bot.service.tournament.runner import Place, Tournaments
from bot.store.tournaments import TournamentRow
from bot.ui import answer
from bot.ui.commands import DEADLINES, GAMES, Deadline
from bot.ui.common import moderates, said
from bot.ui.web import with_page


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

        async def place(label: str) -> tuple[int, int | None]:
            thread = await channel.create_thread(
                name=label[:100], type=discord.ChannelType.public_thread
            )
            return channel.id, thread.id

        return place

    @app_commands.command(
        name="create", extras={"role": "host"}, description="Create a tournament in this channel"
    )
    @app_commands.guild_only()
    @app_commands.describe(
        game="The game played at every table",
        options=f"Table rules over the game's tournament defaults, like “{EXAMPLE}”",
    )
    @app_commands.choices(game=GAMES)
    async def create(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 60],
        game: str,
        heats: app_commands.Range[int, 1, 3] = 3,
        deadline: Deadline = "24 hours",
        options: app_commands.Range[str, 1, 300] | None = None,
    ) -> None:
        config = tournament_config(game, options)
        t = await self.tours.create(
            interaction.guild_id or 0,
            interaction.channel_id or 0,
            interaction.user.id,
            name,
            game,
            heats,
            config,
            TableOptions(deadline_minutes=DEADLINES[deadline], vacations=False),
            secrets.randbits(32),
        )
        plugin = hosting(t.game)
        rules = "\n".join(f"• {line}" for line in plugin.options_in_words(t.config))
        await answer.send(
            interaction,
            f"**{said(t.name)}** (tournament #{t.id}, {plugin.title}, {heats} heat(s)) "
            f"is open: register with `/tournament register {t.id}`.\nEvery table plays:\n{rules}",
        )

    @app_commands.command(name="register", description="Register for a tournament's next heats")
    async def register(self, interaction: discord.Interaction, tournament: int) -> None:
        await self._here(interaction, tournament)
        n = await self.tours.register(
            tournament, interaction.user.id, interaction.user.display_name
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

    @app_commands.command(
        name="heat", extras={"role": "host"}, description="Start the next heat (organiser)"
    )
    @app_commands.guild_only()
    async def heat(self, interaction: discord.Interaction, tournament: int) -> None:
        t = await self._here(interaction, tournament)
        place = self._place(interaction)
        mod = moderates(interaction, t.guild_id)
        # Every check runs before anything is posted, so a refusal stays private.
        await self.tours.start_heat(tournament, interaction.user.id, mod, place, check=True)
        await answer.defer(interaction, thinking=True)
        games = await self.tours.start_heat(tournament, interaction.user.id, mod, place)
        await answer.send(
            interaction,
            f"The heat has started at {len(games)} tables: " + ", ".join(f"#{g}" for g in games),
        )
        await self._flush()

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
        await answer.defer(interaction, thinking=True)
        games = await self.tours.start_semifinal(tournament, interaction.user.id, mod, place)
        await answer.send(
            interaction,
            f"The semifinal has started at {len(games)} tables: "
            + ", ".join(f"#{g}" for g in games),
        )
        await self._flush()

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
        await answer.defer(interaction, thinking=True)
        game = await self.tours.start_final(tournament, interaction.user.id, mod, place)
        await answer.send(interaction, f"The final has started: game #{game}.")
        await self._flush()

    @app_commands.command(name="standings", description="Semifinal seeding with its arithmetic")
    async def standings(self, interaction: discord.Interaction, tournament: int) -> None:
        await self._here(interaction, tournament)
        t = await self.tours.get(tournament)
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
    await bot.add_cog(Tournament(bot))
