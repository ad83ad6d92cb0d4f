"""Swiss and round-robin events through the service: pairing from the standings, byes,
check-in absences, withdrawals (the AI finishes the seat, never paired again), the champion."""

import itertools
from collections import Counter

import pytest

from bot.service.errors import UserError
from bot.service.options import TableOptions
from bot.service.tournament.runner import Event, Tournaments
from tests.tournament.conftest import ORGANISER

PEOPLE = list(range(200, 217))


def _places():
    counter = itertools.count(7000)

    async def place(label: str, players: list[int]) -> tuple[int, int | None]:
        return 10, next(counter)

    return place


def seated(tables: list[list[int]]) -> set[int]:
    return {p for table in tables for p in table}


async def _tables(svc, games: list[int]) -> list[list[int]]:
    return [[s.user_id for s in (await svc.table(g)).seats] for g in games]


async def _adjudicate(tours: Tournaments, games: list[int]) -> None:
    for gid in games:
        if (await tours.svc.table(gid)).row.status == "active":
            await tours.adjudicate(gid, ORGANISER, False)


async def test_a_17_player_swiss_in_pods_of_4_and_5_with_a_withdrawal(world):
    svc, tours = world
    event = Event(format="swiss", pods=[4, 5])
    t = await tours.create(7, 10, ORGANISER, "Swiss", "powerline", 3, {}, TableOptions(), 9, event)
    for person in PEOPLE:
        await tours.register(t.id, person, f"P{person}")
    place = _places()
    round1 = await tours.start_heat(t.id, ORGANISER, False, place)
    first = await _tables(svc, round1)
    assert sorted(map(len, first)) == [4, 4, 4, 5]
    await _adjudicate(tours, round1)
    standings = await tours.swiss_standings(t.id)
    assert standings.rounds_done == 1 and len(standings.rows) == 17
    assert standings.columns == ["Pts", "Opp", "Wins", "Score"]
    winners = {r.player for r in standings.rows if r.cells[2] == "1"}
    assert len(winners) >= 4 and {r.player for r in standings.rows[:4]} <= winners

    # After round 1 one player withdraws: no running table, and never paired again.
    leaver = PEOPLE[3]
    assert await tours.withdraw(t.id, leaver, leaver, False) == []
    with pytest.raises(UserError, match="not playing"):
        await tours.withdraw(t.id, leaver, leaver, False)
    round2 = await tours.start_heat(t.id, ORGANISER, False, place)
    second = await _tables(svc, round2)
    assert sorted(map(len, second)) == [4, 4, 4, 4] and leaver not in seated(second)
    met = Counter(frozenset(p) for table in first for p in itertools.combinations(table, 2))
    again = [frozenset(p) for table in second for p in itertools.combinations(table, 2)]
    assert not [pair for pair in again if pair in met], "no repeated opponents"
    # Mid-round 2 another withdraws: the AI takes their seat, which stays theirs as forfeited.
    quitter = second[0][1]
    assert await tours.withdraw(t.id, quitter, ORGANISER, True) == [round2[0]]
    seat = (await svc.table(round2[0])).seat_of(quitter)
    assert seat is None, "the seat is the AI's now"
    await _adjudicate(tours, round2)
    round3 = await tours.start_heat(t.id, ORGANISER, False, place)
    third = await _tables(svc, round3)
    assert sorted(map(len, third)) == [5, 5, 5] and not {leaver, quitter} & seated(third)
    assert await tours.champion(t.id) is None
    await _adjudicate(tours, round3)
    standings = await tours.swiss_standings(t.id)
    champion = await tours.champion(t.id)
    assert champion == standings.rows[0].player
    assert (await tours.get(t.id)).stage == "finished"
    gone = {r.player for r in standings.rows if r.withdrawn}
    assert gone == {leaver, quitter}


async def test_a_swiss_round_gives_a_bye_when_the_pods_cannot_seat_everyone(world):
    svc, tours = world
    event = Event(format="swiss", pods=[4])
    t = await tours.create(7, 10, ORGANISER, "Fours", "powerline", 2, {}, TableOptions(), 3, event)
    for person in PEOPLE[:9]:
        await tours.register(t.id, person, f"P{person}")
    round1 = await tours.start_heat(t.id, ORGANISER, False, _places())
    assert sorted(map(len, await _tables(svc, round1))) == [4, 4]
    byes = await tours.bye_names(t.id, 1)
    assert len(byes) == 1
    await _adjudicate(tours, round1)
    standings = await tours.swiss_standings(t.id)
    bye_row = next(r for r in standings.rows if f"P{r.player}" == byes[0])
    assert bye_row.cells[0] == "30", "a bye scores the middle place"
    round2 = await tours.start_heat(t.id, ORGANISER, False, _places())
    assert len(await tours.bye_names(t.id, 2)) == 1
    assert (await tours.bye_names(t.id, 2)) != byes, "nobody gets a second bye before all have one"
    await _adjudicate(tours, round2)


async def test_a_round_robin_meets_everyone_and_replans_after_a_withdrawal(world):
    svc, tours = world
    with pytest.raises(UserError, match="one pod size"):
        await tours.create(
            7,
            10,
            ORGANISER,
            "RR",
            "powerline",
            3,
            {},
            TableOptions(),
            5,
            Event(format="round_robin", pods=[3, 4]),
        )
    event = Event(format="round_robin", pods=[3])
    t = await tours.create(7, 10, ORGANISER, "RR", "powerline", 4, {}, TableOptions(), 5, event)
    for person in PEOPLE[:7]:
        await tours.register(t.id, person, f"P{person}")
    met: Counter[frozenset[int]] = Counter()
    for heat in range(1, 5):
        games = await tours.start_heat(t.id, ORGANISER, False, _places())
        tables = await _tables(svc, games)
        assert all(len(table) == 3 for table in tables) and len(tables) == 2
        met.update(frozenset(p) for table in tables for p in itertools.combinations(table, 2))
        if heat > 1:
            assert PEOPLE[0] not in seated(tables), "the withdrawn are not paired again"
        await _adjudicate(tours, games)
        if heat == 1:
            await tours.withdraw(t.id, PEOPLE[0], PEOPLE[0], False)
    # Six players in threes need four rounds to all meet; the last three leave few unmet.
    stayed = PEOPLE[1:7]
    assert sum(1 for p in itertools.combinations(stayed, 2) if not met[frozenset(p)]) <= 3
    assert (await tours.champion(t.id)) is not None
