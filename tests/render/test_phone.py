"""Every image the bot posts stays legible on a phone: shown 390 px wide, no text under 9 px.

Each image is drawn from real seeded states while every text draw is recorded with its font
size; a text's height on the phone is its font size scaled by 390 / the image's width (images
no wider than a phone are shown as they are).
"""

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import fields
from functools import cache
from random import Random
from typing import Any
from unittest.mock import patch

import pytest
from PIL import ImageDraw

from bot.ui.presenter import Presenter, presenter
from engine import registry
from engine.core import step
from engine.powerline import autopilot as pl_autopilot
from engine.railroad_ink import autopilot as ri_autopilot
from render.leaderboard import leaderboard
from render.preview import (
    NAMES,
    POWER_GRID,
    PROPELLER_ISLANDS,
    RAILROAD_INK,
    play_until,
    power_grid_state,
    propeller_islands_state,
)
from tests.render.pngs import decode

PHONE_WIDTH = 390
PHONE_TEXT = 9
SEED = 7

ON_DEMAND = {"power_grid board": "the whole map, asked for with /game board and zoomed"}
"""Images too big for a phone by design; what is posted unasked shows a focused part."""

IMAGES = ("board", "results", "status_image", "roll", "round_image", "draft_board")
TURN_IMAGES = ("panel_image", "phase_image")
"""The Presenter fields that draw images."""

POWERLINE = registry.get("powerline")


@contextmanager
def recorded() -> Iterator[list[tuple[float, str]]]:
    """Every non-blank text drawn inside the block, as (font size in px, text)."""
    seen: list[tuple[float, str]] = []
    original = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
        words = text if isinstance(text, str) else getattr(text, "text", str(text))
        fnt = kwargs.get("font", args[1] if len(args) > 1 else None)
        fnt = fnt if fnt is not None else getattr(text, "font", None)
        if str(words).strip():
            seen.append((float(getattr(fnt, "size", 0)), str(words)))
        original(self, xy, text, *args, **kwargs)

    with patch.object(ImageDraw.ImageDraw, "text", text):
        yield seen


def smallest_on_phone(draw: Callable[[], bytes]) -> tuple[float, str, int]:
    """The smallest text of an image as seen on a phone: (height in px, text, image width)."""
    with recorded() as seen:
        data = draw()
    width = decode(data).width
    scale = PHONE_WIDTH / max(width, PHONE_WIDTH)
    size, words = min(seen, default=(float("inf"), ""))
    return size * scale, words, width


# ---- real states, played from seeds -------------------------------------------------------


@cache
def _powerline(players: int, variants: frozenset[str], round_: int | None) -> Any:
    return play_until(players, variants, seed=SEED, round_=round_)


def _powerline_draft(players: int) -> tuple[dict[str, Any], int, list[str], list[dict[str, Any]]]:
    """Seat 1's view mid-game with the autopilot's plan as its draft."""
    state = _powerline(players, frozenset({"adventure_island"}), 5)
    plan = pl_autopilot.act(state, 1).model_dump(mode="json")
    return POWERLINE.view(state, 1), 1, list(NAMES[:players]), plan["placements"]


@cache
def _railroad(players: int, over: bool) -> Any:
    config = RAILROAD_INK.Config(
        players=players, expansions=frozenset({"street_lamps", "power_grid"})
    )
    state, rng = RAILROAD_INK.new(config, SEED), Random(SEED)
    while not RAILROAD_INK.is_over(state) and (over or state.round < 4 or state.phase != "plan"):
        state = step(RAILROAD_INK, state, rng, ri_autopilot.act)
    return state


def _railroad_draft() -> tuple[dict[str, Any], int, list[str], list[dict[str, Any]]]:
    """Seat 0's view in round 4 with all but the last step of the autopilot's plan drafted."""
    state = _railroad(2, over=False)
    steps = [s.model_dump(mode="json") for s in ri_autopilot.act(state, 0).steps]
    return RAILROAD_INK.view(state, 0), 0, list(NAMES[:2]), steps[:-1]


@cache
def _islands(players: int, round_: int | None) -> Any:
    return propeller_islands_state(players, "B", SEED, round_)


@cache
def _grid(map_name: str, players: int, round_: int | None) -> Any:
    return power_grid_state(map_name, players, SEED, round_, hidden_money=players > 3)


def _view(game: Any, state: Any, seat: int | None) -> dict[str, Any]:
    return game.view(state, seat)


