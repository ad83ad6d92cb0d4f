"""The animated recap of a finished game, drawn in the drawing workers."""

import asyncio
import io

import discord

from bot.service.service import Service, Table
from bot.ui.presenter import presenter, recap_frame
from bot.workers import draw
from render.recap import animate


async def recap_file(service: Service, game_id: int) -> tuple[Table, discord.File]:
    """The game round by round as one animation (GIF or APNG, the smaller), its end last."""
    table, views = await service.recap_views(game_id)
    names = [s.name for s in table.seats]
    frame = recap_frame(presenter(table.row.game))
    frames = await asyncio.gather(*(draw(frame, view, names) for _, view in views))
    data, ext = await draw(animate, table.label, [caption for caption, _ in views], list(frames))
    return table, discord.File(io.BytesIO(data), filename=f"recap.{ext}")
