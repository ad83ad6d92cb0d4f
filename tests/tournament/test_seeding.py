"""Semifinal seeding: each of the seed's tiebreaks in isolation, the rolls, and the field."""

import random
from collections.abc import Sequence
from itertools import pairwise

import pytest

from bot.service.tournament import (
    Entry,
    HeatGame,
    SeatResult,
    Seeding,
    assign_tables,
    form_tables,
    replay,
    seed_semifinal,
)
from tests.tournament import game

A, B, C = 1, 2, 3


def no_roll(player: int) -> float:
    """Fillers often tie with each other and may roll; the players under test (A, B, C) not."""
    if player in (A, B, C):
        raise AssertionError(f"rolled for player {player} though the keys differ")
    return -player


def order(games: Sequence[HeatGame], roll=no_roll) -> list[int]:
    """The seeded order of the players under test among the winners."""
    return [e.player for e in seed_semifinal(games, 25, roll).winners if e.player in (A, B, C)]


def ours(entries: Sequence[Entry]) -> list[int]:
    """The players under test, in ranked order, without the filler players."""
    return [e.player for e in entries if e.player in (A, B, C)]


def keys(seeding: Seeding, player: int) -> dict[str, str]:
    entry = next(e for e in (*seeding.winners, *seeding.alternates) if e.player == player)
    return {k.name: k.explain for k in entry.keys}


def win(heat: int, player: int, primary: float = 14, second: float = 12, size: int = 5):
    """`player` wins a table of `size`, money $20 vs the runner-up's $10."""
    return game(heat, (player, primary, 20), (None, second, 10), size=size)


def lose(heat: int, player: int, place: int = 2, primary: float = 12, size: int = 5):
    """`player` finishes `place` behind a 14-city winner, scoring `primary` cities and $10."""
    above = [(None, 14, 20)] + [(None, primary, 15)] * (place - 2)
    return game(heat, *above, (player, primary, 10), size=size)


def test_win_in_first_heat_entered_beats_win_in_second() -> None:
    # B's later win is far bigger, and B won the second heat entered; the first heat decides.
    games = [game(1, (A, 14, 20), (B, 12, 10), size=5), game(2, (B, 20, 0), (A, 10, 0), size=5)]
    assert order(games) == [A, B]
    s = seed_semifinal(games, 25, no_roll)
    assert keys(s, A)["win in first heat entered"] == "heat 1: won"
    assert keys(s, B)["win in first heat entered"] == "heat 1: finished 2nd"


def test_first_heat_entered_is_the_lowest_heat_played() -> None:
    # B skipped heat 1, so heat 2 is B's first heat entered, and B won it.
    games = [lose(1, A), win(2, A, 20, 10), win(2, B), lose(3, B)]
    s = seed_semifinal(games, 25, no_roll)
    assert ours(s.winners) == [B, A]
    assert keys(s, B)["win in first heat entered"] == "heat 2: won"


def test_most_wins() -> None:
    # B has the bigger first margin and better finishes; A's second win counts first.
    games = [win(1, A), lose(2, A, 5, 2), lose(3, A, 5, 2), win(4, A)]
    games += [win(1, B, 20, 10), lose(2, B), lose(3, B), lose(4, B)]
    assert order(games) == [A, B]
    assert keys(seed_semifinal(games, 25, no_roll), A)["wins"] == (
        "2 of 4 heats entered (won heats 1, 4)"
    )


def test_win_in_second_heat_entered() -> None:
    games = [win(1, A), win(2, A), lose(3, A)]
    games += [win(1, B, 20, 10), lose(2, B), win(3, B)]
    assert order(games) == [A, B]


def test_win_in_third_heat_entered() -> None:
    games = [win(1, A), lose(2, A), win(3, A), lose(4, A)]
    games += [win(1, B, 20, 10), lose(2, B), lose(3, B), win(4, B)]
    assert order(games) == [A, B]
    assert keys(seed_semifinal(games, 25, no_roll), B)["win in third heat entered"] == (
        "heat 3: finished 2nd"
    )


