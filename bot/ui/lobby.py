"""The lobby: its embed with each game's options in words, its buttons, and the rematch button."""

from collections.abc import Mapping

import discord

from bot.errors import quote
from bot.service.hosting import Hosted
from bot.service.hours import clock_text
from bot.service.options import TableOptions
from bot.service.service import Service, Table
from bot.service.shapes import shape
from bot.ui import answer
from bot.ui.clicks import Clicked
from bot.ui.common import bot_of, guarded, moderates, said
from engine.core import LEVELS

LOBBY_BUTTONS = {
    "join": ("Join", discord.ButtonStyle.success),
    "leave": ("Leave", discord.ButtonStyle.secondary),
    "start": ("Start", discord.ButtonStyle.primary),
    "cancel": ("Cancel", discord.ButtonStyle.danger),
}
LEVEL_NAMES = {"casual": "Casual", "standard": "Standard", "strong": "Strong"}


def levels_text(hosted: Hosted) -> str:
    """Each AI level's measured strength, a line each, for `/game rules`."""
    return "\n".join(
        f"**{LEVEL_NAMES[level]}**: {hosted.levels[level]}"
        for level in LEVELS
        if level in hosted.levels
    )


def duration(minutes: int) -> str:
    """A deadline as people say it: "24 hours", "2 days", "10 minutes"."""
    if minutes % 1440 == 0:
        days = minutes // 1440
        return f"{days} day{'s' if days > 1 else ''}"
    if minutes % 60 == 0:
        hours = minutes // 60
        return f"{hours} hour{'s' if hours > 1 else ''}"
    return f"{minutes} minutes"


def clock_lines(options: TableOptions, noun: str) -> list[str]:
    """How the table's clock runs, in words: its model, the hours, timeouts, vacations."""
    if options.clock == "daily":
        zone = options.hours.zone if options.hours else "UTC"
        at = clock_text(options.daily_at)
        lines = [
            f"Daily deadline: each {noun} closes at {at} {zone} (at least 12 hours after it "
            "opens), or as soon as everyone is in"
        ]
    elif options.clock == "bank":
        bank, gain = duration(options.bank_minutes), duration(options.increment_minutes)
        lines = [
            f"Time bank: {bank} each, +{gain} per turn, up to {duration(options.cap_minutes)}; "
            "your clock runs only on your turn"
        ]
    else:
        lines = [f"{noun.capitalize()} deadline: {duration(options.deadline_minutes)}"]
    if options.hours:
        lines.append(f"Deadlines fall between {options.hours.words()}")
    ai = options.timeouts_before_ai
    lines.append(
        "Out of time: the autopilot plays for you"
        + (
            f"; after {ai} timeouts in a row the AI takes the seat"
            if ai > 1
            else ", and the AI takes the seat"
        )
    )
    lines.append(
        "Vacations: the clock waits for a player away (`/vacation`)"
        if options.vacations
        else "Vacations: not honoured here; the clock runs"
    )
    return lines


async def seat_notes(service: Service, table: Table) -> dict[int, str]:
    """What the lobby says of each person seated, by user id: their reliability (one query),
    and a vacation they are on or about to take."""
    reliability = await service.reliability(s.user_id for s in table.seats if s.user_id is not None)
    notes = {user: r.short() for user, r in reliability.items()}
    for user, back in (await service.away_in(table)).items():
        away = f"🏖️ away until <t:{int(back.timestamp())}:d>"
        notes[user] = f"{notes[user]} · {away}" if user in notes else away
    return notes


def lobby_embed(
    table: Table, note: str | None = None, notes: Mapping[int, str] | None = None
) -> discord.Embed:
    """The lobby; with `notes` (by user id, from `seat_notes`), each person's seat line says
    them."""
    options = TableOptions(**table.row.options)
    embed = discord.Embed(
        title=table.label,
        description=note or "Join, then the host starts the game.",
        colour=0xE69F00,
    )
    shown: Mapping[int | None, str] = {u: text for u, text in (notes or {}).items()}
    seats = "\n".join(
        f"{s.seat + 1}. {said(s.name)}"
        + (f" ({s.ai_level} AI)" if s.ai_level else " (AI)" if s.is_ai else "")
        + (" — host" if s.user_id == table.row.host_id else "")
        + (f" · {shown[s.user_id]}" if s.user_id in shown else "")
        for s in table.seats
    )
    embed.add_field(name=f"Seats ({len(table.seats)}/{options.max_players})", value=seats)
    rules = table.hosted.options_in_words(table.row.config)
    embed.add_field(
        name="Options",
        value="\n".join(
            [
                *rules,
                *clock_lines(options, shape(table).noun),
                f"Rated: {'yes' if options.rated else 'no'}",
            ]
        ),
    )
    return embed


class LobbyButton(
    Clicked,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"pl:lobby:(?P<game>\d+):(?P<action>join|leave|start|cancel)",
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
            elif action == "cancel":
                table = await svc.cancel(game_id, user.id, mod)
            else:
                table = await svc.start(game_id, user.id, mod)
            live = table.row.status == "lobby"
            embed = lobby_embed(table, None, await seat_notes(svc, table))
            await answer.edit(interaction, embed=embed, view=lobby_view(table) if live else None)
            await bot_of(interaction).delivery.after_change()

        await guarded(interaction, act)


class AddAI(
    Clicked, discord.ui.DynamicItem[discord.ui.Select], template=r"pl:lobby-ai:(?P<game>\d+)"
):
    """The lobby's menu of AI players: picking a level seats an AI that plays at it."""

    def __init__(self, game_id: int, hosted: Hosted) -> None:
        options = [
            discord.SelectOption(
                label=f"{LEVEL_NAMES[level]} AI",
                value=level,
                description=hosted.levels.get(level, "")[:100] or None,
            )
            for level in LEVELS
        ]
        select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
            custom_id=f"pl:lobby-ai:{game_id}", placeholder="Add an AI player…", options=options
        )
        super().__init__(select)

    async def callback(self, interaction: discord.Interaction) -> None:
        async def act() -> None:
            svc, user, game_id = bot_of(interaction).service, interaction.user, self.number("game")
            level = self.choice()
            if level not in LEVELS:
                raise self.damaged(f"“{quote(level)}” is not an AI level")
            here = await svc.table_for(game_id, user.id, interaction.guild_id)
            table = await svc.add_ai(
                game_id, user.id, moderates(interaction, here.row.guild_id), level
            )
            embed = lobby_embed(table, None, await seat_notes(svc, table))
            await answer.edit(interaction, embed=embed, view=lobby_view(table))
            await bot_of(interaction).delivery.after_change()

        await guarded(interaction, act)


def lobby_view(table: Table) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for action in LOBBY_BUTTONS:
        view.add_item(LobbyButton(table.row.id, action))
    view.add_item(AddAI(table.row.id, table.hosted))
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
            embed = lobby_embed(table, note, await seat_notes(svc, table))
            await answer.send(interaction, embed=embed, view=lobby_view(table))
            message = await interaction.original_response()
            await svc.set_message(table.row.id, "lobby_message_id", message.id)

        await guarded(interaction, act)


def rematch_view(game_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(RematchButton(game_id))
    return view
