"""`/settings` through the stand-in: private answers in DMs and servers, refusals that change
nothing, the daily digest's DM (once, with each game's deadline and panel) and the heads-up's."""

import asyncio
from datetime import UTC, datetime

from bot.service.clock import ManualClock
from bot.service.service import Table
from engine.core import queue
from standin import Message, User
from tests.bot.conftest import Bots, Scene
from tests.bot.helpers import TIMEOUT, answer, refusal, respond, started_game, started_with_ai


async def test_settings_answer_privately_and_refuse_nonsense(scene: Scene, bots: Bots) -> None:
    s, ada = scene.server, scene.ada
    await bots.start()
    dm = s.dm_channel(ada)
    shown = await answer(s.slash(ada, dm, "settings show"))
    assert shown.content == "\n".join(
        [
            "**Your settings** (in every server)",
            "Time zone: UTC",
            "Quiet hours: none",
            "“You're next” heads-up: off",
            "Daily digest: off",
            "Your turn panels still come whatever you set here: they are how you move.",
        ]
    )
    offered = await s.autocomplete(
        ada, scene.channel, "settings zone", focused="zone", zone="paris"
    )
    assert [c["value"] for c in offered] == ["Europe/Paris"]
    zone = await answer(s.slash(ada, scene.channel, "settings zone", zone="Europe/Paris"))
    assert zone.ephemeral and zone.visible_to is ada
    assert zone.content.startswith("✅ Your time zone is Europe/Paris.\n\n**Your settings**")
    quiet = await answer(s.slash(ada, scene.channel, "settings quiet", start="23:00", end="8"))
    assert quiet.ephemeral and quiet.visible_to is ada
    assert quiet.content.startswith("✅ Quiet hours: 23:00–08:00 Europe/Paris.")
    assert (
        "Quiet hours: 23:00–08:00 Europe/Paris: no reminders or nudges then; one due then comes "
        "as they end" in quiet.content
    )
    await answer(s.slash(ada, dm, "settings heads-up", on=True))
    digest = await answer(s.slash(ada, dm, "settings digest", on=True, at="19:30"))
    assert (
        "Daily digest: on, at 19:30 Europe/Paris: one DM a day with the games waiting for you, "
        "in place of reminders and nudges" in digest.content
    )
    assert "“You're next” heads-up: on: a DM when the seat before yours starts its turn" in (
        digest.content
    )
    assert "Your turn panels still come whatever you set here" in digest.content
    settled = (await answer(s.slash(ada, dm, "settings show"))).content

    told = await refusal(s.slash(ada, scene.channel, "settings zone", zone="Mars/Olympus"), ada)
    assert told == "“Mars/Olympus” is not a time zone (try e.g. Europe/Paris)."
    told = await refusal(s.slash(ada, dm, "settings quiet", start="25:00", end="08:00"), ada)
    assert told == "“25:00” is not a time of day like 08:00."
    told = await refusal(s.slash(ada, dm, "settings quiet", start="22:00"), ada)
    assert told.startswith("Give quiet hours both a start and an end")
    told = await refusal(s.slash(ada, dm, "settings digest", on=True, at="7pm"), ada)
    assert told == "“7pm” is not a time of day like 08:00."
    assert (await answer(s.slash(ada, dm, "settings show"))).content == settled

    none = await answer(s.slash(ada, dm, "settings quiet"))
    assert none.content.startswith("✅ No quiet hours.") and "Quiet hours: none" in none.content


def _panel(s, person: User, gid: int) -> Message | None:
    """The person's newest "your turn" panel (DM) of a game."""
    for message in reversed(s.dms(person)):
        if message.author.bot and f"game #{gid}]" in message.content and message.components:
            return message
    return None


def _digests(s, person: User) -> list[Message]:
    return [m for m in s.dms(person) if m.author.bot and m.content.startswith("📬")]


async def test_the_daily_digest_lists_each_game_waiting_once_a_day(
    scene: Scene, bots: Bots
) -> None:
    s, ada, ben = scene.server, scene.ada, scene.ben
    clock = ManualClock(datetime(2026, 3, 29, 12, 0, tzinfo=UTC))  # 14:00 in Paris
    bot = await bots.start(clock=clock)
    dm = s.dm_channel(ada)
    await answer(s.slash(ada, dm, "settings zone", zone="Europe/Paris"))
    await answer(s.slash(ada, dm, "settings digest", on=True, at="18:00"))
    game = await started_game(s, bot, scene.channel, ada, [ben])
    grid = await started_with_ai(s, bot, ada, scene.guild, "power_grid")
    panel = await s.wait_for(lambda: _panel(s, ada, grid.gid), TIMEOUT)

    clock.advance(hours=3, minutes=59)
    await asyncio.sleep(0.5)
    assert _digests(s, ada) == []
    clock.advance(minutes=1)  # 18:00 in Paris
    (digest,) = await s.wait_for(lambda: _digests(s, ada), TIMEOUT)
    powerline, power_grid = await game.table(), await grid.table()

    def line(table: Table, link: str = "", planned: str = "") -> str:
        """As /mygames says it."""
        where = f"https://discord.com/channels/{scene.guild.id}/{table.row.where}"
        words = table.game.progress(table.state).words
        closes = f"<t:{int(table.row.deadline.timestamp())}:R>"
        move = f"**your move**, closes {closes}{link}{planned}"
        return f"• **[{table.label}]({where})** · {words} · {move}"

    assert digest.content == "\n".join(
        [
            "📬 Your daily digest: 2 games waiting for you.",
            line(powerline, planned=" · 0/2 planned"),
            line(
                power_grid,
                f" · [your panel](https://discord.com/channels/@me/{dm.id}/{panel.id})",
            ),
            "Your turn panels still come as your turns do; `/settings digest` changes this.",
        ]
    )
    clock.advance(hours=1)
    await asyncio.sleep(0.5)
    assert len(_digests(s, ada)) == 1, "once a day"
    assert _digests(s, ben) == [], "Ben asked for none"


async def test_the_heads_up_dm_names_who_is_moving(scene: Scene, bots: Bots) -> None:
    s, ada, ben = scene.server, scene.ada, scene.ben
    bot = await bots.start()
    for person in (ada, ben):
        await answer(s.slash(person, s.dm_channel(person), "settings heads-up", on=True))
    channel = s.add_channel(scene.guild, "power-grid")
    lobby = await answer(s.slash(ada, channel, "powergrid open"))
    table = await bot.service.table_in(channel.id)
    assert table is not None
    await respond(s.click(ben, lobby, f"pl:lobby:{table.row.id}:join"))
    await answer(s.click(ada, lobby, f"pl:lobby:{table.row.id}:start"))
    table = await bot.service.table(table.row.id)
    (mover,) = table.game.to_act(table.state)
    order = queue(table.game, table.state)
    assert order is not None and order[0] == mover
    following = table.seats[next(seat for seat in order if seat != mover)]
    told = next(p for p in (ada, ben) if p.id == following.user_id)
    ref = f"[{table.label}](https://discord.com/channels/{scene.guild.id}/{channel.id})"
    expected = f"⏭️ You're next in {ref}: {table.seats[mover].name} is moving now."
    await s.wait_for(lambda: any(m.content == expected for m in s.dms(told)), TIMEOUT)
