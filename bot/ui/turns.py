"""Turn-based play on Discord, for every such game: the "your turn" panel, the channel button for
people whose DMs are closed, and the status message edited in place."""

import io
import json
from typing import Any

import discord

from bot import workers
from bot.service.banks import runs_out
from bot.service.errors import UserError
from bot.service.hosting import fill, needed
from bot.service.options import TableOptions
from bot.service.service import Table, TurnView
from bot.ui import answer
from bot.ui.clicks import Clicked, json_object
from bot.ui.common import bot_of, game_ref, guarded, made_anyway, said, said_names
from bot.ui.presenter import presenter, presenters

RECENT_MOVES = 6


def turn_text(tv: TurnView, done: str = "") -> str:
    """The panel's words: what just happened, whose game, where it stands, what is at stake,
    when the move is due, and what Undo would take back."""
    table = tv.table
    show = presenter(table.row.game)
    names = [said(s.name) for s in table.seats]
    progress = table.game.progress(table.state)
    where = show.phase_words(tv.view) if show.phase_words else progress.words
    lines = [done] if done else []
    lines.append(f"**Your turn in {game_ref(table)}** · {where}")
    if show.stakes:
        lines.append(fill(show.stakes(tv.view, tv.seat), names))
    if table.row.deadline:
        lines.append(f"Your move is due <t:{int(table.row.deadline.timestamp())}:R>.")
    if tv.undo:
        lines.append(f"*Undo takes back: you {fill(tv.undo, names)}.*")
    return "\n".join(lines)


async def panel_file(tv: TurnView) -> discord.File | None:
    render = presenter(tv.table.row.game).panel_image
    if render is None:
        return None
    names = [s.name for s in tv.table.seats]
    data = await workers.draw(render, tv.view, names)
    return discord.File(io.BytesIO(data), filename="turn.png")


def panel(tv: TurnView) -> discord.ui.View:
    """The game's panel for the seat's turn, with Undo when its last move may be taken back."""
    view = needed(presenter(tv.table.row.game).turn_panel, "turn panel")(tv)
    if tv.undo:
        view.add_item(UndoButton(tv.table.row.id, tv.turn))
    return view


def _asks(action: dict[str, Any]) -> bool:
    """Whether some game may ask before this kind of move (read before the game is known)."""
    return any(action.get("type") in p.confirm_types for p in presenters().values())


async def act(
    interaction: discord.Interaction,
    game_id: int,
    turn: int,
    action: dict[str, Any],
    confirmed: bool = False,
) -> None:
    """Make a move from a panel and redraw that panel in place, its picture too: what changed,
    then the seat's next decision or a note that the turn is over. A move the game thinks may
    be a slip asks first (one more tap)."""
    svc = bot_of(interaction).service
    if not confirmed and _asks(action):
        now = await svc.fresh_turn(game_id, interaction.user.id, turn)
        ask = presenter(now.table.row.game).confirm
        question = ask(now.view, now.seat, action) if ask else None
        if question:
            names = [said(s.name) for s in now.table.seats]
            sure = discord.ui.View(timeout=None)
            yes = ActButton(game_id, turn, action, "Yes", discord.ButtonStyle.danger, 0, True)
            sure.add_item(yes)
            sure.add_item(PanelBack(game_id, turn))
            await answer.edit(
                interaction, content=turn_text(now, f"**{fill(question, names)}**"), view=sure
            )
            return
    via = interaction.message.id if interaction.message else None
    table, text, tv = await svc.act(game_id, interaction.user.id, action, turn, via, interaction.id)
    done = f"✅ You {fill(text, [said(s.name) for s in table.seats])}."
    try:
        await answer.defer(interaction)  # after the move, so a refusal is a reply of its own
        await _redraw(interaction, done, tv)
    except discord.HTTPException:
        await made_anyway(interaction, table, done)
    await svc.replied(interaction.id)
    await bot_of(interaction).delivery.after_change()


