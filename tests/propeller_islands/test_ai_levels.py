"""The AI levels: legal at once under a zero budget, deterministic, strong no worse than casual,
and no ending of the game while another seat leads, where it can be avoided."""

from dataclasses import replace
from functools import cache
from random import Random

from engine.core import CHANCE, LEVELS, Level
from engine.propeller_islands import actions as A
from engine.propeller_islands import autopilot
from engine.propeller_islands.ai_eval import ending
from engine.propeller_islands.components import blueprints
from engine.propeller_islands.game import GAME
from engine.propeller_islands.state import State

from .helpers import G


def _states(seed: int, every: int) -> list[State]:
    """Every `every`-th decision's state of a seeded 2-player game of the standard level."""
    rng, out = Random(seed), []
    s = G.new(G.Config(players=2), seed)
    while not G.is_over(s):
        (seat,) = G.to_act(s)
        if seat == CHANCE:
            s = G.apply(s, CHANCE, G.sample_chance(s, rng))
            continue
        if rng.random() < 1 / every:
            out.append(s)
        s = G.apply(s, seat, autopilot.choose(G.view(s, seat), seat))
    # Seats that avoid ending a game they would lose must not stall it (~15 rounds).
    assert s.round <= 20
    return out


def test_every_level_answers_legally_at_once_and_the_same_twice() -> None:
    for s in _states(3, 25):
        (seat,) = G.to_act(s)
        view, options = G.view(s, seat), G.legal_actions(s, seat)
        for level in LEVELS:
            assert autopilot.choose(view, seat, budget=0.0, level=level) in options
            first = autopilot.choose(view, seat, level=level)
            assert first in options
            assert autopilot.choose(view, seat, level=level) == first


@cache
def _duel(seed: int, strong: int) -> float:
    """Strong's VP less casual's in a seeded 2-player game, strong in seat `strong`."""
    levels: list[Level] = ["casual", "casual"]
    levels[strong] = "strong"
    rng, s = Random(seed), G.new(G.Config(players=2), seed)
    while not G.is_over(s):
        (seat,) = G.to_act(s)
        if seat == CHANCE:
            s = G.apply(s, CHANCE, G.sample_chance(s, rng))
        else:
            s = G.apply(s, seat, autopilot.choose(G.view(s, seat), seat, level=levels[seat]))
    totals = [e["total"] for e in GAME.result(s)["seats"]]
    return totals[strong] - totals[1 - strong]


def test_strong_outscores_casual() -> None:
    gaps = [_duel(seed, seed % 2) for seed in range(4)]
    assert min(gaps) > 10


def _at_last_blueprint(lead: int) -> tuple[State, int, A.Action]:
    """A state where seat 0 may complete its 7th blueprint (ending the game) or end its turn,
    leading the other seat by `lead` VP."""
    for s in _states(5, 1):
        (seat,) = G.to_act(s)
        if seat != 0 or s.turn is None or s.turn.stage != "blueprint" or s.stack == []:
            continue
        complete = [a for a in G.legal_actions(s, 0) if a.type == "complete"]
        if not complete or ending(s):
            continue
        p, other = s.players
        held = {b for q in s.players for b in q.hand + q.completed}
        held |= {b for row in s.bp_offer.values() for b in row}
        spare = [b for b in blueprints() if b not in held][: 6 - len(p.completed)]
        p = replace(p, completed=p.completed + spare)
        if len(p.completed) != 6:
            continue
        s = s.copy()
        s.players = [p, other]
        totals = [e["total"] for e in GAME.result(s)["seats"]]
        s.players[1] = replace(other, fame=other.fame + totals[0] - totals[1] - lead)
        return s, 0, complete[0]
    raise AssertionError("no such blueprint decision")


def test_does_not_end_the_game_while_behind() -> None:
    s, seat, _ = _at_last_blueprint(-8)
    assert autopilot.choose(G.view(s, seat), seat, level="strong").type == "end_turn"
    assert autopilot.choose(G.view(s, seat), seat, level="standard").type == "end_turn"


def test_ends_the_game_while_well_ahead() -> None:
    s, seat, _ = _at_last_blueprint(15)
    assert autopilot.choose(G.view(s, seat), seat, level="strong").type == "complete"
