"""Embeds and restart-proof components: every custom_id carries the game (and round) it acts on."""

import asyncio
import io
import re
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.presenters import presenter
from bot.service.errors import UserError
from bot.service.options import TableOptions
from bot.service.planners import planner
from bot.service.service import DraftView, Service, Table

LOBBY_BUTTONS = {
    "join": ("Join", discord.ButtonStyle.success),
    "leave": ("Leave", discord.ButtonStyle.secondary),
    "ai": ("Add AI", discord.ButtonStyle.secondary),
    "start": ("Start", discord.ButtonStyle.primary),
    "cancel": ("Cancel", discord.ButtonStyle.danger),
}
PLANNER_BUTTONS = {
    "undo": ("Undo", discord.ButtonStyle.secondary),
    "clear": ("Clear", discord.ButtonStyle.secondary),
    "vacation": ("Vacation tile", discord.ButtonStyle.secondary),
    "show": ("Show board", discord.ButtonStyle.secondary),
    "submit": ("Submit", discord.ButtonStyle.success),
}


def is_moderator(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_channels)


async def guarded(interaction: discord.Interaction, act: Callable[[], Awaitable[None]]) -> None:
    """Run a component action; a refusal is told privately and changes nothing."""
    try:
        await act()
    except UserError as exc:
        if interaction.response.is_done():
            await interaction.followup.send(exc.message, ephemeral=True)
        else:
            await interaction.response.send_message(exc.message, ephemeral=True)


def _service(interaction: discord.Interaction) -> Service:
    return interaction.client.service  # type: ignore[attr-defined]


async def _flush(interaction: discord.Interaction) -> None:
    await interaction.client.delivery.flush()  # type: ignore[attr-defined]


# ---- lobby -----------------------------------------------------------------------------------