async def _redraw(interaction: discord.Interaction, done: str, tv: TurnView | None) -> None:
    """The clicked panel after a move: the next decision with its picture, or the turn over."""
    if tv is None:
        await interaction.edit_original_response(content=done, view=None, attachments=[])
        return
    file = await panel_file(tv)
    await interaction.edit_original_response(
        content=turn_text(tv, done), view=panel(tv), attachments=[file] if file else []
    )


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
            await answer.defer(interaction, ephemeral=True, thinking=True)
            file = await panel_file(tv)
            kwargs: dict[str, Any] = {"file": file} if file else {}
            await answer.send(interaction, turn_text(tv), view=panel(tv), **kwargs)

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
        if table.row.paused_at:
            due = " (the clock is stopped while they are on vacation)"
        embed.description = f"Waiting for {who}{due}."
    lines = [f"{names[m['seat']]} {fill(m['text'], names)}" for m in moves[-RECENT_MOVES:]]
    embed.add_field(name="Last moves", value="\n".join(lines) or "None yet.", inline=False)
    options = TableOptions(**table.row.options)
    if options.clock == "bank" and table.row.status == "active":
        embed.add_field(name="Time banks", value=bank_lines(table, options), inline=False)
    return embed


def bank_lines(table: Table, options: TableOptions) -> str:
    """Each person's time bank: when it runs out on their turn, else what it holds."""
    lines = []
    for seat in table.seats:
        if seat.is_ai:
            continue
        end = runs_out(options, seat)
        if end is not None and not table.row.paused_at:
            lines.append(f"⏳ {said(seat.name)}: runs out <t:{int(end.timestamp())}:R>")
        else:
            held = seat.bank_seconds if seat.bank_seconds is not None else options.bank_minutes * 60
            lines.append(f"{said(seat.name)}: {span_words(held)}")
    return "\n".join(lines)


def span_words(seconds: float) -> str:
    """A span as people read it at a glance: "2 d 4 h", "5 h 10 min", "12 min"."""
    minutes = int(seconds // 60)
    days, hours, mins = minutes // 1440, minutes % 1440 // 60, minutes % 60
    if days:
        return f"{days} d {hours} h" if hours else f"{days} d"
    if hours:
        return f"{hours} h {mins} min" if mins else f"{hours} h"
    return f"{mins} min"


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
    template=r"pl:(?P<verb>do|yes):(?P<game>\d+):(?P<turn>\d+):(?P<key>.+)",
):
    """A button that makes one move ("yes": the answer to the question a slip asks)."""

    def __init__(
        self,
        game_id: int,
        turn: int,
        action: dict[str, Any],
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
        confirmed: bool = False,
    ) -> None:
        verb = "yes" if confirmed else "do"
        button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label=label or "Go",
            style=style,
            custom_id=f"pl:{verb}:{game_id}:{turn}:{action_key(action)}",
            row=row,
        )
        super().__init__(button)

    async def callback(self, interaction: discord.Interaction) -> None:
        async def go() -> None:
            game_id, turn = self.number("game"), self.number("turn")
            action = self.move(self.fields["key"])
            await act(interaction, game_id, turn, action, self.fields["verb"] == "yes")

        await guarded(interaction, go)


class UndoButton(
    Clicked,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"pl:undo:(?P<game>\d+):(?P<turn>\d+)",
):
    """Takes back the seat's last move while it is still on turn (see `Service.undo`)."""

    def __init__(self, game_id: int, turn: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Undo",
                emoji="↩️",
                style=discord.ButtonStyle.secondary,
                custom_id=f"pl:undo:{game_id}:{turn}",
            )
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        async def go() -> None:
            svc = bot_of(interaction).service
            game_id, turn = self.number("game"), self.number("turn")
            via = interaction.message.id if interaction.message else None
            user = interaction.user.id
            table, text, tv = await svc.undo(game_id, user, turn, via, interaction.id)
            await answer.defer(interaction)
            done = f"↩️ You took back: you {fill(text, [said(s.name) for s in table.seats])}."
            await _redraw(interaction, done, tv)
            await svc.replied(interaction.id)
            await bot_of(interaction).delivery.after_change()

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
        await answer.edit(interaction, content=turn_text(tv), view=panel(tv))


