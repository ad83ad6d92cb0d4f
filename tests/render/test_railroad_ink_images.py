"""Railroad Ink images: decodable, phone-sized, every piece drawable, no secret plan drawn."""

from random import Random
from typing import Any

import pytest

from engine import registry
from engine.core import play_out, step
from engine.railroad_ink import autopilot
from render.railroad_ink import board, roll, score_sheet
from tests.render.pngs import EXOTIC, check, decode

G = registry.get("railroad_ink")
BOTH = frozenset({"street_lamps", "power_grid"})
COMBOS = [(), ("street_lamps",), ("power_grid",), ("street_lamps", "power_grid")]


def _planning(players: int, expansions: frozenset[str], seed: int, round_: int) -> Any:
    """An autopilot game stopped in `round_`'s planning, before anyone has submitted."""
    state = G.new(G.Config(players=players, expansions=expansions), seed)
    rng = Random(seed)
    while not (state.round == round_ and state.phase == "plan"):
        state = step(G, state, rng, autopilot.act)
    return state


def _steps(state: Any, seat: int) -> list[dict[str, Any]]:
    return [s.model_dump(mode="json") for s in autopilot.act(state, seat).steps]


@pytest.mark.parametrize("expansions", COMBOS)
def test_every_image_renders_through_a_whole_game(expansions):
    config = G.Config(players=3, expansions=frozenset(expansions))
    rng = Random(4)
    state = G.new(config, 4)
    seen = set()
    names = ["Ada", "山田", "Zoë 🎲"]
    while not G.is_over(state):
        if state.phase == "plan":
            own = G.view(state, 0)
            plain = board(own, 0, names)
            preview = board(own, 0, names, draft=_steps(state, 0))
            check(preview)
            assert preview != plain
            check(roll(own))
        state = step(G, state, rng, autopilot.act)
        own = G.view(state, 0)
        image = board(own, 0, names)
        seen.add(image)
        check(image)
        check(board(own, 1, names))
        check(board(G.view(state, None), 2, names))
        check(roll(G.view(state, None)))
        check(score_sheet(G.view(state, None), names))
    assert len(seen) >= config.round_count
    final = G.view(state, None)
    assert final["over"]
    check(score_sheet(final, names))
    check(score_sheet(G.view(state, 2), names))


def test_a_played_board_differs_from_an_empty_one():
    state = play_out(G, G.new(G.Config(players=1), 9), Random(9), autopilot.act)
    view = G.view(state, 0)
    empty = board({**view, "seats": [{**view["seats"][0], "board": [[None] * 7] * 7}]}, 0)
    assert board(view, 0) != empty
    assert sum(cell is not None for row in view["seats"][0]["board"] for cell in row) >= 20


def test_a_submitted_plan_is_drawn_only_for_its_owner():
    state = _planning(3, BOTH, 11, 3)
    state = G.apply(state, 0, autopilot.act(state, 0))
    own, other, spectator = G.view(state, 0), G.view(state, 1), G.view(state, None)
    assert own["seats"][0]["plan"] is not None
    assert other["seats"][0]["plan"] is None and spectator["seats"][0]["plan"] is None
    hidden = board(spectator, 0)
    assert board(other, 0) == hidden
    assert board(own, 0) != hidden
    # Seat 1 (still planning) looks the same to everybody.
    assert board(own, 1) == board(other, 1) == board(spectator, 1)
    # Whatever the viewer, the roll and the score sheet hold nothing of the plan.
    assert roll(own) == roll(spectator) == roll(other)


def test_the_owner_sees_the_draft_it_is_building():
    state = _planning(2, BOTH, 5, 4)
    view = G.view(state, 0)
    steps = _steps(state, 0)
    plain = board(view, 0)
    images = {board(view, 0, draft=steps[:k]) for k in range(1, len(steps) + 1)}
    assert plain not in images
    assert len(images) == len(steps)
    assert board(view, 0, draft=[]) == plain


