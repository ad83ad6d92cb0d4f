"""The autopilot plays legal actions from views, beats random play and works its island."""

from functools import cache
from random import Random

from engine.core import CHANCE
from engine.propeller_islands import autopilot
from engine.propeller_islands.island import island_workers
from engine.propeller_islands.state import State

from .helpers import G


@cache
def _game(seed: int, ai: int) -> State:
    """The final state of a 3-player game with the autopilot in seat `ai`, random elsewhere."""
    rng = Random(seed)
    s = G.new(G.Config(players=3), seed)
    while not G.is_over(s):
        (seat,) = G.to_act(s)
        if seat == CHANCE:
            a = G.sample_chance(s, rng)
        elif seat == ai:
            a = autopilot.choose(G.view(s, seat), seat)
            assert a in G.legal_actions(s, seat)
        else:
            a = autopilot.random_action(G.legal_actions(s, seat), rng)
        s = G.apply(s, seat, a)
    return s


def test_autopilot_beats_random() -> None:
    ai_scores, random_scores = [], []
    for seed in range(4):
        scores = [e["total"] for e in G.result(_game(seed, seed % 3))["seats"]]
        ai_scores.append(scores[seed % 3])
        random_scores += [x for i, x in enumerate(scores) if i != seed % 3]
    assert sum(ai_scores) / 4 > 2 * sum(random_scores) / 8


def test_autopilot_deploys_workers_and_completes_blueprints() -> None:
    # The old weighting ended games with ~2 workers on its island and ~3.6 blueprints.
    players = [_game(seed, seed % 3).players[seed % 3] for seed in range(4)]
    assert sum(island_workers(p) for p in players) / 4 >= 8
    assert sum(len(p.completed) for p in players) / 4 >= 5


def test_state_from_view_matches_the_seat_facts() -> None:
    rng = Random(5)
    s = G.new(G.Config(players=3), 5)
    for _ in range(120):
        (seat,) = G.to_act(s)
        a = G.sample_chance(s, rng) if seat == CHANCE else autopilot.act(s, seat)
        s = G.apply(s, seat, a)
    while G.to_act(s) == {CHANCE}:
        s = G.apply(s, CHANCE, G.sample_chance(s, rng))
    (seat,) = G.to_act(s)
    rebuilt = autopilot.state_from_view(G.view(s, seat), seat)
    assert G.legal_actions(rebuilt, seat) == G.legal_actions(s, seat)
    assert rebuilt.players[seat] == s.players[seat]
