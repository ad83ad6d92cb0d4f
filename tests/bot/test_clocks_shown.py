"""Clock models and vacations through the stand-in: a time bank that runs only on its seat's
turn, one vacation stopping the clocks of two games, and the refusals of both commands."""

import json
from datetime import UTC, datetime, timedelta

from bot.app import GameBot
from bot.service.clock import ManualClock
from engine.propeller_islands import autopilot
from standin import Channel, Message, User
from tests.bot.conftest import Bots, Scene
from tests.bot.helpers import TIMEOUT, answer, open_game, refusal, respond, started_game

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def _key(action: dict) -> str:
    return json.dumps(action, separators=(",", ":"), sort_keys=True)


def _stamp(when: datetime) -> int:
    return int(when.timestamp())


def _posts(s, channel: Channel, text: str) -> list[Message]:
    return [m for m in s.messages(channel) if not m.ephemeral and text in m.content]


async def _settled(bot: GameBot, clock: ManualClock) -> bool:
    """The tick has handled every game due by the clock's now, and the outbox is sent."""
    async with bot.service.repo.reading() as repo:
        return not await repo.due_ids(clock.now()) and not await repo.pending(limit=1)


async def _moves(bot: GameBot, gid: int) -> int:
    async with bot.service.repo.reading() as repo:
        return await repo.action_count(gid)


async def _propeller(
    s, bot: GameBot, host: User, guest: User, channel: Channel, **options: object
) -> int:
    """`host` opens a two-seat Propeller Islands lobby in `channel` and `guest` joins; its id."""
    lobby = await answer(s.slash(host, channel, "propeller open", max_players=2, **options))
    gid = (await bot.service.table_in(channel.id)).row.id
    await respond(s.click(guest, lobby, f"pl:lobby:{gid}:join"))
    return gid


async def _move(s, bot: GameBot, gid: int, person: User) -> None:
    """`person` makes the autopilot's choice with `/propeller move` in their DMs."""
    table = await bot.service.table(gid)
    seat = table.seat_of(person.id)
    assert seat is not None
    action = autopilot.choose(table.game.view(table.state, seat.seat), seat.seat)
    decision = _key(action.model_dump(mode="json", by_alias=True))
    reply = await answer(
        s.slash(person, s.dm_channel(person), "propeller move", decision=decision, game=gid)
    )
    assert reply.content.startswith("✅ You "), reply.content


async def test_a_time_bank_runs_only_on_its_seats_turn(scene: Scene, bots: Bots) -> None:
    s, ada, ben, channel = scene.server, scene.ada, scene.ben, scene.channel
    clock = ManualClock(T0)
    bot = await bots.start(clock=clock)
    gid = await _propeller(s, bot, ada, ben, channel)
    told = await answer(
        s.slash(ada, channel, "game setup", clock="time bank", bank="1 day", increment="1 hour")
    )
    assert told.ephemeral and "Time bank: 1 day each" in told.content, told.content
    lobby_id = (await bot.service.table(gid)).row.lobby_message_id
    lobby = next(m for m in s.messages(channel) if m.id == lobby_id)
    # The lobby message itself is redrawn by the outbox.
    await s.wait_for(lambda: "Time bank: 1 day each" in json.dumps(lobby.embeds), TIMEOUT)
    await respond(s.click(ada, lobby, f"pl:lobby:{gid}:start"))
    await s.wait_for(lambda: _settled(bot, clock), TIMEOUT)

    table = await bot.service.table(gid)
    (first,) = table.game.to_act(table.state)
    people = {ada.id: ada, ben.id: ben}
    mover = people[table.seats[first].user_id]
    waiter = ben if mover is ada else ada
    other = table.seat_of(waiter.id).seat
    assert table.row.deadline == T0 + timedelta(days=1)

    clock.advance(hours=3)
    while first in (table := await bot.service.table(gid)).game.to_act(table.state):
        await _move(s, bot, gid, mover)
    assert table.game.to_act(table.state) == {other}
    # The first seat paid its 3 hours and gained its hour; the other's whole day starts now.
    assert table.seats[first].bank_seconds == 22 * 3600
    assert table.row.deadline == T0 + timedelta(hours=27)
    moved = await _moves(bot, gid)

    clock.advance(hours=23)
    await s.wait_for(lambda: _settled(bot, clock), TIMEOUT)
    assert not _posts(s, channel, "Time is up"), "nobody is out of time after 26 hours"
    assert await _moves(bot, gid) == moved
    status = await answer(s.slash(ada, channel, "game status"))
    banks = next(f for f in status.embeds[0]["fields"] if f["name"] == "Time banks")["value"]
    runs_out = _stamp(T0 + timedelta(hours=27))
    assert f"⏳ {waiter.name}: runs out <t:{runs_out}:R>" in banks, banks
    assert f"{mover.name}: 22 h" in banks, banks

    clock.advance(hours=1, minutes=1)
    await s.wait_for(lambda: _posts(s, channel, "Time is up"), TIMEOUT)
    await s.wait_for(lambda: _settled(bot, clock), TIMEOUT)
    table = await bot.service.table(gid)
    ups = [m.content for m in _posts(s, channel, "Time is up")]
    # One bank running out is one timeout, however many phases the late turn spans.
    assert (table.seats[other].timeouts, table.seats[other].is_ai) == (1, False), ups
    assert ups == [f"Time is up: the autopilot moved for {waiter.name}."], ups
    assert table.row.status == "active" and await _moves(bot, gid) > moved
    assert table.row.deadline is not None and table.row.deadline > clock.now()


