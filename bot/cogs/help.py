"""`/help`: a quick start, the games this bot hosts, and every command by who uses it."""

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import GameBot
from bot.service.hosting import hosted
from bot.ui import answer

ROLES = {"player": "Players", "host": "Hosts (or moderators)", "moderator": "Moderators"}
"""Who a command is for: `extras={"role": …}` on the command; players' by default."""


def quick_start() -> str:
    games = list(hosted().values())
    opens = " or ".join(f"`/{g.command} open`" for g in games)
    return "\n".join(
        [
            f"1. **Open** a game in a channel: {opens}.",
            "2. **Join** with the lobby's Join button (the host may seat AI players, casual to "
            "strong, from its menu).",
            "3. The host clicks **Start**.",
            "4. **Plan** (or play your turn) in your DMs with the planner or panel there, or the "
            "game's own commands; `/mygames` shows every game you sit at.",
            "5. **Your time**: `/settings` sets your time zone, quiet hours, a heads-up before "
            "your turn and a daily digest; `/vacation take` stops your clocks while you are away.",
        ]
    )


def _entries(command: app_commands.Command | app_commands.Group) -> list[tuple[str, str, str]]:
    """(role, usage, description) of a command or of each subcommand of a group."""
    if isinstance(command, app_commands.Group):
        return [
            (sub.extras.get("role", "player"), f"/{command.name} {sub.name}", sub.description)
            for sub in command.commands
        ]
    return [(command.extras.get("role", "player"), f"/{command.name}", command.description)]


def sections(tree: app_commands.CommandTree) -> list[tuple[str, str]]:
    """(title, text) per group of commands: shared ones first, then one per hosted game."""
    own = {g.command: g.title for g in hosted().values()}
    shared: list[tuple[str, str, str]] = []
    per_game: dict[str, list[tuple[str, str, str]]] = {}
    slash = tree.get_commands(type=discord.AppCommandType.chat_input)
    for command in sorted(slash, key=lambda c: c.name):
        if command.name in own:
            per_game[own[command.name]] = _entries(command)
        else:
            shared += _entries(command)
    out = [("Every game", _by_role(shared))]
    out += [(title, _by_role(entries)) for title, entries in per_game.items()]
    return out


def _by_role(entries: list[tuple[str, str, str]]) -> str:
    lines = []
    for role, heading in ROLES.items():
        mine = [f"`{usage}` — {text}" for r, usage, text in entries if r == role]
        if mine:
            lines += [f"__{heading}__", *mine]
    return "\n".join(lines)


class Help(commands.Cog):
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="What this bot can do: its games and commands")
    async def help(self, interaction: discord.Interaction) -> None:
        games = "\n".join(f"• **{g.title}** — {g.engine.summary}" for g in hosted().values())
        first = discord.Embed(
            title="Board games in your channels",
            description=f"**Quick start**\n{quick_start()}\n\n**Games**\n{games}",
            colour=0xE69F00,
        )
        embeds = [first] + [
            discord.Embed(title=title, description=text, colour=0xE69F00)
            for title, text in sections(self.bot.tree)
        ]
        await answer.send(interaction, embeds=embeds, ephemeral=True)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Help(bot))
