"""Power Grid's "your turn" panel: selects and buttons for exactly the legal moves, with the price
of a bid, a purchase or a build shown before it is made (restart-proof: ids carry game and turn)."""

import re
from itertools import permutations
from typing import Any

import discord

from bot.games.power_grid.words import plant_label
from bot.service.errors import UserError
from bot.service.hosting import join
from bot.service.service import TurnView
from bot.ui import answer
from bot.ui.clicks import Clicked
from bot.ui.turns import (
    ActButton,
    ActSelect,
    PanelBack,
    PanelClick,
    PremoveCancel,
    PremoveSelect,
    act,
    turn_text,
)
from engine.core import IllegalAction
from engine.power_grid.build import build_costs, quote_build
from engine.power_grid.market import buy_cost
from engine.power_grid.rules import RESOURCES, game_map, plants

OPTIONS = 25
"""The most options a Discord select holds."""
SPAN = re.compile(r"([0-9]{1,9})-([0-9]{1,9})")
"""A range of amounts as an "Other amount…" option's value: "51-75"."""


def _of(tv: TurnView, kind: str) -> list[dict[str, Any]]:
    return [a for a in tv.legal if a["type"] == kind]


def _money(tv: TurnView) -> int:
    """The seat's own money, from its view (which shows its own even when money is hidden)."""
    return int(tv.view["seats"][tv.seat]["money"])


def panel(tv: TurnView) -> discord.ui.View:
    """The legal moves of the seat's turn, grouped so no menu exceeds Discord's limits."""
    gid, turn = tv.table.row.id, tv.turn
    view = discord.ui.View(timeout=None)
    kinds = {a["type"] for a in tv.legal}
    if "pick_region" in kinds:
        picks = [(f"Region {a['region']}", a) for a in _of(tv, "pick_region")]
        view.add_item(ActSelect(gid, turn, 0, picks, "Pick a region…"))
    if "discard_plant" in kinds:
        options = [(_discard_label(a), a) for a in _of(tv, "discard_plant")]
        view.add_item(ActSelect(gid, turn, 0, options, "Discard a plant…"))
    if "open" in kinds:
        numbers = sorted({a["plant"] for a in _of(tv, "open")})
        view.add_item(PlantSelect(gid, turn, numbers, _money(tv)))
    if "pass" in kinds:
        view.add_item(ActButton(gid, turn, {"type": "pass"}, "Pass (no plant this round)", row=4))
    if "bid" in kinds:
        for item in amount_items(gid, turn, 0, _of(tv, "bid")):
            view.add_item(item)
        if "bid" in tv.premoves:
            cap = tv.premoves["bid"]
            view.add_item(PremoveCancel(gid, turn, "bid", f"Cancel my maximum ({cap})", 4))
        else:
            caps = spread(sorted(_amount(a) for a in _of(tv, "bid")))
            view.add_item(PremoveSelect(gid, turn, "bid", caps, "Or bid for me, up to…", 2))
    if "drop" in kinds:
        view.add_item(ActButton(gid, turn, {"type": "drop"}, "Drop out", row=4))
    if "buy" in kinds:
        view.add_item(KindSelect(gid, turn, _of(tv, "buy")))
    if "build" in kinds:
        for item in build_items(tv):
            view.add_item(item)
    if "power" in kinds:
        for item in power_items(tv):
            view.add_item(item)
    if "done" in kinds:
        label = "Done buying" if tv.view["phase"] == "resources" else "Done building"
        view.add_item(ActButton(gid, turn, {"type": "done"}, label, discord.ButtonStyle.success, 4))
    return view


def _discard_label(action: dict[str, Any]) -> str:
    back = action.get("return") or {}
    tokens = " and ".join(f"{n} {r}" for r, n in back.items() if n)
    return f"Discard plant {action['plant']}" + (f", returning {tokens}" if tokens else "")


def _region(tv: TurnView, city: str) -> str:
    return next(c["region"] for c in tv.view["cities"] if c["name"] == city)


