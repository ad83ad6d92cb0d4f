"""The shared `/game …` commands, `/mygames`, `/help`, results and rematches, for every game."""

from bot.app import GameBot
from bot.sandbox import press_lobby
from bot.service.hosting import hosted
from tests.bot.conftest import Scene
from tests.bot.helpers import (
    answer,
    png_attachment,
    refusal,
    respond,
    started_game,
    started_with_ai,
)


async def _railroad_table(scene: Scene, bot: GameBot) -> int:
    s, ada, ben = scene.server, scene.ada, scene.ben
    lobby = await answer(
        s.slash(ada, scene.channel, "railroad open", street_lamps=True, power_grid=True)
    )
    options = lobby.embeds[0]["fields"][1]["value"]
    assert "Electricity dice: Power Grid and Street Lamps" in options
    assert "Rounds: 6" in options and "Variants" not in options
    assert "Vacation tile" not in options, "a Powerline option, not this game's"
    gid = (await bot.service.table_in(scene.channel.id)).row.id
    for person, action in ((ben, "join"), (ada, "ai"), (ada, "start")):
        await respond(press_lobby(s, person, lobby, gid, action))
    await s.wait_for(
        lambda: [m for m in s.messages(scene.channel) if "**Round 1 of 6**" in m.content]
    )
    return gid


async def test_railroad_ink_at_the_shared_table(scene: Scene, bot: GameBot) -> None:
    s, ada, ben, outsider = scene.server, scene.ada, scene.ben, scene.outsider
    gid = await _railroad_table(scene, bot)
    label = f"Railroad Ink game #{gid}"

    status = await answer(s.slash(outsider, scene.channel, "game status"))
    assert status.embeds[0]["title"] == f"{label} · round 1"
    assert "0 points" in status.embeds[0]["fields"][1]["value"]
    png_attachment(s, status, "status.png")

    board = await answer(s.slash(ada, scene.channel, "game board", player=ben))
    assert board.content == f"Ben's board in {label}, round 1." and board.ephemeral
    png_attachment(s, board, "board-2.png")
    spectator = await answer(s.slash(outsider, scene.channel, "game board", player=ada))
    png_attachment(s, spectator, "board-1.png")
    assert await refusal(s.slash(ada, scene.channel, "game board", player=outsider), ada) == (
        f"Outsider has no seat in {label}."
    )

    rules = await answer(s.slash(ada, scene.channel, "game rules"))
    assert rules.content.startswith("**Railroad Ink in one minute**")
    mine = await answer(s.slash(ada, s.dm_channel(ada), "mygames"))
    line = mine.embeds[0]["description"]
    link = f"https://discord.com/channels/{scene.guild.id}/{scene.channel.id}"
    assert f"[{label}]({link})" in line and "round 1" in line and "**your move**" in line

    assert await refusal(s.slash(ben, scene.channel, "game deadline", deadline="1 hour"), ben) == (
        "Only the host or a moderator can change the deadline."
    )
    done = await answer(s.slash(ada, scene.channel, "game deadline", deadline="1 hour"))
    assert done.content == f"✅ {label}: rounds now last 1 hour."
    table = await bot.service.table(gid)
    assert table.row.options["deadline_minutes"] == 60
    await s.wait_for(
        lambda: [m for m in s.messages(scene.channel) if "1 hour: round 1" in m.content]
    )

    # Ben leaves and Ada hands her seat to the AI (she keeps it): the AI plays both to the end.
    reply = await answer(s.slash(ben, s.dm_channel(ben), "game leave", game=gid))
    assert reply.content == f"✅ You left {label}; the AI plays your seat."
    reply = await answer(s.slash(ada, scene.channel, "game replace", player=ada))
    assert reply.content == "✅ Ada's seat is now played by the AI."
    await s.wait_for(
        lambda: [m for m in s.messages(scene.channel) if "**Game over!**" in m.content]
    )
    over = next(m for m in s.messages(scene.channel) if "**Game over!**" in m.content)
    assert " points" in over.content and " VP" not in over.content

    card = await answer(s.slash(ben, scene.channel, "result", game_id=gid))
    assert card.content == f"{label}: finished"
    results = png_attachment(s, card, "result-" + str(gid) + ".png")
    assert results.width >= 1000

    # The rematch: a new lobby here with the same seats (the people who left are out) and options,
    # started by someone who kept their seat.
    lobby = await answer(s.click(ada, over, f"pl:rematch:{gid}"))
    fresh = await bot.service.table_in(scene.channel.id)
    assert fresh.row.id != gid and fresh.row.status == "lobby"
    assert fresh.row.config["expansions"] == ["power_grid", "street_lamps"]
    assert [(x.name, x.is_ai) for x in fresh.seats] == [("Ada", False), ("AI 1", True)]
    assert lobby.embeds[0]["title"] == f"Railroad Ink game #{fresh.row.id}"
    assert await refusal(s.click(scene.chloe, over, f"pl:rematch:{gid}"), scene.chloe) == (
        f"Only the players of {label} can start its rematch."
    )


