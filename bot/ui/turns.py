"""Turn-based play on Discord, for every such game: the "your turn" panel, the channel button for
people whose DMs are closed, and the status message edited in place."""

import io
import json
from typing import Any

import discord

from bot import drawing
from bot.service.errors import UserError
from bot.service.hosting import fill, needed
from bot.service.service import Table, TurnView
from bot.ui.clicks import Clicked, json_object
from bot.ui.common import bot_of, game_ref, guarded, said, said_names
from bot.ui.presenter import presenter

RECENT_MOVES = 6


def turn_text(tv: TurnView, done: str = "") -> str:
    """The panel's words: what just happened, whose game, where it stands, the seat's money."""
    table = tv.table
    words = presenter(table.row.game).phase_words
    where = words(tv.view) if words else f"round {tv.view.get('round', '?')}"
    lines = [done] if done else []
    lines.append(f"**Your turn in {game_ref(table)}** · {where}")
    if table.row.deadline:
        lines.append(f"Your move is due <t:{int(table.row.deadline.timestamp())}:R>.")
    return "\n".join(lines)


async def panel_file(tv: TurnView) -> discord.File | None:
    render = presenter(tv.table.row.game).panel_image
    if render is None:
        return None
    names = [s.name for s in tv.table.seats]
    data = await drawing.draw(render, tv.view, names)
    return discord.File(io.BytesIO(data), filename="turn.png")


def panel(tv: TurnView) -> discord.ui.View:
    return needed(presenter(tv.table.row.game).turn_panel, "turn panel")(tv)


async def act(interaction: discord.Interaction, game_id: int, turn: int, action: dict) -> None:
    """Make a move from a panel and answer in place: what changed, then the next panel (if the
    seat still owes a move) or a note that the turn is over."""
    svc = bot_of(interaction).service
    table, text, tv = await svc.act(game_id, interaction.user.id, action, turn)
    names = [s.name for s in table.seats]
    done = f"✅ You {fill(text, names)}."
    if tv is None:  # not this seat's move any more: the panel ends here
        await interaction.response.edit_message(content=done, view=None, attachments=[])
    else:
        await interaction.response.edit_message(
            content=turn_text(tv, done), view=panel(tv), attachments=[]
        )
    await bot_of(interaction).delivery.flush()


class OpenPanel(
    Clicked,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"pl:turn:(?P<game>\d+):(?P<turn>\d+)",
):
    """For a person whose DMs are closed: their "your turn" panel, privately, in the channel."""

    def __init__(self, game_id: int, turn: int) -> None:
        button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label="Play my turn",
            style=discord.ButtonStyle.primary,
            custom_id=f"pl:turn:{game_id}:{turn}",
        )
        super().__init__(button)

    async def callback(self, interaction: discord.Interaction) -> None:
        async def act_() -> None:
            tv = await bot_of(interaction).service.turn(self.number("game"), interaction.user.id)
            await interaction.response.defer(ephemeral=True, thinking=True)
            file = await panel_file(tv)
            kwargs: dict[str, Any] = {"file": file} if file else {}
            await interaction.followup.send(turn_text(tv), view=panel(tv), **kwargs)

        await guarded(interaction, act_)


def open_panel_view(game_id: int, turn: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(OpenPanel(game_id, turn))
    return view


def status_embed(table: Table, moves: list[dict[str, Any]]) -> discord.Embed:
    """Whose turn it is, where the game stands, and the last moves in words."""
    names = said_names(table)
    words = presenter(table.row.game).phase_words
    view = table.game.view(table.state, None)
    where = words(view) if words else f"round {view.get('round', '?')}"
    waiting = table.waiting_for()
    embed = discord.Embed(title=f"{table.label} · {where}")
    if table.row.status != "active":
        embed.description = "The game is over."
    elif waiting:
        who = ", ".join(f"**{said(s.name)}**" + (" (AI)" if s.is_ai else "") for s in waiting)
        due = f" (due <t:{int(table.row.deadline.timestamp())}:R>)" if table.row.deadline else ""
        embed.description = f"Waiting for {who}{due}."
    lines = [f"{names[m['seat']]} {fill(m['text'], names)}" for m in moves[-RECENT_MOVES:]]
    embed.add_field(name="Last moves", value="\n".join(lines) or "None yet.", inline=False)
    return embed


def action_key(action: dict[str, Any]) -> str:
    """An action as a component value (compact JSON; panels keep it under 100 characters)."""
    return json.dumps(action, separators=(",", ":"), sort_keys=True)


def parse_action_key(key: str) -> dict[str, Any]:
    data = json_object(key)
    if data is None:
        raise UserError("That choice is not a move: pick one of the panel's options.")
    return data


class ActSelect(
    Clicked,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"pl:act:(?P<game>\d+):(?P<turn>\d+):(?P<row>\d)",
):
    """A select of moves; picking one makes it."""

    def __init__(
        self,
        game_id: int,
        turn: int,
        row: int,
        options: list[tuple[str, dict[str, Any]]] | None = None,
        placeholder: str = "",
    ) -> None:
        choices = [
            discord.SelectOption(label=label[:100], value=action_key(action))
            for label, action in (options or [])[:25]
        ]
        select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
            custom_id=f"pl:act:{game_id}:{turn}:{row}",
            placeholder=placeholder or None,
            options=choices or [discord.SelectOption(label="(nothing to choose)", value="-")],
            disabled=not choices,
            row=row,
        )
        super().__init__(select)

    async def callback(self, interaction: discord.Interaction) -> None:
        async def go() -> None:
            game_id, turn = self.number("game"), self.number("turn")
            value = self.choice()
            if value == "-":
                raise UserError("There is nothing to choose here.")
            await act(interaction, game_id, turn, self.move(value))

        await guarded(interaction, go)


