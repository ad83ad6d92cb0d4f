"""Every building effect, depot benefit, dock reward and character ability."""

import pytest

from engine.propeller_islands.state import Bonus, State, Task, Turn

from .helpers import G, edit, island, play, refused, turn_state


def _activating(tiles: list[tuple], value: int = 3, **player):
    """Seat 0 activating with `value`, with the given island and player fields."""
    s = island(turn_state(2, dice=[1, 2, 3, 4, 5]), 0, tiles)
    s = edit(s, 0, **player)
    s.turn = Turn(0, "activating", value, value)
    return s


def _res(s, seat: int = 0) -> tuple[int, int, int]:
    p = s.players[seat]
    return p.energy, p.steel, p.parts


@pytest.mark.parametrize(
    ("tile", "option", "start", "after"),
    [
        ("05-3", None, (0, 0, 0), (0, 0, 1)),
        ("06-3", None, (0, 0, 0), (2, 0, 0)),
        ("07-4", None, (0, 0, 0), (0, 1, 0)),
        ("09-3", None, (2, 0, 0), (0, 1, 1)),
        ("10-2", None, (0, 1, 0), (0, 0, 2)),
        ("13-3", "energy_to_steel", (2, 0, 0), (0, 1, 0)),
        ("13-3", "energy_to_parts", (2, 0, 0), (0, 0, 1)),
        ("13-3", "steel_to_energy", (0, 1, 0), (2, 0, 0)),
        ("13-3", "parts_to_energy", (0, 0, 1), (2, 0, 0)),
    ],
)
def test_resource_buildings(tile: str, option: str | None, start: tuple, after: tuple) -> None:
    e, st, pa = start
    s = _activating(
        [(1, 0, tile, "ready", {}), (5, 5, "05-1", None, {})], energy=e, steel=st, parts=pa
    )
    a = {"type": "use", "tile": [1, 0]} | ({"option": option} if option else {})
    s = play(s, 0, a)
    assert _res(s) == after
    assert s.players[0].cells[1].worker == "lying"


def test_production_token_adds_after_the_effect() -> None:
    s = _activating([(1, 0, "10-2", "ready", {"P": "PROD-S"})], energy=0, steel=1, parts=0)
    s = play(s, 0, {"type": "use", "tile": [1, 0]})
    assert _res(s) == (0, 1, 2)


def test_capitol_options_and_side_b() -> None:
    s = _activating([(1, 0, "05-3", None, {})], energy=0, steel=0, parts=0)
    refused(
        s,
        0,
        {"type": "use", "tile": [0, 0]},
        "needs a choice: deploy a worker or take its resources",
    )
    s2 = play(s, 0, {"type": "use", "tile": [0, 0], "option": "resources"})
    assert _res(s2) == (1, 1, 0)
    s3 = play(s, 0, {"type": "use", "tile": [0, 0], "option": "deploy"})
    assert s3.tasks[-1].kind == "deploy"
    s3 = play(s3, 0, {"type": "deploy", "from": [1, 1], "to": [1, 0]})
    assert s3.players[0].cells[1].worker == "ready" and not s3.players[0].dock[0]
    b = island(turn_state(2, capitol_side="B"), 0, [(1, 0, "05-3", None, {})])
    b = edit(b, 0, energy=0, steel=0, parts=0)
    b.turn = Turn(0, "activating", 3, 3)
    assert _res(play(b, 0, {"type": "use", "tile": [0, 0], "option": "resources"})) == (1, 0, 0)


def test_side_b_capitol_is_a_hub_for_every_guild() -> None:
    s = turn_state(2, capitol_side="B")
    # Both starting tiles (Tinker Shops with a banner) linked with the universal hub.
    assert [p.fame for p in s.players] == [1, 1]


def test_hotel_deploys_and_needs_housing() -> None:
    s = _activating([(1, 0, "08-3", "ready", {}), (2, 0, "05-4", None, {})], value=4)
    s = play(s, 0, {"type": "use", "tile": [1, 0]})
    assert s.tasks[-1].kind == "deploy"
    s = play(s, 0, {"type": "deploy", "from": [2, 2], "to": [2, 0]})
    assert s.players[0].cells[2].worker == "ready"
    full = _activating([(1, 0, "08-3", "ready", {})], value=4)
    refused(full, 0, {"type": "use", "tile": [1, 0]}, "no vacant worker housing space")