def power_options(tv: TurnView) -> list[tuple[str, dict[str, Any]]]:
    """Every way to run plants, the one powering most cities (with least fuel) first."""
    me = tv.view["seats"][tv.seat]
    houses = me["city_count"]
    rated = []
    for action in _of(tv, "power"):
        capacity = sum(plants()[n].cities for n in action["plants"])
        powered = min(capacity, houses)
        fuel = sum(plants()[n].resources for n in action["plants"])
        rated.append((-powered, fuel, len(action["plants"]), action, powered))
    rated.sort(key=lambda r: r[:3])
    options = []
    for i, (_, _, _, action, powered) in enumerate(rated):
        run = ", ".join(str(n) for n in action["plants"]) or "none"
        mix = action.get("hybrid") or {}
        mixed = f" ({', '.join(f'{n} {r}' for r, n in mix.items() if n)} on hybrids)" if mix else ""
        best = " — best" if i == 0 else ""
        options.append((f"Power {powered}: plants {run}{mixed}{best}", action))
    return options


def power_items(tv: TurnView) -> list[discord.ui.DynamicItem[Any]]:
    """A select of the ways to power; when hybrids' coal/oil mixes make more ways than it holds,
    each set of plants once (its best mix), and the other mixes a set at a time."""
    gid, options = tv.table.row.id, power_options(tv)
    if len(options) <= OPTIONS:
        return [ActSelect(gid, tv.turn, 0, options, "Power cities…")]
    runs: dict[tuple[int, ...], list[tuple[str, dict[str, Any]]]] = {}
    for label, action in options:
        runs.setdefault(tuple(action["plants"]), []).append((label, action))
    best = [ways[0] for ways in runs.values()]
    mixed = [run for run, ways in runs.items() if len(ways) > 1]
    return [ActSelect(gid, tv.turn, 0, best, "Power cities…"), MixSelect(gid, tv.turn, mixed)]


class MixSelect(
    PanelClick,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"pg:mix:(?P<game>\d+):(?P<turn>\d+)",
):
    """Power with another coal/oil mix on the hybrids: the plants first, then the mix."""

    def __init__(self, game_id: int, turn: int, runs: list[tuple[int, ...]] | None = None) -> None:
        options = [
            discord.SelectOption(
                label=f"Plants {', '.join(map(str, run))}: another coal/oil mix",
                value=".".join(map(str, run)),
            )
            for run in runs or []
        ]
        super().__init__(
            discord.ui.Select(
                custom_id=f"pg:mix:{game_id}:{turn}",
                placeholder="Another coal/oil mix…",
                options=options or [discord.SelectOption(label="(no other mix)", value="-")],
                disabled=not options,
                row=1,
            )
        )

    async def clicked(self, interaction: discord.Interaction, tv: TurnView) -> None:
        run = [self.whole(n, "plant") for n in self.choice().split(".")]
        ways = [(label, a) for label, a in power_options(tv) if a["plants"] == run]
        if not ways:
            raise UserError(f"Plants {', '.join(map(str, run))} can't run now.")
        view = discord.ui.View(timeout=None)
        view.add_item(ActSelect(tv.table.row.id, tv.turn, 0, ways, "Which coal/oil mix?"))
        view.add_item(PanelBack(tv.table.row.id, tv.turn))
        await answer.edit(interaction, view=view)


# ---- bids ------------------------------------------------------------------------------------


def _amount(action: dict[str, Any]) -> int:
    """What an opening bid or a raise offers."""
    return int(action["bid"] if action["type"] == "open" else action["amount"])


def _amount_label(action: dict[str, Any]) -> str:
    if action["type"] == "open":
        return f"Open plant {action['plant']} at {action['bid']} Elektro"
    return f"Bid {action['amount']} Elektro"


def amount_items(
    game_id: int, turn: int, plant: int, moves: list[dict[str, Any]]
) -> list[discord.ui.DynamicItem[Any]]:
    """A select of the lowest amounts (one tap each) and, when there are more than it holds,
    "Other amount…": ranges of the rest, each leading to its amounts. `plant` is the plant an
    opening bid is for, 0 for a raise in the running auction."""
    moves = sorted(moves, key=_amount)
    near = [(_amount_label(a), a) for a in moves[:OPTIONS]]
    placeholder = "Your opening bid…" if plant else "Raise the bid…"
    items: list[discord.ui.DynamicItem[Any]] = [ActSelect(game_id, turn, 0, near, placeholder)]
    rest = [_amount(a) for a in moves[OPTIONS:]]
    if rest:
        items.append(AmountRanges(game_id, turn, plant, rest))
    return items


def spread(amounts: list[int]) -> list[int]:
    """At most a select's worth of amounts for a maximum bid: the first ten, then evenly up to
    the highest (a maximum needs no exact step)."""
    if len(amounts) <= OPTIONS:
        return amounts
    head, tail = amounts[:10], amounts[10:]
    step = len(tail) / (OPTIONS - len(head))
    return head + [tail[min(len(tail) - 1, round((i + 1) * step) - 1)] for i in range(15)]


