"""A game is answered only in its own server, or in DMs to the people seated at it; host and
moderator powers follow the seats and the server. Through the stand-in, with a second server."""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass

import discord
import pytest
from discord import app_commands

from bot.app import GameBot
from bot.service.hosting import hosted
from standin import Channel, Guild, User
from tests.bot.conftest import Scene
from tests.bot.helpers import (
    answer,
    open_game,
    refusal,
    started_game,
    started_with_ai,
)
from tests.bot.test_refusals import Unchanged


@dataclass
class Elsewhere:
    """A second server: Ada is a member of it too; Boss moderates it and nothing else."""

    guild: Guild
    channel: Channel
    boss: User


@pytest.fixture
def elsewhere(scene: Scene, bot: GameBot) -> Elsewhere:
    s = scene.server
    guild = s.add_guild("Elsewhere")
    channel = s.add_channel(guild, "games")
    boss = s.add_user("Boss", manage_channels=True, guilds=[guild])
    s.join(scene.ada, guild)
    return Elsewhere(guild, channel, boss)


def nowhere(gid: int) -> str:
    return f"There is no game #{gid} in this server."


def no_seat(gid: int) -> str:
    return f"You have no seat in game #{gid}."


def naming_a_game(bot: GameBot) -> list[app_commands.Command]:
    """Every slash command with a `game` number option."""
    found = []
    for command in bot.tree.walk_commands():
        if isinstance(command, app_commands.Command):
            game = command.get_parameter("game")
            if game is not None and game.type is discord.AppCommandOptionType.integer:
                found.append(command)
    return found


def kind_of(command: app_commands.Command) -> str | None:
    """The hosted game a game's own command belongs to; None for the shared ones."""
    groups = {plugin.command: name for name, plugin in hosted().items()}
    return groups.get(command.qualified_name.split()[0])


def only_game_needed(command: app_commands.Command) -> bool:
    return all(not p.required for p in command.parameters if p.name != "game")


async def test_a_game_is_answered_in_its_own_server_and_in_dms_only_to_its_players(
    scene: Scene, bot: GameBot, elsewhere: Elsewhere
) -> None:
    s, ada, out, there = scene.server, scene.ada, scene.outsider, elsewhere.channel
    games = {
        name: await started_with_ai(scene.server, bot, scene.ada, scene.guild, name)
        for name in hosted()
    }
    ids = sorted(g.gid for g in games.values())
    commands = naming_a_game(bot)
    assert {kind_of(c) for c in commands} == {None, *hosted()}, "every game's commands are here"
    missing = max(ids) + 1
    async with contextlib.AsyncExitStack() as stack:
        for game in games.values():
            await stack.enter_async_context(Unchanged(game))
        for command in commands:
            name = command.qualified_name
            gid = games[kind_of(command) or next(iter(hosted()))].gid
            if only_game_needed(command):
                said = await refusal(s.slash(ada, there, name, game=gid), ada)
                assert said == nowhere(gid), name
            if command.get_parameter("game").autocomplete:
                offered = await s.autocomplete(ada, there, name, focused="game")
                assert offered == [], name
                kind = kind_of(command)
                mine = [g.gid for n, g in games.items() if kind in (None, n)]
                for where in (scene.channel, s.dm_channel(ada)):
                    offered = await s.autocomplete(ada, where, name, focused="game")
                    assert [c["value"] for c in offered] == sorted(mine), name
        # A game that does not exist gets the same words: nothing tells the two apart.
        said = await refusal(s.slash(ada, there, "game status", game=missing), ada)
        assert said == nowhere(missing)
        gid = ids[0]
        assert await refusal(s.slash(ada, there, "result", game_id=gid), ada) == nowhere(gid)
        assert await refusal(s.slash(ada, there, "game status"), ada) == (
            "You are not in any running game in this server."
        )
        # Her own seats, shown to her alone: every server's, wherever she asks.
        listed = await answer(s.slash(ada, there, "mygames"))
        assert listed.ephemeral and listed.visible_to is ada
        assert all(f"game #{g}]" in listed.embeds[0]["description"] for g in ids)
        dm = s.dm_channel(out)
        for name in ("game status", "game board", "game log", "game reclaim"):
            assert await refusal(s.slash(out, dm, name, game=gid), out) == no_seat(gid), name
        assert await refusal(s.slash(out, dm, "result", game_id=gid), out) == no_seat(gid)
    # Where the game plays, and in the DMs of a player, it is answered.
    table = await bot.service.table(gid)
    for where in (scene.channel, s.dm_channel(ada)):
        status = await answer(s.slash(ada, where, "game status", game=gid))
        assert status.embeds[0]["title"].startswith(table.label)
        log = await answer(s.slash(ada, where, "game log", game=gid))
        assert json.loads(s.attachment_bytes(log.attachments[0]))["id"] == gid
    board = await answer(s.slash(ada, s.dm_channel(ada), "game board", game=gid))
    assert board.content.startswith(f"Ada's board in {table.label}")
    mine = await answer(s.slash(ada, s.dm_channel(ada), "mygames"))
    assert all(f"game #{g}]" in mine.embeds[0]["description"] for g in ids)


