"""Games by name."""

from importlib import import_module

from engine.core import Game

_MODULES = {
    "powerline": "engine.powerline",
    "railroad_ink": "engine.railroad_ink",
    "power_grid": "engine.power_grid",
    "propeller_islands": "engine.propeller_islands",
}


def names() -> list[str]:
    """The registered game names, sorted."""
    return sorted(_MODULES)


def get(name: str) -> Game:
    """The game object registered as `name`."""
    try:
        module = _MODULES[name]
    except KeyError:
        raise KeyError(f"Unknown game {name!r}; known games: {', '.join(names())}") from None
    return import_module(module).GAME
