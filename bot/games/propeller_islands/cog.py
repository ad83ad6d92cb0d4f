"""`/propeller …`: open a Propeller Islands game, and every decision by slash command with
autocomplete of the legal ones. Rules live in the engine."""

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import GameBot
from bot.games.propeller_islands.controls import label
from bot.service.options import TableOptions
from bot.ui.commands import DEADLINES, Deadline, game_choices, open_here
from bot.ui.turns import action_key, command_move, legal_moves, parse_action_key

GAME = "propeller_islands"


class PropellerIslands(
    commands.GroupCog, group_name="propeller", group_description="Play Propeller Islands"
):
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    async def _game_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await game_choices(self.bot, interaction, GAME, current)

    @app_commands.command(
        name="open",
        extras={"role": "host"},
        description="Open a Propeller Islands game in this channel",
    )
    @app_commands.guild_only()
    @app_commands.describe(
        max_players="Most seats (2–4)",
        capitol_side="The Capitol's side (A or B)",
        characters="Characters dealt to each player: 1, or 2 to keep one (2–3 players)",
        deadline="Time for each decision (default 1 day)",
        rated="Count this game for the leaderboard (default yes)",
        thread="Play in a new thread of this channel",
    )
    async def open(
        self,
        interaction: discord.Interaction,
        max_players: app_commands.Range[int, 2, 4] = 4,
        capitol_side: Literal["A", "B"] = "A",
        characters: Literal[1, 2] = 1,
        deadline: Deadline = "24 hours",
        rated: bool = True,
        thread: bool = False,
    ) -> None:
        config = {"capitol_side": capitol_side, "character_deal": characters}
        options = TableOptions(
            deadline_minutes=DEADLINES[deadline],
            max_players=max_players,
            rated=rated,
            thread=thread,
            reminders=1,
        )
        await open_here(self.bot, interaction, GAME, config, options)

    @app_commands.command(name="move", description="Make your next decision (draft, claim, …)")
    @app_commands.describe(decision="What to do; the suggestions are exactly the legal decisions")
    async def move(
        self,
        interaction: discord.Interaction,
        decision: app_commands.Range[str, 1, 200],
        game: int | None = None,
    ) -> None:
        await command_move(interaction, GAME, game, parse_action_key(decision))

    @move.autocomplete("decision")
    async def _decisions(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        tv = await legal_moves(interaction, GAME)
        if tv is None:
            return []
        words = current.lower().split()
        found = [(label(a, tv.view, tv.seat), a) for a in tv.legal]
        return [
            app_commands.Choice(name=text[:100], value=action_key(action))
            for text, action in found
            if all(w in text.lower() for w in words)
        ][:25]

    move.autocomplete("game")(_game_choices)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(PropellerIslands(bot))
