"""`/powerline …`: open a game and plan workers in DMs. Rules live in the engine."""

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import GameBot
from bot.games.powerline.words import parse_key
from bot.service.errors import UserError
from bot.service.options import TableOptions
from bot.service.service import Service
from bot.ui.commands import (
    DEADLINES,
    Deadline,
    edit_draft,
    game_choices,
    open_here,
    show_draft,
    submit_draft,
)

GAME = "powerline"


class Powerline(commands.GroupCog, group_name="powerline", group_description="Play Powerline"):
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @property
    def service(self) -> Service:
        return self.bot.service

    async def _game_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await game_choices(self.bot, interaction, GAME, current)

    # ---- lobby -------------------------------------------------------------------------------

    @app_commands.command(
        name="open", extras={"role": "host"}, description="Open a Powerline game in this channel"
    )
    @app_commands.guild_only()
    @app_commands.describe(
        deadline="Time to plan each round (default 24 hours)",
        max_players="Most seats (1–6)",
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
        scoring_tiles: app_commands.Range[str, 1, 20] | None = None,
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
        self,
        interaction: discord.Interaction,
        placement: app_commands.Range[str, 1, 60],
        game: int | None = None,
    ) -> None:
        try:
            step = parse_key(placement)
        except ValueError:
            raise UserError(
                f"“{placement[:60]}” is not a placement: pick one of the suggestions."
            ) from None
        await edit_draft(self.bot, interaction, GAME, game, add=step)

    @place.autocomplete("placement")
    async def _placement_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        game = getattr(interaction.namespace, "game", None)
        try:
            table = await self.service.pick_game(
                interaction.user.id, game, GAME, guild_id=interaction.guild_id
            )
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

    for command in (undo, clear, vacation, show, submit):
        command.autocomplete("game")(_game_choices)
    del command


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Powerline(bot))