def spans(amounts: list[int]) -> list[tuple[int, int]]:
    """Consecutive amounts cut into at most a select's worth of ranges, each of 25 amounts, or
    of 625 (and so on) when 25 ranges of 25 do not hold them all."""
    size = OPTIONS
    while len(amounts) > size * OPTIONS:
        size *= OPTIONS
    return [
        (amounts[i], amounts[min(i + size, len(amounts)) - 1]) for i in range(0, len(amounts), size)
    ]


def _moves_for(tv: TurnView, plant: int) -> list[dict[str, Any]]:
    """The legal opening bids for `plant`, or the legal raises when `plant` is 0."""
    if plant:
        return [a for a in _of(tv, "open") if a["plant"] == plant]
    return _of(tv, "bid")


class AmountRanges(
    PanelClick,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"pg:amounts:(?P<game>\d+):(?P<turn>\d+):(?P<plant>\d+)",
):
    """ "Other amount…": a range of bids first, then the amounts in it."""

    def __init__(
        self, game_id: int, turn: int, plant: int = 0, amounts: list[int] | None = None
    ) -> None:
        options = [
            discord.SelectOption(label=f"{lo}–{hi} Elektro", value=f"{lo}-{hi}")
            for lo, hi in spans(amounts or [])
        ]
        super().__init__(
            discord.ui.Select(
                custom_id=f"pg:amounts:{game_id}:{turn}:{plant}",
                placeholder="Other amount…",
                options=options or [discord.SelectOption(label="(no other amount)", value="-")],
                disabled=not options,
                row=1,
            )
        )

    async def clicked(self, interaction: discord.Interaction, tv: TurnView) -> None:
        plant = self.number("plant")
        found = SPAN.fullmatch(self.choice())
        if found is None:
            raise self.damaged(f"“{self.choice()}” is no range of amounts")
        lo, hi = int(found[1]), int(found[2])
        moves = [a for a in _moves_for(tv, plant) if lo <= _amount(a) <= hi]
        if not moves:
            raise UserError(f"You can't bid {lo} to {hi} Elektro now.")
        gid = tv.table.row.id
        view = discord.ui.View(timeout=None)
        for item in amount_items(gid, tv.turn, plant, moves):
            view.add_item(item)
        view.add_item(PanelBack(gid, tv.turn))
        what = f"plant {plant}" if plant else "the running auction"
        text = turn_text(tv, f"Bids of {lo} to {hi} Elektro for {what}; you have {_money(tv)}.")
        await answer.edit(interaction, content=text, view=view)


class PlantSelect(
    PanelClick,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"pg:plant:(?P<game>\d+):(?P<turn>\d+)",
):
    """Open an auction: the plant first, then the bid."""

    def __init__(
        self, game_id: int, turn: int, numbers: list[int] | None = None, money: int | None = None
    ) -> None:
        options = [discord.SelectOption(label=plant_label(n), value=str(n)) for n in numbers or []]
        have = f" (you have {money} Elektro)" if money is not None else ""
        super().__init__(
            discord.ui.Select(
                custom_id=f"pg:plant:{game_id}:{turn}",
                placeholder=f"Open an auction for a plant{have}…",
                options=options or [discord.SelectOption(label="(no plant)", value="-")],
                disabled=not options,
                row=0,
            )
        )

    async def clicked(self, interaction: discord.Interaction, tv: TurnView) -> None:
        plant = self.whole(self.choice(), "plant")
        bids = _moves_for(tv, plant)
        if not plant or not bids:
            raise UserError(f"Plant {plant} can't be auctioned now.")
        gid = tv.table.row.id
        view = discord.ui.View(timeout=None)
        for item in amount_items(gid, tv.turn, plant, bids):
            view.add_item(item)
        view.add_item(PanelBack(gid, tv.turn))
        lowest, highest = _amount(bids[0]), _amount(bids[-1])
        note = f"{plant_label(plant)}. Bid {lowest} to {highest} Elektro (you have {_money(tv)})."
        await answer.edit(interaction, content=turn_text(tv, note), view=view)


# ---- resources -------------------------------------------------------------------------------


