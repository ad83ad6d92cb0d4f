"""Every hosted game's autopilot as the bot runs it: in its worker processes (the autopilot and
its answer cross a process boundary), and within a budget (out of time at once, it still
answers with a legal move)."""

from functools import partial
from random import Random

import pytest

from bot import workers
from bot.service.hosting import hosted
from engine import registry
from engine.core import CHANCE, play_out, step
from tests.contract.games import HOSTED, configs


@pytest.mark.parametrize("name", HOSTED)
def test_an_autopilot_out_of_time_still_moves_legally(name: str) -> None:
    game, choose = registry.get(name), hosted()[name].choose
    state = game.new(game.Config(**configs(name)[0]), 7)

    def hurried(state: object, seat: int) -> object:
        return choose(game.view(state, seat), seat, budget=0.0)

    # apply refuses an illegal move, so a whole game played in no time at all is the check.
    assert game.is_over(play_out(game, state, Random(7), hurried))


@pytest.mark.parametrize("name", HOSTED)
async def test_an_autopilot_decides_the_same_in_a_worker_process(name: str) -> None:
    game, choose = registry.get(name), hosted()[name].choose
    state, rng = game.new(game.Config(**configs(name)[0]), 3), Random(3)

    def auto(state: object, seat: int) -> object:
        return choose(game.view(state, seat), seat)

    state = step(game, state, rng, auto)
    while not game.to_act(state) - {CHANCE}:
        state = step(game, state, rng, auto)
    seat = min(game.to_act(state) - {CHANCE})
    view = game.view(state, seat)
    assert await workers.think(partial(choose, budget=None), view, seat) == choose(view, seat)
