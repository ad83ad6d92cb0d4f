"""The autopilot plays legal actions from views and beats random play."""

from random import Random

from engine.core import CHANCE
from engine.propeller_islands import autopilot

from .helpers import G


def _game(seed: int, ai: int) -> list[int]:
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
    return [e["total"] for e in G.result(s)["seats"]]


def test_autopilot_beats_random() -> None:
    ai_scores, random_scores = [], []
    for seed in range(4):
        scores = _game(seed, seed % 3)
        ai_scores.append(scores[seed % 3])
        random_scores += [x for i, x in enumerate(scores) if i != seed % 3]
    assert sum(ai_scores) / 4 > 2 * sum(random_scores) / 8


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