def _cases() -> dict[str, Callable[[Presenter], bytes]]:
    """name ("<game> <presenter field> <situation>") → how to draw it with the game's presenter."""
    pl, pg, pi, ri = POWERLINE, POWER_GRID, PROPELLER_ISLANDS, RAILROAD_INK
    six = frozenset({"adventure_island", "contracts", "special_contracts"})
    three = frozenset({"adventure_island", "construction_limits"})
    cases: dict[str, Callable[[Presenter], bytes]] = {
        "powerline roll solo": lambda p: p.roll(_view(pl, _powerline(1, frozenset(), 6), None), []),
        "powerline roll 6": lambda p: p.roll(_view(pl, _powerline(6, six, 8), 0), NAMES),
        "powerline board 3": lambda p: p.board(_view(pl, _powerline(3, three, 9), 0), 0, NAMES),
        "powerline board 6 other": lambda p: p.board(_view(pl, _powerline(6, six, 8), 0), 4, NAMES),
        "powerline round_image 3": lambda p: p.round_image(
            _view(pl, _powerline(3, three, 9), None), NAMES[:3]
        ),
        "powerline round_image 6": lambda p: p.round_image(
            _view(pl, _powerline(6, six, 8), None), NAMES
        ),
        "powerline round_image 6 final": lambda p: p.round_image(
            _view(pl, _powerline(6, six, None), None), NAMES
        ),
        "powerline draft_board 3": lambda p: p.draft_board(*_powerline_draft(3), True),
        "powerline results 6": lambda p: p.results(
            _view(pl, _powerline(6, six, None), None), NAMES
        ),
        "powerline results solo": lambda p: p.results(
            _view(pl, _powerline(1, frozenset(), None), None), NAMES[:1]
        ),
        "powerline status_image 3": lambda p: p.status_image(
            _view(pl, _powerline(3, three, 9), None), NAMES[:3]
        ),
        "railroad_ink roll": lambda p: p.roll(_view(ri, _railroad(2, False), 0), NAMES[:2]),
        "railroad_ink board": lambda p: p.board(_view(ri, _railroad(2, False), 0), 0, NAMES[:2]),
        "railroad_ink draft_board": lambda p: p.draft_board(*_railroad_draft(), False),
        "railroad_ink round_image": lambda p: p.round_image(
            _view(ri, _railroad(2, False), None), NAMES[:2]
        ),
        "railroad_ink results 6": lambda p: p.results(_view(ri, _railroad(6, True), None), NAMES),
        "railroad_ink status_image": lambda p: p.status_image(
            _view(ri, _railroad(2, True), None), NAMES[:2]
        ),
        "propeller_islands board": lambda p: p.board(_view(pi, _islands(3, 5), 0), 0, NAMES[:3]),
        "propeller_islands board other": lambda p: p.board(
            _view(pi, _islands(3, 5), 0), 1, NAMES[:3]
        ),
        "propeller_islands status_image": lambda p: p.status_image(
            _view(pi, _islands(3, 5), None), NAMES[:3]
        ),
        "propeller_islands panel_image": lambda p: p.panel_image(
            _view(pi, _islands(3, 5), 0), NAMES[:3]
        ),
        "propeller_islands phase_image": lambda p: _phase(
            p, _view(pi, _islands(3, 5), None), NAMES[:3], "bonus"
        ),
        "propeller_islands results": lambda p: p.results(
            _view(pi, _islands(3, None), None), NAMES[:3]
        ),
        "power_grid board": lambda p: p.board(_view(pg, _grid("usa", 6, 6), 0), 0, NAMES),
        "power_grid status_image": lambda p: p.status_image(
            _view(pg, _grid("germany", 4, 6), 0), NAMES[:4]
        ),
        "power_grid panel_image germany build": lambda p: p.panel_image(
            _view(pg, _grid("germany", 4, 6), 0), NAMES[:4]
        ),
        "power_grid panel_image usa build": lambda p: p.panel_image(
            _view(pg, _grid("usa", 6, 6), 0), NAMES
        ),
        "power_grid panel_image usa regions": lambda p: p.panel_image(
            _view(pg, _grid("usa", 3, 0), 0), NAMES[:3]
        ),
        "power_grid phase_image usa build": lambda p: _phase(
            p, _view(pg, _grid("usa", 6, 6), None), NAMES, "build"
        ),
        "power_grid phase_image germany regions": lambda p: _phase(
            p, _view(pg, _grid("germany", 5, 0), None), NAMES[:5], "regions"
        ),
        "power_grid phase_image auction": lambda p: _phase(
            p, _view(pg, _grid("usa", 3, 6), None), NAMES[:3], "auction"
        ),
        "power_grid results": lambda p: p.results(_view(pg, _grid("usa", 3, None), None), NAMES),
    }
    return cases


def _phase(p: Presenter, view: dict[str, Any], names: list[str] | tuple, name: str) -> bytes:
    made = p.phase_image(view, list(names), (view["round"], name))
    assert made is not None
    return made[1]


CASES = _cases()


def test_every_image_a_presenter_draws_is_checked():
    for game in registry.names():
        show = presenter(game)
        drawn = {f.name for f in fields(Presenter) if f.name in IMAGES + TURN_IMAGES}
        for field in drawn:
            if getattr(show, field) is not None:
                assert any(name.startswith(f"{game} {field}") for name in CASES), (game, field)


def test_leaderboard_is_legible_on_a_phone():
    rows = [
        {
            "name": name or "x",
            "shown": 1500 + 37 * i,
            "provisional": i % 2 == 0,
            "games": 12 * i,
            "wins": 5 * i,
            "avg_score": 81.25 + i,
            "best": 101 + i,
        }
        for i, name in enumerate(NAMES)
    ]
    height, text, width = smallest_on_phone(
        lambda: leaderboard("Powerline leaderboard — all servers", rows, 11, "Page 2/3 · note")
    )
    assert height >= PHONE_TEXT, f"{text!r} is {height:.1f} px high on a phone ({width} px wide)"


@pytest.mark.parametrize("name", sorted(set(CASES) - set(ON_DEMAND)))
def test_posted_images_are_legible_on_a_phone(name):
    show = presenter(name.split()[0])
    height, text, width = smallest_on_phone(lambda: CASES[name](show))
    assert height >= PHONE_TEXT, f"{text!r} is {height:.1f} px high on a phone ({width} px wide)"


@pytest.mark.parametrize("name", sorted(ON_DEMAND))
def test_on_demand_images_still_draw_with_text(name):
    show = presenter(name.split()[0])
    height, _, _ = smallest_on_phone(lambda: CASES[name](show))
    assert 0 < height < float("inf")
