"""Propeller Islands images: decodable, phone-sized, at every moment, hands shown to owners only;
the turn's choices lettered on its picture, and the recap of a round."""

from random import Random
from typing import Any

import pytest

from engine import registry
from engine.core import play_out, step
from engine.propeller_islands.components import category
from render.common import MIN_TEXT, WIDTH
from render.propeller_islands import forge, island, recap, results, turn
from tests.propeller_islands.helpers import TILES, deciding
from tests.propeller_islands.helpers import island as with_island
from tests.render.pngs import EXOTIC, check
from tests.render.test_phone import PHONE_TEXT, recorded, smallest_on_phone

NAMES = ["Ada", "Ben", "Chloé"]

G = registry.get("propeller_islands")
# players, capitol side, characters dealt per seat
CONFIGS = [(2, "A", 1), (2, "B", 2), (3, "A", 2), (3, "B", 1), (4, "A", 1), (4, "B", 1)]


def _policy(seed: int) -> Any:
    """A random legal player, reproducible from `seed`."""
    rng = Random(seed)
    return lambda state, seat: rng.choice(G.legal_actions(state, seat))


def _moments(players: int, side: str, deal: int, seed: int) -> dict[str, Any]:
    """A seeded random game seen at its first seat decision, in round 3 and at the end."""
    state = G.new(G.Config(players=players, capitol_side=side, character_deal=deal), seed)
    rng, policy = Random(seed), _policy(seed)
    while -1 in G.to_act(state):
        state = step(G, state, rng, policy)
    moments = {"setup": state}
    while not G.is_over(state) and not (state.round == 3 and state.phase == "turns"):
        state = step(G, state, rng, policy)
    moments["mid"] = state
    moments["over"] = play_out(G, state, rng, policy)
    return moments


@pytest.mark.parametrize(("players", "side", "deal"), CONFIGS)
def test_every_image_renders_at_every_moment(players, side, deal):
    names = ["Ada", "山田", "Zoë 🎲", "Bob"][:players]
    for moment, state in _moments(players, side, deal, seed=players * 10 + deal).items():
        public = G.view(state, None)
        check(forge(public, names))
        check(results(public, names))
        for seat in range(players):
            check(island(G.view(state, seat), seat, names))
            check(island(public, seat, names))
        if moment == "over":
            assert public["result"] is not None


def test_the_hand_is_drawn_only_for_its_owner():
    state = _moments(3, "A", 1, seed=5)["mid"]
    own, other, spectator = G.view(state, 0), G.view(state, 1), G.view(state, None)
    assert own["seats"][0]["hand"] and other["seats"][0]["hand"] is None
    hidden = island(spectator, 0)
    assert island(other, 0) == hidden
    assert island(own, 0) != hidden
    assert forge(own) == forge(other) == forge(spectator)


def test_the_characters_to_keep_are_shown_only_to_their_owner():
    state = _moments(2, "A", 2, seed=8)["setup"]
    assert state.phase == "keep_character"
    own, other = G.view(state, 0), G.view(state, 1)
    assert own["seats"][0]["dealt"] and not other["seats"][0]["dealt"]
    assert island(own, 0) != island(other, 0) == island(G.view(state, None), 0)


@pytest.mark.parametrize("count", [1, 2, 4, 6])
def test_exotic_names_do_not_crash(count):
    state = _moments(4, "B", 1, seed=3)["over"]
    names = EXOTIC[:count]
    view = G.view(state, None)
    check(forge(view, names))
    check(results(view, names))
    for seat in range(4):
        check(island(view, seat, names))
    check(island(view, 0, None))


def test_the_images_follow_the_state():
    state = _moments(2, "A", 1, seed=4)["mid"]
    rng, policy = Random(4), _policy(4)
    islands, forges = set(), set()
    for _ in range(20):
        state = step(G, state, rng, policy)
        islands.add(island(G.view(state, 0), 0))
        forges.add(forge(G.view(state, None)))
    assert len(islands) >= 8 and len(forges) >= 8
    final = play_out(G, state, rng, policy)
    view = G.view(final, None)
    assert results(view) != results(G.view(state, None))


