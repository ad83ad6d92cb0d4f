"""The lobby: its embed with each game's options in words, its buttons, and the rematch button."""

import discord

from bot.service.options import TableOptions
from bot.service.service import Table
from bot.service.shapes import shape
from bot.ui import answer
from bot.ui.clicks import Clicked
from bot.ui.common import bot_of, guarded, moderates, said

LOBBY_BUTTONS = {
    "join": ("Join", discord.ButtonStyle.success),
    "leave": ("Leave", discord.ButtonStyle.secondary),
    "ai": ("Add AI", discord.ButtonStyle.secondary),
    "start": ("Start", discord.ButtonStyle.primary),
    "cancel": ("Cancel", discord.ButtonStyle.danger),
}


def duration(minutes: int) -> str:
    """A deadline as people say it: "24 hours", "2 days", "10 minutes"."""
    if minutes % 1440 == 0:
        days = minutes // 1440
        return f"{days} day{'s' if days > 1 else ''}"
    if minutes % 60 == 0:
        hours = minutes // 60
        return f"{hours} hour{'s' if hours > 1 else ''}"
    return f"{minutes} minutes"


def lobby_embed(table: Table, note: str | None = None) -> discord.Embed:
    options = TableOptions(**table.row.options)
    embed = discord.Embed(
        title=table.label,
        description=note or "Join, then the host starts the game.",
        colour=0xE69F00,
    )
    seats = "\n".join(
        f"{s.seat + 1}. {said(s.name)}"
        + (" (AI)" if s.is_ai else "")
        + (" — host" if s.user_id == table.row.host_id else "")
        for s in table.seats
    )
    embed.add_field(name=f"Seats ({len(table.seats)}/{options.max_players})", value=seats)
    rules = table.hosted.options_in_words(table.row.config)
    embed.add_field(
        name="Options",
        value="\n".join(
            [
                *rules,
                f"{shape(table).noun.capitalize()} deadline: {duration(options.deadline_minutes)}",
                *([f"Deadlines fall between {options.hours.words()}"] if options.hours else []),
                f"Rated: {'yes' if options.rated else 'no'}",
            ]
        ),
    )
    return embed


class LobbyButton(
    Clicked,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"pl:lobby:(?P<game>\d+):(?P<action>join|leave|ai|start|cancel)",
):
    def __init__(self, game_id: int, action: str) -> None:
        label, style = LOBBY_BUTTONS[action]
        button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label=label, style=style, custom_id=f"pl:lobby:{game_id}:{action}"
        )
        super().__init__(button)

    async def callback(self, interaction: discord.Interaction) -> None:
        async def act() -> None:
            svc, user = bot_of(interaction).service, interaction.user
            game_id, action = self.number("game"), self.fields["action"]
            # A forged id naming another server's game gets the refusal of a missing one.
            here = await svc.table_for(game_id, user.id, interaction.guild_id)
            mod = moderates(interaction, here.row.guild_id)
            if action == "join":
                table = await svc.join(game_id, user.id, user.display_name)
            elif action == "leave":
                table = await svc.leave_lobby(game_id, user.id)
            elif action == "ai":
                table = await svc.add_ai(game_id, user.id, mod)
            elif action == "cancel":
                table = await svc.cancel(game_id, user.id, mod)
            else:
                table = await svc.start(game_id, user.id, mod)
            live = table.row.status == "lobby"
            await answer.edit(
                interaction, embed=lobby_embed(table), view=lobby_view(table) if live else None
            )
            await bot_of(interaction).delivery.after_change()

        await guarded(interaction, act)


def lobby_view(table: Table) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for action in LOBBY_BUTTONS:
        view.add_item(LobbyButton(table.row.id, action))
    return view


class RematchButton(
    Clicked, discord.ui.DynamicItem[discord.ui.Button], template=r"pl:rematch:(?P<game>\d+)"
):
    """On the final results: a new lobby here with the same seats and options."""

    def __init__(self, game_id: int) -> None:
        button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label="Rematch", style=discord.ButtonStyle.primary, custom_id=f"pl:rematch:{game_id}"
        )
        super().__init__(button)

    async def callback(self, interaction: discord.Interaction) -> None:
        async def act() -> None:
            svc, user, game_id = bot_of(interaction).service, interaction.user, self.number("game")
            await svc.table_for(game_id, user.id, interaction.guild_id)
            table = await svc.rematch(game_id, user.id, user.display_name)
            note = f"Rematch of game #{game_id}: the same seats and options."
            await answer.send(interaction, embed=lobby_embed(table, note), view=lobby_view(table))
            message = await interaction.original_response()
            await svc.set_message(table.row.id, "lobby_message_id", message.id)

        await guarded(interaction, act)


def rematch_view(game_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(RematchButton(game_id))
    return view
