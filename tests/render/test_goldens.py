"""Every game's images stay faithful to their goldens (fixed views rendered to stored PNGs)."""

import pytest
from PIL import ImageChops

from tests.render.goldens import HERE, IMAGES, VIEWS, render
from tests.render.pngs import check, decode


def test_every_game_has_goldens():
    prefixes = {name.split("-")[0] for name in VIEWS}
    assert {"ri", "pi", "pg"} <= prefixes and len(prefixes) > 3


@pytest.mark.parametrize("image", sorted(IMAGES))
def test_matches_golden(image):
    got = check(render(image))
    want = decode((HERE / f"{image}.png").read_bytes())
    assert got.size == want.size
    diff = ImageChops.difference(got, want).convert("L")
    changed = sum(diff.point(lambda v: 255 if v > 40 else 0).histogram()[255:])
    assert changed <= 0.002 * got.width * got.height, (
        f"{image}: {changed} pixels differ; if intended, run python -m tests.render.goldens"
    )
