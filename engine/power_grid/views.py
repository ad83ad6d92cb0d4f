"""What one seat (or a spectator, seat None) may see of a Power Grid game, as plain JSON data.

Shape (stable; images and the autopilot read it):
- game, viewer, map, map_title, players, config (the table options), phase, round, step,
  house_limit, end_cities, step2_cities, regions (in play, or picked so far), regions_needed,
  first_order, order (player order), to_act (sorted seats, -1 = chance), turn (the one seat
  acting, None in bureaucracy or chance), chooser (auction), discard ({seat, new_plant} or None).
- cities: [{name, region, x, y, in_play, houses: [seat per filled slot], slot_costs}],
  connections: [{a, b, cost}].
- plant_market: {actual: [plant], future: [plant]}; plant = {number, type, resources, cities,
  storage}; the Step 3 card is {number: None, type: "step3", resources: 0, cities: 0, storage: 0}.
  deck_size, removed_at_setup (a count), removed_in_play (numbers, in order), step3_card
  ("deck", "market" or "gone").
- resources: {coal|oil|garbage|uranium: {count, next_price, spaces: [{price, capacity, count}]}},
  supply: {resource: count}.
- seats: [{seat, money (None if hidden from the viewer), plants: [plant + stored: {res: n}],
  fuel, cities: [names in building order], city_count, houses_left, order_position (0 = first),
  bought, passed, powered (this round's bureaucracy, None before), can_power}].
- auction: None or {plant, bid, leader, bidders, turn}.
- standings: None, or when over one row per seat {seat, score, rank, tiebreak (key list),
  powered, money, cities, highest_plant, tiebreak_used (None, "money", "cities",
  "highest_plant" or "shared")}.
"""

from typing import Any

from engine.power_grid.market import max_cities, prices, split
from engine.power_grid.outcome import standings
from engine.power_grid.rules import RESOURCES, STEP3, game_map, plants, player_count, tables
from engine.power_grid.scoring import allocate, best_run
from engine.power_grid.state import State
from engine.power_grid.turns import chooser, current_seat, to_act


def plant_view(number: int) -> dict[str, Any]:
    if number == STEP3:
        return {"number": None, "type": "step3", "resources": 0, "cities": 0, "storage": 0}
    p = plants()[number]
    return {
        "number": p.number,
        "type": p.type,
        "resources": p.resources,
        "cities": p.cities,
        "storage": p.storage,
    }


def _track(state: State, resource: str) -> dict[str, Any]:
    track = prices(resource)
    n = state.resources[resource]
    empty = len(track) - n
    spaces: dict[int, dict[str, int]] = {}
    for i, price in enumerate(track):
        space = spaces.setdefault(price, {"price": price, "capacity": 0, "count": 0})
        space["capacity"] += 1
        space["count"] += i >= empty
    return {
        "count": n,
        "next_price": track[empty] if n else None,
        "spaces": list(spaces.values()),
    }


def view(state: State, seat: int | None) -> dict[str, Any]:
    config = state.config
    m = game_map(config.map)
    count = player_count(config.players)
    in_play = set(state.regions)
    actual, future = split(state)
    if STEP3 in state.market:
        step3 = "market"
    elif state.step3_drawn:
        step3 = "gone"
    else:
        step3 = "deck"
    seats = []
    for s, p in enumerate(state.players):
        stored = allocate(p.plants, p.fuel)
        shown = not config.hidden_money or seat == s
        seats.append(
            {
                "seat": s,
                "money": p.money if shown else None,
                "plants": [{**plant_view(n), "stored": stored[n]} for n in p.plants],
                "fuel": dict(p.fuel),
                "cities": list(p.cities),
                "city_count": len(p.cities),
                "houses_left": tables().houses_per_player - len(p.cities),
                "order_position": state.order.index(s) if s in state.order else None,
                "bought": p.bought,
                "passed": p.passed,
                "powered": p.powered,
                "can_power": best_run(p.plants, p.fuel, len(p.cities))[0],
            }
        )
    auction = state.auction
    return {
        "game": "power_grid",
        "viewer": seat,
        "map": config.map,
        "map_title": m.name,
        "players": config.players,
        "config": config.model_dump(mode="json"),
        "phase": state.phase,
        "round": state.round,
        "step": state.step,
        "house_limit": tables().max_houses_per_city_by_step[state.step],
        "end_cities": count.game_end_cities,
        "step2_cities": count.step2_trigger_cities,
        "max_cities": max_cities(state),
        "regions": list(state.regions),
        "regions_needed": count.regions_in_play,
        "first_order": list(state.first_order),
        "order": list(state.order),
        "to_act": sorted(to_act(state)),
        "turn": current_seat(state) if state.phase not in ("over", "bureaucracy") else None,
        "chooser": chooser(state) if state.phase == "auction" else None,
        "discard": None
        if state.discard is None
        else {"seat": state.discard, "new_plant": state.new_plant},
        "cities": [
            {
                "name": c.name,
                "region": c.region,
                "x": c.x,
                "y": c.y,
                "in_play": c.region in in_play,
                "houses": list(state.houses.get(c.name, [])),
                "slot_costs": list(tables().house_slot_costs),
            }
            for c in m.cities
        ],
        "connections": [{"a": e.a, "b": e.b, "cost": e.cost} for e in m.connections],
        "plant_market": {
            "actual": [plant_view(n) for n in actual],
            "future": [plant_view(n) for n in future],
        },
        "deck_size": len(state.deck),
        "removed_at_setup": len(state.removed_setup),
        "removed_in_play": list(state.removed_in_play),
        "step3_card": step3,
        "resources": {r: _track(state, r) for r in RESOURCES},
        "supply": dict(state.supply),
        "seats": seats,
        "auction": None
        if auction is None
        else {
            "plant": plant_view(auction.plant),
            "bid": auction.bid,
            "leader": auction.leader,
            "bidders": list(auction.bidders),
            "turn": auction.turn,
        },
        "standings": [
            {k: row[k] for k in ("seat", "score", "rank", "tiebreak")} | row["details"]
            for row in standings(state)
        ]
        if state.phase == "over"
        else None,
    }
