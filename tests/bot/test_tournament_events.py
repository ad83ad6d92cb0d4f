"""Tournaments as community events through the stand-in: check-in with alternates filling the
places of absent heat winners, threads with their players, one post per stage kept up to date,
and the champion announced and given the server's role."""

from datetime import timedelta

import pytest

from bot.app import GameBot
from bot.service.clock import ManualClock
from bot.service.errors import UserError
from standin import Message, StandIn, User
from standin.model import P_MANAGE_EVENTS, P_MANAGE_ROLES
from tests.bot.conftest import Bots, Scene
from tests.bot.helpers import answer, refusal, respond


def people(s: StandIn, scene: Scene, n: int) -> list[User]:
    return [s.add_user(f"Player {i:02d}", guilds=[scene.guild]) for i in range(1, n + 1)]


def newest(s: StandIn, scene: Scene, start: str) -> Message:
    return [m for m in s.messages(scene.channel) if m.content.startswith(start)][-1]


async def test_a_26_player_wbc_event_fills_absent_winners_with_alternates(
    scene: Scene, bot: GameBot
) -> None:
    s, ada = scene.server, scene.ada
    field = people(s, scene, 26)
    role = s.add_role(scene.guild, "Cup Champion")
    s.grant_bot(scene.guild, P_MANAGE_ROLES)
    await respond(
        s.slash(
            ada,
            scene.channel,
            "tournament create",
            name="Winter Cup",
            game="powerline",
            heats=1,
            champion_role=role,
        )
    )
    tid = 1
    for person in field:
        await respond(s.slash(person, scene.channel, "tournament register", tournament=tid))
    # No check-in before the heat: everyone registered plays it.
    started = await answer(s.slash(ada, scene.channel, "tournament heat", tournament=tid))
    assert started.content == "✅ Heat 1 has started at 5 table(s), each in its thread."
    heat = await bot.tournaments.stage_tables(tid, "heat", 1)
    assert sorted(len(t.players) for t in heat) == [5, 5, 5, 5, 6]
    post = newest(s, scene, "🏁 **Winter Cup · heat 1**")
    for table in heat:
        thread = s.world.channels[table.thread_id]
        seated = {u.id for u in field if u.name in table.players}
        assert seated <= thread.thread_members, "each table's players are added to its thread"
    await respond(s.slash(ada, scene.channel, "tournament adjudicate", game=heat[0].game_id))
    await s.wait_for(lambda: "4 table(s) still playing." in post.content)
    assert post.content.count("🏆 won by") == 1
    for table in heat[1:]:
        await respond(s.slash(ada, scene.channel, "tournament adjudicate", game=table.game_id))
    await s.wait_for(lambda: "Every table of heat 1 has finished." in post.content)
    assert post.content.count("🏆 won by") == 5
    assert sum(1 for m in s.messages(scene.channel) if "Winter Cup · heat 1" in m.content) == 1

    seeding = await bot.tournaments.seeding(tid)
    winners = [e.player for e in seeding.winners]
    absent = set(winners[:2])
    opened = await answer(
        s.slash(ada, scene.channel, "tournament checkin", tournament=tid, minutes=30)
    )
    assert "Check-in for the semifinal of Winter Cup" in opened.content
    assert "**0 of 26** checked in" in opened.content

    def reminded(person: User) -> list[Message]:
        dms = s.messages(s.dm_channel(person))
        return [m for m in dms if "check in for the semifinal" in m.content]

    await s.wait_for(lambda: all(reminded(person) for person in field))
    assert all(len(reminded(person)) == 1 for person in field)
    outsider_refusal = await refusal(
        s.click(scene.outsider, opened, f"pl:checkin:{tid}"), scene.outsider
    )
    assert outsider_refusal == "You are not in the field of the semifinal of Winter Cup."
    for person in field:
        if person.id not in absent:
            await respond(s.click(person, opened, f"pl:checkin:{tid}"))
    assert "**24 of 26** checked in" in opened.content
    # A second press changes nothing (by someone checked in: the last registered may be absent).
    again = next(person for person in reversed(field) if person.id not in absent)
    await respond(s.click(again, opened, f"pl:checkin:{tid}"))
    assert "**24 of 26** checked in" in opened.content

    await answer(s.slash(ada, scene.channel, "tournament semifinal", tournament=tid))
    # The stage's start closed the check-in: its message says so, its button gone.
    assert opened.content == (
        "☑️ **Check-in for the semifinal of Winter Cup** is closed: **24 of 26** checked in. "
        "Whoever did not is absent from it."
    )
    assert not opened.components
    semi = await bot.tournaments.stage_tables(tid, "semifinal", 1)
    seated_ids = {u.id for u in field if any(u.name in t.players for t in semi)}
    assert not seated_ids & absent, "absent heat winners do not play"
    expected = await bot.tournaments.seeding(tid, absent)
    assert seated_ids == set(expected.field)
    assert set(winners[2:]) <= seated_ids, "every present winner plays"
    # The alternates by margin of defeat fill the absent winners' seats.
    alternates = [e.player for e in expected.alternates]
    assert set(alternates[: len(expected.field) - 3]) <= seated_ids

    for table in semi:
        await respond(s.slash(ada, scene.channel, "tournament adjudicate", game=table.game_id))
    await answer(s.slash(ada, scene.channel, "tournament final", tournament=tid))
    final = await bot.tournaments.stage_tables(tid, "final", 1)
    assert len(final) == 1 and len(final[0].players) == 6
    await respond(s.slash(ada, scene.channel, "tournament adjudicate", game=final[0].game_id))
    announced = await s.wait_for(
        lambda: [m for m in s.messages(scene.channel) if m.content.startswith("🏆 <@")]
    )
    assert len(announced) == 1 and "is the champion of **Winter Cup**!" in announced[0].content
    champion = await bot.tournaments.winner(tid)
    assert f"<@{champion}>" in announced[0].content
    assert "They now hold" in announced[0].content
    member = scene.guild.members[champion]
    assert role in member.roles


