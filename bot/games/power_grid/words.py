"""Power Grid in words: moves, phases, table options, round summaries and final standings.
A move's words never name a seat's money total (hidden money); the prices paid are public."""

from collections.abc import Mapping
from typing import Any

from bot.service.hosting import join, seat_ref
from engine.core import Event, Outcome
from engine.power_grid import events as E
from engine.power_grid.config import Config
from engine.power_grid.rules import RESOURCES, Resource, game_map, player_count
from engine.power_grid.state import State

PHASES = {
    "setup": "setup",
    "regions": "region picking",
    "auction": "auction",
    "resources": "buying resources",
    "build": "building",
    "bureaucracy": "bureaucracy",
    "over": "game over",
}


def plants_words(numbers: list[int]) -> str:
    """Plant numbers as "plant 13" or "plants 13 and 20"."""
    label = "plant" if len(numbers) == 1 else "plants"
    return f"{label} {join([str(n) for n in numbers])}"


def tokens_words(counts: Mapping[Resource, int]) -> str:
    """Tokens as "2 coal and 1 oil", in the tracks' order, zeros left out."""
    kept = sorted((RESOURCES.index(r), n, r) for r, n in counts.items() if n)
    return join([f"{n} {r}" for _, n, r in kept])


def describe(before: State, seat: int, action: dict[str, Any], after: State) -> str:
    """One seat's move in the past tense, without its name; other seats appear as "{seat N}"
    (`bot.service.hosting.fill` names them). `after` is `before` with the action applied."""
    return "; ".join(_event(e) for e in E.happened(before, seat, action, after))


def _event(event: Event) -> str:
    match event:
        case E.RegionPicked():
            if event.in_play is not None:
                return f"picked the {event.region} region (in play: {', '.join(event.in_play)})"
            return f"picked the {event.region} region"
        case E.AuctionOpened():
            return f"opened plant {event.plant} with a bid of {event.bid}"
        case E.PlantBought():
            return _bought(event)
        case E.AuctionPassed():
            return "passed (no plant this round)"
        case E.BidRaised():
            return f"raised the bid on plant {event.plant} to {event.bid}"
        case E.BiddingDropped():
            return f"dropped out of the bidding for plant {event.plant}"
        case E.PlantDiscarded():
            back = tokens_words(event.returned)
            tail = f" and returned {back} to the supply" if back else ""
            return f"discarded plant {event.plant}{tail}"
        case E.ResourcesBought():
            return f"bought {tokens_words(event.resources)} for {sum(event.costs.values())}"
        case E.CitiesBuilt():
            return f"built in {join(event.cities)} for {event.connections + event.houses}"
        case E.TurnFinished():
            return "finished building" if event.phase == "build" else "finished buying"
        case E.CitiesPowered():
            return _powered(event)
        case E.StepBegan():
            return f"Step {event.step} begins"
        case E.GameEnded():
            return "the game is over"
    raise ValueError(f"No words for a {type(event).__name__} event.")


def _bought(event: E.PlantBought) -> str:
    """A plant bought by the mover when nobody else could bid, or won by the last bidder."""
    if event.unopposed:
        text = f"bought plant {event.plant} for {event.price} (nobody else could bid)"
        return text + (" and must now discard a plant" if event.must_discard else "")
    text = f"{seat_ref(event.seat)} bought it for {event.price}"
    return text + (", and must now discard a plant" if event.must_discard else "")


def _powered(event: E.CitiesPowered) -> str:
    if not event.plants:
        return f"powered nothing and earned {event.income}"
    text = f"powered {_cities(event.cities)} with {plants_words(event.plants)}"
    if event.hybrid:
        text += f" (hybrid fuel: {tokens_words(event.hybrid)})"
    return f"{text} and earned {event.income}"


def phase_name(view: dict[str, Any]) -> str:
    """The view's phase with its round and Step: "Round 3 · Step 2 · building"."""
    phase = PHASES[view["phase"]]
    if view.get("discard") is not None:
        phase += " (a plant to discard)"
    if not view["round"]:
        return phase
    return f"Round {view['round']} · Step {view['step']} · {phase}"