async def test_one_vacation_stops_the_clocks_of_two_games(scene: Scene, bots: Bots) -> None:
    s, ada, ben = scene.server, scene.ada, scene.ben
    clock = ManualClock(T0)
    bot = await bots.start(clock=clock)
    powerline = await started_game(s, bot, scene.channel, ada, [ben])
    islands = scene.other_channel
    # Unlike Powerline's day, Propeller's turn is half a day, and starts two hours later.
    pid = await _propeller(s, bot, ada, ben, islands, deadline="12 hours")
    lobby = next(m for m in s.messages(islands) if m.embeds and not m.ephemeral)
    clock.advance(hours=2)
    await respond(s.click(ada, lobby, f"pl:lobby:{pid}:start"))
    while ada.id not in [x.user_id for x in (await bot.service.table(pid)).waiting_for()]:
        await _move(s, bot, pid, ben)
    await s.wait_for(lambda: _settled(bot, clock), TIMEOUT)
    assert (await powerline.table()).row.deadline == T0 + timedelta(hours=24)
    assert (await bot.service.table(pid)).row.deadline == T0 + timedelta(hours=14)
    before = (await _moves(bot, powerline.gid), await _moves(bot, pid))

    clock.advance(hours=1)  # away from T0 + 3 h to T0 + 51 h
    told = await answer(s.slash(ada, s.dm_channel(ada), "vacation take", days=2))
    assert "Vacation days left this year: 12 of 14." in told.content, told.content
    stops = f"Clocks that stop for you: Powerline game #{powerline.gid}, "
    assert f"{stops}Propeller Islands game #{pid}." in told.content, told.content
    await s.wait_for(lambda: _settled(bot, clock), TIMEOUT)
    for channel in (scene.channel, islands):
        (away,) = _posts(s, channel, "🏖️ Ada is away")
        assert f"to <t:{_stamp(T0 + timedelta(hours=51))}:f>" in away.content

    clock.advance(hours=30)  # both deadlines have passed, with Ada away
    await s.wait_for(lambda: _settled(bot, clock), TIMEOUT)
    for channel in (scene.channel, islands):
        assert not _posts(s, channel, "Time is up"), channel.name
    assert (await _moves(bot, powerline.gid), await _moves(bot, pid)) == before
    assert await powerline.round() == 1
    shown = await answer(s.slash(ben, scene.channel, "game status"))
    assert shown.embeds[0]["description"] == (
        "The clock is stopped while a player the round waits for is on vacation."
    )
    shown = await answer(s.slash(ben, islands, "game status"))
    assert shown.embeds[0]["description"] == (
        "Waiting for **Ada** (the clock is stopped while they are on vacation)."
    )

    # Each clock stood still from T0 + 3 h to T0 + 51 h: each deadline moves on by 48 hours.
    for gid, channel, due in (
        (pid, islands, T0 + timedelta(hours=14 + 48)),
        (powerline.gid, scene.channel, T0 + timedelta(hours=24 + 48)),
    ):
        clock.current = due - timedelta(minutes=1)
        await s.wait_for(lambda: _settled(bot, clock), TIMEOUT)
        assert not _posts(s, channel, "Time is up"), f"game {gid} timed out before {due}"
        assert (await bot.service.table(gid)).row.deadline == due
        clock.advance(minutes=2)
        await s.wait_for(lambda c=channel: _posts(s, c, "Time is up"), TIMEOUT)
        await s.wait_for(lambda: _settled(bot, clock), TIMEOUT)
    assert len(_posts(s, scene.channel, "Time is up")) == 1
    assert len(_posts(s, islands, "Time is up")) == 1
    for channel in (scene.channel, islands):
        assert len(_posts(s, channel, "🏖️ Ada is away")) == 1, "one post per vacation and game"


async def test_setup_and_vacations_refuse_what_does_not_fit(scene: Scene, bots: Bots) -> None:
    s, ada, ben = scene.server, scene.ada, scene.ben
    clock = ManualClock(T0)
    bot = await bots.start(clock=clock)
    game = await open_game(s, bot, ada, scene.channel)
    await game.lobby_action(ben, "join")
    options = (await game.table()).row.options
    lobby = json.dumps(game.lobby.embeds)

    told = await refusal(s.slash(ada, scene.channel, "game setup", clock="time bank"), ada)
    assert told.startswith("A time bank runs on each seat's own turns, and Powerline has none"), (
        told
    )
    told = await refusal(s.slash(ben, scene.channel, "game setup", clock="daily"), ben)
    assert told == "Only the host or a moderator can set up the table.", told
    await s.wait_for(game.outbox_empty, TIMEOUT)
    assert (await game.table()).row.options == options
    assert json.dumps(game.lobby.embeds) == lobby and "Time bank" not in lobby

    dm = s.dm_channel(ada)
    taken = await answer(s.slash(ada, dm, "vacation take", days=10))
    assert "Vacation days left this year: 4 of 14." in taken.content, taken.content
    told = await refusal(s.slash(ada, dm, "vacation take", days=10), ada)
    assert told.startswith("That overlaps a vacation you already declared"), told
    told = await refusal(s.slash(ada, dm, "vacation take", days=10, start="2026-06-01"), ada)
    assert told == "You have 4 days of vacation left for 2026 (of 14); ask for fewer.", told
    told = await refusal(s.slash(ada, dm, "vacation take", days=2, start="2026-13-40"), ada)
    assert told == "“2026-13-40” is not a date like 2026-12-24.", told
    shown = await answer(s.slash(ada, dm, "vacation show"))
    assert shown.content == taken.content, "the refusals declared nothing"
    assert f"to <t:{_stamp(T0 + timedelta(days=10))}:f>" in shown.content
