"""Powerline images: decodable, phone-sized, and never leaking secrets."""

from random import Random

import pytest

from engine.powerline.autopilot import random_plan
from engine.powerline.game import seat_context
from render.common import MIN_TEXT, fit, font, printable
from render.powerline import centre_board, final_results, player_board, round_summary
from render.preview import GAME, NAMES, images, play_until, samples
from tests.render.pngs import check, decode


@pytest.fixture(scope="module")
def preview_images() -> list[tuple[str, bytes]]:
    return [item for sample in samples() for item in images(sample)]


def test_every_preview_image_decodes_wide_and_small(preview_images):
    kinds = {name.rsplit("-", 2)[-1].split(".")[0] for name, _ in preview_images}
    assert {"centre", "summary", "results"} <= kinds
    for _, data in preview_images:
        check(data)


def _mid_game_with_plans():
    """Three seats in round 4: seat 0 (by `play_until`) and seat 1 have planned, seat 2 not yet."""
    state = play_until(3, frozenset(), seed=5, round_=4)
    return GAME.apply(state, 1, random_plan(seat_context(state, 1), Random(5), stop=0.0))


def test_a_seats_plan_is_drawn_only_in_its_own_view():
    state = _mid_game_with_plans()
    assert state.phase == "plan" and state.plans[1] is not None
    as_seat0 = GAME.view(state, 0)
    assert as_seat0["seats"][1]["plan"] is None
    spectator = player_board(GAME.view(state, None), 1)
    assert player_board(as_seat0, 1) == spectator
    assert player_board(GAME.view(state, 1), 1) != spectator


@pytest.mark.parametrize(
    "names",
    [
        ["🎲" * 40, "山田太郎" * 10, "Ω" * 300, "", "a b c " * 50, "\u200b\u0301x"],
        ["Anastasia Kilowattsdóttir-Wattenberg von und zu Hochspannungsleitung"] * 6,
    ],
)
def test_long_and_exotic_names_render(names):
    state = play_until(6, frozenset(), seed=9, round_=3)
    view = GAME.view(state, 0)
    for data in (
        player_board(view, 0, names),
        centre_board(view, names),
        round_summary(view, names),
    ):
        assert decode(data).width >= 1000
    end = GAME.view(play_until(6, frozenset(), seed=9, round_=None), None)
    assert decode(final_results(end, names)).width >= 1000


def test_before_the_first_roll_there_is_no_summary_but_boards_render():
    state = GAME.new(GAME.Config(players=2), 1)
    view = GAME.view(state, None)
    assert decode(centre_board(view, NAMES[:2])).width >= 1000
    assert decode(player_board(view, 1)).width >= 1000
    with pytest.raises(ValueError, match="no round"):
        round_summary(view)


def test_text_never_smaller_than_the_minimum_and_unknown_glyphs_become_marks():
    assert font(6).size == MIN_TEXT
    assert printable("Zoë 山🎲") == "Zoë ??"


def test_names_with_line_breaks_are_measured_on_one_line():
    # Pillow's text layout raises on a line break; every name goes through fit().
    assert fit("Ada\nLovelace\tof\rLondon", font(20), 1000) == "Ada Lovelace of London"
