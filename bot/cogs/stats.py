"""Leaderboards, player statistics, solo high scores, result cards and the ratings rebuild."""

import io
import json
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import GameBot
from bot.service.errors import UserError
from bot.service.hosting import hosting
from bot.service.ratings import GLOBAL, Rating, display
from bot.service.reliability import WINDOW
from bot.service.service import Service
from bot.ui import answer
from bot.ui.clicks import LARGEST, Clicked
from bot.ui.commands import GAMES
from bot.ui.common import bot_of, guarded, said
from bot.ui.daily import streak_words
from bot.ui.presenter import presenter
from bot.ui.web import with_page
from bot.workers import draw
from engine import registry
from render.leaderboard import leaderboard

PER_PAGE = 10


def plural(n: int | None, noun: str) -> str:
    """ "1 game", "2 games"."""
    n = n or 0
    return f"{n} {noun}{'' if n == 1 else 's'}"


def place(rank: int) -> str:
    """1st, 2nd, 3rd, 4th…"""
    suffix = "th" if 10 <= rank % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(rank % 10, "th")
    return f"{rank}{suffix}"


def words(key: str) -> str:
    """Stored option keys as people write them: "adventure_island" → "Adventure Island"."""
    if key == "base game":
        return key
    return ", ".join(part.replace("_", " ").title() for part in key.split(", "))


Scope = Literal["server", "all servers"]


def _scope(interaction: discord.Interaction, scope: str) -> int:
    if scope == "server":
        if interaction.guild_id is None:
            raise UserError("In DMs there is no server: choose “all servers”.")
        return interaction.guild_id
    return GLOBAL


