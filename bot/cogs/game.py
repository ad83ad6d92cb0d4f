"""`/game …`: what every game shares, whatever is played (status, boards, rules, seats, the
replay, the clock and deadline). A game's own moves are in its own command group."""

import io
import json
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import GameBot
from bot.errors import fit
from bot.service.errors import UserError
from bot.service.hosting import fill, hosting
from bot.service.hours import parse_clock
from bot.service.options import TableOptions
from bot.service.service import Service, Table
from bot.service.shapes import shape
from bot.ui import answer
from bot.ui.coach import report_files, report_lines
from bot.ui.commands import DEADLINES, GAMES, Deadline, game_choices
from bot.ui.common import moderates, said, said_names
from bot.ui.lobby import clock_lines, levels_text, lobby_embed, seat_notes
from bot.ui.presenter import presenter
from bot.ui.recap import recap_file
from bot.ui.shapes import FACES, face
from bot.ui.web import with_page
from bot.workers import draw

CLOCKS = {"per round or turn": "move", "daily": "daily", "time bank": "bank"}
SPANS = {
    "1 hour": 60,
    "6 hours": 360,
    "12 hours": 720,
    "1 day": 1440,
    "2 days": 2880,
    "3 days": 4320,
    "5 days": 7200,
    "7 days": 10080,
    "14 days": 20160,
}
"""The spans `/game setup` offers, in minutes."""


