"""A whole tournament of 30 people through the service, its games played by AI seats."""

import itertools

import pytest

from bot.service.errors import UserError
from bot.service.options import TableOptions
from bot.service.service import Service
from tests.tournament.conftest import ORGANISER

PEOPLE = list(range(100, 130))


async def _play_out(svc: Service, games: list[int]) -> None:
    """Every person hands their seat to the AI, which then plays the game to its end."""
    for gid in games:
        table = await svc.table(gid)
        for seat in table.seats:
            if seat.user_id is not None and not seat.is_ai:
                await svc.hand_to_ai(gid, seat.user_id, seat.user_id, False, leaving=False)
        assert (await svc.table(gid)).row.status == "finished"


def _places():
    counter = itertools.count(5000)

    async def place(label: str, players: list[int]) -> tuple[int, int | None]:
        return 10, next(counter)

    return place


async def test_a_tournament_of_thirty_from_registration_to_champion(world):
    svc, tours = world
    t = await tours.create(7, 10, ORGANISER, "Spring Cup", "powerline", 3, {}, TableOptions(), 42)
    for person in PEOPLE:
        await tours.register(t.id, person, f"P{person}")
    place = _places()
    with pytest.raises(UserError, match="organiser"):
        await tours.start_heat(t.id, PEOPLE[0], False, place)

    heat1 = await tours.start_heat(t.id, ORGANISER, False, place)
    assert len(heat1) == 6  # 30 people: six 5-player tables
    with pytest.raises(UserError, match="still being played"):
        await tours.start_heat(t.id, ORGANISER, False, place)
    await _play_out(svc, heat1)
    for person in PEOPLE[:8]:  # eight sit heat 2 out
        await tours.register(t.id, person, "", on=False)
    heat2 = await tours.start_heat(t.id, ORGANISER, False, place)
    assert sorted([len((await svc.table(g)).seats) for g in heat2]) == [5, 5, 6, 6]
    await _play_out(svc, heat2)
    for person in PEOPLE[:8]:
        await tours.register(t.id, person, f"P{person}")
    heat3 = await tours.start_heat(t.id, ORGANISER, False, place)
    await _play_out(svc, heat3)
    with pytest.raises(UserError, match="closed"):
        await tours.register(t.id, 999, "Late")

    seeding = await tours.seeding(t.id)
    winners = [e.player for e in seeding.winners]
    heats = await tours.stage_results(t.id, "heat")
    assert len(heats) == len(heat1 + heat2 + heat3)
    table_winners = {g.winner().player for g in heats}
    assert len(winners) == len(set(winners)) and set(winners) == table_winners
    assert len(seeding.field) == 25 and seeding.field[: len(winners)] == tuple(winners)
    assert all(e.explain() for e in seeding.winners)
    semis = await tours.start_semifinal(t.id, ORGANISER, False, place)
    assert sorted([len((await svc.table(g)).seats) for g in semis]) == [5] * 5
    again = await tours.seeding(t.id)  # the stored rolls replay the same order
    assert again.field == seeding.field
    with pytest.raises(UserError, match="final starts once"):
        await tours.start_final(t.id, ORGANISER, False, place)
    await _play_out(svc, semis)

    final = await tours.start_final(t.id, ORGANISER, False, place)
    table = await svc.table(final)
    semi_winners = {g.winner().player for g in await tours.stage_results(t.id, "semifinal")}
    finalists = {s.user_id for s in table.seats}
    assert len(finalists) == 6 and semi_winners <= finalists
    assert await tours.winner(t.id) is None
    await _play_out(svc, [final])
    champion = await tours.winner(t.id)
    assert champion in finalists
    assert (await tours.get(t.id)).stage == "finished"


async def test_an_adjudicated_game_counts_for_the_heat_unrated(world):
    svc, tours = world
    t = await tours.create(7, 10, ORGANISER, "Cup", "powerline", 1, {}, TableOptions(), 1)
    for person in PEOPLE[:5]:
        await tours.register(t.id, person, f"P{person}")
    [gid] = await tours.start_heat(t.id, ORGANISER, False, _places())
    with pytest.raises(UserError, match="Only the host or a moderator"):
        await tours.adjudicate(gid, PEOPLE[1] + 1000, False)
    await tours.adjudicate(gid, ORGANISER, False)  # the organiser may, without being a moderator
    rows = await svc.results_of(gid)
    assert {r["status"] for r in rows} == {"adjudicated"} and not any(r["rated"] for r in rows)
    games = await tours.stage_results(t.id, "heat")
    assert len(games) == 1 and sorted(s.rank for s in games[0].seats) == [1, 2, 3, 4, 5]