async def test_a_17_player_swiss_event_in_pods_of_4_and_5(scene: Scene, bot: GameBot) -> None:
    s, ada = scene.server, scene.ada
    field = people(s, scene, 17)
    members = s.add_role(scene.guild, "Swiss Club")
    crown = s.add_role(scene.guild, "Swiss Champion")
    for person in field:
        s.give_role(scene.guild, person, members)
    s.grant_bot(scene.guild, P_MANAGE_ROLES | P_MANAGE_EVENTS)
    starts = (bot.service.clock.now() + timedelta(days=2)).strftime("%Y-%m-%d %H:%M")
    created = await answer(
        s.slash(
            ada,
            scene.channel,
            "tournament create",
            name="Swiss Open",
            game="powerline",
            format="swiss",
            rounds=3,
            pods="4,5",
            starts=starts,
            signup_role=members,
            champion_role=crown,
        )
    )
    assert "Swiss in pods of 4-5, 3 round(s)" in created.content
    assert "it is in the server's events" in created.content
    (event,) = s.scheduled_events(scene.guild)
    assert event["name"] == "Swiss Open" and event["status"] == 1
    assert str(scene.channel.id) in event["entity_metadata"]["location"]
    tid = 1
    refused = await refusal(
        s.slash(scene.outsider, scene.channel, "tournament register", tournament=tid),
        scene.outsider,
    )
    assert refused == f"Sign-up for Swiss Open is open to members with the <@&{members.id}> role."
    for person in field:
        await respond(s.slash(person, scene.channel, "tournament register", tournament=tid))

    # Round 1: a check-in, which the organiser closes early; one player never checks in.
    opened = await answer(
        s.slash(ada, scene.channel, "tournament checkin", tournament=tid, minutes=60)
    )
    late = field[-1]
    for person in field[:-1]:
        await respond(s.click(person, opened, f"pl:checkin:{tid}"))
    closed = await answer(
        s.slash(ada, scene.channel, "tournament checkin", tournament=tid, close=True)
    )
    assert closed.content == "✅ The check-in for round 1 of Swiss Open is closed: 16 checked in."
    await s.wait_for(lambda: not opened.components)
    assert opened.content.startswith(
        "☑️ **Check-in for round 1 of Swiss Open** is closed: **16 of 17** checked in."
    )
    # A press already on its way meets the service's refusal.
    with pytest.raises(UserError, match=r"The check-in for round 1 of Swiss Open is closed\."):
        await bot.tournaments.check_in(tid, late.id)
    await answer(s.slash(ada, scene.channel, "tournament heat", tournament=tid))
    assert s.scheduled_events(scene.guild)[0]["status"] == 2, "the event is under way"
    first = await bot.tournaments.stage_tables(tid, "heat", 1)
    assert sorted(len(t.players) for t in first) == [4, 4, 4, 4]
    assert late.name not in {p for t in first for p in t.players}
    for table in first:
        assert {u.id for u in field if u.name in table.players} <= (
            s.world.channels[table.thread_id].thread_members
        )
        await respond(s.slash(ada, scene.channel, "tournament adjudicate", game=table.game_id))
    post = newest(s, scene, "🏁 **Swiss Open · round 1**")
    await s.wait_for(lambda: bool(post.embeds) and "Every table of round 1" in post.content)
    assert post.embeds[0]["title"] == "Swiss Open — standings after round 1 of 3"
    assert [a.filename for a in post.attachments] == ["standings.png"]

    # Round 2: everyone plays (no check-in), nobody meets a round-1 tablemate again.
    await answer(s.slash(ada, scene.channel, "tournament heat", tournament=tid))
    second = await bot.tournaments.stage_tables(tid, "heat", 2)
    assert sorted(len(t.players) for t in second) == [4, 4, 4, 5]
    met = {frozenset((a, b)) for t in first for a in t.players for b in t.players if a != b}
    again = {frozenset((a, b)) for t in second for a in t.players for b in t.players if a != b}
    assert not met & again
    # A player withdraws mid-round: the AI finishes their seat, and they are not paired again.
    leaver = next(u for u in field if u.name in second[0].players)
    left = await answer(s.slash(leaver, scene.channel, "tournament withdraw", tournament=tid))
    assert f"The AI finishes their seat at game #{second[0].game_id} (forfeited)." in left.content
    table = await bot.service.table(second[0].game_id)
    assert next(seat for seat in table.seats if seat.user_id == leaver.id).is_ai
    for table_row in second:
        await respond(s.slash(ada, scene.channel, "tournament adjudicate", game=table_row.game_id))
    await answer(s.slash(ada, scene.channel, "tournament heat", tournament=tid))
    third = await bot.tournaments.stage_tables(tid, "heat", 3)
    assert leaver.name not in {p for t in third for p in t.players}
    assert sorted(len(t.players) for t in third) == [4, 4, 4, 4]
    for table_row in third:
        await respond(s.slash(ada, scene.channel, "tournament adjudicate", game=table_row.game_id))
    announced = await s.wait_for(
        lambda: [m for m in s.messages(scene.channel) if m.content.startswith("🏆 <@")]
    )
    standings = await bot.tournaments.swiss_standings(tid)
    champion = standings.rows[0].player
    assert announced[0].content.startswith(f"🏆 <@{champion}> is the champion of **Swiss Open**!")
    assert crown in scene.guild.members[champion].roles
    assert s.scheduled_events(scene.guild)[0]["status"] == 3, "the event is completed"
    text = await answer(s.slash(scene.ben, scene.channel, "tournament standings", tournament=tid))
    assert text.embeds[0]["title"] == "Swiss Open — standings after round 3 of 3"
    assert f"{leaver.name}** (withdrawn)" in text.embeds[0]["description"]


