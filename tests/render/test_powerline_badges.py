"""The discs naming the dice that fit a segment never overlap, however crowded the board."""

from itertools import combinations
from typing import Any

from render.powerline import player_board
from render.powerline.board import map_frame
from render.powerline.map import BADGE_R, fitting, fitting_badges
from render.preview import GAME, play_until
from tests.render.pngs import check


def _crowded(seat: dict[str, Any]) -> dict[str, Any]:
    """The seat with three dice fitting the first two and last two segments of every line, so
    neighbouring segments (and the lines meeting at a station) all carry discs."""
    colours = ["red", "yellow", "blue"]
    lines = []
    for line in seat["lines"]:
        n = len(line["pips"])
        ends = sorted({0, 1, n - 2, n - 1})
        lines.append({**line, "options": [{"segment": k, "colors": colours} for k in ends]})
    return {**seat, "lines": lines}


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_badges_of_a_crowded_board_never_overlap():
    view = GAME.view(play_until(3, frozenset(), seed=11, round_=4), 0)
    seat = _crowded(view["seats"][0])
    frame = map_frame(seat)
    badges = fitting_badges(frame, seat, fitting(seat))
    assert len(badges) == 3 * sum(len(line["options"]) for line in seat["lines"])
    for a, b in combinations(badges, 2):
        assert not _overlap(a.box, b.box), (a, b)
    # The board was crowded: some stacks had to move off their die to keep clear.
    pushed = [b for b in badges if max(abs(b.x - b.root[0]), abs(b.y - b.root[1])) > 2 * BADGE_R]
    assert pushed
    crowded = {**view, "seats": [seat, *view["seats"][1:]]}
    check(player_board(crowded, 0))
