"""Where a game may be named (`Table.open_to`, `Service.table_for`, `games_of`, `pick_game`), and
how host powers and rematch rights follow the seats."""

import pytest

from bot.service.errors import UserError
from bot.service.options import TableOptions
from tests.service.helpers import ALICE, BOB, CARL, open_table_with

HERE, THERE = 1, 2
"""The server `open_table_with` opens its table in, and another one."""
STRANGER = 999


async def _refusal(call) -> str:
    with pytest.raises(UserError) as refused:
        await call
    return refused.value.message


async def _running(svc, players=(ALICE, BOB, CARL)) -> int:
    gid = await open_table_with(svc, players)
    await svc.start(gid, ALICE, False)
    return gid


async def _play_out(svc, gid: int) -> None:
    """Everyone still playing hands their seat to the AI (keeping it), which ends the game."""
    for seat in (await svc.table(gid)).seats:
        if seat.user_id is not None and not seat.is_ai:
            await svc.hand_to_ai(gid, seat.user_id, seat.user_id, False, leaving=False)
    assert (await svc.table(gid)).row.status == "finished"


async def test_in_its_own_server_a_game_is_named_to_anyone_and_in_no_other(world):
    svc, _, _ = world
    gid = await _running(svc)
    assert (await svc.table_for(gid, STRANGER, HERE)).row.id == gid
    nowhere = f"There is no game #{gid} in this server."
    for who in (ALICE, STRANGER):
        assert await _refusal(svc.table_for(gid, who, THERE)) == nowhere
    # A game that does not exist is refused in the same words: nothing tells them apart.
    assert await _refusal(svc.table_for(gid + 1, ALICE, HERE)) == (
        f"There is no game #{gid + 1} in this server."
    )


async def test_in_dms_a_game_is_named_to_those_who_hold_a_seat(world):
    svc, _, _ = world
    gid = await _running(svc)
    no_seat = f"You have no seat in game #{gid}."
    assert (await svc.table_for(gid, BOB, None)).row.id == gid
    assert await _refusal(svc.table_for(gid, STRANGER, None)) == no_seat
    assert await _refusal(svc.table_for(gid + 1, STRANGER, None)) == (
        f"You have no seat in game #{gid + 1}."
    )
    await svc.hand_to_ai(gid, ALICE, BOB, False, leaving=True)  # kicked
    await svc.hand_to_ai(gid, ALICE, CARL, False, leaving=False)  # replaced, still Carl's seat
    assert await _refusal(svc.table_for(gid, BOB, None)) == no_seat
    assert (await svc.table_for(gid, CARL, None)).row.id == gid
    # Once the game is over its result belongs to whoever played in it, kicked or not.
    await _play_out(svc, gid)
    for who in (ALICE, BOB, CARL):
        assert (await svc.table_for(gid, who, None)).row.id == gid
    assert await _refusal(svc.table_for(gid, STRANGER, None)) == no_seat


async def test_a_players_games_and_picks_are_those_of_the_server_asked_in(world):
    svc, _, _ = world
    here = await _running(svc, (ALICE, BOB))
    there = await svc.open_table("powerline", THERE, 20, ALICE, "Alice", {}, TableOptions())
    await svc.join(there.row.id, BOB, "Bob")
    await svc.start(there.row.id, ALICE, False)
    ids = [here, there.row.id]

    async def games(guild_id):
        return [t.row.id for t in await svc.games_of(ALICE, guild_id=guild_id)]

    assert await games(HERE) == [here]
    assert await games(THERE) == [there.row.id]
    assert await games(None) == ids
    assert (await svc.pick_game(ALICE, None, guild_id=THERE)).row.id == there.row.id
    assert (await svc.pick_game(ALICE, here, "powerline", guild_id=None)).row.id == here
    assert await _refusal(svc.pick_game(ALICE, here, guild_id=THERE)) == (
        f"There is no game #{here} in this server."
    )
    assert await _refusal(svc.pick_game(ALICE, None, guild_id=None)) == (
        f"You are in several games (#{here}, #{there.row.id}): choose one with the `game` option."
    )
    assert await _refusal(svc.pick_game(CARL, None, guild_id=HERE)) == (
        "You are not in any running game in this server."
    )
    assert await _refusal(svc.pick_game(CARL, here, guild_id=HERE)) == (
        f"You are not playing in game #{here}."
    )
    # A departed player's game is no longer theirs to name, even in its own server.
    await svc.hand_to_ai(here, BOB, BOB, False, leaving=True)
    assert [t.row.id for t in await svc.games_of(BOB, guild_id=None)] == [there.row.id]


