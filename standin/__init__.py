"""A loopback stand-in for Discord (REST + gateway) to test the real discord.py client offline.

Typical use, with the bot and the stand-in sharing one event loop::

    async with StandIn("token") as discord_:
        guild = discord_.add_guild("Games")
        channel = discord_.add_channel(guild, "lobby")
        alice = discord_.add_user("alice", guilds=[guild])
        with point_discord_py(discord_):
            bot = MyBot(...)  # any discord.Client; guild_ready_timeout=0.05 keeps start-up fast
            await bot.login("token")
            task = asyncio.create_task(bot.connect())
            await bot.wait_until_ready()
            reply = await (await discord_.slash(alice, channel, "game start", players=3)).response()
            await bot.close()
            await task
        discord_.assert_clean()
"""

from standin.core import StandIn
from standin.discordpy import point_discord_py
from standin.errors import (
    ApiError,
    CommandMismatch,
    DriverError,
    ErrorRecord,
    NotAcknowledged,
)
from standin.model import (
    Attachment,
    Channel,
    Guild,
    Interaction,
    Member,
    Message,
    Role,
    User,
)

__all__ = [
    "ApiError",
    "Attachment",
    "Channel",
    "CommandMismatch",
    "DriverError",
    "ErrorRecord",
    "Guild",
    "Interaction",
    "Member",
    "Message",
    "NotAcknowledged",
    "Role",
    "StandIn",
    "User",
    "point_discord_py",
]
