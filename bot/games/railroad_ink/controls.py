"""Railroad Ink's DM planner as selects: die, then cell, then orientation (restart-proof)."""

import json
from typing import Any

import discord

from bot.errors import quote
from bot.games.railroad_ink.plugin import face_of, turn_words
from bot.service.errors import UserError
from bot.service.service import DraftView
from bot.ui import answer
from bot.ui.clicks import Clicked
from bot.ui.common import bot_of, guarded
from bot.ui.planning import PlannerButton, PlannerSelect, add_planner_buttons, refreshed

COLUMN_GROUPS = ("ABC", "DE", "FG")
"""Legal cells split by column, so no select holds more than 25 options."""


def draws(draft: DraftView) -> list[dict[str, Any]]:
    return [json.loads(key) for _, key in draft.next_options if '"step":"draw"' in key]


def die_value(step: dict[str, Any]) -> str:
    return f"special:{step['face']}" if step["die"] == "special" else step["die"]


def _legal(draft: DraftView, die: str, cell: str | None = None) -> list[dict[str, Any]]:
    """The draws of `die` (in `cell`) the plan may take now; a die or cell with none is refused."""
    found = [s for s in draws(draft) if die_value(s) == die and cell in (None, s["cell"])]
    if not found:
        where = f" in {quote(cell)}" if cell else ""
        raise UserError(f"You can't draw that die{where} now.")
    return found


class DieSelect(
    Clicked,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"ri:die:(?P<game>\d+):(?P<round>\d+)",
):
    def __init__(
        self, game_id: int, round_: int, options: list[discord.SelectOption] | None = None
    ):
        super().__init__(
            discord.ui.Select(
                custom_id=f"ri:die:{game_id}:{round_}",
                placeholder="Draw a die…",
                options=options or [discord.SelectOption(label="(nothing to draw)", value="-")],
                disabled=not options,
            )
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        async def act() -> None:
            die = self.choice()
            draft = await _draft(interaction, self.number("game"), self.number("round"))
            await answer.edit(interaction, view=cell_view(draft, die))

        await guarded(interaction, act)


class CellSelect(
    Clicked,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"ri:cell:(?P<game>\d+):(?P<round>\d+):(?P<die>[a-z0-9_:]+):(?P<part>\d)",
):
    def __init__(
        self, game_id: int, round_: int, die: str, part: int, cells: list[str] | None = None
    ):
        cells = cells or []
        super().__init__(
            discord.ui.Select(
                custom_id=f"ri:cell:{game_id}:{round_}:{die}:{part}",
                placeholder=f"…in columns {COLUMN_GROUPS[part][0]}–{COLUMN_GROUPS[part][-1]}",
                options=[discord.SelectOption(label=c, value=c) for c in cells]
                or [discord.SelectOption(label="(no cell here)", value="-")],
                disabled=not cells,
            )
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        async def act() -> None:
            cell = self.choice()
            draft = await _draft(interaction, self.number("game"), self.number("round"))
            await answer.edit(interaction, view=turn_view(draft, self.fields["die"], cell))

        await guarded(interaction, act)


class TurnSelect(
    Clicked,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"ri:turn:(?P<game>\d+):(?P<round>\d+):(?P<die>[a-z0-9_:]+):(?P<cell>[A-G][1-7])",
):
    def __init__(
        self,
        game_id: int,
        round_: int,
        die: str,
        cell: str,
        turns: list[tuple[int, str]] | None = None,
    ):
        turns = turns or []
        super().__init__(
            discord.ui.Select(
                custom_id=f"ri:turn:{game_id}:{round_}:{die}:{cell}",
                placeholder="…with its route ends…",
                options=[
                    discord.SelectOption(label=words[:100], value=str(t)) for t, words in turns
                ]
                or [discord.SelectOption(label="(no orientation fits)", value="-")],
                disabled=not turns,
            )
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        async def act() -> None:
            game_id, die, cell = self.number("game"), self.fields["die"], self.fields["cell"]
            orientation = self.whole(self.choice(), "orientation")
            draft = await _draft(interaction, game_id, self.number("round"))
            if orientation not in {s["orientation"] for s in _legal(draft, die, cell)}:
                raise UserError(f"That orientation doesn't fit in {cell} now.")
            step: dict[str, Any] = {
                "step": "draw",
                "die": die,
                "cell": cell,
                "orientation": orientation,
            }
            if die.startswith("special:"):
                step.update(die="special", face=die.split(":", 1)[1])
            svc = bot_of(interaction).service
            draft = await svc.edit_draft(game_id, interaction.user.id, add=step)
            await answer.edit(interaction, **await refreshed(draft))

        await guarded(interaction, act)


def die_options(draft: DraftView) -> list[discord.SelectOption]:
    names = {
        die_value(s): label.split(" → ")[0]
        for (label, _), s in zip(
            [o for o in draft.next_options if '"step":"draw"' in o[1]], draws(draft), strict=True
        )
    }
    return [discord.SelectOption(label=label[:100], value=value) for value, label in names.items()][
        :25
    ]


def cell_view(draft: DraftView, die: str) -> discord.ui.View:
    cells = sorted({s["cell"] for s in _legal(draft, die)})
    view = discord.ui.View(timeout=None)
    for part, columns in enumerate(COLUMN_GROUPS):
        view.add_item(
            CellSelect(
                draft.table.row.id, draft.round, die, part, [c for c in cells if c[0] in columns]
            )
        )
    view.add_item(PlannerButton(draft.table.row.id, draft.round, "show"))
    view.add_item(BackButton(draft.table.row.id, draft.round))
    return view


def turn_view(draft: DraftView, die: str, cell: str) -> discord.ui.View:
    turns = sorted({s["orientation"] for s in _legal(draft, die, cell)})
    face = face_of(draft.table.state, die)
    labelled = [(t, turn_words(face, t)) for t in turns]
    view = discord.ui.View(timeout=None)
    view.add_item(TurnSelect(draft.table.row.id, draft.round, die, cell, labelled))
    view.add_item(BackButton(draft.table.row.id, draft.round))
    return view


async def _draft(interaction: discord.Interaction, game_id: int, round_: int) -> DraftView:
    svc = bot_of(interaction).service
    await svc.check_round(game_id, round_)
    return await svc.draft(game_id, interaction.user.id)


def railroad_planner_view(draft: DraftView) -> discord.ui.View:
    """Dice to draw (then cell, then orientation), the other steps, and the planner buttons."""
    view = discord.ui.View(timeout=None)
    view.add_item(DieSelect(draft.table.row.id, draft.round, die_options(draft)))
    others = [o for o in draft.next_options if '"step":"draw"' not in o[1]][:25]
    if others:
        prompt = "Light lamps or use a power die…"
        view.add_item(PlannerSelect(draft.table.row.id, draft.round, others, prompt))
    add_planner_buttons(view, draft)
    return view


class BackButton(
    Clicked,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"ri:back:(?P<game>\d+):(?P<round>\d+)",
):
    """Back from the cell or the orientation select to the whole planner."""

    def __init__(self, game_id: int, round_: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Back",
                style=discord.ButtonStyle.secondary,
                custom_id=f"ri:back:{game_id}:{round_}",
            )
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        async def act() -> None:
            draft = await _draft(interaction, self.number("game"), self.number("round"))
            await answer.edit(interaction, view=railroad_planner_view(draft))

        await guarded(interaction, act)


DYNAMIC_ITEMS = (DieSelect, CellSelect, TurnSelect, BackButton)