def test_largest_margin_of_victory_of_the_first_win() -> None:
    # B wins on every later key (cash ratio, table size) and by more in B's second win.
    games = [win(1, A, 14, 12), win(2, A, 13, 12)]
    games += [game(1, (B, 13, 50), (None, 12, 1), size=6), win(2, B, 20, 10)]
    assert order(games) == [A, B]
    s = seed_semifinal(games, 25, no_roll)
    assert keys(s, A)["margin of victory"] == "first win, heat 1: 14 / 12 = 1.167"
    assert keys(s, B)["margin of victory"] == "first win, heat 1: 13 / 12 = 1.083"


def test_tied_margin_falls_to_the_second_win() -> None:
    games = [win(1, A), win(2, A, 15, 12)]
    games += [game(1, (B, 14, 90), (None, 12, 1), size=6), win(2, B, 13, 12)]
    assert order(games) == [A, B]
    assert keys(seed_semifinal(games, 25, no_roll), A)["second-best game"] == (
        "second win, heat 2: 15 / 12 = 1.250"
    )


def test_triple_winners_compare_the_second_win_in_heat_order() -> None:
    # "Second win" is read chronologically: B's heat-2 win beats A's, whatever heat 3 says.
    games = [win(1, A), win(2, A, 13, 12), win(3, A, 20, 10)]
    games += [win(1, B), win(2, B, 15, 12), win(3, B, 13, 12)]
    assert order(games) == [B, A]


def test_tied_margin_of_single_winners_falls_to_the_best_other_game() -> None:
    games = [win(1, A), lose(2, A, 3, 13), lose(3, A, 2, 9)]
    games += [game(1, (B, 14, 90), (None, 12, 1), size=6), lose(2, B, 2, 12), lose(3, B, 2, 12)]
    assert order(games) == [A, B]
    assert keys(seed_semifinal(games, 25, no_roll), A)["second-best game"] == (
        "best other game, heat 2, margin of defeat: 13 / 14 = 0.929"
    )


def test_single_heat_winner_ranks_after_tied_winners_of_two_heats() -> None:
    # B entered one heat: better cash ratio, larger table, average finish 1 against A's 3,
    # yet A's second game exists and B's does not.
    games = [win(1, A), lose(2, A, 5, 3)]
    games += [game(1, (B, 14, 90), (None, 12, 1), size=6)]
    assert order(games) == [A, B]
    assert keys(seed_semifinal(games, 25, no_roll), B)["second-best game"].startswith(
        "single heat entered"
    )


def test_single_heat_winner_with_a_bigger_margin_still_ranks_first() -> None:
    games = [win(1, A), lose(2, A), win(1, B, 15, 12)]
    assert order(games) == [B, A]


def test_tied_margin_falls_to_the_secondary_ratio_of_the_first_win() -> None:
    games = [game(1, (A, 14, 27), (None, 12, 11), size=5)]
    games += [game(1, (B, 14, 20), (None, 12, 10), size=6)]
    assert order(games) == [A, B]
    assert keys(seed_semifinal(games, 25, no_roll), A)["secondary ratio"] == (
        "first win, heat 1: 27 / 11 = 2.455"
    )


def test_tied_margin_and_ratio_fall_to_the_larger_table() -> None:
    games = [win(1, A, size=6), win(1, B, size=5)]
    assert order(games) == [A, B]
    games = [win(1, A, size=4), win(1, B, size=5)]
    assert order(games) == [B, A]


def test_average_finish_after_the_margins() -> None:
    # Both best other games are a 12 / 14: A's from a 3rd place, B's from a 2nd place.
    games = [win(1, A), lose(2, A, 3, 12), lose(3, A, 3, 5)]
    games += [win(1, B), lose(2, B, 2, 12), lose(3, B, 5, 5)]
    assert order(games) == [A, B]
    s = seed_semifinal(games, 25, no_roll)
    assert keys(s, A)["average finish"] == "(1 + 3 + 3) / 3 = 2.33 (lower is better)"
    assert keys(s, B)["average finish"] == "(1 + 2 + 5) / 3 = 2.67 (lower is better)"


