"""Game data files (JSON), read by the engines and validated there with pydantic."""

import json
from functools import cache
from importlib import resources
from typing import Any


@cache
def load_json(game: str, name: str) -> Any:
    """Parse `data/<game>/<name>.json` once per process."""
    return json.loads(resources.files(__name__).joinpath(game, f"{name}.json").read_text("utf-8"))