async def test_host_powers_follow_the_hosts_seat_and_moderators_keep_theirs(world):
    svc, _, _ = world
    gid = await _running(svc)
    label = f"Powerline game #{gid}"
    await svc.hand_to_ai(gid, CARL, ALICE, True, leaving=False)  # a moderator replaces the host
    assert await _refusal(svc.set_deadline(gid, ALICE, False, 60)) == (
        f"You no longer play your seat in {label}, so you are not its host any more: only a "
        "moderator can change the deadline."
    )
    await svc.reclaim(gid, ALICE)
    assert (await svc.set_deadline(gid, ALICE, False, 60)).row.options["deadline_minutes"] == 60
    await svc.hand_to_ai(gid, ALICE, ALICE, False, leaving=True)
    for call, what in (
        (svc.hand_to_ai(gid, ALICE, BOB, False, leaving=True), "hand a seat to the AI"),
        (svc.set_deadline(gid, ALICE, False, 10), "change the deadline"),
        (svc.cancel(gid, ALICE, False), "cancel the game"),
        (svc.adjudicate(gid, ALICE, False), "adjudicate the game"),
    ):
        assert await _refusal(call) == (
            f"You no longer play your seat in {label}, so you are not its host any more: only a "
            f"moderator can {what}."
        )
    assert await _refusal(svc.set_deadline(gid, BOB, False, 10)) == (
        "Only the host or a moderator can change the deadline."
    )
    table = await svc.table(gid)
    assert table.row.status == "active" and table.row.options["deadline_minutes"] == 60
    assert not table.seats[1].left_game
    await svc.hand_to_ai(gid, CARL, BOB, True, leaving=True)
    assert (await svc.table(gid)).seats[1].left_game


async def test_only_those_who_kept_their_seats_may_start_the_rematch(world):
    svc, _, _ = world
    gid = await _running(svc)
    label = f"Powerline game #{gid}"
    await svc.hand_to_ai(gid, ALICE, BOB, False, leaving=True)  # kicked
    await svc.hand_to_ai(gid, ALICE, ALICE, False, leaving=True)  # the host leaves
    await _play_out(svc, gid)
    for who in (ALICE, BOB):
        assert await _refusal(svc.rematch(gid, who, "X")) == (
            f"You left {label} (or were removed from it): its rematch is for those who finished "
            "it in their seats."
        )
    assert await _refusal(svc.rematch(gid, STRANGER, "X")) == (
        f"Only the players of {label} can start its rematch."
    )
    assert await svc.table_in(10) is None
    # Carl's seat was played by the AI at the end, but it was still his.
    fresh = await svc.rematch(gid, CARL, "Carl")
    assert fresh.row.host_id == CARL and [s.user_id for s in fresh.seats] == [CARL]


async def test_a_seats_secrets_are_its_players_while_it_runs_and_anyones_of_it_after(world):
    svc, _, _ = world
    gid = await _running(svc)
    await svc.hand_to_ai(gid, BOB, BOB, False, leaving=True)
    table = await svc.table(gid)
    assert table.viewer(ALICE) is not None and table.viewer(ALICE).user_id == ALICE
    assert table.viewer(BOB) is None, "who left sees nothing of the seat the AI now plays"
    assert table.viewer(STRANGER) is None
    await _play_out(svc, gid)
    ended = await svc.table(gid)
    assert ended.viewer(BOB) is not None and ended.viewer(BOB).user_id == BOB