class ActButton(
    Clicked,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"pl:do:(?P<game>\d+):(?P<turn>\d+):(?P<key>.+)",
):
    """A button that makes one move."""

    def __init__(
        self,
        game_id: int,
        turn: int,
        action: dict[str, Any],
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
    ) -> None:
        button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label=label or "Go",
            style=style,
            custom_id=f"pl:do:{game_id}:{turn}:{action_key(action)}",
            row=row,
        )
        super().__init__(button)

    async def callback(self, interaction: discord.Interaction) -> None:
        async def go() -> None:
            game_id, turn = self.number("game"), self.number("turn")
            await act(interaction, game_id, turn, self.move(self.fields["key"]))

        await guarded(interaction, go)


class PanelClick(Clicked):
    """Mixed into a panel's step (a select of plants, a Back button): the click is read as the
    seat's turn now, a panel of an earlier turn refused, then handled by `clicked`."""

    async def callback(self, interaction: discord.Interaction) -> None:
        async def go() -> None:
            tv = await fresh_turn(interaction, self.number("game"), self.number("turn"))
            await self.clicked(interaction, tv)

        await guarded(interaction, go)

    async def clicked(self, interaction: discord.Interaction, tv: TurnView) -> None:
        raise NotImplementedError


class PanelBack(
    PanelClick,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"pl:back:(?P<game>\d+):(?P<turn>\d+)",
):
    """Back from a step of a panel (a plant's bids, a region's cities) to the whole panel."""

    def __init__(self, game_id: int, turn: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Back",
                style=discord.ButtonStyle.secondary,
                custom_id=f"pl:back:{game_id}:{turn}",
                row=4,
            )
        )

    async def clicked(self, interaction: discord.Interaction, tv: TurnView) -> None:
        await interaction.response.edit_message(content=turn_text(tv), view=panel(tv))


async def fresh_turn(interaction: discord.Interaction, game_id: int, turn: int) -> TurnView:
    """The seat's turn now, refusing a panel from an earlier turn."""
    return await bot_of(interaction).service.fresh_turn(game_id, interaction.user.id, turn)


DYNAMIC_ITEMS = (OpenPanel, ActSelect, ActButton, PanelBack)


async def command_move(
    interaction: discord.Interaction, game: str, game_id: int | None, action: dict[str, Any]
) -> None:
    """A move made by slash command: answered with what changed and, if the seat still owes a
    move, its panel."""
    svc = bot_of(interaction).service
    table = await svc.pick_game(interaction.user.id, game_id, game, guild_id=interaction.guild_id)
    table, text, tv = await svc.act(table.row.id, interaction.user.id, action)
    done = f"✅ You {fill(text, [s.name for s in table.seats])}."
    private = interaction.guild is not None
    if tv is None:
        await interaction.response.send_message(done, ephemeral=private)
    else:
        await interaction.response.send_message(
            turn_text(tv, done), view=panel(tv), ephemeral=private
        )
    await bot_of(interaction).delivery.flush()


async def legal_moves(interaction: discord.Interaction, game: str) -> TurnView | None:
    """The user's turn in their (only, or named) game of `game`, for autocomplete; None if none."""
    svc = bot_of(interaction).service
    try:
        table = await svc.pick_game(
            interaction.user.id,
            getattr(interaction.namespace, "game", None),
            game,
            guild_id=interaction.guild_id,
        )
        return await svc.turn(table.row.id, interaction.user.id)
    except UserError:
        return None
