"""Every image a hosted game's presenter posts draws from the views of a whole seeded game and
stays legible on a phone, taken from the registry: a new game is checked without a line here."""

from typing import Any

import pytest

from bot.ui.presenter import Presenter, presenter
from engine import registry
from tests.contract.games import HOSTED, configs
from tests.contract.test_secrecy import play, replay
from tests.render.test_phone import ON_DEMAND, PHONE_TEXT, smallest_on_phone

NAMES = ["Ada", "Ben", "Chloé", "Dev", "Eli", "Fay"]


def drawings(show: Presenter, name: str, options: dict[str, Any]) -> dict[str, Any]:
    """What the presenter posts along a seeded game, by "image at step" label."""
    game = registry.get(name)
    config = game.Config(**options)
    steps = list(replay(game, config, play(game, config, 9)))
    names = NAMES[: config.players]
    marks = {len(steps) // 3, 2 * len(steps) // 3, len(steps) - 1}
    out: dict[str, Any] = {}
    for i, step in enumerate(steps):
        state = step.after
        public = game.view(state, None)
        ended = game.progress(step.before)
        if show.phase_image is not None and game.progress(state).phase != ended.phase:
            phase = [ended.round, ended.phase]
            out[f"phase_image {i}"] = lambda v=public, p=phase: show.phase_image(v, names, p)
        if i not in marks:
            continue
        out[f"status_image {i}"] = lambda v=public: show.status_image(v, names)
        mine = game.view(state, 0)
        out[f"board {i}"] = lambda v=mine: show.board(v, 0, names)
        for field in ("roll", "round_image", "panel_image"):
            draw = getattr(show, field)
            if draw is not None and not game.is_over(state):
                out[f"{field} {i}"] = lambda v=public, d=draw: d(v, names)
    end = game.view(steps[-1].after, None)
    out["results"] = lambda: show.results(end, names)
    return out


@pytest.mark.parametrize("name", HOSTED)
def test_every_posted_image_of_a_whole_game_reads_on_a_phone(name: str) -> None:
    show = presenter(name)
    drawn = 0
    for options in configs(name):
        for label, draw in drawings(show, name, options).items():
            if draw() is None:
                continue  # a phase that posts no image
            height, text, width = smallest_on_phone(lambda d=draw: _png(d()))
            drawn += 1
            if f"{name} {label.split()[0]}" in ON_DEMAND:
                continue
            assert height >= PHONE_TEXT, f"{label}: {text!r} is {height:.1f} px ({width} px wide)"
    assert drawn >= 8


def _png(made: bytes | tuple[str, bytes]) -> bytes:
    """The image of a post (a phase image comes with its caption)."""
    return made[1] if isinstance(made, tuple) else made
