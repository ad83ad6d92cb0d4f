"""The random baseline player: cheap, legal, and it still ends games (it builds when it can)."""

from random import Random
from typing import Any

from engine.core import CHANCE, IllegalAction
from engine.power_grid.build import city_dist
from engine.power_grid.game import GAME
from engine.power_grid.market import buyable
from engine.power_grid.network import connection_cost
from engine.power_grid.rules import RESOURCES, game_map, plants
from engine.power_grid.scoring import best_run, hybrid_mix
from engine.power_grid.state import State
from engine.power_grid.turns import chooser


def try_apply(state: State, seat: int, action: dict[str, Any]) -> State | None:
    try:
        return GAME.apply(state, seat, action)
    except IllegalAction:
        return None


def random_action(state: State, seat: int, rng: Random) -> dict[str, Any]:
    """A cheap random legal action that still ends games: it builds whenever it can."""
    if seat == CHANCE:
        return GAME.sample_chance(state, rng).model_dump(mode="json")
    p = state.players[seat]
    if state.discard is not None or state.phase == "regions":
        return rng.choice(GAME.legal_actions(state, seat)).model_dump(mode="json")
    if state.phase == "auction":
        if state.auction is not None:
            a = state.auction
            if a.bid < p.money and rng.random() < 0.4:
                return {"type": "bid", "amount": rng.randint(a.bid + 1, min(p.money, a.bid + 3))}
            return {"type": "drop"}
        assert chooser(state) == seat
        affordable = [n for n in buyable(state) if n <= p.money]
        if state.round > 1 and (not affordable or rng.random() < 0.3):
            return {"type": "pass"}
        n = rng.choice(affordable)
        return {"type": "open", "plant": n, "bid": rng.randint(n, min(p.money, n + 2))}
    if state.phase == "resources":
        for _ in range(3):
            r = rng.choice(RESOURCES)
            action = {"type": "buy", "resources": {r: rng.randint(1, 2)}}
            if rng.random() < 0.7 and try_apply(state, seat, action) is not None:
                return action
        return {"type": "done"}
    if state.phase == "build":
        if rng.random() < 0.15:
            return {"type": "done"}
        dist = city_dist(state)
        limit = {1: 1, 2: 2, 3: 3}[state.step]
        options = [
            (
                connection_cost(dist, p.cities, c.name)
                + 10
                + 5 * len(state.houses.get(c.name, [])),
                c.name,
            )
            for c in game_map(state.config.map).cities
            if c.region in state.regions
            and c.name not in p.cities
            and len(state.houses.get(c.name, [])) < limit
        ]
        options.sort()
        affordable = [name for cost, name in options[:3] if cost <= p.money]
        if affordable and len(p.cities) < 22:
            return {"type": "build", "cities": [rng.choice(affordable)]}
        return {"type": "done"}
    _, run = best_run(p.plants, p.fuel, len(p.cities))
    if rng.random() < 0.2:
        run = [n for n in run if plants()[n].type in ("ecological", "fusion")]
    action: dict[str, Any] = {"type": "power", "plants": run}
    mix = hybrid_mix(run, p.fuel)
    if mix:
        action["hybrid"] = mix
    return action
