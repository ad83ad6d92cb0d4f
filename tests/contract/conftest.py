"""The contract suite's fixtures: the stand-in and the bot of `tests/bot`, and Nim installed for
the tests that play it."""

from collections.abc import Iterator

import pytest

from tests.bot.conftest import bot, bots, clock, fixed_seed, scene, server
from tests.fixtures import nim

__all__ = ["bot", "bots", "clock", "fixed_seed", "scene", "server"]


@pytest.fixture(autouse=True)
def fixture_game(request: pytest.FixtureRequest) -> Iterator[None]:
    """Nim is hosted while a test of it runs, and only then."""
    callspec = getattr(request.node, "callspec", None)
    if callspec is not None and callspec.params.get("name") == nim.NAME:
        with nim.installed():
            yield
    else:
        yield
