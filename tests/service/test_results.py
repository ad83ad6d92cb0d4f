"""Results rows, ratings (incremental = rebuilt), leaderboards and solo scores."""

import sqlite3

import asyncpg
import pytest

from bot.service import ratings, results
from bot.service.options import TableOptions
from bot.store.repo import GameRow, SeatRow
from tests.service.helpers import ALICE, BOB, CARL, fill_draft, open_table_with

GUILD = 7


async def _game(svc, game_id: int, rated: bool = True, guild: int = GUILD) -> GameRow:
    """A stored game row to hang results on (the results table refers to it)."""
    async with svc.repo.transaction() as repo:
        if await repo.game(game_id) is None:
            await repo.insert_game(
                id=game_id,
                game="powerline",
                guild_id=guild,
                channel_id=10 + game_id,
                host_id=ALICE,
                status="finished",
                config={},
                options={},
                seed=1,
                created_at="",
                updated_at="",
            )
    return GameRow(
        game_id,
        "powerline",
        guild,
        10 + game_id,
        None,
        ALICE,
        "finished",
        {"variants": ["contracts"]},
        TableOptions(rated=rated).model_dump(),
        1,
        1,
        None,
        None,
        None,
        None,
    )


def _seat(seat: int, user: int | None, **flags) -> SeatRow:
    return SeatRow(
        1,
        seat,
        user,
        f"p{seat}",
        flags.get("is_ai", user is None),
        flags.get("replaced", False),
        flags.get("left", False),
        0,
        False,
        0,
        False,
    )


def _outcome(*scores: int) -> list[dict]:
    keys = [(s, 0) for s in scores]
    return [
        {
            "seat": i,
            "score": s,
            "rank": 1 + sum(k > key for k in keys),
            "tiebreak": [s, 0],
            "primary": s,
            "secondary": 0,
        }
        for i, (s, key) in enumerate(zip(scores, keys, strict=True))
    ]


async def _record(svc, clock, game_id, seats, outcome, status="finished", **kw):
    clock.advance(minutes=1)
    row = await _game(svc, game_id, **kw)
    async with svc.repo.transaction() as repo:
        await results.record(repo, row, seats, outcome, status, clock.now())


async def _all_ratings(svc) -> list[tuple]:
    rows = await svc.repo.all(
        "SELECT scope, game, user_id, mu, sigma, games FROM ratings ORDER BY scope, user_id"
    )
    return [(r[0], r[1], r[2], round(r[3], 9), round(r[4], 9), r[5]) for r in rows]


async def test_a_finished_game_leaves_one_immutable_row_per_seat(world):
    svc, _, _ = world
    gid = await open_table_with(svc, ai=1)
    table = await svc.start(gid, ALICE, False)
    while table.row.status == "active":
        for uid in (ALICE, BOB):
            await fill_draft(svc, gid, uid)
            table, _ = await svc.submit(gid, uid)
    rows = await svc.results_of(gid)
    assert [r["seat"] for r in rows] == [0, 1, 2] and {r["status"] for r in rows} == {"finished"}
    assert [r["score"] for r in rows] == [p.vp for p in table.state.players]
    assert rows[2]["is_ai"] and rows[2]["user_id"] is None and all(r["rated"] for r in rows)
    assert {r["primary_measure"] for r in rows} == {r["score"] for r in rows}
    refused = (sqlite3.IntegrityError, asyncpg.RaiseError)
    with pytest.raises(refused, match="immutable"):
        await svc.repo.execute("UPDATE results SET score = 999 WHERE game_id = ?", (gid,))
    with pytest.raises(refused, match="kept"):
        await svc.repo.execute("DELETE FROM results WHERE game_id = ?", (gid,))
    board, people = await svc.leaderboard("powerline", 1, 0)
    assert people == 2 and {r["user_id"] for r in board} == {ALICE, BOB}