class KindSelect(
    PanelClick,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"pg:kind:(?P<game>\d+):(?P<turn>\d+)",
):
    """Buy resources: the kind first, then how many, with the price of each quantity."""

    def __init__(self, game_id: int, turn: int, buys: list[dict[str, Any]] | None = None) -> None:
        kinds = [next(iter(a["resources"])) for a in buys or []]
        options = [discord.SelectOption(label=f"Buy {k}", value=k) for k in kinds]
        super().__init__(
            discord.ui.Select(
                custom_id=f"pg:kind:{game_id}:{turn}",
                placeholder="Buy a resource…",
                options=options or [discord.SelectOption(label="(nothing to buy)", value="-")],
                disabled=not options,
            )
        )

    async def clicked(self, interaction: discord.Interaction, tv: TurnView) -> None:
        kind = self.choice()
        if kind not in RESOURCES:
            raise UserError("Pick coal, oil, garbage or uranium.")
        options = quantities(tv, kind)
        if not options:
            raise UserError(f"You can't buy {kind} now.")
        view = discord.ui.View(timeout=None)
        view.add_item(ActSelect(tv.table.row.id, tv.turn, 0, options, f"How much {kind}?"))
        view.add_item(PanelBack(tv.table.row.id, tv.turn))
        await answer.edit(interaction, view=view)


def quantities(tv: TurnView, kind: str) -> list[tuple[str, dict[str, Any]]]:
    """Each quantity of `kind` the seat may buy now, with its price."""
    game, state = tv.table.game, tv.table.state
    options = []
    for k in range(1, 25):
        cost = buy_cost(state, kind, k)
        if cost is None:
            break
        action = {"type": "buy", "resources": {kind: k}}
        try:
            game.apply(state, tv.seat, action)
        except IllegalAction:
            break
        options.append((f"{k} {kind} for {cost} Elektro", action))
    return options


# ---- building --------------------------------------------------------------------------------


def _priced(tv: TurnView, cities: list[str]) -> list[tuple[str, str]]:
    """Cities the seat may build in now, cheapest first, each with its price in words: what
    connecting it to the network costs plus its next house."""
    rows = []
    for city in cities:
        links, house = build_costs(tv.table.state, tv.seat, [city])
        label = f"{city}: {links + house} Elektro ({links} to connect + {house} house)"
        rows.append((links + house, city, label))
    return [(city, label) for _, city, label in sorted(rows)]


def build_items(tv: TurnView) -> list[discord.ui.DynamicItem[Any]]:
    """A select of the cheapest cities (several at once), and regions for the rest when there
    are more than one select holds."""
    gid, money = tv.table.row.id, _money(tv)
    cities = [a["cities"][0] for a in _of(tv, "build")]
    priced = _priced(tv, cities)
    several = "the cheapest cities" if len(priced) > OPTIONS else "cities"
    placeholder = f"You have {money} Elektro: build in {several}, several at once…"
    items: list[discord.ui.DynamicItem[Any]] = [
        CitySelect(gid, tv.turn, tv.view["map"], priced[:OPTIONS], placeholder, _houses(tv))
    ]
    if len(priced) > OPTIONS:
        regions = sorted({_region(tv, c) for c in cities})
        items.append(RegionSelect(gid, tv.turn, regions))
    return items


def _houses(tv: TurnView) -> int:
    return int(tv.view["seats"][tv.seat]["houses_left"])


class RegionSelect(
    PanelClick,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"pg:region:(?P<game>\d+):(?P<turn>\d+)",
):
    """Build: a region first, then any of its reachable cities, then the total to confirm."""

    def __init__(self, game_id: int, turn: int, regions: list[str] | None = None) -> None:
        options = [discord.SelectOption(label=f"Build in {r}", value=r) for r in regions or []]
        super().__init__(
            discord.ui.Select(
                custom_id=f"pg:region:{game_id}:{turn}",
                placeholder="Or build by region…",
                options=options or [discord.SelectOption(label="(nowhere)", value="-")],
                disabled=not options,
                row=1,
            )
        )

    async def clicked(self, interaction: discord.Interaction, tv: TurnView) -> None:
        region = self.choice()
        cities = [a["cities"][0] for a in _of(tv, "build")]
        here = _priced(tv, [c for c in cities if _region(tv, c) == region])[:OPTIONS]
        if not here:
            raise UserError(f"You can't build in {region} now.")
        gid, money = tv.table.row.id, _money(tv)
        view = discord.ui.View(timeout=None)
        placeholder = f"You have {money} Elektro: build in {region}, several at once…"
        view.add_item(CitySelect(gid, tv.turn, tv.view["map"], here, placeholder, _houses(tv)))
        view.add_item(PanelBack(gid, tv.turn))
        await answer.edit(interaction, view=view)


