"""AI levels: the host picks each AI seat's level in the lobby's menu; the seat thinks at that
level within its budget; `/game rules` says how strong each level is."""

from typing import Any

from bot.app import GameBot
from bot.service.hosting import hosted
from bot.service.loop import THINK_SECONDS
from tests.bot.conftest import Scene
from tests.bot.helpers import answer, open_game, refusal


async def test_the_host_seats_ai_players_at_chosen_levels(scene: Scene, bot: GameBot) -> None:
    s, ada, ben = scene.server, scene.ada, scene.ben
    game = await open_game(s, bot, ada, scene.channel)
    levels = hosted()["powerline"].levels
    menu = next(
        c for c in game.lobby.iter_components() if c.get("custom_id") == f"pl:lobby-ai:{game.gid}"
    )
    assert [(o["label"], o["value"]) for o in menu["options"]] == [
        ("Casual AI", "casual"),
        ("Standard AI", "standard"),
        ("Strong AI", "strong"),
    ]
    assert [o["description"] for o in menu["options"]] == [
        levels[level][:100] for level in ("casual", "standard", "strong")
    ]
    await game.lobby_action(ben, "join")
    assert await refusal(game.click_lobby(ben, "ai:strong"), ben) == (
        "Only the host or a moderator can add an AI player."
    )
    await game.lobby_action(ada, "ai:strong")
    await game.lobby_action(ada, "ai:casual")
    seats = game.lobby.embeds[0]["fields"][0]["value"]
    assert "3. AI 1 (strong AI)" in seats and "4. AI 2 (casual AI)" in seats, seats

    thought: list[tuple[int, Any, Any]] = []
    offload = bot.service.offload

    async def recording(fn: Any, *args: Any) -> Any:
        thought.append((args[1], fn.keywords["level"], fn.keywords["budget"]))
        return await offload(fn, *args)

    bot.service.offload = recording
    await game.lobby_action(ada, "start")
    await s.wait_for(game.outbox_empty)
    # Round 1: each AI seat planned once, at its own level and within that level's budget.
    assert sorted(thought) == [
        (2, "strong", THINK_SECONDS["strong"]),
        (3, "casual", THINK_SECONDS["casual"]),
    ]
    table = await game.table()
    assert [s.ai_level for s in table.seats] == [None, None, "strong", "casual"]


async def test_the_rules_say_how_strong_each_level_is(scene: Scene, bot: GameBot) -> None:
    s, ada = scene.server, scene.ada
    for name, plug in hosted().items():
        assert set(plug.levels) == {"casual", "standard", "strong"}, name
        rules = await answer(s.slash(ada, scene.channel, "game rules", game=name))
        ai = rules.embeds[0]
        assert ai["title"] == "AI players"
        lines = ai["description"].split("\n")
        assert lines == [
            f"**{word}**: {plug.levels[level]}"  # type: ignore[index]
            for word, level in (
                ("Casual", "casual"),
                ("Standard", "standard"),
                ("Strong", "strong"),
            )
        ], name