def lobby_embed(table: Table, note: str | None = None) -> discord.Embed:
    options = TableOptions(**table.row.options)
    variants = (
        ", ".join(v.replace("_", " ") for v in table.row.config.get("variants", [])) or "none"
    )
    hours = options.deadline_minutes / 60
    deadline = f"{hours:g} h" if hours >= 1 else f"{options.deadline_minutes} min"
    embed = discord.Embed(
        title=f"{table.game.title} table #{table.row.id}",
        description=note or "Join, then the host starts the game.",
        colour=0xE69F00,
    )
    seats = "\n".join(
        f"{s.seat + 1}. {s.name}"
        + (" (AI)" if s.is_ai else "")
        + (" — host" if s.user_id == table.row.host_id else "")
        for s in table.seats
    )
    embed.add_field(name=f"Seats ({len(table.seats)}/{options.max_players})", value=seats)
    embed.add_field(
        name="Options",
        value=f"Variants: {variants}\nRound deadline: {deadline}\n"
        f"Vacation tile: {'yes' if table.row.config.get('vacation_tile', True) else 'no'}\n"
        f"Rated: {'yes' if options.rated else 'no'}",
    )
    return embed


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"pl:lobby:(?P<game>\d+):(?P<action>join|leave|ai|start|cancel)",
):
    def __init__(self, game_id: int, action: str) -> None:
        label, style = LOBBY_BUTTONS[action]
        button = discord.ui.Button(
            label=label, style=style, custom_id=f"pl:lobby:{game_id}:{action}"
        )
        super().__init__(button)
        self.game_id, self.action = game_id, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> "LobbyButton":
        return cls(int(match["game"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def act() -> None:
            svc, user, mod = _service(interaction), interaction.user, is_moderator(interaction)
            if self.action == "join":
                table = await svc.join(self.game_id, user.id, user.display_name)
            elif self.action == "leave":
                table = await svc.leave_lobby(self.game_id, user.id)
            elif self.action == "ai":
                table = await svc.add_ai(self.game_id, user.id, mod)
            elif self.action == "cancel":
                table = await svc.cancel(self.game_id, user.id, mod)
            else:
                table = await svc.start(self.game_id, user.id, mod)
            live = table.row.status == "lobby"
            await interaction.response.edit_message(
                embed=lobby_embed(table), view=lobby_view(table) if live else None
            )
            await _flush(interaction)

        await guarded(interaction, act)


def lobby_view(table: Table) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for action in LOBBY_BUTTONS:
        view.add_item(LobbyButton(table.row.id, action))
    return view


# ---- the round's status board ----------------------------------------------------------------


def status_embed(table: Table, state: Any) -> discord.Embed:
    deadline = table.row.deadline
    when = f"<t:{int(deadline.timestamp())}:R>" if deadline else "no deadline"
    embed = discord.Embed(
        title=f"Game #{table.row.id} · round {state.round}", description=f"Plans close {when}."
    )
    lines = []
    for seat in table.seats:
        done = state.plans[seat.seat] is not None
        who = seat.name + (" (AI)" if seat.is_ai else "")
        lines.append(f"{'✅ submitted' if done else '⏳ planning'} — {who}")
    embed.add_field(name="Seats", value="\n".join(lines))
    return embed


# ---- the planner -----------------------------------------------------------------------------


def planner_text(draft: DraftView) -> str:
    lines = [f"**Game #{draft.table.row.id}, round {draft.round}: your plan**"]
    if draft.steps:
        lines += [f"{i + 1}. {text}" for i, text in enumerate(draft.lines)]
    else:
        lines.append("No workers placed yet: start with the red or the black worker.")
    if draft.vacation:
        lines.append("Vacation tile: spent this round (no island loss).")
    if draft.submitted:
        lines.append("✅ A plan is submitted; change it and submit again until the round resolves.")
    elif draft.can_submit:
        lines.append("This plan can be submitted.")
    return "\n".join(lines)


class PlannerButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"pl:plan:(?P<game>\d+):(?P<round>\d+):(?P<action>undo|clear|vacation|show|submit)",
):
    def __init__(self, game_id: int, round_: int, action: str, disabled: bool = False) -> None:
        label, style = PLANNER_BUTTONS[action]
        button = discord.ui.Button(
            label=label,
            style=style,
            custom_id=f"pl:plan:{game_id}:{round_}:{action}",
            disabled=disabled,
        )
        super().__init__(button)
        self.game_id, self.round, self.action = game_id, round_, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> "PlannerButton":
        return cls(int(match["game"]), int(match["round"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def act() -> None:
            svc, uid = _service(interaction), interaction.user.id
            await svc.check_round(self.game_id, self.round)
            if self.action == "show":
                await interaction.response.defer(ephemeral=True, thinking=True)
                await interaction.followup.send(file=await draft_board(svc, self.game_id, uid))
                return
            if self.action == "submit":
                await svc.submit(self.game_id, uid, self.round)
                table = await svc.table(self.game_id)
                same = table.row.status == "active" and table.state.round == self.round
                draft = await svc.draft(self.game_id, uid) if same else None
                if draft is None:
                    await interaction.response.edit_message(
                        content="✅ Plan submitted, and the round is resolving.", view=None
                    )
                else:
                    await interaction.response.edit_message(
                        content=planner_text(draft), view=planner_view(draft)
                    )
                await _flush(interaction)
                return
            current = await svc.draft(self.game_id, uid)
            draft = await svc.edit_draft(
                self.game_id,
                uid,
                undo=self.action == "undo",
                clear=self.action == "clear",
                vacation=(not current.vacation) if self.action == "vacation" else None,
            )
            await interaction.response.edit_message(
                content=planner_text(draft), view=planner_view(draft)
            )

        await guarded(interaction, act)


class PlannerSelect(
    discord.ui.DynamicItem[discord.ui.Select], template=r"pl:pick:(?P<game>\d+):(?P<round>\d+)"
):
    def __init__(
        self, game_id: int, round_: int, options: list[tuple[str, str]] | None = None
    ) -> None:
        choices = [
            discord.SelectOption(label=label[:100], value=key) for label, key in (options or [])
        ]
        select = discord.ui.Select(
            custom_id=f"pl:pick:{game_id}:{round_}",
            placeholder="Place the next worker…",
            options=choices or [discord.SelectOption(label="(no worker can be added)", value="-")],
            disabled=not choices,
        )
        super().__init__(select)
        self.game_id, self.round = game_id, round_

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str], /
    ) -> "PlannerSelect":
        self = cls(int(match["game"]), int(match["round"]))
        self.item = item
        return self

    async def callback(self, interaction: discord.Interaction) -> None:
        async def act() -> None:
            svc = _service(interaction)
            await svc.check_round(self.game_id, self.round)
            values = self.item.values
            if not values or values[0] == "-":
                raise UserError("Nothing can be added to this plan.")
            game = (await svc.table(self.game_id)).row.game
            step = planner(game).parse_key(values[0])
            draft = await svc.edit_draft(self.game_id, interaction.user.id, add=step)
            await interaction.response.edit_message(
                content=planner_text(draft), view=planner_view(draft)
            )

        await guarded(interaction, act)


PLANNER_VIEWS: dict[str, Callable[[DraftView], discord.ui.View]] = {}
"""Games whose planner is not the one-select kind register their own here (on import)."""


def planner_view(draft: DraftView) -> discord.ui.View:
    """The game's planner: by default a select of the legal next steps and the buttons."""
    own = PLANNER_VIEWS.get(draft.table.row.game)
    if own is not None:
        return own(draft)
    options = sorted(draft.next_options, key=lambda o: "joker" in o[0])[:25]
    view = discord.ui.View(timeout=None)
    view.add_item(PlannerSelect(draft.table.row.id, draft.round, options))
    add_planner_buttons(view, draft)
    return view


def add_planner_buttons(view: discord.ui.View, draft: DraftView) -> None:
    gid, rnd = draft.table.row.id, draft.round
    for action in PLANNER_BUTTONS:
        if action == "vacation" and not presenter(draft.table.row.game).vacation:
            continue
        disabled = (action == "submit" and not draft.can_submit) or (
            action in ("undo", "clear") and not draft.steps
        )
        view.add_item(PlannerButton(gid, rnd, action, disabled))


class OpenPlanner(
    discord.ui.DynamicItem[discord.ui.Button], template=r"pl:open:(?P<game>\d+):(?P<round>\d+)"
):
    """For players whose DMs are closed: the planner, privately, in the channel."""

    def __init__(self, game_id: int, round_: int) -> None:
        button = discord.ui.Button(
            label="Plan", style=discord.ButtonStyle.primary, custom_id=f"pl:open:{game_id}:{round_}"
        )
        super().__init__(button)
        self.game_id, self.round = game_id, round_

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> "OpenPlanner":
        return cls(int(match["game"]), int(match["round"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def act() -> None:
            svc = _service(interaction)
            await svc.check_round(self.game_id, self.round)
            draft = await svc.draft(self.game_id, interaction.user.id)
            await interaction.response.send_message(
                planner_text(draft), view=planner_view(draft), ephemeral=True
            )

        await guarded(interaction, act)


def open_planner_view(game_id: int, round_: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(OpenPlanner(game_id, round_))
    return view


async def draft_board(svc: Service, game_id: int, user_id: int) -> discord.File:
    """The player's board with their current draft drawn on it (their eyes only)."""
    draft = await svc.draft(game_id, user_id)
    table = draft.table
    view = table.game.view(table.state, draft.seat)
    names = [s.name for s in table.seats]
    show = presenter(table.row.game)
    data = await asyncio.to_thread(
        show.draft_board, view, draft.seat, names, draft.steps, draft.vacation
    )
    return discord.File(io.BytesIO(data), filename="draft.png")


DYNAMIC_ITEMS = (LobbyButton, PlannerButton, PlannerSelect, OpenPlanner)
