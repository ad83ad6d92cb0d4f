"""Tournament commands through the bot: tables in threads, adjudication, standings."""

from bot.app import GameBot
from tests.bot.conftest import Scene
from tests.bot.helpers import answer, refusal, respond


async def test_a_heat_runs_in_threads_and_an_adjudicated_table_decides_the_standings(
    scene: Scene, bot: GameBot
) -> None:
    s, ada = scene.server, scene.ada
    created = await respond(
        s.slash(
            ada, scene.channel, "tournament create", name="Autumn Cup", game="powerline", heats=1
        )
    )
    assert "Autumn Cup" in created.content and "tournament #1" in created.content
    for person in (scene.ada, scene.ben, scene.dan, scene.eve):
        reply = await respond(s.slash(person, scene.channel, "tournament register", tournament=1))
        assert reply.ephemeral and "registered" in reply.content
    started = await answer(s.slash(ada, scene.channel, "tournament heat", tournament=1))
    assert started.content == "✅ Heat 1 has started at 1 table(s), each in its thread."
    (only,) = await bot.tournaments.stage_tables(1, "heat", 1)
    game_id = only.game_id
    table = await bot.service.table(game_id)
    assert table.row.thread_id is not None and len(table.seats) == 4
    thread = s.world.channels[table.row.thread_id]
    await s.wait_for(lambda: any("Round 1 of 15" in m.content for m in s.messages(thread)))
    refused = await respond(
        s.slash(scene.outsider, scene.channel, "tournament adjudicate", game=game_id)
    )
    assert refused.ephemeral and "Only the host or a moderator" in refused.content
    done = await respond(s.slash(ada, scene.channel, "tournament adjudicate", game=game_id))
    assert done.ephemeral and f"Game #{game_id} is adjudicated" in done.content
    await s.wait_for(lambda: any("adjudicated by" in m.content for m in s.messages(thread)))
    standings = await respond(
        s.slash(scene.ben, scene.channel, "tournament standings", tournament=1)
    )
    bracket = await respond(s.slash(scene.ben, scene.channel, "tournament bracket", tournament=1))
    line = bracket.embeds[0]["description"]
    assert line.startswith(f"Heat 1, table 1 (#{game_id}): ") and "— won by " in line
    text = standings.embeds[0]["description"]
    assert (
        "**Winners**" in text and "**Alternates**" in text and "win in first heat" in text.lower()
    )


async def test_a_power_grid_heat_on_the_house_rules_played_out_by_the_ai(
    scene: Scene, bot: GameBot
) -> None:
    s, ada = scene.server, scene.ada
    refused = await refusal(
        s.slash(
            ada,
            scene.channel,
            "tournament create",
            name="WBC",
            game="power_grid",
            options="hidden_money=maybe",
        ),
        ada,
    )
    assert refused == "hidden_money=maybe is not an option: it is true or false."
    refused = await refusal(
        s.slash(
            ada,
            scene.channel,
            "tournament create",
            name="WBC",
            game="power_grid",
            options="money=hidden",
        ),
        ada,
    )
    assert refused.startswith("“money” is not an option of Power Grid; its options are map, ")
    created = await respond(
        s.slash(
            ada,
            scene.channel,
            "tournament create",
            name="WBC 2019",
            game="power_grid",
            heats=1,
            options="map=usa",
        )
    )
    text = created.content
    assert (
        "WBC 2019" in text
        and "tournament #1, Power Grid, 1 heat(s), then a semifinal and a final" in text
    )
    for line in ("Map: USA", "Money: hidden (WBC)", "Bidding: clockwise by seat (WBC)"):
        assert f"• {line}" in text
    assert "Regions: picked by the players in turn order (WBC)" in text
    people = (scene.ada, scene.ben, scene.dan, scene.eve, scene.fay)
    for person in people:
        await respond(s.slash(person, scene.channel, "tournament register", tournament=1))
    started = await answer(s.slash(ada, scene.channel, "tournament heat", tournament=1))
    assert started.content == "✅ Heat 1 has started at 1 table(s), each in its thread."
    (only,) = await bot.tournaments.stage_tables(1, "heat", 1)
    game_id = only.game_id
    table = await bot.service.table(game_id)
    assert table.row.thread_id is not None and len(table.seats) == 5
    config = table.row.config
    assert (config["map"], config["hidden_money"], config["bid_order"]) == ("usa", True, "seat")
    assert config["regions"] is None
    # Everyone leaves; the AI takes each seat, and with the last one plays the game to its end.
    for person in people:
        reply = await respond(s.slash(person, scene.channel, "game leave", game=game_id))
        assert reply.ephemeral and "the AI plays your seat" in reply.content
    assert (await bot.service.table(game_id)).row.status == "finished"
    thread = s.world.channels[table.row.thread_id]
    over = await s.wait_for(
        lambda: next((m for m in s.messages(thread) if "**Game over!**" in m.content), None), 30
    )
    assert " cities powered" in over.content
    bracket = await respond(s.slash(scene.ben, scene.channel, "tournament bracket", tournament=1))
    line = bracket.embeds[0]["description"]
    assert line.startswith(f"Heat 1, table 1 (#{game_id}): ") and "— won by " in line
    standings = await respond(
        s.slash(scene.ben, scene.channel, "tournament standings", tournament=1)
    )
    described = standings.embeds[0]["description"]
    # The margins come from the final standings: cities powered, then money.
    rows = sorted(await bot.service.results_of(game_id), key=lambda r: (r["rank"], r["seat"]))
    first, second = rows[0], rows[1]
    w, r = int(first["primary_measure"]), int(second["primary_measure"])
    if w > r:
        assert f"margin of victory: first win, heat 1: {w} / {r} = {w / r:.3f}" in described
    else:
        wm, rm = int(first["secondary_measure"]), int(second["secondary_measure"])
        assert f"margin of victory: first win, heat 1: ({wm} − {rm}) / 1000" in described
    assert "**Alternates**" in described and "margin of defeat: best, heat 1, " in described