def test_radio_station_activates_another_building() -> None:
    tiles = [(1, 0, "11-2", "ready", {}), (2, 0, "05-1", "ready", {})]
    s = _activating(tiles, energy=0, steel=0, parts=0)
    s = play(s, 0, {"type": "use", "tile": [1, 0]})
    assert s.tasks[-1].kind == "radio"
    refused(s, 0, {"type": "done"}, "You can't finish this step now")
    s = play(s, 0, {"type": "use", "tile": [2, 0]})
    assert _res(s) == (0, 0, 1)


def test_radio_station_without_target_does_nothing() -> None:
    s = _activating([(1, 0, "11-2", "ready", {})], energy=0, steel=0, parts=0)
    s.players[0].cells[0].worker = "lying"
    s = play(s, 0, {"type": "use", "tile": [1, 0]})
    # No task, nothing left to activate and no affordable blueprint: the turn passes on.
    assert not s.tasks and s.turn.seat == 1 and s.players[0].dice == [3]


def test_warehouse_copies_a_depot_and_needs_one() -> None:
    s = _activating([(1, 0, "12-1", "ready", {}), (2, 0, "02-1", None, {})], value=2, energy=0)
    s = play(s, 0, {"type": "use", "tile": [1, 0]})
    assert s.tasks[-1].kind == "warehouse"
    refused(s, 0, {"type": "depot", "tile": [1, 0]}, "not one of your depots")
    s = play(s, 0, {"type": "depot", "tile": [2, 0]})
    assert s.players[0].energy == 3
    none = _activating([(1, 0, "12-1", "ready", {})], value=2)
    refused(none, 0, {"type": "use", "tile": [1, 0]}, "needs a depot")


def test_depot_benefits_on_placement() -> None:
    s = turn_state(2, dice=[1, 2, 3, 4, 5])
    s = edit(s, 0, energy=0, steel=0, parts=0)
    s.offer[1] = "03-1"
    s = play(s, 0, {"type": "draft", "value": 1}, {"type": "claim", "space": 2, "at": [1, 0]})
    assert _res(s) == (0, 1, 1)
    crew = island(turn_state(2), 0, [(0, -1, "05-3", None, {})])
    crew.offer[1] = "04-1"
    crew = play(crew, 0, {"type": "draft", "value": 1}, {"type": "claim", "space": 2, "at": [1, 0]})
    assert crew.tasks[-1].kind == "deploy"


