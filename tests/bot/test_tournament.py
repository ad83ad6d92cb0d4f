"""Tournament commands through the bot: tables in threads, adjudication, standings."""

from bot.app import GameBot
from tests.bot.conftest import Scene
from tests.bot.helpers import answer, respond


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
    assert started.content.startswith("The heat has started at 1 tables: #")
    game_id = int(started.content.rsplit("#", 1)[1])
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
