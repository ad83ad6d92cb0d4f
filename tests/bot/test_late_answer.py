"""A move or a plan stored after Discord's 3 seconds have run is still reported: the click can
no longer be answered, so the person is told by DM that it is stored."""

import asyncio
from typing import Any

from bot.app import GameBot
from tests.bot.conftest import Scene
from tests.bot.helpers import started_game, started_with_ai


async def test_a_move_answered_too_late_is_confirmed_by_dm(
    scene: Scene, bot: GameBot, monkeypatch: Any
) -> None:
    s, ada = scene.server, scene.ada
    game = await started_with_ai(s, bot, ada, scene.guild, "power_grid")
    real_act = bot.service.act

    async def slow_act(*args: Any, **kwargs: Any) -> Any:
        made = await real_act(*args, **kwargs)
        await asyncio.sleep(3.2)  # a database that took its time: the move is stored already
        return made

    monkeypatch.setattr(bot.service, "act", slow_act)

    def panel() -> Any:
        for message in reversed(s.dms(ada)):
            for c in message.iter_components():
                if c.get("custom_id", "").startswith(f"pl:act:{game.gid}:"):
                    return message, c
        return None

    message, select = await s.wait_for(panel, 15)
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
        await asyncio.sleep(3.2)
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
