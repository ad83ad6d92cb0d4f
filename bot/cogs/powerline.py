"""`/powerline …`: open a table, plan in DMs, follow the game. Rules live in the engine."""

import asyncio
import io
import json

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.tables import (
    DEADLINES,
    Deadline,
    edit_draft,
    game_choices,
    open_here,
    show_draft,
    submit_draft,
)
from bot.service.errors import UserError
from bot.service.options import TableOptions
from bot.service.powerline import parse_key
from bot.service.service import Service, Table
from bot.views import (
    is_moderator,
    lobby_embed,
    status_embed,
)
from engine import registry
from engine.core import CHANCE
from render.powerline import centre_board, player_board

GAME = "powerline"


class Powerline(commands.GroupCog, group_name="powerline", group_description="Play Powerline"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @property
    def service(self) -> Service:
        return self.bot.service  # type: ignore[attr-defined]

    async def _flush(self) -> None:
        await self.bot.delivery.flush()  # type: ignore[attr-defined]

    async def _game_choices(self, interaction: discord.Interaction, current: str):
        return await game_choices(self.bot, interaction, GAME, current)

    # ---- lobby -------------------------------------------------------------------------------

    @app_commands.command(name="open", description="Open a Powerline table in this channel")
    @app_commands.guild_only()
    @app_commands.describe(
        deadline="Time to plan each round (default 24 hours)",
        max_players="Most seats at the table (1–6)",
        construction_limits="Variant 1: the blue worker chart limits the lines per round",
        adventure_island="Variant 2: island losses grow with each stack",
        contracts="Variant 3: draw scoring tiles A–I (centre board side B)",
        special_contracts="Variant 4: tiles J, K, L (mixed in, or alone)",
        special_alone="With special contracts: use exactly J, K and L",
        any_contracts="With contracts: three tiles from all nine instead of one per colour",
        scoring_tiles="Three scoring tiles by letter, e.g. “B E J” (default: A D G or drawn)",
        vacation_tile="Play with the vacation tile (default yes)",
        rated="Count this game for the leaderboard (default yes)",
        thread="Play in a new thread of this channel",
    )
    async def open(
        self,
        interaction: discord.Interaction,
        deadline: Deadline = "24 hours",
        max_players: app_commands.Range[int, 1, 6] = 6,
        construction_limits: bool = False,
        adventure_island: bool = False,
        contracts: bool = False,
        special_contracts: bool = False,
        special_alone: bool = False,
        any_contracts: bool = False,
        scoring_tiles: str | None = None,
        vacation_tile: bool = True,
        rated: bool = True,
        thread: bool = False,
    ) -> None:
        flags = {
            "construction_limits": construction_limits,
            "adventure_island": adventure_island,
            "contracts": contracts,
            "special_contracts": special_contracts,
        }
        config = {
            "variants": sorted(k for k, on in flags.items() if on),
            "vacation_tile": vacation_tile,
            "contract_draw": "any" if any_contracts else "by_colour",
            "special_contracts": "alone" if special_alone else "mixed",
        }
        if scoring_tiles:
            config["scoring_tiles"] = [c for c in scoring_tiles.upper() if c.isalpha()]
        options = TableOptions(
            deadline_minutes=DEADLINES[deadline],
            max_players=max_players,
            rated=rated,
            thread=thread,
        )
        await open_here(self.bot, interaction, GAME, config, options)

    # ---- planning (DMs or anywhere) ------------------------------------------------------------

    @app_commands.command(name="place", description="Place your next worker")
    @app_commands.describe(placement="Where the next worker goes", game="Which game (if several)")
    async def place(
        self, interaction: discord.Interaction, placement: str, game: int | None = None
    ) -> None:
        try:
            step = parse_key(placement)
        except ValueError:
            raise UserError(
                f"“{placement[:60]}” is not a placement: pick one of the suggestions."
            ) from None
        await edit_draft(self.bot, interaction, GAME, game, add=step)

    @place.autocomplete("placement")
    async def _placement_choices(self, interaction: discord.Interaction, current: str):
        game = getattr(interaction.namespace, "game", None)
        try:
            table = await self.service.pick_game(interaction.user.id, game, GAME)
            draft = await self.service.draft(table.row.id, interaction.user.id)
        except UserError as exc:
            return [app_commands.Choice(name=exc.message[:100], value="-")]
        needle = current.lower()
        return [
            app_commands.Choice(name=label[:100], value=key)
            for label, key in draft.next_options
            if needle in label.lower()
        ][:25]

    place.autocomplete("game")(_game_choices)

    @app_commands.command(name="undo", description="Take back your last placed worker")
    async def undo(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await edit_draft(self.bot, interaction, GAME, game, undo=True)

    @app_commands.command(name="clear", description="Start this round's plan again")
    async def clear(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await edit_draft(self.bot, interaction, GAME, game, clear=True)

    @app_commands.command(name="vacation", description="Spend (or keep) your vacation tile")
    async def vacation(
        self, interaction: discord.Interaction, on: bool, game: int | None = None
    ) -> None:
        await edit_draft(self.bot, interaction, GAME, game, vacation=on)

    @app_commands.command(name="show", description="Your board with the plan drafted so far")
    async def show(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await show_draft(self.bot, interaction, GAME, game)

    @app_commands.command(name="submit", description="Submit your plan for this round")
    async def submit(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await submit_draft(self.bot, interaction, GAME, game)

    @app_commands.command(name="takeback", description="Take your seat back from the AI")
    async def takeback(self, interaction: discord.Interaction, game: int) -> None:
        table = await self.service.take_back(game, interaction.user.id)
        await interaction.response.send_message(
            f"Your seat in game #{table.row.id} is yours again.", ephemeral=True
        )

    for command in (undo, clear, vacation, show, submit):
        command.autocomplete("game")(_game_choices)
    takeback.autocomplete("game")(_game_choices)
    del command

    # ---- following the game --------------------------------------------------------------------

    async def _here_or_mine(self, interaction: discord.Interaction, game: int | None) -> Table:
        """The Powerline game meant: the given one, this channel's, or the user's only one."""
        table = None
        if game is not None:
            table = await self.service.table(game)
        elif interaction.guild is not None and interaction.channel_id:
            table = await self.service.table_in(interaction.channel_id)
        table = table or await self.service.pick_game(interaction.user.id, None, GAME)
        if table.row.game != GAME:
            raise UserError(f"Game #{table.row.id} is {table.game.title}, not Powerline.")
        return table

    @app_commands.command(
        name="log", description="Download a game's replay (config, seed, actions)"
    )
    async def log(self, interaction: discord.Interaction, game: int | None = None) -> None:
        table = await self._here_or_mine(interaction, game)
        async with self.service.repo.reading() as repo:
            actions = await repo.actions(table.row.id)
        visible = actions if table.row.status != "active" else _public_prefix(actions)
        doc = {
            "game": table.row.game,
            "id": table.row.id,
            "config": table.row.config,
            "seed": table.row.seed,
            "actions": [{"seat": s, "action": a, "source": src} for s, a, src in visible],
        }
        data = json.dumps(doc, indent=1).encode()
        await interaction.response.send_message(
            f"Replay of game #{table.row.id} ({len(visible)} actions).",
            file=discord.File(io.BytesIO(data), filename=f"powerline-{table.row.id}.json"),
            ephemeral=True,
        )

    @app_commands.command(name="status", description="Round, deadline, who has planned, the scores")
    async def status(self, interaction: discord.Interaction, game: int | None = None) -> None:
        table = await self._here_or_mine(interaction, game)
        if table.state is None:
            await interaction.response.send_message(embed=lobby_embed(table), ephemeral=True)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        public = table.game.view(table.state, None)
        names = [s.name for s in table.seats]
        image = await asyncio.to_thread(centre_board, public, names)
        embed = status_embed(table, table.state)
        standings = sorted(public["standings"], key=lambda r: r["rank"])
        embed.add_field(
            name="Scores",
            value="\n".join(f"{r['rank']}. {names[r['seat']]}: {r['score']} VP" for r in standings),
            inline=False,
        )
        await interaction.followup.send(
            embed=embed, file=discord.File(io.BytesIO(image), filename="centre.png")
        )

    @app_commands.command(name="board", description="Your board, or another player's public board")
    @app_commands.describe(player="Whose board (default: yours)")
    async def board(
        self,
        interaction: discord.Interaction,
        player: discord.User | None = None,
        game: int | None = None,
    ) -> None:
        table = await self._here_or_mine(interaction, game)
        if table.state is None:
            raise UserError("The game has not started yet.")
        target = player or interaction.user
        seat = next((s for s in table.seats if s.user_id == target.id), None)
        if seat is None:
            raise UserError(f"{target.display_name} has no seat in game #{table.row.id}.")
        me = table.seat_of(interaction.user.id)
        # Drawn from the asker's own view, so another seat's unrevealed plan never shows.
        view = table.game.view(table.state, me.seat if me else None)
        await interaction.response.defer(ephemeral=interaction.guild is not None, thinking=True)
        names = [s.name for s in table.seats]
        image = await asyncio.to_thread(player_board, view, seat.seat, names)
        await interaction.followup.send(
            file=discord.File(io.BytesIO(image), filename=f"board-{seat.seat + 1}.png")
        )

    @app_commands.command(name="rules", description="Powerline's rules in a minute")
    async def rules(self, interaction: discord.Interaction) -> None:
        text = registry.get("powerline").rules_summary()
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(name="leave", description="Leave a running game; the AI takes your seat")
    async def leave(self, interaction: discord.Interaction, game: int | None = None) -> None:
        table = await self.service.pick_game(interaction.user.id, game)
        uid = interaction.user.id
        await self.service.hand_to_ai(table.row.id, uid, uid, False, leaving=True)
        await interaction.response.send_message(
            f"You left game #{table.row.id}; the AI plays your seat.", ephemeral=True
        )
        await self._flush()

    @app_commands.command(name="kick", description="Remove a player; the AI takes the seat (host)")
    @app_commands.guild_only()
    async def kick(self, interaction: discord.Interaction, player: discord.User) -> None:
        await self._to_ai(interaction, player, leaving=True)

    @app_commands.command(name="replace", description="Let the AI play a player's seat (host)")
    @app_commands.guild_only()
    async def replace(self, interaction: discord.Interaction, player: discord.User) -> None:
        await self._to_ai(interaction, player, leaving=False)

    async def _to_ai(
        self, interaction: discord.Interaction, player: discord.User, leaving: bool
    ) -> None:
        table = await self.service.table_in(interaction.channel_id or 0)
        if table is None:
            raise UserError("There is no open table in this channel.")
        await self.service.hand_to_ai(
            table.row.id, interaction.user.id, player.id, is_moderator(interaction), leaving=leaving
        )
        await interaction.response.send_message(
            f"{player.display_name}'s seat is now played by the AI.", ephemeral=True
        )
        await self._flush()

    for command in (status, board, leave):
        command.autocomplete("game")(_game_choices)
    del command

    @app_commands.command(
        name="cancel", description="Cancel this channel's table (host or moderator)"
    )
    @app_commands.guild_only()
    async def cancel(self, interaction: discord.Interaction) -> None:
        table = await self.service.table_in(interaction.channel_id or 0)
        if table is None:
            raise UserError("There is no open table in this channel.")
        await self.service.cancel(table.row.id, interaction.user.id, is_moderator(interaction))
        await interaction.response.send_message(f"Game #{table.row.id} is cancelled.")
        await self._flush()


def _public_prefix(actions: list) -> list:
    """While a round is planned its plans are secret: the log ends with the last roll."""
    rolls = [i for i, (seat, _, _) in enumerate(actions) if seat == CHANCE]
    return actions[: rolls[-1] + 1] if rolls else []


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Powerline(bot))
