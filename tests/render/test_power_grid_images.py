"""Power Grid images: decodable, phone-sized, drawn from views, hidden money kept hidden."""

from collections.abc import Callable, Iterator
from random import Random
from typing import Any

import pytest
from PIL import ImageChops

from engine import registry
from engine.core import step
from engine.power_grid import autopilot
from render.power_grid import map_focus, map_image, market, panel_box, results
from render.power_grid.map import _layout_of, focus_frame, own_cities
from render.power_grid.pieces import labels as seat_labels
from tests.render.pngs import EXOTIC, check, decode

G = registry.get("power_grid")


def _policy(state: Any, seat: int) -> Any:
    return autopilot.choose(G.view(state, seat), seat)


MOMENTS: dict[str, Callable[[Any], bool]] = {
    "regions": lambda s: s.phase == "regions" and bool(s.regions),
    "auction": lambda s: s.round >= 2 and s.auction is not None,
    "build": lambda s: s.round >= 5 and s.phase == "build",
    "over": lambda s: s.phase == "over",
}


def _moments(config: Any, seed: int) -> Iterator[tuple[str, Any]]:
    """An autopilot game from `seed`, yielding the state during region picks, at the first
    open auction from round 2, at a build from round 5 and at the end."""
    state = G.new(config, seed)
    rng = Random(seed)
    wanted = [m for m in MOMENTS if m != "regions" or config.regions is None]
    while wanted:
        if MOMENTS[wanted[0]](state):
            yield wanted.pop(0), state
        elif not G.is_over(state):
            state = step(G, state, rng, _policy)
        else:
            wanted.pop(0)


def _all_images(view: dict[str, Any], names: list[str] | None) -> list[bytes]:
    images = [map_image(view, names), market(view, names)]
    if view["standings"]:
        images.append(results(view, names))
    return images


@pytest.mark.parametrize(
    ("map_name", "players", "seed"),
    [("germany", 2, 1), ("germany", 4, 2), ("germany", 6, 3), ("usa", 3, 4), ("usa", 5, 5)],
)
def test_every_image_renders_at_every_moment(map_name, players, seed):
    config = G.Config(players=players, map=map_name)
    names = [f"Player {i + 1}" for i in range(players)]
    seen = []
    for moment, state in _moments(config, seed):
        for seat in (None, 0):
            for data in _all_images(G.view(state, seat), names):
                check(data)
                seen.append(data)
        if moment == "over":
            assert len(_all_images(G.view(state, None), names)) == 3
    assert len(set(seen)) >= 8


def test_fixed_regions_and_both_bid_orders_render():
    config = G.Config(players=4, regions=["green", "brown", "yellow", "red"], bid_order="turn")
    for _, state in _moments(config, 6):
        for data in _all_images(G.view(state, 1), None):
            check(data)


def test_images_change_when_the_state_changes():
    state = G.new(G.Config(players=3, map="usa"), 7)
    rng = Random(7)
    maps, markets = set(), set()
    while state.round < 3:
        state = step(G, state, rng, _policy)
        view = G.view(state, None)
        if state.phase in ("regions", "build"):
            maps.add(map_image(view))
        markets.add(market(view))
    # Every pick and build shows on the map; every bid, purchase and refill on the market.
    assert len(maps) >= 6
    assert len(markets) >= 20


def _apart(a: bytes, b: bytes, box: tuple[int, int, int, int]) -> int:
    """How far apart two images are inside `box`: the largest difference of a pixel's channel.
    Each image has its own 256-colour palette, so equal drawings differ by a few levels."""
    diff = ImageChops.difference(decode(a).crop(box), decode(b).crop(box))
    return max(high for _, high in diff.getextrema())


def test_hidden_money_is_hidden_from_everyone_but_its_owner():
    config = G.Config(players=4, hidden_money=True)
    _, state = next(m for m in _moments(config, 8) if m[0] == "build")
    owner, other, spectator = G.view(state, 0), G.view(state, 1), G.view(state, None)
    assert owner["seats"][0]["money"] is not None
    assert other["seats"][0]["money"] is None and spectator["seats"][0]["money"] is None
    box = tuple(int(v) for v in panel_box(owner, 0))
    assert panel_box(other, 0) == panel_box(spectator, 0) == box
    images = {
        name: market(v) for name, v in (("owner", owner), ("other", other), ("spec", spectator))
    }
    assert _apart(images["other"], images["spec"], box) <= 24
    assert _apart(images["owner"], images["spec"], box) > 100
    # Apart from the "You" mark on the viewer's name, the map is the same for everyone.
    unmarked = [map_image({**v, "viewer": None}) for v in (owner, other)]
    assert unmarked == [map_image(spectator)] * 2
    assert map_image(owner) != map_image(spectator)
    # At an open table everyone sees the same market, but for that mark.
    _, plain = next(m for m in _moments(G.Config(players=4), 8) if m[0] == "build")
    views = [G.view(plain, seat) for seat in (0, 2, None)]
    assert len({market({**v, "viewer": None}) for v in views}) == 1


def test_the_viewer_is_marked_before_the_name_is_cut():
    view = {"players": 2, "viewer": 1}
    assert seat_labels(view, ["Ada", "x" * 300]) == ["Ada", "You · " + "x" * 300]
    assert seat_labels({**view, "viewer": None}, ["Ada", "Bo\nb"]) == ["Ada", "Bo b"]


@pytest.mark.parametrize("players", [2, 6])
def test_exotic_names_do_not_crash(players):
    config = G.Config(players=players, map="usa", hidden_money=True)
    names = EXOTIC[:players]
    for _, state in _moments(config, 9):
        view = G.view(state, 0)
        for labels in (names, EXOTIC * 2, None, []):
            for data in _all_images(view, labels):
                check(data)


def _with(view: dict[str, Any], change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    copy = {**view, "standings": [dict(e) for e in view["standings"]]}
    change(copy)
    return copy


def test_every_tiebreak_note_renders():
    _, state = next(m for m in _moments(G.Config(players=4), 10) if m[0] == "over")
    view = G.view(state, None)
    plain = results(view)
    notes = set()
    for used in ("money", "cities", "highest_plant", "shared"):

        def tie(v: dict[str, Any], used: str = used) -> None:
            for e in v["standings"]:
                e["tiebreak_used"] = used

        data = results(_with(view, tie))
        check(data)
        notes.add(data)
    assert plain not in notes and len(notes) == 4


@pytest.mark.parametrize(("map_name", "players", "seed"), [("usa", 5, 2), ("germany", 2, 0)])
def test_the_turn_image_holds_all_of_the_seat_s_network(map_name, players, seed):
    """At every build of a game, each seat's focus frame holds all of its cities with room for
    their names, drawn at the whole map's scale when they fit and smaller (but legible) when not."""
    config = G.Config(players=players, map=map_name)
    state, rng = G.new(config, seed), Random(seed)
    scales = set()
    while not G.is_over(state):
        if state.phase == "build":
            for seat in range(players):
                view = G.view(state, seat)
                frame = focus_frame(view)
                if not own_cities(view):
                    assert frame is None
                    continue
                assert frame is not None
                (x0, y0, x1, y1), scale = frame
                pos = _layout_of(view).pos
                for city in own_cities(view):
                    x, y = pos[city]
                    assert x0 + 40 <= x <= x1 - 40 and y0 + 40 <= y <= y1 - 40, (city, frame)
                scales.add(scale == 1.0)
        state = step(G, state, rng, _policy)
    assert scales == {True, False}
    view = G.view(state, 0)
    assert check(map_focus({**view, "phase": "build"}, None)).width == 1040
