"""How each shape of play shows on Discord: its status board and when it is posted. The engine
declares the shape (`Game.dynamics`); nothing else on the Discord side branches on it."""

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import discord

from bot.service.hosting import hosted
from bot.service.service import Service, Table
from bot.ui import planning, turns
from bot.ui.presenter import presenter
from engine.core import Dynamics


@dataclass(frozen=True, slots=True)
class Face:
    """The Discord side of a shape of play."""

    status: Callable[[Service, Table], Awaitable[discord.Embed]]
    """The game's one status board, as it stands."""
    status_with_moves: bool
    """Whether the board is redrawn with each move (turns), rather than with each plan
    submitted and at the end (rounds)."""
    needs: tuple[str, ...]
    """The parts of a game's plug-in (`Hosted`) and presenter that this shape of play uses."""
    tells_start: bool
    """Whether people not on turn at the start are told the game began (in rounds, every
    seat's planner tells them)."""
    how: str
    """How moves are taken back in this shape of play, for `/game rules`."""


async def _rounds_status(service: Service, table: Table) -> discord.Embed:
    return planning.status_embed(table, table.state)


async def _turns_status(service: Service, table: Table) -> discord.Embed:
    return turns.status_embed(table, await service.recent_moves(table.row.id))


FACES: dict[Dynamics, Face] = {
    "simultaneous": Face(
        _rounds_status,
        status_with_moves=False,
        needs=("planner", "round_lines", "roll", "round_image", "draft_board"),
        tells_start=False,
        how="**Changing your mind:** your plan is a draft until you submit it; change it freely "
        "until then.",
    ),
    "sequential": Face(
        _turns_status,
        status_with_moves=True,
        needs=("turns", "turn_panel"),
        tells_start=True,
        how="**Undo:** while you are still on turn, Undo on your panel (or `/game undo`) takes "
        "back your last move, one at a time. Never once another player has moved, a card or "
        "tile was drawn, dice rolled, or your turn has ended: the panel offers Undo only when "
        "it may.",
    ),
}


def face(table: Table) -> Face:
    return FACES[table.game.dynamics]


def missing(name: str) -> list[str]:
    """What the hosted game `name` lacks of the parts its shape of play uses (checked when the
    bot starts, so a plug-in without a turn panel fails by name, not with an empty panel)."""
    plugin, show = hosted()[name], presenter(name)
    needs = FACES[plugin.engine.dynamics].needs
    return [
        part
        for part in needs
        if getattr(plugin, part, None) is None and getattr(show, part, None) is None
    ]
