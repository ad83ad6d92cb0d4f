"""A score reads as players say it, one and many."""

import pytest

from bot.service.hosting import hosting


@pytest.mark.parametrize(
    ("game", "one", "many"),
    [
        ("power_grid", "1 city powered", "12 cities powered"),
        ("railroad_ink", "1 point", "12 points"),
        ("powerline", "1 VP", "12 VP"),
        ("propeller_islands", "1 VP", "12 VP"),
    ],
)
def test_a_score_of_one_is_singular(game: str, one: str, many: str) -> None:
    plugin = hosting(game)
    assert (plugin.score(1), plugin.score(12), plugin.score(None)) == (one, many, "—")
