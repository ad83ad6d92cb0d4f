"""Answering an interaction within Discord's 3 seconds whatever the work behind it costs: a watch
acknowledges it when the budget runs out, and every answer goes through the helpers below, which
send the first response or, once the watch has acknowledged, its follow-up."""

import asyncio
import contextlib
import logging
from typing import Any

import discord

log = logging.getLogger(__name__)

BUDGET = 2.0
"""Seconds an interaction may go unanswered before the watch acknowledges it: Discord drops
one not acknowledged within 3 s, and the acknowledgement itself needs a round trip."""
_STATE = "answer"


class _State:
    """How an interaction has been answered so far (kept in its `extras`)."""

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        """One answer at a time: the watch and the handler never both respond."""
        self.loader: bool | None = None
        """A "thinking…" message waits for the answer: whether only the person sees it."""
        self.private = False
        """What the handler asked for when it deferred: a private answer."""
        self.answered = asyncio.Event()
        """Set by the first response, so the watch ends at once (a shutdown waits for it)."""


def _state(interaction: discord.Interaction) -> _State:
    state = interaction.extras.get(_STATE)
    if state is None:
        state = interaction.extras[_STATE] = _State()
    return state


async def watch(interaction: discord.Interaction, budget: float = BUDGET) -> None:
    """Acknowledge `interaction` if nothing has after `budget` seconds: a command shows a
    private "thinking…" (a public answer replaces it), a click or a form is deferred silently."""
    if interaction.type is discord.InteractionType.autocomplete:
        return  # Discord takes no deferral for choices: a late list is simply not shown.
    state = _state(interaction)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(state.answered.wait(), budget)
        return
    async with state.lock:
        if interaction.response.is_done() or interaction.is_expired():
            return
        try:
            if interaction.type is discord.InteractionType.application_command:
                await interaction.response.defer(thinking=True, ephemeral=True)
                state.loader = True
            else:
                await interaction.response.defer()
        except discord.HTTPException as exc:
            log.warning("interaction %s could not be held: %s", interaction.id, exc)
            return
    log.info(
        "interaction %s took over %.1f s: acknowledged, answered later", interaction.id, budget
    )


async def send(
    interaction: discord.Interaction,
    content: str | None = None,
    *,
    ephemeral: bool | None = None,
    **kwargs: Any,
) -> discord.Message | None:
    """Answer with a new message: the first response, or once acknowledged a follow-up (which
    replaces a "thinking…" of the same visibility). Private if `ephemeral`, or by default if the
    handler deferred privately. Returns the follow-up message (the first response has none)."""
    state = _state(interaction)
    async with state.lock:
        private = state.private if ephemeral is None else ephemeral
        if not interaction.response.is_done():
            await interaction.response.send_message(content, ephemeral=private, **kwargs)
            state.answered.set()
            return None
        if state.loader is not None and state.loader != private:
            # The watch held it privately and the answer is for everyone (or the reverse): the
            # follow-up would take the loader's visibility, so the loader goes.
            await interaction.delete_original_response()
        state.loader = None
        given = {k: v for k, v in kwargs.items() if v is not None}
        followup: Any = interaction.followup  # its overloads cannot type **given
        message: discord.Message = await followup.send(
            content, ephemeral=private, wait=True, **given
        )
        return message


async def edit(interaction: discord.Interaction, **kwargs: Any) -> None:
    """Answer by redrawing the message the interaction came from (or the one it answered)."""
    state = _state(interaction)
    async with state.lock:
        if interaction.response.is_done():
            state.loader = None
            await interaction.edit_original_response(**kwargs)
        else:
            await interaction.response.edit_message(**kwargs)
            state.answered.set()


async def defer(
    interaction: discord.Interaction, *, ephemeral: bool = False, thinking: bool = False
) -> None:
    """Acknowledge now and answer later with `send` (privately if `ephemeral`); if the watch
    already has, only the wish is kept."""
    state = _state(interaction)
    async with state.lock:
        state.private = ephemeral
        if interaction.response.is_done():
            return
        await interaction.response.defer(ephemeral=ephemeral, thinking=thinking)
        state.answered.set()
        if thinking or interaction.type is discord.InteractionType.application_command:
            state.loader = ephemeral