async def test_a_finished_games_result_and_rematch(
    scene: Scene, bot: GameBot, elsewhere: Elsewhere
) -> None:
    s, ada, ben, dan, out = scene.server, scene.ada, scene.ben, scene.dan, scene.outsider
    game = await started_game(s, bot, scene.channel, ada, [ben, dan])
    label = f"Powerline game #{game.gid}"
    kicked = await answer(s.slash(ada, scene.channel, "game kick", player=ben))
    assert kicked.content == "✅ Ben's seat is now played by the AI."
    # Ada and Dan hand their seats to the AI and keep them; the AI plays the game to its end.
    for person in (ada, dan):
        await answer(s.slash(person, scene.channel, "game replace", player=person))
    over = await s.wait_for(lambda: game.channel_messages("**Game over!**"), 60)
    async with Unchanged(game):
        assert await refusal(s.click(ben, over[0], f"pl:rematch:{game.gid}"), ben) == (
            f"You left {label} (or were removed from it): its rematch is for those who finished "
            "it in their seats."
        )
        said = await refusal(s.slash(ada, elsewhere.channel, "result", game_id=game.gid), ada)
        assert said == nowhere(game.gid)
        said = await refusal(s.slash(out, s.dm_channel(out), "result", game_id=game.gid), out)
        assert said == no_seat(game.gid)
    assert await bot.service.table_in(scene.channel.id) is None
    # Whoever played it, even kicked, may see its result in DMs.
    for person in (ada, ben):
        card = await answer(s.slash(person, s.dm_channel(person), "result", game_id=game.gid))
        assert card.content == f"{label}: finished" and card.attachments
    await answer(s.click(dan, over[0], f"pl:rematch:{game.gid}"))
    fresh = await bot.service.table_in(scene.channel.id)
    assert fresh is not None and fresh.row.host_id == dan.id
    assert [seat.name for seat in fresh.seats] == ["Dan", "Ada"]


async def test_a_host_who_left_has_no_host_powers_but_moderators_keep_theirs(
    scene: Scene, bot: GameBot
) -> None:
    s, ada, ben = scene.server, scene.ada, scene.ben
    game = await started_game(s, bot, scene.channel, ada, [ben, scene.dan])
    await answer(s.slash(ada, s.dm_channel(ada), "game leave", game=game.gid))
    gone = f"You no longer play your seat in Powerline game #{game.gid}, so you are not its host "
    async with Unchanged(game):
        for command, options, what in (
            ("game kick", {"player": ben}, "hand a seat to the AI"),
            ("game replace", {"player": ben}, "hand a seat to the AI"),
            ("game deadline", {"deadline": "1 hour"}, "change the deadline"),
            ("game cancel", {}, "cancel the game"),
        ):
            said = await refusal(s.slash(ada, scene.channel, command, **options), ada)
            assert said == gone + f"any more: only a moderator can {what}.", command
    done = await answer(s.slash(scene.mo, scene.channel, "game kick", player=ben))
    assert done.content == "✅ Ben's seat is now played by the AI."
    assert (await game.table()).seats[1].left_game


async def test_another_servers_moderator_cannot_start_or_cancel_a_lobby(
    scene: Scene, bot: GameBot, elsewhere: Elsewhere
) -> None:
    s, ada, boss = scene.server, scene.ada, elsewhere.boss
    game = await open_game(s, bot, ada, scene.channel)
    await game.lobby_action(scene.ben, "join")
    # Boss's own lobby there: the forged ids ride on its buttons, as a tampered client sends them.
    theirs = await open_game(s, bot, boss, elsewhere.channel)
    edits = len(theirs.lobby.edits)
    async with Unchanged(game):
        for person in (boss, ada):
            for action in ("start", "cancel", "join"):
                forged = s.forge_component(person, theirs.lobby, f"pl:lobby:{game.gid}:{action}")
                assert await refusal(forged, person) == nowhere(game.gid), (person, action)
            forged = s.forge_component(
                person, theirs.lobby, f"pl:lobby-ai:{game.gid}", values=["strong"], component_type=3
            )
            assert await refusal(forged, person) == nowhere(game.gid), person
    assert len(theirs.lobby.edits) == edits
    assert (await game.table()).row.status == "lobby"
    # In its own server a moderator still may.
    await game.lobby_action(scene.mo, "start")
    assert (await game.table()).row.status == "active"
