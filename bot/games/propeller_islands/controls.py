"""Propeller Islands' "your turn" panel: exactly the legal decisions, as buttons and selects
grouped so no menu exceeds Discord's limits (25 options a select, 5 rows a message)."""

from typing import Any

import discord

from bot.games.propeller_islands.words import hex_words, tile_words
from bot.service.errors import UserError
from bot.service.service import TurnView
from bot.ui.turns import ActButton, ActSelect, PanelBack, PanelClick

BUTTONS = {
    "activate": "Activate buildings",
    "done": "Done",
    "end_turn": "End the turn",
    "keep": "Keep",
}
"""Decisions without a choice in them: one button each."""
KINDS = {
    "draft": "Draft a die",
    "adjust": "Change the die",
    "claim": "Claim a tile",
    "discard": "Discard a tile",
    "use": "Use a building",
    "deploy": "Deploy a worker",
    "complete": "Complete a blueprint",
    "reward": "Choose a dock reward",
    "place": "Place a tile",
    "depot": "Choose a depot",
    "choose": "Choose a resource",
    "install": "Install an upgrade",
    "take": "Take a blueprint",
    "keep_character": "Keep a character",
}
SELECT_ROWS = 4
"""Rows for selects; the fifth holds the buttons."""


def _tile_at(view: dict[str, Any], seat: int, at: list[int]) -> str:
    cell = next((c for c in view["seats"][seat]["island"] if c["at"] == list(at)), None)
    return f"{tile_words(cell['tile'])} at {hex_words(at)}" if cell else hex_words(at)


def label(action: dict[str, Any], view: dict[str, Any], seat: int) -> str:
    """A legal decision as a menu entry, in the words of the board."""
    kind = action["type"]
    if kind == "draft":
        return f"Draft a {action['value']}"
    if kind == "adjust":
        how = "free change" if action.get("free") else "pay 1 energy"
        return f"Change the die to {action['to']} ({how})"
    if kind == "claim":
        tile = tile_words(view["offer"][action["space"] - 1]["tile"])
        return f"Claim {tile} (space {action['space']}) at {hex_words(action['at'])}"
    if kind == "discard":
        tile = view["offer"][action["space"] - 1]
        return f"Discard {tile_words(tile['tile'])} (space {action['space']})"
    if kind == "use":
        option = f": {action['option'].replace('_', ' ')}" if action.get("option") else ""
        return f"Use {_tile_at(view, seat, action['tile'])}{option}"
    if kind == "deploy":
        row, column = action["from"]
        return (
            f"Deploy from dock row {row}, column {column} to {_tile_at(view, seat, action['to'])}"
        )
    if kind == "complete":
        return f"Complete blueprint {action['card']}"
    if kind == "reward":
        return f"Take the reward of dock line {action['line']}"
    if kind in ("place", "depot", "install"):
        where = action["at"] if kind == "place" else action["tile"]
        return f"{KINDS[kind].split()[0]} at {_tile_at(view, seat, where)}"
    if kind == "choose":
        return f"Choose {action['resource']}"
    if kind == "take":
        if action.get("card"):
            return f"Take blueprint {action['card']}"
        return f"Draw from the level {action['stack']} stack"
    if kind == "keep_character":
        return f"Keep {action['character']}"
    return BUTTONS.get(kind, kind)


def _groups(tv: TurnView) -> dict[str, list[dict[str, Any]]]:
    groups: dict[str, list[dict[str, Any]]] = {}
    for action in tv.legal:
        if action["type"] not in BUTTONS:
            groups.setdefault(action["type"], []).append(action)
    return groups


def _selects(tv: TurnView, kind: str, actions: list[dict[str, Any]], first_row: int) -> list:
    options = [(label(a, tv.view, tv.seat), a) for a in actions]
    chunks = [options[i : i + 25] for i in range(0, len(options), 25)]
    gid, turn = tv.table.row.id, tv.turn
    return [
        ActSelect(gid, turn, first_row + i, chunk, f"{KINDS.get(kind, kind)}…")
        for i, chunk in enumerate(chunks)
    ]


def panel(tv: TurnView) -> discord.ui.View:
    """Every legal decision: selects by kind (a kind select first when they would not fit)."""
    view = discord.ui.View(timeout=None)
    groups = _groups(tv)
    needed = sum(-(-len(a) // 25) for a in groups.values())
    if needed <= SELECT_ROWS:
        row = 0
        for kind, actions in groups.items():
            for select in _selects(tv, kind, actions, row):
                view.add_item(select)
                row += 1
    else:
        view.add_item(KindSelect(tv.table.row.id, tv.turn, list(groups)))
    _add_buttons(view, tv)
    return view


def _add_buttons(view: discord.ui.View, tv: TurnView) -> None:
    for action in tv.legal:
        if action["type"] in BUTTONS:
            style = discord.ButtonStyle.success if action["type"] == "end_turn" else None
            view.add_item(
                ActButton(
                    tv.table.row.id,
                    tv.turn,
                    action,
                    BUTTONS[action["type"]],
                    style or discord.ButtonStyle.secondary,
                    row=4,
                )
            )


class KindSelect(
    PanelClick,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"pi:kind:(?P<game>\d+):(?P<turn>\d+)",
):
    """When one menu per kind would not fit: the kind of decision first."""

    def __init__(self, game_id: int, turn: int, kinds: list[str] | None = None) -> None:
        options = [discord.SelectOption(label=KINDS.get(k, k), value=k) for k in kinds or []]
        super().__init__(
            discord.ui.Select(
                custom_id=f"pi:kind:{game_id}:{turn}",
                placeholder="What do you want to do?",
                options=options or [discord.SelectOption(label="(nothing)", value="-")],
                disabled=not options,
            )
        )

    async def clicked(self, interaction: discord.Interaction, tv: TurnView) -> None:
        kind = self.choice()
        actions = _groups(tv).get(kind)
        if not actions:
            raise UserError("You can't do that now.")
        view = discord.ui.View(timeout=None)
        for select in _selects(tv, kind, actions, 0)[:SELECT_ROWS]:
            view.add_item(select)
        view.add_item(PanelBack(tv.table.row.id, tv.turn))
        await interaction.response.edit_message(view=view)


DYNAMIC_ITEMS = (KindSelect,)
