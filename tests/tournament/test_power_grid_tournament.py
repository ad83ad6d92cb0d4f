"""A whole Power Grid tournament of 26 people through the service, by the seed's format: three
heats, a semifinal of five 5-player tables and a final of six, every table on the WBC house
rules (money hidden, bidding by seat, regions picked by the players), its games played to the
end by AI seats, and the margins computed from cities powered and money."""

import itertools
import time
from types import SimpleNamespace

import pytest

import bot.service.lobby as lobby_module
from bot.service.clock import ManualClock
from bot.service.options import TableOptions
from bot.service.service import Service
from bot.service.tournament.config import tournament_config
from bot.service.tournament.margins import fixed
from bot.service.tournament.runner import Tournaments
from bot.store.database import open_database
from bot.store.repo import Repo

ORGANISER = 1
PEOPLE = list(range(200, 226))


@pytest.fixture
async def world(database_target, monkeypatch):
    # Reproducible games (each its own seed), so the money tiebreaks below are always reached.
    seeds = itertools.count(1000)
    monkeypatch.setattr(lobby_module, "secrets", SimpleNamespace(randbits=lambda _: next(seeds)))
    db = await open_database(database_target)
    svc = Service(Repo(db), ManualClock())
    yield svc, Tournaments(svc)
    await db.close()


def _places():
    counter = itertools.count(7000)

    async def place(label: str, players: list[int]) -> tuple[int, int | None]:
        return 10, next(counter)

    return place


async def _check_wbc_tables(svc: Service, games: list[int]) -> None:
    """Every table plays the house rules; no seat's view shows another seat's money."""
    for gid in games:
        table = await svc.table(gid)
        config = table.row.config
        assert config["hidden_money"] is True and config["bid_order"] == "seat"
        assert config.get("regions") is None and config["map"] == "germany"
        seats = table.game.view(table.state, 0)["seats"]
        assert seats[0]["money"] is not None
        assert all(s["money"] is None for s in seats[1:])


async def _play_out(svc: Service, games: list[int]) -> dict[int, dict[int, tuple[int, int]]]:
    """Every person hands their seat to the AI, which plays the game to its end; per game, each
    player's (cities powered, money) as the engine's final standings give them."""
    out = {}
    for gid in games:
        for seat in (await svc.table(gid)).seats:
            # The casual AI finishes heats level on cities powered (the stronger levels avoid
            # ending a game on a tie), so the money tiebreaks below are reached.
            async with svc.repo.transaction() as repo:
                await repo.update_seat(gid, seat.seat, ai_level="casual")
            await svc.hand_to_ai(gid, seat.user_id, seat.user_id, False, leaving=False)
        table = await svc.table(gid)
        assert table.row.status == "finished"
        users = {s.seat: s.user_id for s in table.seats}
        out[gid] = {
            users[row["seat"]]: (row["details"]["powered"], row["details"]["money"])
            for row in table.game.outcome(table.state)
        }
    return out


def _margin(winner: tuple[int, int], second: tuple[int, int]) -> str:
    """The seed's margin of victory, straight from cities powered and money."""
    if winner[0] > second[0]:
        return f"{winner[0]} / {second[0]} = {fixed(winner[0] / second[0])}"
    return f"({winner[1]} − {second[1]}) / 1000 = {fixed((winner[1] - second[1]) / 1000)}"


def _defeat(own: tuple[int, int], winner: tuple[int, int]) -> str:
    if winner[0] > own[0]:
        return f"{own[0]} / {winner[0]} = {fixed(own[0] / winner[0])}"
    behind = winner[1] - own[1]
    return f"{own[0]} / {winner[0]} = 1.000, lost on tiebreak by {winner[1]} − {own[1]} = {behind}"