def _deploy_emptying(line_spaces: list[int], **player):
    """Seat 0 about to deploy from dock index `line_spaces[0]`, the rest of its line empty."""
    s = island(turn_state(2), 0, [(1, 0, "05-1", None, {}), (2, 0, "06-1", None, {})])
    dock = [True] * 12
    for i in line_spaces[1:]:
        dock[i] = False
    s = edit(s, 0, dock=dock, **player)
    s.tasks.append(Task("deploy", 0))
    i = line_spaces[0]
    return s, {"type": "deploy", "from": [i // 4 + 1, i % 4 + 1], "to": [1, 0]}


def test_reward_c2_r2_c4() -> None:
    s, a = _deploy_emptying([1, 5, 9], energy=0, steel=0, parts=0)
    assert _res(play(s, 0, a)) == (0, 0, 1)
    s, a = _deploy_emptying([4, 5, 6, 7], energy=0, steel=0, parts=0)
    assert _res(play(s, 0, a)) == (1, 1, 0)
    s, a = _deploy_emptying([3, 7, 11])
    assert play(s, 0, a).players[0].fame == 3


def test_reward_c1_places_the_top_tile() -> None:
    s, a = _deploy_emptying([0, 4, 8])
    top = s.stack[0]
    s = play(s, 0, a)
    assert s.tasks[-1].kind == "place" and s.tasks[-1].tile == top
    s = play(s, 0, {"type": "place", "at": [3, 0]})
    assert s.players[0].cells[-1].tile == top
    empty, a = _deploy_emptying([0, 4, 8])
    empty.stack = []
    assert not play(empty, 0, a).tasks


def test_reward_c3_activates_two_buildings() -> None:
    s, a = _deploy_emptying([2, 6, 10], energy=0, steel=0, parts=0)
    s = play(s, 0, a)
    assert s.tasks[-1].kind == "c3"
    refused(s, 0, {"type": "done"}, "must activate")
    s = play(s, 0, {"type": "use", "tile": [1, 0]})
    assert s.tasks[-1].kind == "c3" and s.tasks[-1].count == 1
    s = play(s, 0, {"type": "use", "tile": [0, 0], "option": "resources"})
    assert not s.tasks and _res(s) == (1, 1, 1)


def test_reward_r1_two_different_depots() -> None:
    s, a = _deploy_emptying([0, 1, 2, 3], energy=0, steel=0, parts=0)
    s = island(s, 0, [(1, 0, "05-1", None, {}), (2, 0, "02-1", None, {}), (3, 0, "03-1", None, {})])
    s = play(s, 0, a)
    assert s.tasks[-1].kind == "r1"
    s = play(s, 0, {"type": "depot", "tile": [2, 0]})
    refused(s, 0, {"type": "depot", "tile": [2, 0]}, "two different depots")
    s = play(s, 0, {"type": "depot", "tile": [3, 0]})
    assert not s.tasks and _res(s) == (3, 1, 1)


def test_reward_r3_deploys() -> None:
    s, a = _deploy_emptying([8, 9, 10, 11])
    s = play(s, 0, a)
    assert s.tasks[-1].kind == "deploy"


def test_jacques_discard_and_wide_claims() -> None:
    s = turn_state(2, characters=("jacques", "marie"), dice=[1, 2, 3, 4, 5])
    s = edit(s, 0, fame=5, energy=0)
    s2 = play(s, 0, {"type": "draft", "value": 1}, {"type": "discard", "space": 1})
    assert s2.players[0].energy == 3
    refused(
        play(s, 0, {"type": "draft", "value": 1}),
        0,
        {"type": "claim", "space": 4, "at": [1, 0]},
        "O4 is out of your die's reach: a 1 reaches O1, O2 or O12",
    )
    s = edit(s, 0, fame=10)
    s = play(s, 0, {"type": "draft", "value": 1})
    spaces = {a.space for a in G.legal_actions(s, 0) if a.type == "claim"}
    assert spaces == {10, 11, 12, 1, 2, 3, 4}
    discards = {a.space for a in G.legal_actions(s, 0) if a.type == "discard"}
    assert discards == {12, 1, 2}


def test_marie_extra_activation() -> None:
    tiles = [(1, 0, "05-1", "ready", {}), (2, 0, "05-5", "ready", {})]
    s = _activating(tiles, value=3, energy=1, steel=0, parts=0, fame=5)
    s = play(s, 0, {"type": "use", "tile": [1, 0]})
    assert _res(s) == (0, 0, 1) and s.turn.extra
    refused(s, 0, {"type": "use", "tile": [2, 0]}, "extra activation is used")
    free = _activating(tiles, value=3, energy=0, steel=0, parts=0, fame=10)
    free = play(free, 0, {"type": "use", "tile": [1, 0]})
    assert _res(free) == (0, 0, 1)
    poor = _activating(tiles, value=3, energy=0, fame=5)
    refused(poor, 0, {"type": "use", "tile": [1, 0]}, "costs 1 energy")


def _bonus(fame: int) -> State:
    """Seat 0 (Nelson at `fame`, no parts, a ready 05-1) first to use the bonus 3."""
    s = island(turn_state(2, characters=("nelson", "marie")), 0, [(1, 0, "05-1", "ready", {})])
    s = edit(s, 0, fame=fame, parts=0)
    s.phase, s.turn = "bonus", None
    s.forge = [0, 0, 1, 0, 0, 0]
    s.bonus = Bonus(3, 0, 3)
    return s


def test_nelson_bonus_die() -> None:
    s = _bonus(5)
    refused(s, 0, {"type": "adjust", "to": 2}, "Nobody pays energy")
    refused(s, 0, {"type": "adjust", "to": 1, "free": True}, "as 2 or 4")
    s2 = play(s, 0, {"type": "adjust", "to": 2, "free": True})
    refused(s2, 0, {"type": "adjust", "to": 1, "free": True}, "once")
    s2 = edit(s, 0, fame=10)
    s2 = play(s2, 0, {"type": "adjust", "to": 1, "free": True}, {"type": "use", "tile": [1, 0]})
    assert s2.players[0].parts == 1


def test_amelia_once_per_round() -> None:
    s = turn_state(2, characters=("amelia", "marie"), dice=[1, 2, 3, 4, 5])
    s = island(s, 0, [(1, 0, "10-3", None, {}), (0, 1, "04-2", None, {})])
    s = edit(s, 0, fame=4, energy=0)
    s.offer[1] = "05-6"
    # The gain that reaches 5 does not count.
    s2 = play(s, 0, {"type": "draft", "value": 1}, {"type": "claim", "space": 2, "at": [1, 1]})
    assert s2.players[0].fame == 6 and s2.players[0].energy == 0
    s = edit(s, 0, fame=5)
    s3 = play(s, 0, {"type": "draft", "value": 1}, {"type": "claim", "space": 2, "at": [1, 1]})
    assert s3.players[0].energy == 1 and s3.players[0].amelia_used
    s = edit(s, 0, fame=10)
    s4 = play(s, 0, {"type": "draft", "value": 1}, {"type": "claim", "space": 2, "at": [1, 1]})
    assert s4.tasks[-1].kind == "choose"
    s4 = play(s4, 0, {"type": "choose", "resource": "steel"})
    assert s4.players[0].steel == 2


def test_nicola_after_completing() -> None:
    s = turn_state(2, characters=("nicola", "marie"))
    s = edit(s, 0, fame=5, energy=5, steel=5, parts=5, hand=["I-01"])
    s.turn = Turn(0, "blueprint", 1, 1)
    s2 = play(s, 0, {"type": "complete", "card": "I-01"})
    assert s2.players[0].energy == 4
    s = edit(s, 0, fame=10)
    s3 = play(s, 0, {"type": "complete", "card": "I-01"})
    kinds = [t.kind for t in s3.tasks]
    assert kinds == ["take", "choose", "install"]
    s3 = play(s3, 0, {"type": "keep"})
    s3 = play(s3, 0, {"type": "choose", "resource": "steel"})
    assert s3.players[0].steel == 5 and s3.players[0].unused == ["PROD-E"]
    s3 = play(s3, 0, {"type": "take", "card": "II-02"})
    assert "II-02" in s3.players[0].hand and len(s3.bp_offer["II"]) == 3


def test_charles_free_change() -> None:
    s = turn_state(2, characters=("charles", "marie"), dice=[1, 2, 3, 4, 5])
    s = edit(s, 0, fame=5, energy=1)
    s = play(s, 0, {"type": "draft", "value": 3})
    refused(s, 0, {"type": "adjust", "to": 5, "free": True}, "at most 1 step")
    s = play(s, 0, {"type": "adjust", "to": 4, "free": True}, {"type": "adjust", "to": 5})
    assert s.turn.value == 5 and s.players[0].energy == 0
    refused(s, 0, {"type": "adjust", "to": 6, "free": True}, "used this turn")
    s = edit(s, 0, fame=10)
    s.turn = Turn(0, "act", 3, 3)
    s = play(s, 0, {"type": "adjust", "to": 1, "free": True})
    assert s.turn.value == 1


def _adjusts(s: State, seat: int = 0) -> set[tuple[int, bool]]:
    """The legal adjusts as (to, free) pairs."""
    return {(a.to, bool(a.free)) for a in G.legal_actions(s, seat) if a.type == "adjust"}


@pytest.mark.parametrize("fame", [5, 10])
def test_sir_charles_free_change_must_change_the_die(fame: int) -> None:
    # Seed 002: "+/-1 your chosen die" (+/-2 at fame 10); a change of 0 is no change.
    s = turn_state(2, characters=("charles", "marie"), dice=[1, 2, 3, 4, 5])
    s = edit(s, 0, fame=fame, energy=1)
    s = play(s, 0, {"type": "draft", "value": 3})
    refused(s, 0, {"type": "adjust", "to": 3, "free": True}, "it shows 3 already")
    refused(s, 0, {"type": "adjust", "to": 3}, "one step")
    free = {to for to, f in _adjusts(s) if f}
    assert free == ({2, 4} if fame == 5 else {1, 2, 4, 5})
    stepped = play(s, 0, {"type": "adjust", "to": 2, "free": True})
    assert stepped.turn.value == 2 and stepped.turn.free and stepped.players[0].energy == 1


def test_sir_charles_may_undo_a_paid_change_for_free() -> None:
    s = turn_state(2, characters=("charles", "marie"), dice=[1, 2, 3, 4, 5])
    s = play(edit(s, 0, fame=5, energy=1), 0, {"type": "draft", "value": 3})
    s = play(s, 0, {"type": "adjust", "to": 4})
    assert {to for to, f in _adjusts(s) if f} == {3, 5}
    s = play(s, 0, {"type": "adjust", "to": 3, "free": True})
    assert s.turn.value == 3 and s.turn.paid and s.turn.free


@pytest.mark.parametrize("fame", [5, 10])
def test_nelson_free_change_must_change_the_bonus_die(fame: int) -> None:
    s = _bonus(fame)
    refused(s, 0, {"type": "adjust", "to": 3, "free": True}, "it shows 3 already")
    assert {to for to, _ in _adjusts(s)} == ({2, 4} if fame == 5 else {1, 2, 4, 5, 6})
    s = play(s, 0, {"type": "adjust", "to": 4, "free": True})
    assert s.bonus.value == 4 and s.bonus.adjusted
