"""The autopilot: always legal, from views only, and far stronger than random play."""

from random import Random

from engine.power_grid import autopilot
from tests.power_grid.helpers import G, random_action


def play(players: int, seed: int, auto: set[int], map_name: str = "germany") -> tuple:
    """A seeded game, `auto` seats on autopilot, the rest random; its outcome."""
    rng = Random(seed)
    state = G.new(G.Config(players=players, map=map_name), seed)
    while not G.is_over(state):
        seat = min(G.to_act(state))
        if seat in auto:
            action = autopilot.choose(G.view(state, seat), seat)
        else:
            action = random_action(state, seat, rng)
        state = G.apply(state, seat, action)
    return G.outcome(state)


def test_autopilot_beats_random_in_four_player_games() -> None:
    wins = 0
    for seed in range(12):
        seat = seed % 4
        rows = play(4, seed, {seat}, "usa" if seed % 2 else "germany")
        wins += rows[seat]["rank"] == 1
        random_best = max(r["details"]["powered"] for r in rows if r["seat"] != seat)
        assert rows[seat]["details"]["powered"] >= random_best
    assert wins >= 11


def test_autopilot_plays_whole_games_against_itself() -> None:
    for players in (2, 3, 5, 6):
        rows = play(players, players, set(range(players)), "usa")
        assert max(r["details"]["powered"] for r in rows) >= 10
