"""The engine contract, held for every registered game: whole games to the end with every state
and action through JSON, `apply` never changing its input, every legal action accepted, and the
log replaying to the same state."""

import random
from itertools import islice

import pytest

from engine import registry
from engine.core import CHANCE
from tests.contract.games import GAMES, configs
from tests.contract.test_secrecy import play, replay


@pytest.mark.parametrize("name", GAMES)
def test_a_whole_game_goes_through_json_and_replays(name: str) -> None:
    game = registry.get(name)
    for seed, options in enumerate(configs(name)):
        config = game.Config(**options)
        log = play(game, config, seed)
        state = game.new(config, 0)
        for seat, action in log:
            before = game.dump_state(state)
            assert game.dump_state(game.load_state(before)) == before
            parsed = game.parse_action(action)
            assert parsed.model_dump(mode="json", by_alias=True) == action
            after = game.apply(state, seat, parsed)
            assert game.dump_state(state) == before, "apply changed the state it was given"
            state = game.load_state(game.dump_state(after))
        assert state is not None and game.is_over(state)
        assert game.to_act(state) == set()
        rows = game.outcome(state)
        assert sorted(r["seat"] for r in rows) == list(range(config.players))
        assert min(r["rank"] for r in rows) == 1


@pytest.mark.parametrize("name", GAMES)
def test_every_legal_action_is_accepted(name: str) -> None:
    """At points along a game, a sample of each acting seat's legal actions all apply."""
    game = registry.get(name)
    config = game.Config(**configs(name)[0])
    log = play(game, config, 11)
    rng = random.Random(25)
    steps = list(replay(game, config, log))
    tried = 0
    for step in rng.sample(steps, min(15, len(steps))):
        for seat in game.to_act(step.before) - {CHANCE}:
            # Plans of the simultaneous games number in the thousands: the first few will do.
            legal = list(islice(game.legal_actions(step.before, seat), 60))
            assert legal, f"seat {seat} owes a move but has none"
            for action in rng.sample(legal, min(5, len(legal))):
                game.apply(step.before, seat, action)
                tried += 1
    assert tried >= min(15, len(steps))