async def test_help_starts_with_a_quick_start_and_groups_commands(
    scene: Scene, bot: GameBot
) -> None:
    reply = await answer(scene.server.slash(scene.ada, scene.channel, "help"))
    first = reply.embeds[0]["description"]
    assert first.startswith("**Quick start**\n1. **Open**")
    plugins = sorted(hosted().values(), key=lambda p: p.title)
    assert " or ".join(sorted(f"`/{p.command} open`" for p in plugins)) in first
    titles = [e["title"] for e in reply.embeds[1:]]
    assert titles == ["Every game", *(p.title for p in plugins)]
    shared = reply.embeds[1]["description"]
    players, hosts = shared.split("__Hosts (or moderators)__")
    assert "`/game board`" in players and "`/mygames`" in players
    assert "`/game deadline`" in hosts and "`/game board`" not in hosts
    assert "__Moderators__\n`/rebuild-ratings`" in shared
    for plugin, embed in zip(plugins, reply.embeds[2:], strict=True):
        assert f"__Hosts (or moderators)__\n`/{plugin.command} open`" in embed["description"]


async def test_powerline_spectators_see_public_boards(scene: Scene, bot: GameBot) -> None:
    s = scene.server
    game = await started_game(s, bot, scene.channel, scene.ada, [scene.ben])
    board = await answer(s.slash(scene.outsider, scene.channel, "game board", player=scene.ben))
    png_attachment(s, board, "board-2.png")
    status = await answer(s.slash(scene.ben, scene.channel, "game status"))
    assert " VP" in status.embeds[0]["fields"][1]["value"]
    mine = await answer(s.slash(scene.ben, s.dm_channel(scene.ben), "mygames"))
    assert f"Powerline game #{game.gid}" in mine.embeds[0]["description"]


async def test_a_game_opened_in_a_thread_has_its_lobby_there(scene: Scene, bot: GameBot) -> None:
    s, ada = scene.server, scene.ada
    reply = await answer(s.slash(ada, scene.channel, "powerline open", thread=True))
    thread = s.world.channels[int(reply.content.split("<#")[1].rstrip(">."))]
    table = await bot.service.table_in(thread.id)
    assert table is not None and table.row.thread_id == thread.id
    assert reply.content == f"{table.label} is open in <#{thread.id}>."
    lobby = next(m for m in s.messages(thread) if m.embeds)
    assert lobby.embeds[0]["title"] == table.label
    gid = table.row.id

    async def stored() -> int | None:
        return (await bot.service.table(gid)).row.lobby_message_id

    # The lobby's id is stored once Discord has answered its post, which may follow the reply.
    assert lobby.id == await s.wait_for(stored)


