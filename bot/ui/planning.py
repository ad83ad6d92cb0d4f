"""The status board of a round and the planner: restart-proof components whose custom_id
carries the game and round they act on."""

import io
from typing import Any

import discord

from bot.errors import quote
from bot.service.errors import UserError
from bot.service.hosting import needed
from bot.service.service import DraftView, Service, Table
from bot.ui import answer
from bot.ui.clicks import Clicked
from bot.ui.common import bot_of, guarded, made_anyway, said
from bot.ui.presenter import presenter
from bot.workers import draw

PLANNER_BUTTONS = {
    "undo": ("Undo", discord.ButtonStyle.secondary),
    "clear": ("Clear", discord.ButtonStyle.secondary),
    "vacation": ("Vacation tile", discord.ButtonStyle.secondary),
    "show": ("Show board", discord.ButtonStyle.secondary),
    "submit": ("Submit", discord.ButtonStyle.success),
    "back": ("Back", discord.ButtonStyle.secondary),
}


# ---- the round's status board ----------------------------------------------------------------


def status_embed(table: Table, state: Any) -> discord.Embed:
    if table.row.status != "active":
        return discord.Embed(
            title=f"{table.label} · {table.row.status}",
            description="The game is over: its results are posted below.",
        )
    deadline = table.row.deadline
    # Discord shows a timestamp in each reader's own time zone and language.
    stamp = int(deadline.timestamp()) if deadline else 0
    when = f"<t:{stamp}:f> (<t:{stamp}:R>)" if deadline else "no deadline"
    closes = f"Plans close {when}."
    if table.row.paused_at:
        closes = "The clock is stopped while a player the round waits for is on vacation."
    embed = discord.Embed(
        title=f"{table.label} · round {table.game.progress(state).round}", description=closes
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
    Clicked,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"pl:plan:(?P<game>\d+):(?P<round>\d+):(?P<action>undo|clear|vacation|show|submit|back)",
):
    def __init__(self, game_id: int, round_: int, action: str, disabled: bool = False) -> None:
        label, style = PLANNER_BUTTONS[action]
        button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label=label,
            style=style,
            custom_id=f"pl:plan:{game_id}:{round_}:{action}",
            disabled=disabled,
        )
        super().__init__(button)

    async def callback(self, interaction: discord.Interaction) -> None:
        async def act() -> None:
            svc, uid = bot_of(interaction).service, interaction.user.id
            game_id, round_ = self.number("game"), self.number("round")
            action = self.fields["action"]
            await svc.check_round(game_id, round_)
            if action == "back":
                draft = await svc.draft(game_id, uid)
                await answer.edit(interaction, view=planner_view(draft))
                return
            if action == "show":
                await answer.defer(interaction, ephemeral=True, thinking=True)
                await answer.send(interaction, file=await draft_board(svc, game_id, uid))
                return
            if action == "submit":
                await svc.submit(game_id, uid, round_, interaction.id)
                table = await svc.table(game_id)
                same = (
                    table.row.status == "active"
                    and table.game.progress(table.state).round == round_
                )
                fresh = await svc.draft(game_id, uid) if same else None
                try:
                    if fresh is None:
                        await answer.edit(
                            interaction,
                            content="✅ Plan submitted, and the round is resolving.",
                            view=None,
                        )
                    else:
                        await answer.edit(interaction, **await refreshed(fresh))
                except discord.HTTPException:
                    await made_anyway(interaction, table, f"✅ Your plan for round {round_} is in.")
                await svc.replied(interaction.id)
                await bot_of(interaction).delivery.after_change()
                return
            current = await svc.draft(game_id, uid)
            draft = await svc.edit_draft(
                game_id,
                uid,
                undo=action == "undo",
                clear=action == "clear",
                vacation=(not current.vacation) if action == "vacation" else None,
            )
            await answer.edit(interaction, **await refreshed(draft))

        await guarded(interaction, act)


class PlannerSelect(
    Clicked,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"pl:pick:(?P<game>\d+):(?P<round>\d+)(?::(?P<part>\d))?",
):
    """A select of next steps (`part` tells apart the selects of one message)."""

    def __init__(
        self,
        game_id: int,
        round_: int,
        options: list[tuple[str, str]] | None = None,
        prompt: str = "",
        part: int = 0,
    ) -> None:
        choices = [
            discord.SelectOption(label=label[:100], value=key) for label, key in (options or [])
        ]
        select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
            custom_id=f"pl:pick:{game_id}:{round_}" + (f":{part}" if part else ""),
            placeholder=prompt or None,
            options=choices or [discord.SelectOption(label="(nothing can be added)", value="-")],
            disabled=not choices,
        )
        super().__init__(select)

    async def callback(self, interaction: discord.Interaction) -> None:
        async def act() -> None:
            svc, game_id = bot_of(interaction).service, self.number("game")
            await svc.check_round(game_id, self.number("round"))
            key = self.choice()
            if key == "-":
                raise UserError("Nothing can be added to this plan.")
            planner = (await svc.table(game_id)).hosted.plans()
            try:
                step = planner.parse_key(key)
            except ValueError:
                raise self.damaged(f"“{quote(key)}” is not a step") from None
            draft = await svc.edit_draft(game_id, interaction.user.id, add=step)
            await answer.edit(interaction, **await refreshed(draft))

        await guarded(interaction, act)


