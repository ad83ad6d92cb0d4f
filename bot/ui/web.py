"""Links from Discord to the web companion: a link button on the posts that show a game."""

from collections.abc import Callable

import discord

Pages = Callable[[int], str]
"""A game's web page by its id."""


def with_page(view: discord.ui.View | None, url: str | None) -> discord.ui.View | None:
    """`view` (or a new one) with a "View on the web" link button; unchanged without a page."""
    if url is None:
        return view
    view = view or discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="View on the web", url=url, emoji="🌐"))
    return view
