"""Helpers every Discord piece shares: the service, refusals, moderators, links to games."""

import contextlib
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, cast

import discord

from bot.errors import answer_for, tell_privately
from bot.service.errors import UserError
from bot.service.service import Table

if TYPE_CHECKING:
    # Only for the annotation: bot.app imports the UI modules.
    from bot.app import GameBot


def bot_of(interaction: discord.Interaction) -> "GameBot":
    """The bot that received `interaction`, with its service and delivery: discord.py types
    `interaction.client` as any Client, and components cannot name their client type."""
    return cast("GameBot", interaction.client)


def moderates(interaction: discord.Interaction, guild_id: int | None) -> bool:
    """Whether the person acting is a moderator (Manage Channels) of server `guild_id`, the
    game's or tournament's own: rights held in one server count in no other, and none in DMs."""
    if guild_id is None or interaction.guild_id != guild_id:
        return False
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_channels)


async def guarded(interaction: discord.Interaction, act: Callable[[], Awaitable[None]]) -> None:
    """Run a component action; a refusal is told privately and changes nothing, and any other
    error is logged once and answered with its reference (discord.py would only log it)."""
    try:
        await act()
    except UserError as exc:
        await tell_privately(interaction, exc.message)
    except Exception as exc:
        # When even the answer fails (the interaction expired), the log line is all there is.
        with contextlib.suppress(discord.HTTPException):
            await tell_privately(interaction, answer_for(interaction, exc))


def said(text: str) -> str:
    """User-written text (a name) as it must show in a post: its markdown escaped, so
    "[free nitro](https://…)" reads as text and never as a disguised link."""
    return discord.utils.escape_markdown(text)


def said_names(table: Table) -> list[str]:
    """The seats' names for the words of a post (images draw the names as they are)."""
    return [said(s.name) for s in table.seats]


def link(table: Table) -> str:
    """The address of the channel or thread the game plays in."""
    return f"https://discord.com/channels/{table.row.guild_id or '@me'}/{table.row.where}"


def game_ref(table: Table) -> str:
    """The game's name as a link to where it plays: "[<Title> game #2](…)"."""
    return f"[{table.label}]({link(table)})"


async def made_anyway(interaction: discord.Interaction, table: Table, done: str) -> None:
    """A stored change whose answer Discord no longer takes (it came too late): the person is
    told by DM that it was made, rather than left to guess and try again."""
    with contextlib.suppress(discord.HTTPException):
        await interaction.user.send(
            f"{done} (in {game_ref(table)}: the answer came too late for Discord to show it, "
            "but it is stored; your panel is up to date.)"
        )
