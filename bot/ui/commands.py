"""What every game's own commands share: opening a game here, and planning in a draft."""

from typing import TYPE_CHECKING, Any, Literal

import discord

from bot.service.errors import UserError
from bot.service.hosting import hosted
from bot.service.options import TableOptions
from bot.ui import answer
from bot.ui.lobby import lobby_embed, lobby_view, seat_notes
from bot.ui.planning import draft_board, planner_text, planner_view
from bot.ui.presenter import presenter
from engine import registry

if TYPE_CHECKING:
    # Only for the annotations: bot.app imports the UI modules.
    from bot.app import GameBot

DEADLINES = {
    "10 minutes": 10,
    "1 hour": 60,
    "6 hours": 360,
    "12 hours": 720,
    "24 hours": 1440,
    "2 days": 2880,
    "3 days": 4320,
    "7 days": 10080,
}


GAMES = [discord.app_commands.Choice(name=g.title, value=n) for n, g in hosted().items()]
"""The hosted games as the choices of a command's `game` option."""

Deadline = Literal[
    "10 minutes", "1 hour", "6 hours", "12 hours", "24 hours", "2 days", "3 days", "7 days"
]


async def game_choices(
    bot: "GameBot", interaction: discord.Interaction, game: str | None, current: str
) -> list[discord.app_commands.Choice[int]]:
    """Autocomplete of the user's running games that this server (or DMs) may name (of one
    kind, when `game` names one)."""
    tables = await bot.service.games_of(interaction.user.id, guild_id=interaction.guild_id)
    return [
        discord.app_commands.Choice(
            name=f"{t.label}, {t.game.progress(t.state).words}", value=t.row.id
        )
        for t in tables
        if game in (None, t.row.game) and current in str(t.row.id)
    ][:25]


async def open_here(
    bot: "GameBot",
    interaction: discord.Interaction,
    game: str,
    config: dict[str, Any],
    options: TableOptions,
) -> None:
    """Open a lobby in this channel (or a new thread of it) and post its buttons."""
    service = bot.service
    channel = interaction.channel
    if interaction.guild is None or channel is None:
        raise UserError("Open a game in a server channel, not in DMs.")
    service.check_options(game, config, options)
    if await service.table_in(channel.id):
        raise UserError("A game is already open here; finish or cancel it first.")
    thread = None
    await answer.defer(interaction)
    if options.thread and isinstance(channel, discord.TextChannel):
        thread = await channel.create_thread(
            name=f"{registry.get(game).title} · {interaction.user.display_name}",
            type=discord.ChannelType.public_thread,
        )
    table = await service.open_table(
        game,
        interaction.guild_id,
        interaction.channel_id or 0,
        interaction.user.id,
        interaction.user.display_name,
        config,
        options,
        thread_id=thread.id if thread else None,
    )
    posted: discord.Message | None
    embed = lobby_embed(table, None, await seat_notes(service, table))
    if thread:
        posted = await thread.send(embed=embed, view=lobby_view(table))
        await answer.send(interaction, f"{table.label} is open in <#{thread.id}>.")
    else:
        # Deferred above, so the lobby is a follow-up, which says where it is.
        posted = await answer.send(interaction, embed=embed, view=lobby_view(table))
    assert posted is not None
    await service.set_message(table.row.id, "lobby_message_id", posted.id)


async def edit_draft(
    bot: "GameBot",
    interaction: discord.Interaction,
    game: str,
    game_id: int | None,
    **change: Any,
) -> None:
    """One planning step (add, undo, clear, vacation), answered with the draft and its planner."""
    service = bot.service
    table = await service.pick_game(
        interaction.user.id, game_id, game, guild_id=interaction.guild_id
    )
    draft = await service.edit_draft(table.row.id, interaction.user.id, **change)
    private = interaction.guild is not None
    if not presenter(game).preview_each_step:
        await answer.send(
            interaction, planner_text(draft), view=planner_view(draft), ephemeral=private
        )
        return
    await answer.defer(interaction, ephemeral=private, thinking=True)
    file = await draft_board(service, table.row.id, interaction.user.id)
    await answer.send(interaction, planner_text(draft), file=file, view=planner_view(draft))


async def show_draft(
    bot: "GameBot", interaction: discord.Interaction, game: str, game_id: int | None
) -> None:
    service = bot.service
    table = await service.pick_game(
        interaction.user.id, game_id, game, guild_id=interaction.guild_id
    )
    await answer.defer(interaction, ephemeral=interaction.guild is not None, thinking=True)
    draft = await service.draft(table.row.id, interaction.user.id)
    file = await draft_board(service, table.row.id, interaction.user.id)
    await answer.send(interaction, planner_text(draft), file=file, view=planner_view(draft))


async def submit_draft(
    bot: "GameBot", interaction: discord.Interaction, game: str, game_id: int | None
) -> None:
    service = bot.service
    table = await service.pick_game(
        interaction.user.id, game_id, game, guild_id=interaction.guild_id
    )
    _, resolved = await service.submit(table.row.id, interaction.user.id, reply=interaction.id)
    if not resolved:
        text = "✅ Plan submitted. You can still change it until the round resolves."
    elif len(table.seats) == 1:
        text = "✅ Plan submitted. The round is resolving."
    else:
        text = "✅ Plan submitted. Everyone is in: the round is resolving."
    await answer.send(interaction, text, ephemeral=interaction.guild is not None)
    await service.replied(interaction.id)
    await bot.delivery.after_change()