def _index(map_name: str) -> list[str]:
    return [c.name for c in game_map(map_name).cities]


def _cities(item: Clicked, tv: TurnView, numbers: list[str]) -> list[str]:
    """The cities a component names by their place on its map, which must be the game's."""
    name = game_map(tv.view["map"]).name
    if item.fields["map"] != tv.view["map"]:
        raise item.damaged(f"it names the map “{item.fields['map']}”, and this game is on {name}")
    index = _index(tv.view["map"])
    places = [item.whole(n, "city") for n in numbers]
    beyond = [n for n in places if not 0 <= n < len(index)]
    if beyond:
        raise item.damaged(f"{name} has no city number {beyond[0]}")
    return [index[n] for n in places]


class CitySelect(
    PanelClick,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"pg:cities:(?P<game>\d+):(?P<turn>\d+):(?P<map>[a-z]+)",
):
    """Cities to build in, several at once, each labelled with its price; then the total."""

    def __init__(
        self,
        game_id: int,
        turn: int,
        map_name: str,
        cities: list[tuple[str, str]] | None = None,
        placeholder: str = "",
        houses: int = 1,
    ) -> None:
        index = _index(map_name)
        options = [
            discord.SelectOption(label=label[:100], value=str(index.index(city)))
            for city, label in cities or []
        ]
        super().__init__(
            discord.ui.Select(
                custom_id=f"pg:cities:{game_id}:{turn}:{map_name}",
                placeholder=(placeholder or "Choose the cities (several at once)…")[:150],
                options=options or [discord.SelectOption(label="(none)", value="-")],
                min_values=1,
                max_values=max(1, min(len(options), houses)),
                disabled=not options,
                row=0,
            )
        )

    async def clicked(self, interaction: discord.Interaction, tv: TurnView) -> None:
        cities = _cities(self, tv, self.choices())
        order, links, houses = cheapest_build(tv, cities)
        total, money = links + houses, _money(tv)
        gid, map_name = tv.table.row.id, tv.view["map"]
        these = "these" if len(order) > 1 else "here"
        label = f"Build {these} for {total} Elektro"
        view = discord.ui.View(timeout=None)
        view.add_item(BuildButton(gid, tv.turn, map_name, order, label))
        view.add_item(PanelBack(gid, tv.turn))
        note = (
            f"Build in {join(order)}: {total} Elektro ({links} to connect + {houses} for houses); "
            f"{money - total} of your {money} Elektro would be left."
        )
        await answer.edit(interaction, content=turn_text(tv, note), view=view)


def cheapest_build(tv: TurnView, cities: list[str]) -> tuple[list[str], int, int]:
    """The order of `cities` that costs least (the network grows city by city) with what it
    costs to connect and in houses; refuses a build the rules forbid, or one the seat can't pay
    for, naming the total and its money."""
    state, best, reason = tv.table.state, None, "Choose at least one city."
    orders = permutations(cities) if len(cities) <= 5 else [tuple(cities)]
    for order in orders:
        try:
            links, houses = quote_build(state, tv.seat, list(order))
        except IllegalAction as exc:
            reason = exc.reason
            continue
        if best is None or links + houses < sum(best[1:]):
            best = (list(order), links, houses)
    if best is None:
        raise UserError(reason)
    money = _money(tv)
    if sum(best[1:]) > money:
        total = sum(best[1:])
        raise UserError(f"Building in {join(best[0])} costs {total} Elektro; you have {money}.")
    return best


class BuildButton(
    PanelClick,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"pg:build:(?P<game>\d+):(?P<turn>\d+):(?P<map>[a-z]+):(?P<cities>[\d.]+)",
):
    def __init__(self, game_id: int, turn: int, map_name: str, cities: list[str], label: str = ""):
        index = _index(map_name)
        key = ".".join(str(index.index(c)) for c in cities)
        super().__init__(
            discord.ui.Button(
                label=label or "Build",
                style=discord.ButtonStyle.success,
                custom_id=f"pg:build:{game_id}:{turn}:{map_name}:{key}",
            )
        )

    async def clicked(self, interaction: discord.Interaction, tv: TurnView) -> None:
        cities = _cities(self, tv, self.fields["cities"].split("."))
        build = {"type": "build", "cities": cities}
        await act(interaction, tv.table.row.id, self.number("turn"), build)


DYNAMIC_ITEMS = (
    MixSelect,
    PlantSelect,
    AmountRanges,
    KindSelect,
    RegionSelect,
    CitySelect,
    BuildButton,
)
