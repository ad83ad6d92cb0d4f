"""The random baseline player: cheap, legal, and it still ends games (it builds when it can)."""

from bisect import insort
from random import Random
from typing import Any

from engine.core import CHANCE
from engine.power_grid.build import can_buy, nearest_cities
from engine.power_grid.game import GAME
from engine.power_grid.market import buyable
from engine.power_grid.rules import RESOURCES, plants
from engine.power_grid.scoring import best_run, hybrid_mix
from engine.power_grid.state import State
from engine.power_grid.turns import chooser


def random_action(state: State, seat: int, rng: Random) -> dict[str, Any]:
    """A cheap random legal action for a seat owed one; it still ends games (it builds whenever
    it can)."""
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
            want = {r: rng.randint(1, 2)}
            if rng.random() < 0.7 and can_buy(state, seat, want):
                return {"type": "buy", "resources": want}
        return {"type": "done"}
    if state.phase == "build":
        if rng.random() < 0.15:
            return {"type": "done"}
        limit = {1: 1, 2: 2, 3: 3}[state.step]
        # The three cheapest (cost, name) builds; a city costs its link plus 10 to 20, so the
        # scan by link stops once no further city can displace the third.
        options: list[tuple[int, str]] = []
        for link, name in nearest_cities(state, p.cities):
            if len(options) == 3 and link + 10 > options[-1][0]:
                break
            taken = len(state.houses.get(name, ()))
            if taken < limit:
                insort(options, (link + 10 + 5 * taken, name))
                del options[3:]
        affordable = [name for cost, name in options if cost <= p.money]
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
