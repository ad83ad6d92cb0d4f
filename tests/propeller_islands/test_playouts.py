"""Random playouts: no crash, invariants hold, JSON round trip, exact replay, legal = accepted."""

import json
from random import Random

import pytest

from engine.core import CHANCE, IllegalAction
from engine.propeller_islands import actions as A
from engine.propeller_islands.components import rules

from .helpers import G, random_game


def _invariants(s) -> None:
    workers = rules().workers
    for p in s.players:
        assert min(p.energy, p.steel, p.parts, p.fame) >= 0
        assert sum(p.dock) + sum(1 for c in p.cells if c.worker) == workers
        assert len({(c.q, c.r) for c in p.cells}) == len(p.cells)
    placed = [c.tile for p in s.players for c in p.cells if not c.tile.startswith("01")]
    shown = [t for t in s.offer if t]
    held = [t.tile for t in s.tasks if t.tile and t.kind == "place"]
    if s.setup_step >= 3:
        assert len(placed) + len(shown) + len(s.stack) + len(s.discarded) + len(held) == 70
    assert sum(s.forge) <= s.config.dice


@pytest.mark.parametrize("players", [2, 3, 4])
def test_many_random_games(players: int) -> None:
    for seed in range(100):
        rng = Random(seed)
        config = {"capitol_side": "B"} if seed % 3 == 0 else {}
        if seed % 5 == 0 and players < 4:
            config["character_deal"] = 2
        s = G.new(G.Config(players=players, **config), seed)
        while not G.is_over(s):
            (seat,) = G.to_act(s)
            if seat == CHANCE:
                a = G.sample_chance(s, rng)
            else:
                options = G.legal_actions(s, seat)
                assert options, f"seat {seat} has no legal action at {s.phase}"
                a = options[rng.randrange(len(options))] if seed % 2 else None
                if a is None:
                    from engine.propeller_islands.autopilot import random_action

                    a = random_action(options, rng)
            s = G.apply(s, seat, a)
            _invariants(s)
        res = G.result(s)
        assert 1 in res["ranks"] and res["winners"]


def test_round_trip_replay_and_views_every_step() -> None:
    for seed in range(12):
        final, log = random_game(seed, 2 + seed % 3)
        s = G.new(final.config, seed)
        for seat, a in log:
            data = a.model_dump(mode="json")
            assert G.parse_action(json.loads(json.dumps(data))) == a
            s = G.apply(s, seat, data)
            text = G.dump_state(s)
            assert G.dump_state(G.load_state(text)) == text
            for viewer in (None, 0):
                json.dumps(G.view(s, viewer))
        assert G.dump_state(s) == G.dump_state(final)


def test_apply_leaves_the_given_state_unchanged() -> None:
    # Players and tiles are shared between states until an action changes them.
    for seed in range(6):
        final, log = random_game(seed, 2 + seed % 3)
        s = G.new(final.config, seed)
        for seat, a in log:
            before = G.dump_state(s)
            after = G.apply(s, seat, a)
            assert G.dump_state(s) == before
            s = after


def test_every_legal_action_is_accepted_and_others_refused() -> None:
    probes = [
        {"type": "draft", "value": 3},
        {"type": "activate"},
        {"type": "done"},
        {"type": "end_turn"},
        {"type": "keep"},
        {"type": "claim", "space": 5, "at": [1, 0]},
        {"type": "use", "tile": [0, 0], "option": "resources"},
        {"type": "deploy", "from": [1, 1], "to": [0, 0]},
        {"type": "take", "stack": "I"},
    ]
    for seed in range(6):
        _, log = random_game(seed + 100, 3)
        s = G.new(G.Config(players=3), seed)
        for seat, a in log:
            if seat != CHANCE:
                legal = G.legal_actions(s, seat)
                for option in legal:
                    G.apply(s, seat, option)
                dumped = [x.model_dump(mode="json") for x in legal]
                for probe in probes:
                    if probe not in dumped:
                        with pytest.raises(IllegalAction):
                            G.apply(s, seat, probe)
                    other = (seat + 1) % 3
                    with pytest.raises(IllegalAction):
                        G.apply(s, other, probe)
            s = G.apply(s, seat, a)


def test_parse_action_refuses_malformed() -> None:
    for bad in ({"type": "fly"}, {"type": "deploy", "from": [4, 1], "to": [0, 0]}, {"value": 1}):
        with pytest.raises(IllegalAction, match="malformed"):
            G.parse_action(bad)
    assert isinstance(G.parse_action({"type": "claim", "space": 1, "at": (1, 0)}), A.Claim)
