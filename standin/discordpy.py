"""Point discord.py at a stand-in: the two documented assignments, restored afterwards."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import discord
import yarl

from standin.core import StandIn


@contextmanager
def point_discord_py(standin: StandIn) -> Iterator[None]:
    """Set ``Route.BASE`` and ``DEFAULT_GATEWAY`` to the stand-in for the ``with`` block."""
    old_base = discord.http.Route.BASE
    old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = standin.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(standin.gateway_url)
    try:
        yield
    finally:
        discord.http.Route.BASE = old_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway
