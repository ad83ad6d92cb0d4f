"""Reliability through the bot: each person's short figure on their lobby seat line, and the long
form in /stats."""

from bot.service.clock import ManualClock
from tests.bot.conftest import Bots, Scene
from tests.bot.helpers import answer, open_game, respond
from tests.service.test_reliability import ended


async def test_lobby_seat_lines_and_stats_say_each_persons_reliability(
    scene: Scene, bots: Bots, clock: ManualClock
) -> None:
    """Ada timed out in one of her last four games; Ben has never finished one."""
    s, ada, ben = scene.server, scene.ada, scene.ben
    bot = await bots.start(clock=clock)
    for timed_out in ((0,), (), (), ()):
        await ended(bot.service, clock, [ada.id, None], timed_out=timed_out)

    game = await open_game(s, bot, ada, scene.channel)
    seats = game.lobby.embeds[0]["fields"][0]
    assert seats["value"] == "1. Ada — host · 75% reliable"
    await game.lobby_action(ben, "join")
    seats = game.lobby.embeds[0]["fields"][0]
    assert seats["value"] == "1. Ada — host · 75% reliable\n2. Ben · new player"
    await game.lobby_action(ada, "ai")
    assert game.lobby.embeds[0]["fields"][0]["value"].endswith("\n3. AI 1 (standard AI)")

    stats = await respond(s.slash(ben, scene.channel, "stats", game="powerline", player=ada))
    assert stats is not None
    fields = {f["name"]: f["value"] for f in stats.embeds[0]["fields"]}
    assert fields["Reliability over the last 20 games (every game)"] == (
        "Reliable in 3 of 4 games (1 timed out, 0 left)"
    )
    mine = await answer(s.slash(ben, scene.channel, "stats", game="powerline"))
    fields = {f["name"]: f["value"] for f in mine.embeds[0]["fields"]}
    assert fields["Reliability over the last 20 games (every game)"] == "No finished games yet"