def test_power_steps_are_previewed():
    config = G.Config(players=2, expansions=frozenset({"power_grid"}))
    state, rng = G.new(config, 3), Random(3)
    found = 0
    while not G.is_over(state):
        if state.phase == "plan":
            steps = _steps(state, 0)
            power = [s for s in steps if s["step"] == "electrify"]
            if power:
                found += 1
                view = G.view(state, 0)
                before = board(view, 0, draft=[s for s in steps if s["step"] != "electrify"])
                after = check(board(view, 0, draft=steps))
                assert after.tobytes() != decode(before).tobytes()
        state = step(G, state, rng, autopilot.act)
    assert found


def test_an_empty_space_powered_by_the_wild_die_is_drawn():
    # Table option A14: a "?" power die may electrify an empty space.
    config = G.Config(expansions=frozenset({"power_grid"}), wild_power_needs_route=False)
    state = G.new(config, 4)
    state = G.apply(state, -1, G.sample_chance(state, Random(4)))
    view = G.view(state, 0)
    drafted = board(view, 0, draft=[{"step": "electrify", "die": 1, "cell": "B2"}])
    assert check(drafted).tobytes() != decode(board(view, 0)).tobytes()
    seat = view["seats"][0]
    rows = [[*row] for row in seat["board"]]
    rows[1][1] = {"cell": "B2", "electrified": True}
    powered = board({**view, "seats": [{**seat, "board": rows}]}, 0)
    assert check(powered).tobytes() != decode(board(view, 0)).tobytes()


def test_a_malformed_draft_does_not_crash():
    state = _planning(2, BOTH, 5, 2)
    view = G.view(state, 0)
    junk = [
        {"step": "draw", "die": "route1", "cell": "Z9", "orientation": 0},
        {"step": "draw", "die": "route9", "cell": "C4"},
        {"step": "draw", "die": "special", "cell": "C3", "face": "nope"},
        {"step": "activate", "line": "diagonal"},
        {"step": "electrify", "die": 2, "exit": "N:Q1", "length": 9},
        {"step": "electrify", "die": 1, "start": "G7", "length": 3, "charge": True},
        {"step": "teleport"},
    ]
    check(board(view, 0, draft=junk))


@pytest.mark.parametrize("players", [1, 2, 6])
def test_exotic_names_do_not_crash(players):
    names = EXOTIC[:players] if players > 1 else EXOTIC[-1:]
    state = play_out(
        G, G.new(G.Config(players=players, expansions=BOTH), 2), Random(2), autopilot.act
    )
    view = G.view(state, 0)
    for seat in range(players):
        check(board(view, seat, names))
    check(score_sheet(view, names))
    check(score_sheet(view, EXOTIC * 2))
    check(score_sheet(view, None))


def test_ties_and_rank_notes_render():
    state = play_out(G, G.new(G.Config(players=4), 6), Random(6), autopilot.act)
    view = G.view(state, None)
    standings = view["standings"]
    # Rewrite the standings into a tie on points settled by errors, and a shared place.
    fake = []
    for e, (score, errors, rank, kind) in zip(
        standings,
        [
            (30, 2, 1, "fewer_errors"),
            (30, 5, 2, "fewer_errors"),
            (20, 1, 3, "shared"),
            (20, 1, 3, "shared"),
        ],
        strict=True,
    ):
        breakdown = {**e["details"]["breakdown"], "errors": errors}
        fake.append(
            {
                **e,
                "score": score,
                "rank": rank,
                "tiebreak": [score, -errors],
                "details": {**e["details"], "tiebreak": kind, "breakdown": breakdown},
            }
        )
    a = score_sheet({**view, "standings": fake})
    check(a)
    assert a != score_sheet(view)


def test_the_roll_shows_every_die():
    state = _planning(6, BOTH, 8, 2)
    view = G.view(state, None)
    both = check(roll(view))
    plain = check(roll(G.view(_planning(2, frozenset(), 8, 2), None)))
    assert both.height > plain.height
    before = G.new(G.Config(players=2), 1)
    check(roll(G.view(before, None)))