async def fresh_turn(interaction: discord.Interaction, game_id: int, turn: int) -> TurnView:
    """The seat's turn now, refusing a panel from an earlier turn."""
    return await bot_of(interaction).service.fresh_turn(game_id, interaction.user.id, turn)


class PremoveSelect(
    Clicked,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"pl:pre:(?P<game>\d+):(?P<turn>\d+):(?P<key>[a-z_]{1,40})",
):
    """Sets a pre-move that takes a number (a maximum bid): the number picked is kept by the
    bot alone, and the game makes the moves it allows when they are due."""

    def __init__(
        self, game_id: int, turn: int, key: str, amounts: list[int], placeholder: str, row: int
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"pl:pre:{game_id}:{turn}:{key}",
                placeholder=placeholder,
                options=[discord.SelectOption(label=str(n), value=str(n)) for n in amounts[:25]],
                row=row,
            )
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        async def go() -> None:
            await _set_premove(interaction, self, self.whole(self.choice(), "amount"))

        await guarded(interaction, go)


class PremoveCancel(
    Clicked,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"pl:unpre:(?P<game>\d+):(?P<turn>\d+):(?P<key>[a-z_]{1,40})",
):
    """Cancels a pre-move set from the panel."""

    def __init__(self, game_id: int, turn: int, key: str, label: str, row: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80], custom_id=f"pl:unpre:{game_id}:{turn}:{key}", row=row
            )
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: _set_premove(interaction, self, None))


async def _set_premove(interaction: discord.Interaction, item: Clicked, amount: int | None) -> None:
    """Set (with `amount`) or cancel the pre-move the component names, then redraw the panel."""
    svc = bot_of(interaction).service
    game_id, turn, key = item.number("game"), item.number("turn"), item.fields["key"]
    before = await svc.fresh_turn(game_id, interaction.user.id, turn)
    await svc.set_premove(game_id, interaction.user.id, key, amount is not None, amount)
    label = before.table.hosted.moves().premoves[key]
    done = f"✅ Set, and seen by nobody else: {label} {amount}." if amount else "✅ Cancelled."
    try:
        tv = await svc.turn(game_id, interaction.user.id)
    except UserError:  # the pre-move was made at once, and the turn is over
        await answer.edit(interaction, content=done, view=None, attachments=[])
    else:
        await answer.edit(interaction, content=turn_text(tv, done), view=panel(tv))
    await bot_of(interaction).delivery.after_change()


DYNAMIC_ITEMS = (
    OpenPanel,
    ActSelect,
    ActButton,
    UndoButton,
    PremoveSelect,
    PremoveCancel,
    PanelBack,
)


async def command_move(
    interaction: discord.Interaction, game: str, game_id: int | None, action: dict[str, Any]
) -> None:
    """A move made by slash command: answered with what changed and, if the seat still owes a
    move, its panel."""
    svc = bot_of(interaction).service
    table = await svc.pick_game(interaction.user.id, game_id, game, guild_id=interaction.guild_id)
    table, text, tv = await svc.act(table.row.id, interaction.user.id, action, reply=interaction.id)
    done = f"✅ You {fill(text, [said(s.name) for s in table.seats])}."
    # The seat's one live panel is redrawn by delivery; a second one here would be a duplicate.
    more = "" if tv is None else "\nStill your turn: your panel is up to date."
    try:
        await answer.send(interaction, done + more, ephemeral=interaction.guild is not None)
    except discord.HTTPException:
        await made_anyway(interaction, table, done)
    await svc.replied(interaction.id)
    await bot_of(interaction).delivery.after_change()


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