async def test_mygames_puts_the_games_waiting_for_you_first_with_a_link_to_your_panel(
    scene: Scene, bot: GameBot
) -> None:
    """Ada has planned her Powerline round (the game waits for Ben) and it is her move in Power
    Grid: Power Grid comes first, linked to her panel; Powerline says how many have planned."""
    s, ada, ben = scene.server, scene.ada, scene.ben
    plain = await started_game(s, bot, scene.channel, ada, [ben])
    await plain.plan_with_select(ada, await plain.wait_dm_planner(ada, 1), 1)
    grid = await started_with_ai(s, bot, ada, scene.guild, "power_grid")
    table = await bot.service.table(grid.gid)
    seat = table.seat_of(ada.id)
    assert seat is not None
    panel = await s.wait_for(lambda: _live_panel(bot, grid.gid, seat.seat), 15)

    mine = await answer(s.slash(ada, s.dm_channel(ada), "mygames"))
    embed = mine.embeds[0]
    first, second = embed["description"].split("\n")[:2]
    assert embed["title"] == "Your games: 1 waiting for you"
    assert f"Power Grid game #{grid.gid}" in first and "**your move**" in first
    assert f"[your panel](https://discord.com/channels/@me/{panel.channel_id}/" in first
    assert f"Powerline game #{plain.gid}" in second and "waiting for Ben" in second
    assert "1/2 planned" in second


async def _live_panel(bot: GameBot, gid: int, seat: int) -> object:
    return await bot.service.live_panel(gid, seat)


async def test_mygames_says_how_many_move_before_you_and_finds_the_next_game_waiting(
    scene: Scene, bot: GameBot
) -> None:
    """Ada and Ben pick Power Grid's regions in turn: whoever waits has one player before them
    and no button; whoever is on turn gets the button, whose click answers with that game's line
    and its panel."""
    s = scene.server
    channel = s.add_channel(scene.guild, "grid")
    lobby = await answer(s.slash(scene.ada, channel, f"{hosted()['power_grid'].command} open"))
    gid = (await bot.service.table_in(channel.id)).row.id
    await respond(s.click(scene.ben, lobby, f"pl:lobby:{gid}:join"))
    await answer(s.click(scene.ada, lobby, f"pl:lobby:{gid}:start"))
    table = await bot.service.table(gid)
    [on_turn] = table.waiting_for()
    mover, other = sorted((scene.ada, scene.ben), key=lambda p: p.id != on_turn.user_id)
    panel = await s.wait_for(lambda: _live_panel(bot, gid, on_turn.seat), 15)

    theirs = await answer(s.slash(other, s.dm_channel(other), "mygames"))
    line = theirs.embeds[0]["description"]
    assert theirs.embeds[0]["title"] == "Your games" and not theirs.components
    assert f"waiting for {on_turn.name}" in line and line.endswith(" · 1 player before you")

    mine = await answer(s.slash(mover, s.dm_channel(mover), "mygames"))
    assert mine.find_component(custom_id="pl:next")["label"] == "Next game waiting for me"
    shown = await answer(s.click(mover, mine, "pl:next"))
    assert shown.ephemeral and shown.visible_to is mover
    assert shown.content.startswith(f"**[Power Grid game #{gid}](")
    assert "**your move**" in shown.content and "before you" not in shown.content
    link = f"[your panel](https://discord.com/channels/@me/{panel.channel_id}/{panel.message_id})"
    assert link in shown.content


async def test_the_next_game_button_says_so_once_nothing_waits(scene: Scene, bot: GameBot) -> None:
    """A round planned together links no panel (none is stored for a planner); once Ada has
    planned, her earlier button says nothing waits any more."""
    s, ada = scene.server, scene.ada
    game = await started_game(s, bot, scene.channel, ada, [scene.ben])
    mine = await answer(s.slash(ada, s.dm_channel(ada), "mygames"))
    line = mine.embeds[0]["description"]
    assert "**your move**" in line and "0/2 planned" in line and "your panel" not in line
    await game.plan_with_select(ada, await game.wait_dm_planner(ada, 1), 1)
    assert await refusal(s.click(ada, mine, "pl:next"), ada) == (
        "No game is waiting for you any more: your moves are all in. `/mygames` lists your "
        "games as they stand now."
    )
