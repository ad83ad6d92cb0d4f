"""Game data files (JSON), read by the engines and validated there with pydantic."""

import json
from functools import cache
from importlib import resources
from typing import Any


@cache
def load_json(game: str, name: str) -> Any:
    """Parse `data/<game>/<name>.json` once per process."""
    return json.loads(load_text(game, f"{name}.json"))


def load_text(game: str, file_name: str) -> str:
    """The text of `data/<game>/<file_name>`."""
    return resources.files(__name__).joinpath(game, file_name).read_text("utf-8")
