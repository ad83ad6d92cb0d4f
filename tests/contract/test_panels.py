"""Every "your turn" panel of every turn-based game offers every legal move, along whole games:
a person never has to guess a slash command for a move the rules allow."""

import random

import pytest

from bot.service.hosting import hosted
from bot.ui.turns import action_key
from engine import registry
from engine.core import CHANCE
from tests.contract.games import HOSTED, configs
from tests.contract.panels import explore, turn_view
from tests.contract.test_secrecy import play, replay

TURNS = [n for n in HOSTED if n == "nim" or hosted()[n].turns is not None]


@pytest.mark.parametrize("name", TURNS)
async def test_every_panel_offers_every_legal_move(name: str) -> None:
    game = registry.get(name)
    rng = random.Random(26)
    checked = 0
    for seed, options in enumerate(configs(name)):
        config = game.Config(**options)
        steps = list(replay(game, config, play(game, config, seed)))
        for step in rng.sample(steps, min(40, len(steps))):
            for seat in sorted(game.to_act(step.before) - {CHANCE}):
                tv = turn_view(game, step.before, seat, config.players)
                offered = (await explore(tv)).taps
                missing = [a for a in tv.legal if action_key(a) not in offered]
                assert not missing, f"{name}: the panel lacks {missing[:3]} ({len(missing)})"
                checked += 1
    assert checked >= 10