def _option(config: dict[str, Any], key: str) -> Any:
    return config.get(key, Config.model_fields[key].default)


def options_in_words(config: dict[str, Any]) -> list[str]:
    """The table's rules options from a (JSON) Power Grid config, "players" optional."""
    regions = _option(config, "regions")
    money = "hidden (WBC)" if _option(config, "hidden_money") else "open"
    late = _option(config, "step3_refill") == "late"
    refill = "from the next round" if late else "that same round (rules)"
    lines = [
        f"Map: {game_map(_option(config, 'map')).name}",
        f"Regions: {', '.join(regions)}"
        if regions
        else "Regions: picked by the players in turn order (WBC)",
        "Bidding: clockwise by seat (WBC)"
        if _option(config, "bid_order") == "seat"
        else "Bidding: in turn order",
        f"Money: {money}",
        f"Step 3 card drawn while building: Step 3 refill {refill}",
        "Routes through unused regions: "
        + ("yes" if _option(config, "routes_through_unused_regions") else "no"),
    ]
    if config.get("players"):
        count = player_count(config["players"])
        lines.append(
            f"Step 2 at {count.step2_trigger_cities} cities; "
            f"the game ends at {count.game_end_cities} cities"
        )
    return lines


def round_lines(view: dict[str, Any], names: list[str]) -> list[str]:
    """One line per seat in player order: cities, what it can power, and its money only where
    the view shows it."""
    seats = view["seats"]
    order = view["order"] or view["first_order"] or [s["seat"] for s in seats]
    lines = []
    for s in order:
        seat = seats[s]
        line = f"{names[s]}: {_cities(seat['city_count'])}, powers {seat['can_power']}"
        if seat["money"] is not None:
            line += f", {seat['money']} Elektro"
        lines.append(line)
    return lines


def _cities(n: int) -> str:
    return f"{n} city" if n == 1 else f"{n} cities"


_KEYS = ("powered", "money", "cities", "highest_plant")
_UNITS = {
    "money": lambda a, b: f"{a} Elektro to {b}",
    "cities": lambda a, b: f"{_cities(a)} to {b}",
    "highest_plant": lambda a, b: f"plant {a} to {b}",
}
_KEY_WORDS = {"money": "money", "cities": "cities", "highest_plant": "highest plant"}


def standings_lines(outcome: list[Outcome], names: list[str]) -> list[str]:
    """Final standings, best first: "1. Ada: 15 cities powered", with the WBC tiebreak that
    placed a seat among those level with it on cities powered (money, cities, highest plant)."""
    rows = sorted(
        ({"seat": r["seat"], "rank": r["rank"], **r["details"]} for r in outcome),
        key=lambda r: (r["rank"], r["seat"]),
    )
    lines = []
    for row in rows:
        line = f"{row['rank']}. {names[row['seat']]}: {_cities(row['powered'])} powered"
        if row.get("tiebreak_used"):
            level = [r for r in rows if r is not row and r["powered"] == row["powered"]]
            line += f" ({_tiebreak(row, level, names)})"
        lines.append(line)
    return lines


def _tiebreak(row: dict[str, Any], level: list[dict[str, Any]], names: list[str]) -> str:
    """Against each seat level on cities powered: ahead of those below it, tied with equals;
    a seat ahead of nobody says which seat it came just behind."""
    ahead: list[str] = []
    tied: list[str] = []
    behind: list[str] = []
    for other in level:
        key = next((k for k in _KEYS[1:] if row[k] != other[k]), None)
        name = names[other["seat"]]
        if key is None:
            tied.append(name)
        else:
            how = f"{name} on {_KEY_WORDS[key]}: {_UNITS[key](row[key], other[key])}"
            (ahead if row[key] > other[key] else behind).append(how)
    clauses = [f"ahead of {how}" for how in ahead]
    if tied:
        clauses.append(f"tied with {join(tied)} on every tiebreak")
    # `level` is sorted best first, so the last seat above this one is the nearest.
    return "; ".join(clauses or [f"behind {behind[-1]}"])
