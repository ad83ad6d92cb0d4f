"""Power Grid's "your turn" panel: selects and buttons for exactly the legal moves, with the price
of a purchase or a build shown before it is made (restart-proof: ids carry game and turn)."""

from itertools import permutations
from typing import Any

import discord

from bot.service.errors import UserError
from bot.service.service import TurnView
from bot.ui.clicks import Clicked
from bot.ui.turns import ActButton, ActSelect, PanelBack, PanelClick, act, turn_text
from engine.core import IllegalAction
from engine.power_grid.build import price_build
from engine.power_grid.market import buy_cost
from engine.power_grid.rules import RESOURCES, game_map, plants

FUEL = {
    "coal": "coal",
    "oil": "oil",
    "garbage": "garbage",
    "uranium": "uranium",
    "hybrid": "coal/oil",
}


def plant_label(number: int) -> str:
    p = plants()[number]
    fuel = "no fuel" if not p.resources else f"{p.resources} {FUEL.get(p.type, p.type)}"
    return f"Plant {number}: {fuel} → {p.cities} cit{'y' if p.cities == 1 else 'ies'}"


def _of(tv: TurnView, kind: str) -> list[dict[str, Any]]:
    return [a for a in tv.legal if a["type"] == kind]


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
        view.add_item(PlantSelect(gid, turn, numbers))
        view.add_item(ActButton(gid, turn, {"type": "pass"}, "Pass (no plant this round)", row=4))
    if "bid" in kinds:
        bids = [(f"Bid {a['amount']} Elektro", a) for a in _of(tv, "bid")]
        view.add_item(ActSelect(gid, turn, 0, bids, "Raise the bid…"))
        view.add_item(ActButton(gid, turn, {"type": "drop"}, "Drop out", row=4))
    if "buy" in kinds:
        view.add_item(KindSelect(gid, turn, [a for a in _of(tv, "buy")]))
    if tv.view["phase"] == "build" and "done" in kinds:
        regions = sorted({_region(tv, a["cities"][0]) for a in _of(tv, "build")})
        if regions:
            view.add_item(RegionSelect(gid, turn, regions))
    if "power" in kinds:
        view.add_item(ActSelect(gid, turn, 0, power_options(tv), "Power cities…"))
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


class PlantSelect(
    PanelClick,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"pg:plant:(?P<game>\d+):(?P<turn>\d+)",
):
    """Open an auction: the plant first, then the bid."""

    def __init__(self, game_id: int, turn: int, numbers: list[int] | None = None) -> None:
        options = [discord.SelectOption(label=plant_label(n), value=str(n)) for n in numbers or []]
        super().__init__(
            discord.ui.Select(
                custom_id=f"pg:plant:{game_id}:{turn}",
                placeholder="Open an auction for a plant…",
                options=options or [discord.SelectOption(label="(no plant)", value="-")],
                disabled=not options,
            )
        )

    async def clicked(self, interaction: discord.Interaction, tv: TurnView) -> None:
        plant = self.whole(self.choice(), "plant")
        bids = [a for a in _of(tv, "open") if a["plant"] == plant]
        if not bids:
            raise UserError(f"Plant {plant} can't be auctioned now.")
        view = discord.ui.View(timeout=None)
        options = [(f"Open plant {plant} at {a['bid']} Elektro", a) for a in bids]
        view.add_item(ActSelect(tv.table.row.id, tv.turn, 0, options, "Your opening bid…"))
        view.add_item(PanelBack(tv.table.row.id, tv.turn))
        text = turn_text(tv, f"{plant_label(plant)}. The lowest bid is its number.")
        await interaction.response.edit_message(content=text, view=view)


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
        await interaction.response.edit_message(view=view)


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
                placeholder="Build: choose a region…",
                options=options or [discord.SelectOption(label="(nowhere)", value="-")],
                disabled=not options,
            )
        )

    async def clicked(self, interaction: discord.Interaction, tv: TurnView) -> None:
        region = self.choice()
        cities = [a["cities"][0] for a in _of(tv, "build")]
        here = [c for c in cities if _region(tv, c) == region][:25]
        if not here:
            raise UserError(f"You can't build in {region} now.")
        view = discord.ui.View(timeout=None)
        view.add_item(CitySelect(tv.table.row.id, tv.turn, tv.view["map"], here))
        view.add_item(PanelBack(tv.table.row.id, tv.turn))
        await interaction.response.edit_message(view=view)


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
    def __init__(self, game_id: int, turn: int, map_name: str, cities: list[str] | None = None):
        index = _index(map_name)
        options = [discord.SelectOption(label=c, value=str(index.index(c))) for c in cities or []]
        super().__init__(
            discord.ui.Select(
                custom_id=f"pg:cities:{game_id}:{turn}:{map_name}",
                placeholder="Choose the cities (several at once)…",
                options=options or [discord.SelectOption(label="(none)", value="-")],
                min_values=1,
                max_values=max(1, len(options)),
                disabled=not options,
            )
        )

    async def clicked(self, interaction: discord.Interaction, tv: TurnView) -> None:
        action = cheapest_build(tv, _cities(self, tv, self.choices()))
        view = discord.ui.View(timeout=None)
        price = price_build(tv.table.state, tv.seat, action["cities"])
        label = f"Build for {price} Elektro"
        gid, map_name = tv.table.row.id, tv.view["map"]
        view.add_item(BuildButton(gid, tv.turn, map_name, action["cities"], label))
        view.add_item(PanelBack(tv.table.row.id, tv.turn))
        where = ", ".join(action["cities"])
        text = turn_text(tv, f"Build in {where}: {price} Elektro in all. Confirm?")
        await interaction.response.edit_message(content=text, view=view)


def cheapest_build(tv: TurnView, cities: list[str]) -> dict[str, Any]:
    """The order of `cities` that costs least (the network grows city by city); refuses an
    impossible build with the rules' reason."""
    state, best, reason = tv.table.state, None, "Choose at least one city."
    orders = permutations(cities) if len(cities) <= 5 else [tuple(cities)]
    for order in orders:
        try:
            price = price_build(state, tv.seat, list(order))
        except IllegalAction as exc:
            reason = exc.reason
            continue
        if best is None or price < best[0]:
            best = (price, list(order))
    if best is None:
        raise UserError(reason)
    return {"type": "build", "cities": best[1]}


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


DYNAMIC_ITEMS = (PlantSelect, KindSelect, RegionSelect, CitySelect, BuildButton)