async def leaderboard_page(
    service: Service, game: str, scope: int, page: int
) -> tuple[discord.Embed, discord.File, discord.ui.View]:
    """One page as an image, the same ranking as text (the fallback), and paging buttons."""
    rows, total = await service.leaderboard(game, scope, page, PER_PAGE)
    pages = max(1, -(-total // PER_PAGE))
    if page >= pages and total:
        raise UserError(f"There are only {pages} page(s).")
    for row in rows:
        rating = Rating(row["mu"], row["sigma"], row["rated_games"])
        row["provisional"], row["shown"] = rating.provisional, rating.shown
    where = "all servers" if scope == GLOBAL else "this server"
    title = f"{registry.get(game).title} leaderboard — {where}"
    note = (
        f"Page {page + 1}/{pages} · {plural(total, 'rated player')} · a newcomer starts at 1500; "
        "“provisional” until about ten games"
    )
    image = await draw(leaderboard, title, rows, page * PER_PAGE + 1, note)
    lines = [
        f"{page * PER_PAGE + i + 1}. {said(r['name'])} — {display(r['conservative'])}"
        + (" (provisional)" if r["provisional"] else "")
        + f" · {plural(r['games'], 'game')}, {plural(r['wins'], 'win')}"
        for i, r in enumerate(rows)
    ]
    embed = discord.Embed(title=title, description="\n".join(lines) or "No rated games yet.")
    embed.set_footer(text=note)
    embed.set_image(url="attachment://leaderboard.png")
    view = discord.ui.View(timeout=None)
    for label, target in (("◀ Previous", page - 1), ("Next ▶", page + 1)):
        view.add_item(PageButton(game, scope, target, label, disabled=not 0 <= target < pages))
    return embed, discord.File(io.BytesIO(image), filename="leaderboard.png"), view


class PageButton(
    Clicked,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"lb:(?P<game>[a-z_]+):(?P<scope>\d+):(?P<page>-?\d+)",
):
    def __init__(
        self, game: str, scope: int, page: int, label: str = "", disabled: bool = False
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or "Page",
                custom_id=f"lb:{game}:{scope}:{page}",
                disabled=disabled,
                style=discord.ButtonStyle.secondary,
            )
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        async def turn_page() -> None:
            game = hosting(self.fields["game"]).name
            # The page's offset (page × PER_PAGE) goes to the database: it must fit its integers.
            page = max(0, self.number("page", LARGEST // PER_PAGE))
            bot = bot_of(interaction)
            embed, file, view = await leaderboard_page(
                bot.service, game, self.number("scope"), page
            )
            _server_page(view, bot, interaction.guild_id)
            await answer.edit(interaction, embed=embed, attachments=[file], view=view)

        await guarded(interaction, turn_page)


def _server_page(view: discord.ui.View, bot: GameBot, guild_id: int | None) -> None:
    """The server's leaderboards on the web, as a link button on every page of one."""
    if bot.web is not None and guild_id is not None:
        with_page(view, bot.web.server_url(guild_id))


class Stats(commands.Cog):
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @property
    def service(self) -> Service:
        return self.bot.service

    @app_commands.command(name="leaderboard", description="Ratings and records of a game")
    @app_commands.choices(game=GAMES)
    async def leaderboard(
        self, interaction: discord.Interaction, game: str, scope: Scope = "server"
    ) -> None:
        scoped = _scope(interaction, scope)
        embed, file, view = await leaderboard_page(self.service, game, scoped, 0)
        _server_page(view, self.bot, interaction.guild_id)
        await answer.send(interaction, embed=embed, file=file, view=view)

    @app_commands.command(name="stats", description="A player's rating, recent games and variants")
    @app_commands.choices(game=GAMES)
    async def stats(
        self,
        interaction: discord.Interaction,
        game: str,
        player: discord.User | None = None,
        scope: Scope = "server",
    ) -> None:
        who = player or interaction.user
        data = await self.service.player_stats(game, _scope(interaction, scope), who.id)
        embed = discord.Embed(title=f"{who.display_name} — {registry.get(game).title}")
        if data["history"]:
            last = data["history"][-1]
            rating = Rating(last["mu"], last["sigma"], len(data["history"]))
            trend = " → ".join(str(display(h["mu"] - 3 * h["sigma"])) for h in data["history"][-6:])
            embed.add_field(
                name="Rating",
                value=f"{rating.shown}"
                + (" (provisional: fewer than about ten rated games)" if rating.provisional else "")
                + f"\nAfter each of the last games: {trend}",
                inline=False,
            )
        score = hosting(game).score
        recent = [
            f"Game #{r['game_id']}: {r['status']}"
            + (
                f", {place(r['rank'])} of {r['players']}, {score(r['score'])}"
                if r["score"] is not None
                else ""
            )
            for r in data["recent"]
        ]
        embed.add_field(name="Recent games", value="\n".join(recent) or "none yet", inline=False)
        reliable = (await self.service.reliability([who.id]))[who.id].words()
        embed.add_field(
            name=f"Reliability over the last {WINDOW} games (every game)",
            value=reliable[0].upper() + reliable[1:],
            inline=False,
        )
        favourite = ", ".join(f"{words(v)} ({plural(n, 'game')})" for v, n in data["variants"])
        favourite = favourite or "—"
        embed.add_field(name="Favourite variants", value=favourite, inline=False)
        streak = await self.service.streak(who.id, interaction.guild_id)
        embed.add_field(name="Dailies (every game)", value=streak_words(streak), inline=False)
        await answer.send(interaction, embed=embed, ephemeral=True)

    @app_commands.command(name="highscores", description="Solo high scores with their titles")
    @app_commands.choices(game=GAMES)
    async def highscores(
        self, interaction: discord.Interaction, game: str, scope: Scope = "server"
    ) -> None:
        scope_id = _scope(interaction, scope)
        rows = await self.service.solo_scores(game, None if scope_id == GLOBAL else scope_id)
        rules = registry.get(game)
        lines = []
        for i, r in enumerate(rows):
            variants = ", ".join(map(words, json.loads(r["variants"]))) or "base game"
            title = ""
            if hasattr(rules, "solo_title"):
                title = f" “{rules.solo_title(int(r['score']))}”"
            score = hosting(game).score(r["score"])
            lines.append(f"{i + 1}. {said(r['name'])} — {score} ({variants}){title}")
        embed = discord.Embed(
            title=f"{rules.title} solo high scores", description="\n".join(lines) or "none yet"
        )
        await answer.send(interaction, embed=embed)

    @app_commands.command(name="result", description="The result card of a finished game")
    async def result(self, interaction: discord.Interaction, game_id: int) -> None:
        table = await self.service.table_for(game_id, interaction.user.id, interaction.guild_id)
        rows = await self.service.results_of(game_id)
        if not rows:
            raise UserError(f"Game #{game_id} has no result yet.")
        await answer.defer(interaction, thinking=True)
        state = await self.service.state_at(game_id)
        names = [r["name"] for r in rows]
        image = await draw(presenter(table.row.game).results, table.game.view(state, None), names)
        status = rows[0]["status"]
        await answer.send(
            interaction,
            f"{table.label}: {status}" + ("" if rows[0]["rated"] else " (not rated)"),
            file=discord.File(io.BytesIO(image), filename=f"result-{game_id}.png"),
        )

    @app_commands.command(
        name="rebuild-ratings",
        extras={"role": "moderator"},
        description="Recompute this server's ratings",
    )
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.checks.has_permissions(manage_guild=True)
    @app_commands.choices(game=GAMES)
    async def rebuild(self, interaction: discord.Interaction, game: str) -> None:
        title = hosting(game).title
        games = await self.service.rebuild_ratings(game, interaction.guild_id or GLOBAL)
        await answer.send(
            interaction,
            f"Rebuilt this server's {title} ratings from {games} rated games.",
            ephemeral=True,
        )


async def setup(bot: GameBot) -> None:
    bot.add_dynamic_items(PageButton)
    await bot.add_cog(Stats(bot))
