"""Every interaction is acknowledged within Discord's 3 seconds however long its work takes: a
slow command shows "thinking…" and then its answer, private or public as it should be, and a
slow click redraws its message; nothing is answered twice."""

import asyncio
from typing import Any

import pytest

from bot.app import GameBot
from tests.bot.conftest import Scene
from tests.bot.helpers import answer, open_game

SLOW = 3.5
"""Longer than Discord's 3 s to acknowledge."""


def slowed(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> None:
    work = getattr(owner, name)

    async def slow(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(SLOW)
        return await work(*args, **kwargs)

    monkeypatch.setattr(owner, name, slow)


async def test_a_slow_private_command_is_held_and_then_answered_privately(
    scene: Scene, bot: GameBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    s = scene.server
    await open_game(s, bot, scene.ada, scene.channel)
    slowed(monkeypatch, bot.service, "games_of")
    it = await s.slash(scene.ada, s.dm_channel(scene.ada), "mygames")
    reply = await answer(it, timeout=SLOW + 5)
    assert it.response_type == 5, "held with thinking… before the 3 s ran out"
    assert "Powerline game #" in str(reply.embeds), reply
    assert not it.errors
    s.assert_clean()


async def test_a_slow_public_answer_stays_public(
    scene: Scene, bot: GameBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Opening a lobby is for everyone in the channel: the watch's private "thinking…" gives
    way to a public lobby, which the others can join."""
    s = scene.server
    slowed(monkeypatch, bot.service, "table_in")  # before the command's own deferral
    it = await s.slash(scene.ada, scene.channel, "powerline open")
    await it.response(timeout=3)
    await s.wait_for(lambda: it.followups, timeout=SLOW + 5)
    (lobby,) = it.followups
    assert not lobby.ephemeral and lobby.embeds and "Powerline game #" in lobby.embeds[0]["title"]
    assert it.response_message is not None and it.response_message.deleted
    assert not it.errors
    monkeypatch.undo()
    table = await bot.service.table_in(scene.channel.id)
    assert table is not None and table.row.lobby_message_id == lobby.id
    s.assert_clean()


async def test_a_slow_click_is_held_and_its_message_redrawn(
    scene: Scene, bot: GameBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    s = scene.server
    game = await open_game(s, bot, scene.ada, scene.channel)
    slowed(monkeypatch, bot.service, "join")
    it = await s.click(scene.ben, game.lobby, f"pl:lobby:{game.gid}:join")
    await it.response(timeout=3)
    assert it.response_type == 6, "deferred before the 3 s ran out"
    await s.wait_for(lambda: "Ben" in str(game.lobby.embeds), timeout=SLOW + 5)
    assert not it.errors
    s.assert_clean()
