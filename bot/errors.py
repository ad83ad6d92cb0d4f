"""One place that turns every app-command error (and a click's unexpected one) into a clear,
private reply."""

import logging
import secrets

import discord
from discord import app_commands

from bot.service.errors import UserError
from bot.store.backend import CommitUnknown
from bot.ui import answer

log = logging.getLogger(__name__)


UNREACHABLE = (
    "The games' database is not answering or not taking changes right now, so nothing was done"
    " (the bot's operator sees it in the log). Please try again in a minute."
)

UNSURE = (
    "The games' database went away just as your change was being saved, and could not tell in"
    " time whether it was kept. Please look in a minute (your plan, the game's board) before"
    " doing it again: a kept move or plan is confirmed by DM."
)


def message_for(error: app_commands.AppCommandError, passing: bool = False) -> str:
    """What the person is told; unexpected errors get a reference to find the log line, and a
    passing fault of the database (`passing`) says so."""
    original = getattr(error, "original", None)
    if isinstance(original, UserError):
        return original.message
    if passing:
        return unreachable(original or error)
    if isinstance(error, app_commands.NoPrivateMessage):
        return "That command only works in a server channel, not in DMs."
    if isinstance(error, app_commands.MissingPermissions):
        return "You need the " + ", ".join(error.missing_permissions) + " permission for that."
    if isinstance(error, app_commands.CommandOnCooldown):
        return f"Slow down: try again in {error.retry_after:.0f} s."
    if isinstance(error, app_commands.TransformerError):
        return f"“{quote(str(error.value))}” is not a valid {error.type.name.lower()} here."
    if isinstance(error, app_commands.CheckFailure):
        return "You can't use that command here."
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        return (
            "That command is out of date; Discord will refresh it shortly. Try again in a minute."
        )
    return unexpected(original or error)


def unexpected(error: BaseException) -> str:
    """Log an error nobody foresaw once, under a short reference; what the person is told."""
    ref = secrets.token_hex(3)
    log.error("unexpected error (ref %s)", ref, exc_info=error)
    return f"Something went wrong on our side (ref {ref}). Please try again in a moment."


def unreachable(error: BaseException) -> str:
    """A passing database fault: one line in the log (the outage is logged where it is seen)."""
    log.warning("a command met a passing database fault: %r", error)
    return UNSURE if isinstance(error, CommitUnknown) else UNREACHABLE


def answer_for(interaction: discord.Interaction, error: BaseException) -> str:
    """What a person is told of an error nobody foresaw while they acted."""
    service = getattr(interaction.client, "service", None)
    return unreachable(error) if service and service.transient(error) else unexpected(error)


def quote(text: str, limit: int = 60) -> str:
    """Someone's input as a refusal quotes it: cut, so a reply always fits."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def fit(text: str) -> str:
    """A reply within Discord's 2,000 characters."""
    return text if len(text) <= 2000 else text[:1999] + "…"


async def tell_privately(interaction: discord.Interaction, text: str) -> None:
    """Answer only the person who acted (a follow-up if the interaction is already answered)."""
    await answer.send(interaction, fit(text), ephemeral=True)


async def on_app_command_error(
    interaction: discord.Interaction, error: app_commands.AppCommandError
) -> None:
    original = getattr(error, "original", None)
    service = getattr(interaction.client, "service", None)
    passing = bool(original and service and service.transient(original))
    await tell_privately(interaction, message_for(error, passing))
