"""A move or a plan stored but never answered is still reported: when the bot's process froze
past Discord's 3 seconds (so not even the watch could acknowledge it), or when the process died
between the commit and the answer, the person is told by DM that it is stored."""

import asyncio
import time
from typing import Any

from bot.app import GameBot
from bot.service.clock import ManualClock
from tests.bot.conftest import Bots, Scene
from tests.bot.helpers import started_game, started_with_ai


async def test_a_move_answered_too_late_is_confirmed_by_dm(
    scene: Scene, bot: GameBot, monkeypatch: Any
) -> None:
    s, ada = scene.server, scene.ada
    game = await started_with_ai(s, bot, ada, scene.guild, "power_grid")
    real_act = bot.service.act

    async def slow_act(*args: Any, **kwargs: Any) -> Any:
        made = await real_act(*args, **kwargs)
        time.sleep(3.2)  # the process froze after storing the move: nothing could answer
        return made

    monkeypatch.setattr(bot.service, "act", slow_act)

    message, select = await s.wait_for(lambda: _panel(s, ada, game.gid), 15)
    count = await bot.service.action_count(game.gid)
    await s.select(ada, message, select["custom_id"], [select["options"][0]["value"]])
    told = await s.wait_for(
        lambda: [m for m in s.dms(ada) if "the answer came too late" in m.content], 15
    )
    assert told[0].content.startswith("✅ You ")
    assert await bot.service.action_count(game.gid) > count, "the move is stored"
    # The late answer Discord refused (10062 Unknown interaction) is this test's doing.
    late = [e for e in s.errors if e.code == 10062]
    assert late, "the click's answer was refused as too late"
    s.assert_clean(allow=[10062])
    s.errors[:] = [e for e in s.errors if e.code != 10062]


async def test_a_plan_submitted_too_late_to_answer_is_confirmed_by_dm(
    scene: Scene, bot: GameBot, monkeypatch: Any
) -> None:
    s, ada, ben = scene.server, scene.ada, scene.ben
    game = await started_game(s, bot, scene.channel, ada, [ben])
    planner = await game.wait_dm_planner(ada, 1)
    await game.plan_with_select(ada, planner, 1, submit=False)
    real_submit = bot.service.submit

    async def slow_submit(*args: Any, **kwargs: Any) -> Any:
        done = await real_submit(*args, **kwargs)
        time.sleep(3.2)
        return done

    monkeypatch.setattr(bot.service, "submit", slow_submit)
    await s.click(ada, planner, f"pl:plan:{game.gid}:1:submit")
    told = await s.wait_for(
        lambda: [m for m in s.dms(ada) if "the answer came too late" in m.content], 15
    )
    assert told[0].content.startswith("✅ Your plan for round 1 is in.")
    assert (await bot.service.draft(game.gid, ada.id)).submitted
    s.assert_clean(allow=[10062])
    s.errors[:] = [e for e in s.errors if e.code != 10062]


async def test_a_move_whose_process_died_before_answering_is_confirmed_by_dm(
    scene: Scene, bots: Bots, clock: ManualClock, monkeypatch: Any
) -> None:
    """The click's task ends right after the commit, as in a kill: the answer it owed becomes a
    DM half a minute later, from the tick (of any process, after a restart)."""
    s, ada = scene.server, scene.ada
    bot = await bots.start(clock=clock)
    game = await started_with_ai(s, bot, ada, scene.guild, "power_grid")
    real_act = bot.service.act

    async def dies(*args: Any, **kwargs: Any) -> Any:
        await real_act(*args, **kwargs)
        raise asyncio.CancelledError  # the process is gone before it answers

    monkeypatch.setattr(bot.service, "act", dies)
    message, select = await s.wait_for(lambda: _panel(s, ada, game.gid), 15)
    count = await bot.service.action_count(game.gid)
    await s.select(ada, message, select["custom_id"], [select["options"][0]["value"]])
    await s.wait_for(lambda: _stored(bot, game.gid, count), 15)
    monkeypatch.undo()
    clock.advance(seconds=20)
    await asyncio.sleep(0.5)
    assert not [m for m in s.dms(ada) if "could not answer you" in m.content], "not yet"
    clock.advance(seconds=15)
    (told,) = await s.wait_for(
        lambda: [m for m in s.dms(ada) if "could not answer you" in m.content], 15
    )
    assert told.content.startswith("✅ You ") and f"game #{game.gid}]" in told.content
    clock.advance(seconds=60)
    await asyncio.sleep(0.5)
    assert len([m for m in s.dms(ada) if "could not answer you" in m.content]) == 1


async def test_an_answered_move_owes_no_dm(scene: Scene, bots: Bots, clock: ManualClock) -> None:
    s, ada = scene.server, scene.ada
    bot = await bots.start(clock=clock)
    game = await started_with_ai(s, bot, ada, scene.guild, "power_grid")
    message, select = await s.wait_for(lambda: _panel(s, ada, game.gid), 15)
    it = await s.select(ada, message, select["custom_id"], [select["options"][0]["value"]])
    await it.response(5)
    await s.wait_for(lambda: _none_owed(bot), 5)
    clock.advance(minutes=2)
    await asyncio.sleep(0.5)
    assert not [m for m in s.dms(ada) if "could not answer you" in m.content]


def _panel(s: Any, person: Any, gid: int) -> Any:
    for message in reversed(s.dms(person)):
        for c in message.iter_components():
            if c.get("custom_id", "").startswith(f"pl:act:{gid}:"):
                return message, c
    return None


async def _stored(bot: GameBot, gid: int, before: int) -> bool:
    return await bot.service.action_count(gid) > before


async def _none_owed(bot: GameBot) -> bool:
    async with bot.service.repo.reading() as repo:
        return not await repo.all("SELECT 1 FROM owed_replies")