class GameCommands(commands.GroupCog, group_name="game", group_description="Any game here"):
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @property
    def service(self) -> Service:
        return self.bot.service

    async def _game_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await game_choices(self.bot, interaction, None, current)

    async def _here_or_mine(
        self, interaction: discord.Interaction, game: int | None, ended: bool = False
    ) -> Table:
        """The game meant: the given one, this channel's (with `ended`, its last one when none
        is open), or the user's only running one, each only where `Table.open_to` lets the
        person see it."""
        uid, guild_id = interaction.user.id, interaction.guild_id
        if game is not None:
            return await self.service.table_for(game, uid, guild_id)
        here = None
        if guild_id is not None and interaction.channel_id:
            here = await self.service.table_in(interaction.channel_id, ended=ended)
        return here or await self.service.pick_game(uid, None, guild_id=guild_id)

    async def _in_channel(self, interaction: discord.Interaction) -> Table:
        table = await self.service.table_in(interaction.channel_id or 0)
        if table is None:
            raise UserError("There is no open game in this channel.")
        return table

    # ---- looking at a game -------------------------------------------------------------------

    @app_commands.command(name="status", description="Round, deadline, who must move, the scores")
    @app_commands.describe(game="Which game (default: this channel's, or your only one)")
    async def status(self, interaction: discord.Interaction, game: int | None = None) -> None:
        table = await self._here_or_mine(interaction, game, ended=True)
        if table.state is None:
            embed = lobby_embed(table, None, await seat_notes(self.service, table))
            await answer.send(interaction, embed=embed, ephemeral=True)
            return
        await answer.defer(interaction, ephemeral=True, thinking=True)
        public = table.game.view(table.state, None)
        names = [s.name for s in table.seats]
        image = await draw(presenter(table.row.game).status_image, public, names)
        embed = await face(table).status(self.service, table)
        standings = sorted(table.game.standings(table.state), key=lambda r: (r["rank"], r["seat"]))
        lines = [
            f"{r['rank']}. {said(names[r['seat']])}: {table.hosted.score(r['score'])}"
            for r in standings
        ]
        # A hidden tiebreak is said once under the places it leaves shared.
        notes = dict.fromkeys(r["note"] for r in standings if r["note"])
        lines += [f"*{note[0].upper()}{note[1:]}.*" for note in notes]
        embed.add_field(name="Scores", value="\n".join(lines), inline=False)
        page = self.bot.web.game_url(table.row.id) if self.bot.web else None
        await answer.send(
            interaction,
            embed=embed,
            file=discord.File(io.BytesIO(image), filename="status.png"),
            view=with_page(None, page) or discord.utils.MISSING,
        )

    @app_commands.command(name="web", description="A game on the web: its live page and your view")
    @app_commands.describe(game="Which game (default: this channel's, or your only one)")
    async def web(self, interaction: discord.Interaction, game: int | None = None) -> None:
        table = await self._here_or_mine(interaction, game, ended=True)
        web = self.bot.web
        if web is None:
            raise UserError("This bot has no web pages: its operator has not set WEB_PORT.")
        lines = [
            f"🌐 {table.label}, live and step by step: {web.game_url(table.row.id)}",
            "Anyone with this link sees what the channel sees, no more.",
        ]
        if table.viewer(interaction.user.id) is not None:
            mine = web.mine_url(table.row.id, interaction.user.id)
            lines += [
                "",
                f"🔒 Your own view (your board, your plan, your secrets): {mine}",
                "This link is yours alone: it works for 2 days; don't share it.",
            ]
        await answer.send(interaction, "\n".join(lines), ephemeral=True)

    @app_commands.command(name="board", description="Your board, or any player's public board")
    @app_commands.describe(player="Whose board (default: yours)", game="Which game")
    async def board(
        self,
        interaction: discord.Interaction,
        player: discord.User | None = None,
        game: int | None = None,
    ) -> None:
        table = await self._here_or_mine(interaction, game)
        if table.state is None:
            raise UserError(f"{table.label} has not started yet.")
        target = player or interaction.user
        seat = next((s for s in table.seats if s.user_id == target.id), None)
        if seat is None:
            raise UserError(f"{target.display_name} has no seat in {table.label}.")
        me = table.seat_of(interaction.user.id)
        # Drawn from the asker's own view, so nothing secret of another seat ever shows.
        view = table.game.view(table.state, me.seat if me else None)
        await answer.defer(interaction, ephemeral=interaction.guild is not None, thinking=True)
        names = [s.name for s in table.seats]
        image = await draw(presenter(table.row.game).board, view, seat.seat, names)
        now = table.game.progress(table.state).words
        await answer.send(
            interaction,
            f"{said(seat.name)}'s board in {table.label}, {now}.",
            file=discord.File(io.BytesIO(image), filename=f"board-{seat.seat + 1}.png"),
        )

    @app_commands.command(name="rules", description="A game's rules in a minute")
    @app_commands.describe(game="Which game (default: the one in this channel)")
    @app_commands.choices(game=GAMES)
    async def rules(self, interaction: discord.Interaction, game: str | None = None) -> None:
        if game is None:
            table = await self.service.table_in(interaction.channel_id or 0)
            if table is None:
                raise UserError("No game is open here: choose one with the `game` option.")
            game = table.row.game
        plug = hosting(game)
        how = FACES[plug.engine.dynamics].how
        ai = discord.Embed(title="AI players", description=levels_text(plug), colour=0x56B4E9)
        await answer.send(interaction, f"{plug.rules()}\n\n{how}", embed=ai, ephemeral=True)

    @app_commands.command(name="log", description="Download a game's replay (config and moves)")
    async def log(self, interaction: discord.Interaction, game: int | None = None) -> None:
        table = await self._here_or_mine(interaction, game)
        doc = await self.service.export(table.row.id, interaction.user.id)
        data = json.dumps(doc, indent=1).encode()
        text = f"Replay of {table.label} ({len(doc['actions'])} actions)"
        if "hidden" in doc:
            # A running game's log is what this person may know; say what it leaves out.
            text += ", as you may know it; hidden from you for now: " + "; ".join(doc["hidden"])
        if self.bot.web:
            text += f". Step through it on the web: {self.bot.web.game_url(table.row.id)}"
        await answer.send(
            interaction,
            fit(text + "."),
            file=discord.File(io.BytesIO(data), filename=f"{table.row.game}-{table.row.id}.json"),
            ephemeral=True,
        )

    @app_commands.command(name="recap", description="A finished game, round by round, animated")
    @app_commands.describe(game="Which game (default: this channel's last one)")
    async def recap(self, interaction: discord.Interaction, game: int | None = None) -> None:
        table = await self._here_or_mine(interaction, game, ended=True)
        await answer.defer(interaction, thinking=True)
        _, file = await recap_file(self.service, table.row.id)
        await answer.send(interaction, f"🎞️ {table.label}, round by round.", file=file)

    @app_commands.command(name="coach", description="After a game: where the AI would differ")
    @app_commands.describe(game="Which finished game of yours (default: this channel's last one)")
    async def coach(self, interaction: discord.Interaction, game: int | None = None) -> None:
        table = await self._here_or_mine(interaction, game, ended=True)
        await answer.defer(interaction, ephemeral=True, thinking=True)
        table, coaching, steps = await self.service.coaching(table.row.id, interaction.user.id)
        lines = report_lines(table, coaching, steps)
        files = await report_files(table, coaching, steps)
        text = "\n".join(lines)
        chunks = [text[i : i + 1900] for i in range(0, len(text), 1900)]
        if interaction.guild is None:
            for i, chunk in enumerate(chunks):
                await answer.send(interaction, chunk, files=files if i == len(chunks) - 1 else [])
            return
        try:
            dm = interaction.user.dm_channel or await interaction.user.create_dm()
            for i, chunk in enumerate(chunks):
                await dm.send(chunk, files=files if i == len(chunks) - 1 else [])
        except discord.Forbidden:
            raise UserError(
                "I can't send you DMs: open them for this server, then ask again."
            ) from None
        await answer.send(interaction, f"🧑‍🏫 The coach's report on {table.label} is in your DMs.")

    # ---- seats ---------------------------------------------------------------------------------

    @app_commands.command(name="leave", description="Leave a running game; the AI takes your seat")
    async def leave(self, interaction: discord.Interaction, game: int | None = None) -> None:
        uid = interaction.user.id
        table = await self.service.pick_game(uid, game, guild_id=interaction.guild_id)
        await self.service.hand_to_ai(table.row.id, uid, uid, False, leaving=True)
        await answer.send(
            interaction, f"✅ You left {table.label}; the AI plays your seat.", ephemeral=True
        )
        await self.bot.delivery.after_change()

    @app_commands.command(name="mute", description="No reminders or nudges from one game")
    @app_commands.describe(on="Mute it (default) or hear from it again", game="Which game")
    async def mute(
        self, interaction: discord.Interaction, on: bool = True, game: int | None = None
    ) -> None:
        uid = interaction.user.id
        table = await self.service.pick_game(uid, game, guild_id=interaction.guild_id)
        await self.service.mute(table.row.id, uid, on)
        text = (
            f"🔕 {table.label} is muted for you: no reminders or nudges; your turn panels still "
            "come, and the timeout still plays for you."
            if on
            else f"🔔 {table.label} reminds and nudges you again."
        )
        await answer.send(interaction, text, ephemeral=True)

    @app_commands.command(name="undo", description="Take back your last move while still on turn")
    async def undo(self, interaction: discord.Interaction, game: int | None = None) -> None:
        table = await self.service.pick_game(
            interaction.user.id, game, None, guild_id=interaction.guild_id
        )
        user = interaction.user.id
        table, text, _ = await self.service.undo(table.row.id, user, reply=interaction.id)
        await answer.send(
            interaction,
            f"↩️ You took back: you {fill(text, said_names(table))}. Your panel is up to date.",
            ephemeral=interaction.guild is not None,
        )
        await self.service.replied(interaction.id)
        await self.bot.delivery.after_change()

    @app_commands.command(name="reclaim", description="Play your seat again after the AI took it")
    async def reclaim(self, interaction: discord.Interaction, game: int) -> None:
        await self.service.table_for(game, interaction.user.id, interaction.guild_id)
        table = await self.service.reclaim(game, interaction.user.id)
        await answer.send(
            interaction, f"✅ Your seat in {table.label} is yours again.", ephemeral=True
        )

    @app_commands.command(
        name="kick",
        extras={"role": "host"},
        description="Remove a player; the AI takes the seat (host)",
    )
    @app_commands.guild_only()
    async def kick(self, interaction: discord.Interaction, player: discord.User) -> None:
        await self._to_ai(interaction, player, leaving=True)

    @app_commands.command(
        name="replace",
        extras={"role": "host"},
        description="Let the AI play a player's seat (host)",
    )
    @app_commands.guild_only()
    async def replace(self, interaction: discord.Interaction, player: discord.User) -> None:
        await self._to_ai(interaction, player, leaving=False)

    async def _to_ai(
        self, interaction: discord.Interaction, player: discord.User, leaving: bool
    ) -> None:
        table = await self._in_channel(interaction)
        mod = moderates(interaction, table.row.guild_id)
        await self.service.hand_to_ai(
            table.row.id, interaction.user.id, player.id, mod, leaving=leaving
        )
        await answer.send(
            interaction,
            f"✅ {said(player.display_name)}'s seat is now played by the AI.",
            ephemeral=True,
        )
        await self.bot.delivery.after_change()

    @app_commands.command(
        name="setup",
        extras={"role": "host"},
        description="Before the start: how the clock runs and who may join (host)",
    )
    @app_commands.describe(
        clock="A deadline per round or turn; one time each day; or a time bank per seat",
        daily_at="A daily deadline's time, like 20:00 (the server's playing-hours zone, or UTC)",
        bank="A time bank's starting time per seat",
        increment="What a time bank gains for each turn its seat ends",
        cap="The most a time bank may hold",
        vacations="Stop the clock for players on vacation (default yes)",
        min_reliability="Join only if on time and staying in this % of one's last 20 games",
    )
    @app_commands.guild_only()
    async def setup(
        self,
        interaction: discord.Interaction,
        clock: Literal["per round or turn", "daily", "time bank"] | None = None,
        daily_at: app_commands.Range[str, 1, 5] | None = None,
        bank: Literal["1 day", "2 days", "3 days", "5 days", "7 days"] | None = None,
        increment: Literal["1 hour", "6 hours", "12 hours", "1 day"] | None = None,
        cap: Literal["3 days", "7 days", "14 days"] | None = None,
        vacations: bool | None = None,
        min_reliability: app_commands.Range[int, 0, 100] | None = None,
    ) -> None:
        table = await self._in_channel(interaction)
        changes: dict[str, object] = {}
        if clock is not None:
            changes["clock"] = CLOCKS[clock]
        if daily_at is not None:
            try:
                changes["daily_at"] = parse_clock(daily_at)
            except ValueError as exc:
                raise UserError(str(exc)) from None
        spans: list[tuple[str, str | None]] = [
            ("bank_minutes", bank),
            ("increment_minutes", increment),
            ("cap_minutes", cap),
        ]
        for field, value in spans:
            if value is not None:
                changes[field] = SPANS[value]
        if vacations is not None:
            changes["vacations"] = vacations
        if min_reliability is not None:
            changes["min_reliability"] = min_reliability
        if not changes:
            raise UserError("Name at least one option to change, e.g. `clock`.")
        mod = moderates(interaction, table.row.guild_id)
        table = await self.service.set_table(table.row.id, interaction.user.id, mod, **changes)
        lines = clock_lines(TableOptions(**table.row.options), shape(table).noun)
        await answer.send(
            interaction, "✅ The lobby now says:\n" + "\n".join(lines), ephemeral=True
        )
        await self.bot.delivery.after_change()

    @app_commands.command(
        name="premove", description="Decide a move before your turn (turn-based games)"
    )
    @app_commands.describe(
        choice="What to decide in advance",
        on="Set it (default) or cancel it",
        amount="The number it takes, if any (a maximum bid)",
    )
    async def premove(
        self,
        interaction: discord.Interaction,
        choice: app_commands.Range[str, 1, 40],
        on: bool = True,
        amount: app_commands.Range[int, 0, 100_000] | None = None,
        game: int | None = None,
    ) -> None:
        table = await self.service.pick_game(
            interaction.user.id, game, guild_id=interaction.guild_id
        )
        now = await self.service.set_premove(table.row.id, interaction.user.id, choice, on, amount)
        labels = table.hosted.moves().premoves
        kept = "; ".join(labels[k] for k in now) or "none"
        verb = "Set" if on else "Cancelled"
        await answer.send(
            interaction,
            f"✅ {verb}: {labels[choice]}. Your pre-moves in {table.label}: {kept}. They lapse "
            "when their phase ends.",
            ephemeral=True,
        )
        await self.bot.delivery.after_change()

    @premove.autocomplete("choice")
    async def _premove_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            table = await self.service.pick_game(
                interaction.user.id,
                getattr(interaction.namespace, "game", None),
                guild_id=interaction.guild_id,
            )
            _, _, mine = await self.service.premoves(table.row.id, interaction.user.id)
        except UserError as exc:
            return [app_commands.Choice(name=exc.message[:100], value="-")]
        return [
            app_commands.Choice(name=f"{label}{' (set)' if key in mine else ''}", value=key)
            for key, label in table.hosted.moves().premoves.items()
            if current.lower() in label.lower()
        ][:25]

    # ---- the host's -----------------------------------------------------------------------------

    @app_commands.command(
        name="cancel", extras={"role": "host"}, description="Cancel this channel's game (host)"
    )
    @app_commands.guild_only()
    async def cancel(self, interaction: discord.Interaction) -> None:
        table = await self._in_channel(interaction)
        mod = moderates(interaction, table.row.guild_id)
        await self.service.cancel(table.row.id, interaction.user.id, mod)
        await answer.send(interaction, f"✅ {table.label} is cancelled.")
        await self.bot.delivery.after_change()

    @app_commands.command(
        name="deadline",
        extras={"role": "host"},
        description="Change the round deadline of this channel's game (host)",
    )
    @app_commands.describe(deadline="Time for each round from now on; this round closes then too")
    @app_commands.guild_only()
    async def deadline(self, interaction: discord.Interaction, deadline: Deadline) -> None:
        table = await self._in_channel(interaction)
        mod = moderates(interaction, table.row.guild_id)
        await self.service.set_deadline(table.row.id, interaction.user.id, mod, DEADLINES[deadline])
        await answer.send(
            interaction, f"✅ {table.label}: rounds now last {deadline}.", ephemeral=True
        )
        await self.bot.delivery.after_change()

    for command in (status, board, log, recap, coach, leave, undo, reclaim, premove):
        command.autocomplete("game")(_game_choices)
    del command


async def setup(bot: GameBot) -> None:
    await bot.add_cog(GameCommands(bot))
