"""Power Grid in words: moves, phases, table options, round summaries and final standings.
A move's words never name a seat's money total (hidden money); the prices paid are public."""

from collections.abc import Mapping
from typing import Any, TypeVar

from bot.service.hosting import join, seat_ref
from engine.core import Event, Outcome
from engine.power_grid import events as E
from engine.power_grid.config import Config
from engine.power_grid.network import INF, nearest
from engine.power_grid.rules import RESOURCES, game_map, plants, player_count, tables
from engine.power_grid.scoring import burns, fuel_need, room
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


FUEL = {"hybrid": "coal/oil"}
"""A plant type's fuel in words, where it is not the type's own name."""


def plant_power(number: int) -> str:
    """What a plant burns and powers: "3 coal → 5 cities", "no fuel → 2 cities"."""
    p = plants()[number]
    fuel = f"{p.resources} {FUEL.get(p.type, p.type)}" if p.resources else "no fuel"
    return f"{fuel} → {_cities(p.cities)}"


def plant_label(number: int) -> str:
    """A plant as a menu names it: "Plant 20: 3 coal → 5 cities"."""
    return f"Plant {number}: {plant_power(number)}"


def plants_words(numbers: list[int]) -> str:
    """Plant numbers as "plant 13" or "plants 13 and 20"."""
    label = "plant" if len(numbers) == 1 else "plants"
    return f"{label} {join([str(n) for n in numbers])}"


Name = TypeVar("Name", bound=str)
"""A resource's name, as the engine's events (a Literal) or its scoring (a str) give it."""


def tokens_words(counts: Mapping[Name, int]) -> str:
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


# ---- a "your turn" message: what is at stake, and the moves worth a second tap ----------------


def stakes(view: dict[str, Any], seat: int) -> str:
    """What is at stake for `seat` on turn, from its view, in a line or two: the plant on auction
    and the bid, what it can afford, the fuel its plants need, the cheapest city, its income.
    Money is only ever the seat's own; other seats are "{seat N}"."""
    me = view["seats"][seat]
    money = me["money"]
    have = f"You have {money} Elektro." if money is not None else ""
    discard = view["discard"]
    if discard is not None:
        return (
            f"You have one plant more than you may keep: discard one (not plant "
            f"{discard['new_plant']}, just bought); its fuel moves to your other plants if it fits."
        )
    phase = view["phase"]
    if phase == "regions":
        picked = ", ".join(view["regions"]) or "none yet"
        return (
            f"Regions picked: {picked} ({len(view['regions'])} of {view['regions_needed']}); "
            "the regions in play must join up."
        )
    if phase == "auction":
        return f"{_auction_stakes(view, money)} {have}".strip()
    if phase == "resources":
        return f"{_fuel_stakes(me)} {have}".strip()
    if phase == "build":
        return f"{have} {_build_stakes(view, seat)}".strip()
    if phase == "bureaucracy":
        can, pay = me["can_power"], tables().payment_by_cities_powered
        return (
            f"You can power {can} of your {_cities(me['city_count'])} "
            f"for {pay[min(can, len(pay) - 1)]} Elektro of income."
        )
    return ""


def _auction_stakes(view: dict[str, Any], money: int | None) -> str:
    """The plant on auction and who holds the bid; else what the seat can afford to open."""
    auction = view["auction"]
    if auction is not None:
        plant = auction["plant"]["number"]
        # The seat holding the bid never owes a move in its auction: this is another seat.
        who, bid = seat_ref(auction["leader"]), auction["bid"]
        return f"On auction: plant {plant} ({plant_power(plant)}); {who} holds the bid at {bid}."
    opening = "Round 1: every player buys a plant. " if view["round"] == 1 else ""
    if money is None:
        return opening.strip()
    affordable = [n for n in _for_sale(view) if n <= money]
    if not affordable:
        return f"{opening}You can afford none of the plants for sale."
    return f"{opening}You can afford {plants_words(affordable)} at their opening bids."


def _for_sale(view: dict[str, Any]) -> list[int]:
    """The plants an auction may be opened for (the Step 3 card has no number)."""
    return [p["number"] for p in view["plant_market"]["actual"] if p["number"] is not None]


def _fuel_stakes(me: dict[str, Any]) -> str:
    """The fuel the seat's plants burn, what it holds, and the cities that powers."""
    owned = [p["number"] for p in me["plants"]]
    need, hybrid = fuel_need(owned)
    burnt = tokens_words(need)
    if hybrid:
        burnt = join([w for w in (burnt, f"{hybrid} coal/oil") if w])
    held = tokens_words(me["fuel"]) or "no fuel"
    if not burnt:
        return "Your plants need no fuel."
    powered = (
        f"With it they power {me['can_power']} of your {_cities(me['city_count'])}."
        if me["city_count"]
        else ""
    )
    return f"Running all your plants burns {burnt}; you hold {held}. {powered}".strip()


def _build_stakes(view: dict[str, Any], seat: int) -> str:
    """The cheapest city the seat could add now, with its connection and its house."""
    me = view["seats"][seat]
    if not me["houses_left"]:
        return "You have no houses left."
    cities = {c["name"]: c for c in view["cities"]}
    through = view["config"]["routes_through_unused_regions"]
    network = tuple(me["cities"])
    prices = []
    for link, name in nearest(view["map"], frozenset(view["regions"]), through, network):
        taken = len(cities[name]["houses"])
        if link < INF and taken < view["house_limit"]:
            house = cities[name]["slot_costs"][taken]
            prices.append((link + house, name, link, house))
    if not prices:
        return "No city is open to you now."
    price, name, link, house = min(prices)
    return f"The cheapest next city is {name}: {price} Elektro ({link} to connect + {house} house)."


CONFIRM_TYPES = frozenset({"pass", "drop", "done"})
"""Moves that may be a slip: passing with the money for a plant, dropping out, ending a resource
turn with plants short of fuel."""


def confirm(view: dict[str, Any], seat: int, action: dict[str, Any]) -> str | None:
    """The question to ask before a move that is likely a slip, from the seat's view; None when
    the move is plainly meant."""
    me = view["seats"][seat]
    money, kind, auction = me["money"], action.get("type"), view["auction"]
    if money is None:
        return None
    if kind == "pass" and view["phase"] == "auction" and auction is None:
        affordable = [n for n in _for_sale(view) if n <= money]
        if affordable:
            best = max(affordable)
            return f"Pass this round's auction? You could buy plant {best} for {best} Elektro."
    if kind == "drop" and auction is not None and money > auction["bid"]:
        plant = auction["plant"]["number"]
        return f"Drop out of the auction for plant {plant}? You can't bid on it again this round."
    if kind == "done" and view["phase"] == "resources":
        owned = [p["number"] for p in me["plants"]]
        wanted = min(me["city_count"], sum(plants()[n].cities for n in owned))
        if me["can_power"] < wanted and _fuel_for_sale(view, owned, me["fuel"], money):
            return (
                f"Buy nothing more? Your plants can power only {me['can_power']} of your "
                f"{_cities(me['city_count'])}."
            )
    return None


def _fuel_for_sale(
    view: dict[str, Any], owned: list[int], fuel: dict[str, int], money: int
) -> bool:
    """Whether the market has a token the seat could still buy and store for its plants."""
    for r in RESOURCES:
        price = view["resources"][r]["next_price"]
        if price is not None and price <= money and burns(owned, r) and room(owned, fuel, r):
            return True
    return False