async def test_cancelled_and_abandoned_games_are_recorded_and_never_rated(world):
    svc, _, _ = world
    lobby = await open_table_with(svc)
    await svc.cancel(lobby, ALICE, False)
    assert {r["status"] for r in await svc.results_of(lobby)} == {"cancelled"}
    running = await svc.open_table("powerline", 1, 30, ALICE, "Alice", {}, TableOptions())
    await svc.join(running.row.id, BOB, "Bob")
    await svc.start(running.row.id, ALICE, False)
    await svc.cancel(running.row.id, ALICE, False)
    rows = await svc.results_of(running.row.id)
    assert {r["status"] for r in rows} == {"abandoned"} and not any(r["rated"] for r in rows)
    assert await _all_ratings(svc) == []


async def test_ai_seats_are_not_rated_and_a_replaced_person_counts_as_last(world):
    svc, clock, _ = world
    seats = [_seat(0, ALICE, replaced=True), _seat(1, None), _seat(2, BOB), _seat(3, CARL)]
    await _record(svc, clock, 1, seats, _outcome(90, 80, 70, 60))
    stored = {(s, u): (mu, games) for s, _, u, mu, _, games in await _all_ratings(svc)}
    assert set(stored) == {(s, u) for s in (0, GUILD) for u in (ALICE, BOB, CARL)}
    mu = {u: stored[(GUILD, u)][0] for u in (ALICE, BOB, CARL)}
    assert mu[BOB] > mu[CARL] > mu[ALICE]  # Alice topped the table but her seat went to the AI


async def test_unrated_tables_and_solo_games_move_no_rating(world):
    svc, clock, _ = world
    await _record(svc, clock, 1, [_seat(0, ALICE), _seat(1, BOB)], _outcome(50, 40), rated=False)
    await _record(svc, clock, 2, [_seat(0, ALICE)], _outcome(104))
    assert await _all_ratings(svc) == []
    solo = await svc.solo_scores("powerline", GUILD)
    assert [(r["user_id"], r["score"]) for r in solo] == [(ALICE, 104)]


async def test_rebuild_gives_the_same_ratings_as_the_incremental_updates(world):
    svc, clock, _ = world
    people = [ALICE, BOB, CARL, 103, 104]
    for n in range(1, 13):
        seats = [_seat(i, u) for i, u in enumerate(_table_of(n, people))]
        scores = [(97 * n + 31 * i) % 60 + 40 for i in range(len(seats))]
        scores[-1] = scores[0]  # a shared rank now and then
        await _record(svc, clock, n, seats, _outcome(*scores), guild=GUILD if n % 3 else 8)
    incremental = await _all_ratings(svc)
    assert len(incremental) > 5
    for scope in (0, GUILD, 8):
        await svc.rebuild_ratings("powerline", scope)
    assert await _all_ratings(svc) == incremental
    board, total = await svc.leaderboard("powerline", 0, 0, per_page=3)
    assert len(board) == 3 and total == 5
    assert [r["conservative"] for r in board] == sorted(
        (r["conservative"] for r in board), reverse=True
    )
    assert all(r["games"] >= r["wins"] for r in board)
    stats = await svc.player_stats("powerline", 0, ALICE)
    alice_games = sum(1 for n in range(1, 13) if ALICE in _table_of(n, people))
    assert len(stats["history"]) == alice_games == len(stats["recent"][:alice_games])
    assert stats["variants"] == [("contracts", min(alice_games, 200))]


def _table_of(n: int, people: list[int]) -> list[int]:
    """Who sat at synthetic game n: a rotating 2-5 of the people."""
    order = people[n % 5 :] + people[: n % 5]
    return order[: 2 + n % 4]


def test_provisional_until_the_uncertainty_falls():
    rating = ratings.fresh()
    current = {1: rating, 2: rating}
    seen = []
    for n in range(14):
        current = ratings.rate(current, [(1, 1 + n % 2), (2, 2 - n % 2)])
        seen.append(current[1].provisional)
    assert seen[0] and not seen[-1]
    assert current[1].conservative == pytest.approx(current[1].mu - 3 * current[1].sigma)