def test_roll_only_when_everything_ties_and_rolls_replay() -> None:
    # Two-seat tables keep fillers out of the winners; their 12 / 14 losses tie, so fillers
    # roll too: -player, consulted only for them.
    games = [win(1, A, size=2), win(1, B, size=2), win(1, C, 15, 12, size=2)]
    calls: list[int] = []

    def die(player: int) -> float:
        calls.append(player)
        return {A: 2, B: 5}.get(player, -player)

    s = seed_semifinal(games, 25, die)
    assert [e.player for e in s.winners] == [C, B, A]
    assert sorted(p for p in calls if p in (A, B, C)) == [A, B]  # C's margin differs
    assert {p: s.rolls[p] for p in (A, B)} == {A: (2.0,), B: (5.0,)} and C not in s.rolls
    assert keys(s, B)["roll"] == "5" and keys(s, C)["roll"] == "not needed"
    assert seed_semifinal(games, 25, replay(s.rolls)) == s
    flipped = seed_semifinal(games, 25, replay({**s.rolls, A: [6], B: [1]}))
    assert [e.player for e in flipped.winners] == [C, A, B]


def test_tied_rolls_are_rolled_again() -> None:
    games = [win(1, A, size=2), win(1, B, size=2), win(1, C, size=2)]
    fillers = {t.player: [-t.player] for g in games for t in g.seats if t.player not in (A, B, C)}
    s = seed_semifinal(games, 25, replay({**fillers, A: [4, 1], B: [4, 6], C: [5]}))
    assert [e.player for e in s.winners] == [C, B, A]
    assert {p: s.rolls[p] for p in (A, B, C)} == {A: (4.0, 1.0), B: (4.0, 6.0), C: (5.0,)}
    assert keys(s, A)["roll"] == "4, then 1"


def test_a_die_that_always_ties_is_an_error() -> None:
    with pytest.raises(ValueError, match="still tie after 20 rolls"):
        seed_semifinal([win(1, A), win(1, B)], 25, lambda _: 3)


def test_alternates_rank_by_how_close_not_by_place() -> None:
    # C came 3rd but within a city of the winner; B came 2nd, four cities behind.
    games = [game(1, (A, 14, 20), (None, 14, 5), (C, 13, 9), size=5), lose(1, B, 2, 10)]
    s = seed_semifinal(games, 25, no_roll)
    alternates = [e.player for e in s.alternates]
    assert alternates.index(C) < alternates.index(B)
    assert keys(s, C)["margin of defeat"] == "best, heat 1, 3rd of 5: 13 / 14 = 0.929"
    assert keys(s, B)["margin of defeat"] == "best, heat 1, 2nd of 5: 10 / 14 = 0.714"


def test_alternate_margin_is_the_best_heat() -> None:
    games = [lose(1, A, 2, 7), lose(2, A, 4, 13), lose(1, B, 2, 12), lose(2, B, 2, 12)]
    s = seed_semifinal(games, 25, no_roll)
    assert ours(s.alternates) == [A, B]
    assert keys(s, A)["margin of defeat"] == "best, heat 2, 4th of 5: 13 / 14 = 0.929"


def test_loss_on_tiebreak_beats_a_loss_on_the_primary_measure() -> None:
    games = [game(1, (None, 14, 27), (A, 14, 11), size=5), lose(1, B, 2, 13)]
    s = seed_semifinal(games, 25, no_roll)
    assert [e.player for e in s.alternates][:2] == [A, B]
    assert keys(s, A)["margin of defeat"] == (
        "best, heat 1, 2nd of 5: 14 / 14 = 1.000, lost on tiebreak by 27 − 11 = 16"
    )


def test_a_level_finish_far_behind_on_the_secondary_still_beats_a_closer_primary() -> None:
    # A is level on 14 cities and $70 behind; B powers 15 of 16: A's finish is the closer.
    games = [game(1, (None, 14, 80), (A, 14, 10), size=5), game(1, (None, 16, 0), (B, 15, 90))]
    s = seed_semifinal(games, 25, no_roll)
    assert ours(s.alternates) == [A, B]


def test_level_finishes_rank_by_how_far_behind_before_the_second_game() -> None:
    # B's second game is far better, but A lost its level finish by $2 and B by $9.
    games = [game(1, (None, 12, 12), (A, 12, 10), size=5), lose(2, A, 5, 3)]
    games += [game(1, (None, 12, 19), (B, 12, 10), size=5), lose(2, B, 2, 13)]
    s = seed_semifinal(games, 25, no_roll)
    assert ours(s.alternates) == [A, B]
    assert keys(s, B)["margin of defeat"] == (
        "best, heat 1, 2nd of 5: 12 / 12 = 1.000, lost on tiebreak by 19 − 10 = 9"
    )


