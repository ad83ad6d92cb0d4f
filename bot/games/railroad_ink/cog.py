"""`/railroad …`: open Railroad Ink games and draw routes die by die. Rules live in the engine."""

import json
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import GameBot
from bot.games.railroad_ink.plugin import die_words, face_of, turn_words
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

GAME = "railroad_ink"


class RailroadInk(commands.GroupCog, group_name="railroad", group_description="Play Railroad Ink"):
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @property
    def service(self) -> Service:
        return self.bot.service

    async def _options(self, interaction: discord.Interaction) -> list[dict[str, Any]]:
        """The legal next steps of the user's draft, as step dicts."""
        game = getattr(interaction.namespace, "game", None)
        table = await self.service.pick_game(
            interaction.user.id, game, GAME, guild_id=interaction.guild_id
        )
        draft = await self.service.draft(table.row.id, interaction.user.id)
        return [json.loads(key) for _, key in draft.next_options]

    @app_commands.command(
        name="open", extras={"role": "host"}, description="Open a Railroad Ink game in this channel"
    )
    @app_commands.guild_only()
    @app_commands.describe(
        street_lamps="Electricity: the Street Lamps dice (6 rounds)",
        power_grid="Electricity: the Power Grid dice and the Accumulator",
        max_players="Most seats (1–12)",
    )
    async def open(
        self,
        interaction: discord.Interaction,
        street_lamps: bool = False,
        power_grid: bool = False,
        deadline: Deadline = "24 hours",
        max_players: app_commands.Range[int, 1, 12] = 6,
        rated: bool = True,
        thread: bool = False,
    ) -> None:
        flags = {"street_lamps": street_lamps, "power_grid": power_grid}
        config = {"expansions": sorted(k for k, on in flags.items() if on)}
        options = TableOptions(
            deadline_minutes=DEADLINES[deadline],
            max_players=max_players,
            rated=rated,
            thread=thread,
        )
        await open_here(self.bot, interaction, GAME, config, options)

    @app_commands.command(name="draw", description="Draw a rolled die's route on your board")
    @app_commands.describe(
        die="The die (or special route) to draw",
        cell="Where, e.g. C4",
        orientation="How it is turned (the suggestions name its route ends)",
        game="Which game (if several)",
    )
    async def draw(
        self,
        interaction: discord.Interaction,
        die: app_commands.Range[str, 1, 60],
        cell: app_commands.Range[str, 1, 3],
        orientation: app_commands.Range[int, 0, 7],
        game: int | None = None,
    ) -> None:
        step: dict[str, Any] = {
            "step": "draw",
            "die": die,
            "cell": cell.upper(),
            "orientation": orientation,
        }
        if die.startswith("special:"):
            step.update(die="special", face=die.split(":", 1)[1])
        await edit_draft(self.bot, interaction, GAME, game, add=step)

    @draw.autocomplete("die")
    async def _dice(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        seen: dict[str, str] = {}
        tv = await self._table_state(interaction)
        for o in await self._draws(interaction):
            value = f"special:{o['face']}" if o["die"] == "special" else o["die"]
            if tv is not None:
                seen.setdefault(value, die_words(value, face_of(tv, value)))
        return [
            app_commands.Choice(name=label, value=value)
            for value, label in seen.items()
            if current.lower() in label.lower()
        ][:25]

    @draw.autocomplete("cell")
    async def _cells(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        die = getattr(interaction.namespace, "die", None)
        cells = sorted({o["cell"] for o in await self._draws(interaction, die)})
        return [
            app_commands.Choice(name=c, value=c) for c in cells if c.startswith(current.upper())
        ][:25]

    @draw.autocomplete("orientation")
    async def _turns(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        die = getattr(interaction.namespace, "die", None)
        cell = (getattr(interaction.namespace, "cell", None) or "").upper()
        turns = sorted(
            {o["orientation"] for o in await self._draws(interaction, die) if o["cell"] == cell}
        )
        state = await self._table_state(interaction)
        if state is None or not die:
            return []
        face = face_of(state, die)
        return [app_commands.Choice(name=turn_words(face, t)[:100], value=t) for t in turns][:25]

    async def _table_state(self, interaction: discord.Interaction) -> Any:
        """The state of the user's Railroad Ink game, for naming dice and turns."""
        try:
            game = getattr(interaction.namespace, "game", None)
            table = await self.service.pick_game(
                interaction.user.id, game, GAME, guild_id=interaction.guild_id
            )
            return table.state
        except UserError:
            return None

    async def _draws(
        self, interaction: discord.Interaction, die: str | None = None
    ) -> list[dict[str, Any]]:
        try:
            options = await self._options(interaction)
        except UserError:
            return []
        draws = [o for o in options if o["step"] == "draw"]
        if die:
            want = ("special", die.split(":", 1)[1]) if die.startswith("special:") else (die, None)
            draws = [o for o in draws if (o["die"], o.get("face")) == want]
        return draws

    @app_commands.command(name="step", description="Light street lamps or use a power die")
    async def step(
        self,
        interaction: discord.Interaction,
        step: app_commands.Range[str, 1, 300],
        game: int | None = None,
    ) -> None:
        try:
            data = json.loads(step)
        except (ValueError, RecursionError):
            data = None
        if not isinstance(data, dict):
            raise UserError("That is not a step: pick one of the suggested steps.")
        await edit_draft(self.bot, interaction, GAME, game, add=data)

    @step.autocomplete("step")
    async def _steps(
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
        return [
            app_commands.Choice(name=label[:100], value=key)
            for label, key in draft.next_options
            if '"step":"draw"' not in key and current.lower() in label.lower()
        ][:25]

    @app_commands.command(name="undo", description="Take back your last step")
    async def undo(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await edit_draft(self.bot, interaction, GAME, game, undo=True)

    @app_commands.command(name="clear", description="Start this round's plan again")
    async def clear(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await edit_draft(self.bot, interaction, GAME, game, clear=True)

    @app_commands.command(name="show", description="Your board with the routes drafted so far")
    async def show(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await show_draft(self.bot, interaction, GAME, game)

    @app_commands.command(name="submit", description="Submit your plan for this round")
    async def submit(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await submit_draft(self.bot, interaction, GAME, game)

    async def _game_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await game_choices(self.bot, interaction, GAME, current)

    for command in (draw, step, undo, clear, show, submit):
        command.autocomplete("game")(_game_choices)
    del command


async def setup(bot: GameBot) -> None:
    await bot.add_cog(RailroadInk(bot))