def planner_view(draft: DraftView) -> discord.ui.View:
    """The game's planner: by default a select of the legal next steps and the buttons."""
    own = presenter(draft.table.row.game).planner_view
    if own is not None:
        return own(draft)
    show = presenter(draft.table.row.game)
    options = sorted(draft.next_options, key=lambda o: "joker" in o[0])
    view = discord.ui.View(timeout=None)
    if len(options) <= 25 or show.step_group is None:
        view.add_item(
            PlannerSelect(draft.table.row.id, draft.round, options[:25], show.step_prompt)
        )
    else:
        # Every legal step stays reachable by clicking: a group first, then its steps.
        groups: dict[str, int] = {}
        for _, key in options:
            group = show.step_group(key)
            groups[group] = groups.get(group, 0) + 1
        view.add_item(GroupSelect(draft.table.row.id, draft.round, list(groups.items())))
    add_planner_buttons(view, draft)
    return view


def group_view(draft: DraftView, group: str) -> discord.ui.View:
    """The steps of one group, in selects of 25, with a Back button."""
    show = presenter(draft.table.row.game)
    options = sorted(
        (o for o in draft.next_options if show.step_group and show.step_group(o[1]) == group),
        key=lambda o: "joker" in o[0],
    )
    if not options:
        raise UserError(f"Nothing in “{group}” can be added to this plan now.")
    view = discord.ui.View(timeout=None)
    gid, rnd = draft.table.row.id, draft.round
    for part in range(min(4, -(-len(options) // 25))):
        chunk = options[25 * part : 25 * part + 25]
        view.add_item(PlannerSelect(gid, rnd, chunk, f"{show.step_prompt} ({group})", part))
    view.add_item(PlannerButton(gid, rnd, "back"))
    return view


class GroupSelect(
    Clicked,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"pl:group:(?P<game>\d+):(?P<round>\d+)",
):
    """When the next steps are more than one select holds: their group first."""

    def __init__(
        self, game_id: int, round_: int, groups: list[tuple[str, int]] | None = None
    ) -> None:
        options = [
            discord.SelectOption(label=f"{g} ({n} choice{'' if n == 1 else 's'})", value=g[:100])
            for g, n in (groups or [])
        ][:25]
        super().__init__(
            discord.ui.Select(
                custom_id=f"pl:group:{game_id}:{round_}",
                placeholder="Choose a group first…",
                options=options or [discord.SelectOption(label="(nothing)", value="-")],
                disabled=not options,
            )
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        async def act() -> None:
            svc, game_id = bot_of(interaction).service, self.number("game")
            await svc.check_round(game_id, self.number("round"))
            draft = await svc.draft(game_id, interaction.user.id)
            view = group_view(draft, self.choice())
            await answer.edit(interaction, view=view)

        await guarded(interaction, act)


def add_planner_buttons(view: discord.ui.View, draft: DraftView) -> None:
    gid, rnd = draft.table.row.id, draft.round
    for action in PLANNER_BUTTONS:
        if action == "back" or (
            action == "vacation" and not presenter(draft.table.row.game).vacation
        ):
            continue
        disabled = (action == "submit" and not draft.can_submit) or (
            action in ("undo", "clear") and not draft.steps
        )
        view.add_item(PlannerButton(gid, rnd, action, disabled))


class OpenPlanner(
    Clicked,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"pl:open:(?P<game>\d+):(?P<round>\d+)",
):
    """For players whose DMs are closed: the planner, privately, in the channel."""

    def __init__(self, game_id: int, round_: int) -> None:
        button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label="Plan", style=discord.ButtonStyle.primary, custom_id=f"pl:open:{game_id}:{round_}"
        )
        super().__init__(button)

    async def callback(self, interaction: discord.Interaction) -> None:
        async def act() -> None:
            svc, game_id = bot_of(interaction).service, self.number("game")
            await svc.check_round(game_id, self.number("round"))
            draft = await svc.draft(game_id, interaction.user.id)
            await answer.send(
                interaction, planner_text(draft), view=planner_view(draft), ephemeral=True
            )

        await guarded(interaction, act)


def open_planner_view(game_id: int, round_: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(OpenPlanner(game_id, round_))
    return view


async def draft_board(svc: Service, game_id: int, user_id: int) -> discord.File:
    """The player's board with their current draft drawn on it (their eyes only)."""
    return await board_of(await svc.draft(game_id, user_id))


async def refreshed(draft: DraftView) -> dict[str, Any]:
    """A planner message after a change: its words, its controls and the board redrawn with
    the draft as it is now (so the picture grows with the plan and shows it submitted)."""
    return {
        "content": planner_text(draft),
        "view": planner_view(draft),
        "attachments": [await board_of(draft)],
    }


async def board_of(draft: DraftView) -> discord.File:
    table = draft.table
    view = table.game.view(table.state, draft.seat)
    names = [s.name for s in table.seats]
    show = presenter(table.row.game)
    render = needed(show.draft_board, "draft board")
    data = await draw(render, view, draft.seat, names, draft.steps, draft.vacation)
    return discord.File(io.BytesIO(data), filename="draft.png")


DYNAMIC_ITEMS = (PlannerButton, PlannerSelect, GroupSelect, OpenPlanner)
