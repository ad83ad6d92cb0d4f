"""The legal-move list equals the rules' own answer: every candidate of the kinds a seat owes,
kept in order iff `apply` takes it, over many seeded random games."""

from itertools import combinations, product
from random import Random
from typing import Any

import pytest
from pydantic import BaseModel

from engine.core import CHANCE, IllegalAction
from engine.power_grid.actions import (
    Bid,
    Build,
    Buy,
    DiscardPlant,
    Done,
    Drop,
    Open,
    Pass,
    PickRegion,
    Power,
)
from engine.power_grid.baseline import random_action
from engine.power_grid.game import expected, owed
from engine.power_grid.rules import RESOURCES, game_map
from engine.power_grid.scoring import fuel_need
from engine.power_grid.state import State
from tests.power_grid.helpers import G, buy_uncontested, edit, start

ORDER = [
    *("pick_region", "discard_plant", "open", "pass", "bid", "drop"),
    *("done", "buy", "build", "power"),
]
"""The kinds of move in the order the list gives them."""
MOVES = 5_000
"""Seat moves per game at most (a game runs to several hundred): one that does not end fails."""


def candidates(state: State, seat: int) -> list[BaseModel]:
    """Every action of the kinds the seat owes over a generous range, in the list's order:
    regions and cities in map order, market then amount, resource order, smallest plant sets
    first; one-token buys and one-city builds, as the list offers those steps only."""
    p = state.players[seat]
    m = game_map(state.config.map)
    money = range(0, p.money + 2)
    out: list[BaseModel] = []
    owed = expected(state, seat)
    for kind in [k for k in ORDER if k in owed]:
        if kind == "pick_region":
            out += [PickRegion(region=r) for r in m.regions]
        elif kind == "discard_plant":
            for n in p.plants:
                spans = [range(p.fuel[r] + 1) for r in RESOURCES]
                for back in product(*spans):
                    returned = {r: k for r, k in zip(RESOURCES, back, strict=True) if k}
                    out.append(DiscardPlant.model_validate({"plant": n, "return": returned}))
        elif kind == "open":
            out += [Open(plant=n, bid=k) for n in state.market for k in money]
        elif kind == "bid":
            out += [Bid(amount=k) for k in money]
        elif kind in ("pass", "drop", "done"):
            out.append({"pass": Pass(), "drop": Drop(), "done": Done()}[kind])
        elif kind == "buy":
            out += [Buy(resources={r: 1}) for r in RESOURCES]
        elif kind == "build":
            out += [Build(cities=[c.name]) for c in m.cities]
        elif kind == "power":
            out += powers(p.plants)
    return out


def powers(owned: list[int]) -> list[Power]:
    """Each set of plants with no mix named and, when hybrids run, every coal/oil pair."""
    out = []
    for k in range(len(owned) + 1):
        for run in combinations(owned, k):
            out.append(Power(plants=list(run)))
            hybrid = fuel_need(list(run))[1]
            if hybrid:
                pairs = product(range(hybrid + 1), repeat=2)
                out += [Power(plants=list(run), hybrid={"coal": c, "oil": o}) for c, o in pairs]
    return out


def accepted(state: State, seat: int, action: BaseModel) -> bool:
    try:
        G.apply(state, seat, action)
    except IllegalAction:
        return False
    return True


def oracle(state: State, seat: int) -> list[BaseModel]:
    return [a for a in candidates(state, seat) if accepted(state, seat, a)]


CONFIGS: list[dict[str, Any]] = [
    {"players": 2, "map": "germany"},
    {"players": 3, "map": "usa", "bid_order": "turn"},
    {"players": 4, "map": "germany", "step3_refill": "late"},
    {"players": 5, "map": "usa", "routes_through_unused_regions": True},
    {"players": 6, "map": "germany", "bid_order": "turn"},
]


@pytest.mark.parametrize(("config", "seed"), [(c, s) for s in range(6) for c in CONFIGS])
def test_the_list_is_what_apply_accepts(config: dict[str, Any], seed: int) -> None:
    """Along games uniform over the list (odd seeds) or of the random baseline (even), at every
    state but a sample of the auction's: they offer long runs of amounts, each tried."""
    rng = Random(seed)
    state = G.new(G.Config(**config), seed)
    moves = checked = 0
    while not G.is_over(state) and moves < MOVES:
        seat = min(G.to_act(state))
        if seat == CHANCE:
            state = G.apply(state, seat, G.sample_chance(state, rng))
            continue
        acting = G.to_act(state)
        for other in range(len(state.players)):
            # The fast path's answer to "what does this seat owe" is the rules' own.
            assert owed(state, other) == (expected(state, other) if other in acting else None)
        legal = G.legal_actions(state, seat)
        if state.phase != "auction" or state.discard is not None or rng.random() < 0.3:
            assert legal == oracle(state, seat), (state.phase, seat)
            checked += 1
        action = rng.choice(legal) if seed % 2 else random_action(state, seat, rng)
        state = G.apply(state, seat, action)
        moves += 1
    assert G.is_over(state) and checked > 20


def test_only_a_seat_owed_a_move_has_any() -> None:
    state = G.new(G.Config(players=3), 0)
    assert G.legal_actions(state, 0) == [] and G.legal_actions(state, CHANCE) == []
    state = start(3)
    assert G.to_act(state) == {0} and G.legal_actions(state, 0)
    assert G.legal_actions(state, 1) == [] and G.legal_actions(state, 3) == []


def test_discards_with_hybrids_for_every_coal_and_oil_pool() -> None:
    """Over the plant limit with a hybrid among coal and oil plants: each pool has its own
    splits of what goes back, some refused as the rest would still not fit."""
    state = edit(start(4), 0, plants=[42, 44, 46], fuel={}, money=50)
    state = buy_uncontested(state, 0, 5)
    assert state.discard == 0
    for coal, oil in product(range(10), range(8)):
        pool = edit(state, 0, fuel={"coal": coal, "oil": oil})
        assert G.legal_actions(pool, 0) == oracle(pool, 0), (coal, oil)