def test_alternate_ties_second_game_then_ratio_then_table() -> None:
    games = [lose(1, A), lose(2, A, 2, 10), lose(1, B), lose(2, B, 2, 8, size=6)]
    games += [lose(1, C, size=6)]  # one game only: after A and B despite the larger table
    s = seed_semifinal(games, 25, no_roll)
    assert [e.player for e in s.alternates][:3] == [A, B, C]

    richer = game(1, (None, 14, 25), (A, 12, 20), size=5)
    poorer = game(1, (None, 14, 25), (B, 12, 10), size=6)
    s = seed_semifinal([richer, poorer], 25, no_roll)
    assert [e.player for e in s.alternates][:2] == [A, B]
    assert keys(s, A)["secondary ratio"] == "heat 1, 2nd of 5: 20 / 25 = 0.800"

    s = seed_semifinal([lose(1, A, size=6), lose(1, B, size=5)], 25, no_roll)
    assert [e.player for e in s.alternates][:2] == [A, B]


def _single_winners(n: int) -> list[HeatGame]:
    """n heat-1 tables of 5; player i wins table i by (10 + i) / 10, so higher i seeds first."""
    return [
        game(1, (i, 10 + i, 0), (100 + i, 10, 0), *[(None, 9 - k, 0) for k in range(3)])
        for i in range(1, n + 1)
    ]


def test_more_winners_than_seats_take_the_top_winners() -> None:
    s = seed_semifinal(_single_winners(27), 25, no_roll)
    assert s.field == tuple(range(27, 2, -1))
    assert len(s.winners) == 27


def test_alternates_fill_the_field_by_margin_of_defeat() -> None:
    s = seed_semifinal(_single_winners(3), 5, no_roll)
    # Runners-up 101..103 all lost 10 / (10 + i): the closest is at the smallest margin.
    assert s.field == (3, 2, 1, 101, 102)


def test_absent_players_are_skipped() -> None:
    s = seed_semifinal(_single_winners(3), 5, no_roll, absent={2, 101})
    assert s.field[:3] == (3, 1, 102) and len(s.field) == 5
    assert all(e.player not in {2, 101} for e in (*s.winners, *s.alternates))


def test_a_player_twice_in_one_heat_is_refused() -> None:
    with pytest.raises(ValueError, match="played twice in heat 1"):
        seed_semifinal([win(1, A), lose(1, A)], 25, no_roll)


def _random_heats(rng: random.Random) -> list[HeatGame]:
    """Three heats of a 40-player pool with narrow scores, so full ties (and rolls) happen."""
    games = []
    for heat in (1, 2, 3):
        present = rng.sample(range(1, 41), rng.randint(10, 40))
        for table in assign_tables(present, form_tables(len(present)), rng):
            scores = sorted(((rng.randint(5, 7), rng.randint(0, 2)) for _ in table), reverse=True)
            seats = [
                SeatResult(player=p, rank=i + 1, primary=a, secondary=b)
                for i, (p, (a, b)) in enumerate(zip(table, scores, strict=True))
            ]
            games.append(HeatGame(heat=heat, table_size=len(table), seats=seats))
    return games


def test_random_heats_give_a_total_deterministic_order() -> None:
    rolled = 0
    for seed in range(40):
        games = _random_heats(random.Random(seed))
        die = random.Random(1000 + seed)
        s = seed_semifinal(games, 25, lambda _, die=die: die.randint(1, 6))
        winners = [e.player for e in s.winners]
        expected = {seat.player for g in games for seat in g.seats if seat.rank == 1}
        assert sorted(winners) == sorted(expected)  # every winner exactly once
        everyone = {seat.player for g in games for seat in g.seats}
        assert {e.player for e in s.alternates} == everyone - expected
        for ranked in (s.winners, s.alternates):
            sort_keys = [e.sort_key for e in ranked]
            assert all(a < b for a, b in pairwise(sort_keys))
        assert s.field == tuple(winners[:25]) + tuple(
            e.player for e in s.alternates[: max(0, 25 - len(winners))]
        )
        assert seed_semifinal(games, 25, replay(s.rolls)) == s
        die = random.Random(1000 + seed)
        assert seed_semifinal(games, 25, lambda _, die=die: die.randint(1, 6)) == s
        assert all(len(e.keys) == 10 and all(k.explain for k in e.keys) for e in s.winners)
        rolled += bool(s.rolls)
    assert rolled >= 10  # the narrow scores really did reach the last tiebreak