async def test_a_check_in_whose_time_is_up_is_closed_by_the_tick(
    scene: Scene, bots: Bots, clock: ManualClock
) -> None:
    s, ada = scene.server, scene.ada
    bot = await bots.start(clock=clock)
    field = people(s, scene, 3)
    await respond(
        s.slash(ada, scene.channel, "tournament create", name="Night Cup", game="powerline")
    )
    for person in field:
        await respond(s.slash(person, scene.channel, "tournament register", tournament=1))
    opened = await answer(
        s.slash(ada, scene.channel, "tournament checkin", tournament=1, minutes=5)
    )
    await respond(s.click(field[0], opened, "pl:checkin:1"))
    clock.advance(minutes=4)
    await bot.get_cog("Tournament").close_due_check_ins()  # type: ignore[union-attr]
    assert opened.components, "still open before its time"
    clock.advance(minutes=2)
    await s.wait_for(lambda: not opened.components, 10)  # the bot's own tick
    assert opened.content == (
        "☑️ **Check-in for heat 1 of Night Cup** is closed: **1 of 3** checked in. "
        "Whoever did not is absent from it."
    )
    started = await answer(s.slash(ada, scene.channel, "tournament heat", tournament=1))
    assert "Heat 1 needs at least 3" in started.content, "the two absent do not play"
