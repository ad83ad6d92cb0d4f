"""Bad input and unauthorised attempts: a clear private answer each time, and nothing changes."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.app import GameBot
from engine.powerline.board import layout
from tests.bot.conftest import Scene
from tests.bot.helpers import Game, answer, open_game, refusal, started_game


async def db_state(bot: GameBot) -> dict[str, list[tuple[Any, ...]]]:
    """Every row the game keeps (games, seats, drafts, actions, outbox)."""
    state = {}
    async with bot.service.repo.reading() as repo:
        for name in ("games", "seats", "drafts", "actions", "outbox"):
            rows = await repo.all(f"SELECT * FROM {name} ORDER BY rowid")
            state[name] = [tuple(row) for row in rows]
    return state


class Unchanged:
    """Remembers the database, the public posts and the lobby; checks they stay the same."""

    def __init__(self, game: Game) -> None:
        self.game = game

    async def __aenter__(self) -> Unchanged:
        await self.game.server.wait_for(self.game.outbox_empty)
        self.rows = await db_state(self.game.bot)
        self.public = self.public_posts()
        self.lobby = (self.game.lobby.content, self.game.lobby.embeds, len(self.game.lobby.edits))
        return self

    def public_posts(self) -> list[tuple[int, str, int]]:
        return [
            (m.id, m.content, len(m.edits))
            for m in self.game.server.messages(self.game.channel)
            if not m.ephemeral
        ]

    async def __aexit__(self, *exc: object) -> None:
        if exc[0] is not None:
            return
        await asyncio.sleep(0.1)  # a few ticks, in case anything was queued after all
        assert await db_state(self.game.bot) == self.rows
        assert self.public_posts() == self.public
        lobby = self.game.lobby
        assert (lobby.content, lobby.embeds, len(lobby.edits)) == self.lobby


async def test_lobby_refusals(scene: Scene, bot: GameBot) -> None:
    s, ada, ben, dan = scene.server, scene.ada, scene.ben, scene.dan
    game = await open_game(s, bot, ada, scene.channel)
    await game.lobby_action(ben, "join")
    async with Unchanged(game):
        for action, text in (
            ("start", "Only the host or a moderator can start the game."),
            ("ai", "Only the host or a moderator can add an AI player."),
            ("cancel", "Only the host or a moderator can cancel the game."),
            ("join", "You already have a seat in this game."),
        ):
            assert await refusal(game.click_lobby(ben, action), ben) == text
        assert await refusal(game.click_lobby(dan, "leave"), dan) == (
            "You don't have a seat in this game."
        )
        assert await refusal(game.click_lobby(ada, "leave"), ada) == (
            "The host can't leave the lobby; cancel the game instead."
        )
        assert await refusal(game.click_lobby(ada, "join"), ada) == (
            "You already have a seat in this game."
        )
        assert await refusal(s.slash(ben, scene.channel, "game cancel"), ben) == (
            "Only the host or a moderator can cancel the game."
        )
        assert await refusal(s.slash(dan, scene.channel, "powerline open"), dan) == (
            "A game is already open here; finish or cancel it first."
        )
        # Planning before the game has started.
        for who in (ada, ben):
            dm = s.dm_channel(who)
            assert await refusal(
                s.slash(who, dm, "powerline place", placement="red:L1:0:"), who
            ) == ("You are not in any running game.")
            assert await refusal(s.slash(who, dm, "powerline submit"), who) == (
                "You are not in any running game."
            )
    # A moderator may do what the host may.
    await game.lobby_action(scene.mo, "ai")
    assert [seat.name for seat in (await game.table()).seats] == ["Ada", "Ben", "AI 1"]


async def test_a_full_table_takes_nobody_else(scene: Scene, bot: GameBot) -> None:
    s, ada, ben, dan = scene.server, scene.ada, scene.ben, scene.dan
    game = await open_game(s, bot, ada, scene.channel, max_players=2)
    await game.lobby_action(ben, "join")
    assert "Seats (2/2)" in game.lobby.embeds[0]["fields"][0]["name"]
    async with Unchanged(game):
        assert await refusal(game.click_lobby(dan, "join"), dan) == "This game is full."
        assert await refusal(game.click_lobby(ada, "ai"), ada) == "This game is full."
    assert [seat.name for seat in (await game.table()).seats] == ["Ada", "Ben"]


async def test_planning_refusals(scene: Scene, bot: GameBot) -> None:
    s, ada, ben, chloe, out = scene.server, scene.ada, scene.ben, scene.chloe, scene.outsider
    game = await started_game(s, bot, scene.channel, ada, [ben, chloe])
    table = await game.table()
    dice = table.state.dice
    lay = layout(table.state.players[1].board)
    line, need = next(
        (name, lay.pips[i][0])
        for name, i in lay.line_index.items()
        if lay.pips[i][0] != dice["red"]
    )
    dm = s.dm_channel(ben)
    notice = game.plan_button(1)
    assert notice is not None
    async with Unchanged(game):

        async def place(value: str) -> str:
            return await refusal(s.slash(ben, dm, "powerline place", placement=value), ben)

        assert await place("garbage") == (
            "“garbage” is not a placement: pick one of the suggestions."
        )
        assert await place(f"red:{line}:0:") == (
            f"The red die shows {dice['red']}, segment 0 of {line} needs a {need}."
        )
        assert await place("yellow:island") == (
            "Start with the red or the black worker, not the yellow one."
        )
        assert await place("red:L99:0:") == "There is no line L99; the lines are L1 to L10."
        assert await place("red:L1:0:j:x") == (
            "“red:L1:0:j:x” is not a placement: pick one of the suggestions."
        )
        assert await refusal(s.slash(ben, dm, "powerline submit"), ben) == (
            "Place at least one worker."
        )
        assert await refusal(s.slash(ben, dm, "powerline undo"), ben) == (
            "Your draft is already empty."
        )
        assert await refusal(s.slash(ben, dm, "game reclaim", game=game.gid), ben) == (
            "Your seat is already yours."
        )
        assert await refusal(
            s.slash(ben, dm, "powerline place", placement="red:island", game=game.gid + 1), ben
        ) == (f"You have no seat in game #{game.gid + 1}.")
        # Someone not at the table.
        out_dm = s.dm_channel(out)
        assert await refusal(
            s.slash(out, out_dm, "powerline place", placement="red:island"), out
        ) == ("You are not in any running game.")
        assert await refusal(
            s.slash(out, scene.channel, "powerline place", placement="red:island"), out
        ) == ("You are not in any running game in this server.")
        assert await refusal(
            s.slash(out, out_dm, "powerline place", placement="red:island", game=game.gid), out
        ) == (f"You have no seat in game #{game.gid}.")
        assert await refusal(s.slash(out, out_dm, "powerline submit"), out) == (
            "You are not in any running game."
        )
        assert await refusal(s.slash(out, out_dm, "game reclaim", game=game.gid), out) == (
            f"You have no seat in game #{game.gid}."
        )
        assert await refusal(s.click(out, notice, f"pl:open:{game.gid}:1"), out) == (
            f"You don't have a seat in Powerline game #{game.gid}."
        )
        assert await refusal(s.slash(out, scene.channel, "game cancel"), out) == (
            "Only the host or a moderator can cancel the game."
        )
    assert (await game.table()).row.status == "active"


async def test_planners_from_an_older_round(scene: Scene, bot: GameBot) -> None:
    s, ada, ben, chloe = scene.server, scene.ada, scene.ben, scene.chloe
    game = await started_game(s, bot, scene.channel, ada, [ben, chloe])
    old_ada = await game.wait_dm_planner(ada, 1)
    await game.plan_with_select(ada, old_ada, 1)
    # Undo after submitting changes the draft, not the submitted plan; the select opens again.
    await game.click_planner(ada, old_ada, 1, "undo")
    submitted = (await game.table()).state.plans[0]
    draft = await bot.service.draft(game.gid, ada.id)
    assert submitted is not None and len(submitted.placements) == len(draft.steps) + 1
    await game.plan_with_select(ben, await game.wait_dm_planner(ben, 1), 1)
    old_chloe = await game.open_channel_planner(chloe, 1)
    await game.plan_with_select(chloe, old_chloe, 1)
    await game.wait_round_over(1)
    await game.wait_dm_planner(ada, 2)
    table = await game.table()
    assert table.state.last_round.seats[0].plan == submitted
    old_notice = game.plan_button(1)
    assert old_notice is not None
    expected = (
        f"This planner is from round 1; game #{game.gid} is in round 2 now. Use the newest planner."
    )
    async with Unchanged(game):
        for action in ("undo", "clear", "vacation", "show", "submit"):
            custom_id = f"pl:plan:{game.gid}:1:{action}"
            assert await refusal(s.click(ada, old_ada, custom_id), ada) == expected
        options = old_ada.component(custom_id=f"pl:pick:{game.gid}:1")["options"]
        pick = s.select(ada, old_ada, f"pl:pick:{game.gid}:1", [options[0]["value"]])
        assert await refusal(pick, ada) == expected
        assert await refusal(s.click(chloe, old_notice, f"pl:open:{game.gid}:1"), chloe) == expected
    assert (await game.table()).state.round == 2


async def test_double_click_on_submit_resolves_the_round_once(scene: Scene, bot: GameBot) -> None:
    s, ada, ben = scene.server, scene.ada, scene.ben
    game = await started_game(s, bot, scene.channel, ada, [ben])
    await game.plan_with_select(ada, await game.wait_dm_planner(ada, 1), 1)
    planner = await game.wait_dm_planner(ben, 1)
    await game.plan_with_select(ben, planner, 1, submit=False)
    custom_id = f"pl:plan:{game.gid}:1:submit"
    first = await s.click(ben, planner, custom_id)
    second = await s.click(ben, planner, custom_id)
    replies = [await answer(first), await answer(second)]
    await game.wait_round_over(1)
    assert planner.content == "✅ Plan submitted, and the round is resolving."
    edits = [r for r in replies if r is planner]
    refused = [r for r in replies if r is not planner]
    assert len(edits) == 1 and len(refused) == 1
    assert refused[0].ephemeral or refused[0].channel.is_dm
    assert len(game.summaries(1)) == 1
    table = await game.table()
    assert table.state.round == 2 and tuple(table.state.plans) == (None, None)
    async with bot.service.repo.reading() as repo:
        actions = await repo.actions(game.gid)
    assert [(seat, source) for seat, _, source in actions] == [
        (-1, "chance"),
        (0, "player"),
        (1, "player"),
        (-1, "chance"),
    ]
    # The late click belongs to round 1 and must be told so, not judged as a round-2 submit
    # (it gets "Place at least one worker." when it races the first click).
    assert "round 1" in refused[0].content, refused[0].content


async def test_planners_of_a_cancelled_game(scene: Scene, bot: GameBot) -> None:
    s, ada, ben = scene.server, scene.ada, scene.ben
    game = await started_game(s, bot, scene.channel, ada, [ben])
    planner = await game.wait_dm_planner(ben, 1)
    reply = await answer(s.slash(ada, scene.channel, "game cancel"))
    assert reply.content == f"✅ Powerline game #{game.gid} is cancelled." and not reply.ephemeral
    await s.wait_for(lambda: game.channel_messages(f"Powerline game #{game.gid} was cancelled by"))
    assert game.channel_messages(f"Powerline game #{game.gid} was cancelled by")[0].content == (
        f"Powerline game #{game.gid} was cancelled by {ada.mention}."
    )
    assert (await game.table()).row.status == "abandoned"
    async with Unchanged(game):
        assert await refusal(s.click(ben, planner, f"pl:plan:{game.gid}:1:vacation"), ben) == (
            f"Game #{game.gid} is over; this planner no longer applies."
        )
        assert await refusal(
            s.slash(ben, s.dm_channel(ben), "powerline place", placement="red:island"), ben
        ) == ("You are not in any running game.")
        assert await refusal(s.slash(ada, scene.channel, "game cancel"), ada) == (
            "There is no open game in this channel."
        )


async def test_two_running_games_need_the_game_option(scene: Scene, bot: GameBot) -> None:
    s, ada, ben = scene.server, scene.ada, scene.ben
    first = await started_game(s, bot, scene.channel, ada, [ben])
    second = await started_game(s, bot, scene.other_channel, ben, [ada])
    dm = s.dm_channel(ada)
    async with Unchanged(first), Unchanged(second):
        assert await refusal(s.slash(ada, dm, "powerline submit"), ada) == (
            f"You are in several games (#{first.gid}, #{second.gid}): "
            "choose one with the `game` option."
        )
    keys, _ = await second.suggested(ada)
    reply = await answer(s.slash(ada, dm, "powerline place", placement=keys[0], game=second.gid))
    assert reply.content.startswith(f"**Powerline game #{second.gid}, round 1: your plan**\n1. ")
    assert (await bot.service.draft(first.gid, ada.id)).steps == []
    assert len((await bot.service.draft(second.gid, ada.id)).steps) == 1
