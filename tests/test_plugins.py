"""A game is one plug-in: outside its own package on each layer, nothing names it."""

import re
from pathlib import Path

from bot.service.hosting import hosted
from engine import registry

ROOT = Path(__file__).resolve().parent.parent
SHARED = ["render/common.py", "render/leaderboard.py", "render/__init__.py"]
"""Render's shared modules; each game's images live in `render/<game>…` of their own."""


def _names() -> re.Pattern[str]:
    words = set()
    for name in registry.names():
        game = registry.get(name)
        words |= {name.replace("_", " "), game.title.lower()}
    words |= {g.command for g in hosted().values()}
    # Whole words: a game called "nim" must not forbid "minimum".
    names = "|".join(sorted(map(re.escape, words), key=len, reverse=True))
    return re.compile(rf"\b(?:{names})\b")


def _platform_files() -> list[Path]:
    files = [p for p in (ROOT / "bot").rglob("*.py") if "games" not in p.relative_to(ROOT).parts]
    return files + [ROOT / "bot/games/__init__.py"] + [ROOT / s for s in SHARED]


def test_the_platform_never_names_a_game():
    pattern = _names()
    found = []
    for path in _platform_files():
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            hit = pattern.search(line.lower().replace("_", " "))
            if hit:
                found.append(f"{path.relative_to(ROOT)}:{number}: {hit.group()}")
    assert not found, "\n".join(found)


def test_the_grep_would_catch_a_game_name():
    pattern = _names()
    assert pattern.search("from bot.games.railroad_ink import x".replace("_", " "))
    assert pattern.search('if game == "power grid":')
    assert pattern.search("/powergrid open")
    assert not pattern.search("a powerlineup, a powergridlock, propellers")
    assert len(_platform_files()) > 20


def test_every_hosted_game_is_one_package_with_its_parts():
    for name, plugin in hosted().items():
        package = ROOT / "bot" / "games" / name
        assert plugin.name == name and registry.get(name).title == plugin.title
        for part in ("plugin.py", "presenter.py", "cog.py"):
            assert (package / part).is_file(), f"{name} lacks {part}"
