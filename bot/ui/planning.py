"""The status board of a round and the planner: restart-proof components whose custom_id
carries the game and round they act on."""

import asyncio
import io
import re
from typing import Any

import discord

from bot.service.errors import UserError
from bot.service.service import DraftView, Service, Table
from bot.ui.common import flush, guarded, said, service
from bot.ui.presenter import presenter

PLANNER_BUTTONS = {
    "undo": ("Undo", discord.ButtonStyle.secondary),
    "clear": ("Clear", discord.ButtonStyle.secondary),
    "vacation": ("Vacation tile", discord.ButtonStyle.secondary),
    "show": ("Show board", discord.ButtonStyle.secondary),
    "submit": ("Submit", discord.ButtonStyle.success),
}


# ---- the round's status board ----------------------------------------------------------------


def status_embed(table: Table, state: Any) -> discord.Embed:
    deadline = table.row.deadline
    when = f"<t:{int(deadline.timestamp())}:R>" if deadline else "no deadline"
    embed = discord.Embed(
        title=f"{table.label} · round {state.round}", description=f"Plans close {when}."
    )
    acting = table.game.to_act(state)
    lines = []
    for seat in table.seats:
        who = said(seat.name) + (" (AI)" if seat.is_ai else "")
        lines.append(f"{'⏳ planning' if seat.seat in acting else '✅ submitted'} — {who}")
    embed.add_field(name="Seats", value="\n".join(lines))
    return embed


# ---- the planner -----------------------------------------------------------------------------


def planner_text(draft: DraftView) -> str:
    lines = [f"**{draft.table.label}, round {draft.round}: your plan**"]
    if draft.steps:
        lines += [f"{i + 1}. {text}" for i, text in enumerate(draft.lines)]
    else:
        lines.append(presenter(draft.table.row.game).empty_plan)
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
            svc, uid = service(interaction.client), interaction.user.id
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
                await flush(interaction.client)
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
        self,
        game_id: int,
        round_: int,
        options: list[tuple[str, str]] | None = None,
        prompt: str = "",
    ) -> None:
        choices = [
            discord.SelectOption(label=label[:100], value=key) for label, key in (options or [])
        ]
        select = discord.ui.Select(
            custom_id=f"pl:pick:{game_id}:{round_}",
            placeholder=prompt or None,
            options=choices or [discord.SelectOption(label="(nothing can be added)", value="-")],
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
            svc = service(interaction.client)
            await svc.check_round(self.game_id, self.round)
            values = self.item.values
            if not values or values[0] == "-":
                raise UserError("Nothing can be added to this plan.")
            table = await svc.table(self.game_id)
            step = table.hosted.planner.parse_key(values[0])
            draft = await svc.edit_draft(self.game_id, interaction.user.id, add=step)
            await interaction.response.edit_message(
                content=planner_text(draft), view=planner_view(draft)
            )

        await guarded(interaction, act)


def planner_view(draft: DraftView) -> discord.ui.View:
    """The game's planner: by default a select of the legal next steps and the buttons."""
    own = presenter(draft.table.row.game).planner_view
    if own is not None:
        return own(draft)
    options = sorted(draft.next_options, key=lambda o: "joker" in o[0])[:25]
    view = discord.ui.View(timeout=None)
    prompt = presenter(draft.table.row.game).step_prompt
    view.add_item(PlannerSelect(draft.table.row.id, draft.round, options, prompt))
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
            svc = service(interaction.client)
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


DYNAMIC_ITEMS = (PlannerButton, PlannerSelect, OpenPlanner)
