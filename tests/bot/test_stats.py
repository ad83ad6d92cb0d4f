"""Leaderboards, stats, solo high scores and result cards through the bot."""

import re

from bot.app import GameBot
from bot.service import results
from bot.service.options import TableOptions
from bot.store.repo import GameRow, SeatRow
from tests.bot.conftest import Scene
from tests.bot.helpers import answer, png_attachment, respond
from tests.service.helpers import fill_draft


async def _finished_game(bot: GameBot, scene: Scene, people, channel) -> int:
    """A whole game played through the service (the UI is covered by test_game)."""
    svc = bot.service
    host = people[0]
    table = await svc.open_table(
        "powerline", scene.guild.id, channel.id, host.id, host.name, {}, TableOptions()
    )
    for person in people[1:]:
        await svc.join(table.row.id, person.id, person.name)
    table = await svc.start(table.row.id, host.id, False)
    while table.row.status == "active":
        for person in people:
            await fill_draft(svc, table.row.id, person.id)
            table, _ = await svc.submit(table.row.id, person.id)
    await bot.delivery.flush()
    return table.row.id


async def _rated_crowd(bot: GameBot, scene: Scene, size: int) -> None:
    """Stored results of 2-player games among `size` made-up people, to fill several pages."""
    now = bot.service.clock.now()
    async with bot.service.repo.transaction() as repo:
        for n in range(size):
            gid = await repo.insert_game(
                game="powerline",
                guild_id=scene.guild.id,
                channel_id=9_000 + n,
                host_id=1,
                status="finished",
                config={},
                options={},
                seed=1,
                created_at="",
                updated_at="",
            )
            row = GameRow(
                gid,
                "powerline",
                scene.guild.id,
                9_000 + n,
                None,
                1,
                "finished",
                {},
                TableOptions().model_dump(),
                1,
                1,
                None,
                None,
                None,
                None,
            )
            a, b = 70_000 + n, 70_000 + (n + 1) % size
            seats = [
                SeatRow(gid, i, u, f"P{u % 1000}", False, False, False, 0, False, 0, False)
                for i, u in enumerate((a, b))
            ]
            outcome = [
                {
                    "seat": 0,
                    "score": 60,
                    "rank": 1,
                    "tiebreak": [60, 1],
                    "primary": 60,
                    "secondary": 1,
                },
                {
                    "seat": 1,
                    "score": 50,
                    "rank": 2,
                    "tiebreak": [50, 1],
                    "primary": 50,
                    "secondary": 1,
                },
            ]
            await results.record(repo, row, seats, outcome, "finished", now)


async def test_leaderboard_pages_with_image_and_text(scene: Scene, bot: GameBot) -> None:
    s = scene.server
    await _rated_crowd(bot, scene, 14)
    message = await respond(s.slash(scene.ada, scene.channel, "leaderboard", game="powerline"))
    assert message is not None and not message.ephemeral
    embed = message.embeds[0]
    assert embed["title"] == "Powerline leaderboard — this server"
    first = embed["description"].splitlines()[0]
    assert re.match(r"1\. P\S* — \d{4} \(provisional\) · \d+ games?, \d+ wins?$", first), first
    assert (
        len(embed["description"].splitlines()) == 10
        and "Page 1/2 · 14 rated" in embed["footer"]["text"]
    )
    assert png_attachment(s, message, "leaderboard.png").width >= 1000
    previous = message.component(custom_id=f"lb:powerline:{scene.guild.id}:-1")
    assert previous["disabled"]
    after = await respond(s.click(scene.ben, message, f"lb:powerline:{scene.guild.id}:1"))
    assert after is message and "Page 2/2" in message.embeds[0]["footer"]["text"]
    assert message.embeds[0]["description"].startswith("11. ")
    everywhere = await respond(
        s.slash(scene.ada, scene.channel, "leaderboard", game="powerline", scope="all servers")
    )
    assert "all servers" in everywhere.embeds[0]["title"]


async def test_stats_highscores_and_the_result_card(scene: Scene, bot: GameBot) -> None:
    s = scene.server
    duel = await _finished_game(bot, scene, [scene.ada, scene.ben], scene.channel)
    solo = await _finished_game(bot, scene, [scene.dan], scene.other_channel)
    stats = await respond(s.slash(scene.ada, scene.channel, "stats", game="powerline"))
    fields = {f["name"]: f["value"] for f in stats.embeds[0]["fields"]}
    assert stats.ephemeral and "(provisional: fewer than about ten rated games)" in fields["Rating"]
    assert re.match(r"1[3-6]\d\d \(", fields["Rating"]), fields["Rating"]
    assert re.search(rf"Game #{duel}: finished, (1st|2nd) of 2, \d+ VP", fields["Recent games"])
    assert fields["Favourite variants"] == "base game (1 game)"
    scores = await respond(s.slash(scene.ada, scene.channel, "highscores", game="powerline"))
    top = scores.embeds[0]["description"].splitlines()
    assert len(top) == 1 and top[0].startswith("1. Dan — ") and "“" in top[0]
    card = await answer(s.slash(scene.ben, scene.channel, "result", game_id=solo))
    assert card.content == f"Powerline game #{solo}: finished"
    assert png_attachment(s, card, f"result-{solo}.png").width >= 1000
    missing = await respond(s.slash(scene.ben, scene.channel, "result", game_id=999))
    assert missing.ephemeral and missing.content == "There is no game #999 in this server."