async def test_a_power_grid_tournament_of_26_from_registration_to_champion(world):
    svc, tours = world
    started = time.perf_counter()
    config = tournament_config("power_grid", None)
    assert config == {"hidden_money": True, "bid_order": "seat"}
    t = await tours.create(7, 10, ORGANISER, "WBC", "power_grid", 3, config, TableOptions(), 2019)
    for person in PEOPLE:
        await tours.register(t.id, person, f"P{person}")
    place = _places()

    results: dict[int, dict[int, tuple[int, int]]] = {}
    heat1 = await tours.start_heat(t.id, ORGANISER, False, place)
    assert sorted([len((await svc.table(g)).seats) for g in heat1]) == [5, 5, 5, 5, 6]
    await _check_wbc_tables(svc, heat1)
    results |= await _play_out(svc, heat1)
    for person in PEOPLE[:6]:  # six sit heat 2 out: 20 people, four 5-player tables
        await tours.register(t.id, person, "", on=False)
    heat2 = await tours.start_heat(t.id, ORGANISER, False, place)
    assert [len((await svc.table(g)).seats) for g in heat2] == [5, 5, 5, 5]
    results |= await _play_out(svc, heat2)
    for person in PEOPLE[:6]:
        await tours.register(t.id, person, f"P{person}")
    heat3 = await tours.start_heat(t.id, ORGANISER, False, place)
    results |= await _play_out(svc, heat3)

    # The summary sheets are the results rows: rank, cities powered and money per seat.
    heats = await tours.stage_results(t.id, "heat")
    games = heat1 + heat2 + heat3
    assert len(heats) == len(games)
    for gid, game in zip(games, heats, strict=True):
        assert {s.player: (s.primary, s.secondary) for s in game.seats} == results[gid]

    seeding = await tours.seeding(t.id)
    by_game = dict(zip(games, heats, strict=True))
    firsts = {}
    for gid in games:  # each winner's first win, in heat order
        winner, second = by_game[gid].by_rank()[:2]
        firsts.setdefault(winner.player, (gid, second.player))
    assert [e.player for e in seeding.winners] and {e.player for e in seeding.winners} == set(
        firsts
    )
    for entry in seeding.winners:
        gid, second = firsts[entry.player]
        keys = {k.name: k.explain for k in entry.keys}
        expected = _margin(results[gid][entry.player], results[gid][second])
        assert keys["margin of victory"] == f"first win, heat {by_game[gid].heat}: {expected}"
    for entry in seeding.alternates:
        best = next(k for k in entry.keys if k.name == "margin of defeat")
        played = [g for g in games if entry.player in results[g]]
        texts = {
            _defeat(results[g][entry.player], results[g][by_game[g].winner().player])
            for g in played
        }
        assert best.explain.split(": ", 1)[1] in texts
    # These games reach both money tiebreaks: a heat won level on cities powered (margin of
    # victory from money, ÷ 1000) and a level finish ranked above every finish behind on cities.
    explained = [k.explain for e in (*seeding.winners, *seeding.alternates) for k in e.keys]
    assert any(") / 1000 = " in text for text in explained)
    level = [e for e in seeding.alternates if "lost on tiebreak" in e.keys[0].explain]
    assert level and seeding.alternates[: len(level)] == tuple(level)
    # Alternates by closeness: the margins of defeat never increase down the list.
    values = [
        next(k.value for k in e.keys if k.name == "margin of defeat") for e in seeding.alternates
    ]
    assert values == sorted(values, reverse=True)

    assert len(seeding.field) == 25  # 26 present: five 5-player tables
    assert seeding.field[: len(seeding.winners)] == tuple(e.player for e in seeding.winners)
    semis = await tours.start_semifinal(t.id, ORGANISER, False, place)
    assert [len((await svc.table(g)).seats) for g in semis] == [5] * 5
    await _check_wbc_tables(svc, semis)
    semi_results = await _play_out(svc, semis)

    final = await tours.start_final(t.id, ORGANISER, False, place)
    await _check_wbc_tables(svc, [final])
    semi_games = await tours.stage_results(t.id, "semifinal")
    finalists = [s.user_id for s in (await svc.table(final)).seats]
    winners = [g.winner().player for g in semi_games]
    assert finalists[:5] == winners and len(set(finalists)) == 6
    # The sixth: the semifinal's closest finish to its winner (cities powered, then money).
    # (Among equal ratios below 1 later keys decide, so only a level finish keeps its money.)
    closeness = {}
    for g in semi_games:
        w = g.winner()
        for s in g.seats:
            if s.rank != 1:
                level = s.primary == w.primary
                closeness[s.player] = (
                    s.primary / w.primary,
                    s.secondary - w.secondary if level else 0,
                )
    assert closeness[finalists[5]] == max(closeness.values())
    assert all(semi_results[g] for g in semis)
    final_results = await _play_out(svc, [final])
    champion = await tours.winner(t.id)
    assert champion in finalists
    best = max(final_results[final].values())
    assert final_results[final][champion][0] == best[0]  # most cities powered wins
    assert (await tours.get(t.id)).stage == "finished"
    assert time.perf_counter() - started < 60
