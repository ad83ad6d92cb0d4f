"""A server's playing hours through the stand-in: a deadline that would fall at 03:00 falls at
08:00 instead, the lobby says so, and the timeout comes at 08:00, not before."""

import asyncio
from datetime import UTC, datetime

from bot.errors import quote
from bot.service.clock import ManualClock
from tests.bot.conftest import Bots, Scene
from tests.bot.helpers import answer, refusal, started_game


async def test_a_deadline_at_three_in_the_night_moves_to_eight(scene: Scene, bots: Bots) -> None:
    s, ada, ben, mo = scene.server, scene.ada, scene.ben, scene.mo
    clock = ManualClock(datetime(2026, 1, 10, 2, 45, tzinfo=UTC))
    bot = await bots.start(clock=clock)
    set_ = await answer(
        s.slash(mo, scene.channel, "server hours", zone="Europe/London", start="08:00", end="23:00")
    )
    assert set_.content.startswith("✅ Deadlines of games opened from now on fall between 08:00")

    game = await started_game(s, bot, scene.channel, ada, [ben], deadline="10 minutes")
    table = await bot.service.table(game.gid)
    # 02:55 London would be the deadline (10 minutes after 02:45): it falls at 08:00.
    assert table.row.deadline == datetime(2026, 1, 10, 8, 0, tzinfo=UTC)
    assert "Deadlines fall between 08:00–23:00 Europe/London" in str(game.lobby.embeds)
    stamp = f"<t:{int(table.row.deadline.timestamp())}:f>"
    status = await answer(s.slash(ben, scene.channel, "game status"))
    assert stamp in status.embeds[0]["description"], "shown in each reader's own time"

    clock.advance(hours=1)  # 03:45: a plain deadline would have timed out by now
    await asyncio.sleep(0.5)
    assert (await bot.service.table(game.gid)).state.round == 1
    clock.advance(hours=4, minutes=16)  # 08:01
    await s.wait_for(lambda: game.channel_messages("**Round 2 of 15**"), 15)


async def test_only_a_moderator_sets_the_hours_and_nonsense_is_refused(
    scene: Scene, bots: Bots
) -> None:
    s = scene.server
    await bots.start()
    told = await refusal(
        s.slash(scene.ada, scene.channel, "server hours", zone="UTC", start="8", end="23"),
        scene.ada,
    )
    assert "Only a moderator" in told
    told = await refusal(
        s.slash(scene.mo, scene.channel, "server hours", zone="Mars/Olympus", start="8", end="23"),
        scene.mo,
    )
    assert f"“{quote('Mars/Olympus')}” is not a time zone" in told
    told = await refusal(
        s.slash(scene.mo, scene.channel, "server hours", zone="UTC", start="25:00", end="23"),
        scene.mo,
    )
    assert "is not a time of day like 08:00" in told