def test_a_long_island_widens_the_image_past_a_phone_rather_than_shrink_its_hexes():
    state = _moments(2, "A", 1, seed=6)["over"]
    view = G.view(state, 0)
    me = view["seats"][0]
    cell = next(c for c in me["island"] if c["category"] != "capitol")
    row = [{**cell, "at": [-q, 0], "worker": "lying" if q % 2 else "ready"} for q in range(1, 25)]
    long = {**me, "island": [me["island"][0], *row]}
    wide = check(island({**view, "seats": [long, view["seats"][1]]}, 0))
    assert wide.width > WIDTH


def _ring_hexes(count: int) -> list[tuple[int, int]]:
    """The first `count` hexes around the Capitol, ring by ring."""
    directions = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
    out: list[tuple[int, int]] = []
    radius = 1
    while len(out) < count:
        q, r = -radius, radius
        for dq, dr in directions:
            for _ in range(radius):
                out.append((q, r))
                q, r = q + dq, r + dr
        radius += 1
    return out[:count]


def test_an_island_of_every_building_type_keeps_its_legend_within_bounds():
    state = _moments(2, "A", 1, seed=6)["mid"]
    one_per_type = list({t[:2]: t for t in TILES}.values())
    spots = _ring_hexes(len(one_per_type))
    cells = [
        (q, r, t, "ready" if category(t) != "depot" else None, {})
        for (q, r), t in zip(spots, one_per_type, strict=True)
    ]
    busy = with_island(state, 0, cells)
    view = G.view(busy, 0)
    assert len({c["name"] for c in view["seats"][0]["island"]}) == 1 + len(one_per_type)
    img = check(island(view, 0, ["Ada", "Bob"]))
    assert img.width >= 1000
    assert img.height > check(island(G.view(state, 0), 0)).height


@pytest.mark.parametrize("point", ["start_tiles", "act", "place"])
def test_the_turn_picture_letters_every_spot_and_shows_the_tiles_on_offer(point: str) -> None:
    state, seat = deciding(point)
    view = G.view(state, seat)
    decision = view["decision"]
    with recorded() as seen:
        check(turn(view, NAMES))
    drawn: dict[str, float] = {}
    for size, text in seen:
        drawn[text] = max(size, drawn.get(text, 0))
    for spot in decision["spots"]:
        assert drawn.get(spot["label"], 0) >= MIN_TEXT + 10, spot
    offered = {c["space"] for c in decision["claims"]} | set(decision["discards"])
    assert all(f"O{space}" in drawn for space in offered)
    assert smallest_on_phone(lambda: turn(view, NAMES))[0] >= PHONE_TEXT


def test_a_deploy_letters_the_buildings_and_numbers_the_dock_spaces() -> None:
    state, seat = deciding("deploy")
    view = G.view(state, seat)
    with recorded() as seen:
        turn(view, NAMES)
    drawn = {text for _, text in seen}
    assert {spot["label"] for spot in view["decision"]["spots"]} <= drawn
    assert {str(d["number"]) for d in view["decision"]["dock"]} <= drawn
    # Nobody else sees the letters: they are the deciding seat's own.
    assert turn(view, NAMES) != island(G.view(state, (seat + 1) % 3), seat, NAMES)


def test_a_draft_and_a_spectator_see_the_forge() -> None:
    state, seat = deciding("draft")
    assert turn(G.view(state, seat), NAMES) == forge(G.view(state, seat), NAMES)
    assert turn(G.view(state, None), NAMES) == forge(G.view(state, None), NAMES)


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_the_round_recap_shows_every_island_legibly(players: int, seed: int) -> None:
    state = _moments(players, "B", 1, seed)["mid"]
    view = G.view(state, None)
    names = EXOTIC[:players]
    with recorded() as seen:
        img = check(recap(view, names, state.round - 1))
    drawn = {text for _, text in seen}
    assert f"Round {state.round - 1} is over" in drawn
    assert {f"{s['score']['total']} VP" for s in view["seats"]} <= drawn
    assert img.width >= WIDTH
    assert smallest_on_phone(lambda: recap(view, names, 2))[0] >= PHONE_TEXT
