"""The games the contract suite holds to the contract: every registered (and hosted) game, and
Nim, the fixture a newcomer added by following docs/architecture.md."""

from typing import Any

from bot.service.hosting import hosted
from engine import registry
from tests.contract.test_secrecy import SECRETS
from tests.fixtures import nim

GAMES = [*registry.names(), nim.NAME]
HOSTED = sorted([*hosted(), nim.NAME])


def configs(name: str) -> list[dict[str, Any]]:
    """The configs each game is played in (a game with secrets names its own beside its twin)."""
    return SECRETS[name].configs if name in SECRETS else [{"players": 2}]
