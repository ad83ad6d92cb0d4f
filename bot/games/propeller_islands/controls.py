"""Propeller Islands' "your turn" panel: exactly the legal decisions, as buttons and selects
within Discord's limits (25 options a select, 5 rows a message). A claim picks the tile on
offer, then its spot; a deploy the building, then the dock space. Spots and tiles are named by
the letters, dock spaces by the numbers, drawn on the panel's picture (the view's `decision`)."""

from collections.abc import Callable
from typing import Any

import discord

from bot.games.propeller_islands.words import (
    cell_name,
    character_name,
    cost_words,
    tile_words,
    token_words,
)
from bot.service.errors import UserError
from bot.service.service import TurnView
from bot.ui import answer
from bot.ui.turns import ActButton, ActSelect, PanelBack, PanelClick, turn_text
from engine.propeller_islands.components import blueprints, characters

SELECT_ROWS = 4
"""Rows for selects; the fifth holds the buttons."""
LABEL = 100
"""The most characters of a menu entry."""
ORDER = (
    "keep_character",
    "draft",
    "claim",
    "place",
    "deploy",
    "use",
    "depot",
    "install",
    "complete",
    "take",
    "reward",
    "discard",
    "adjust",
)
"""The order of the menus on a panel: the usual decision first."""
KINDS = {
    "keep_character": "Keep a character…",
    "draft": "Draft a die…",
    "claim": "Claim a tile on offer…",
    "place": "Place the tile on…",
    "deploy": "Deploy a worker to…",
    "use": "Activate a building…",
    "depot": "Take a depot's benefit…",
    "install": "Install the upgrade on…",
    "complete": "Complete a blueprint…",
    "take": "Take a new blueprint…",
    "reward": "Which dock reward first?",
    "discard": "Discard a tile for energy…",
    "adjust": "Change the die…",
}
"""Each kind of decision as its menu's placeholder (and the kind menu's entries)."""
BUTTONS = ("activate", "done", "end_turn", "keep", "choose")
"""Decisions made by one button each."""
TRADES = {
    "energy_to_steel": "2 energy → 1 steel",
    "energy_to_parts": "2 energy → 1 part",
    "steel_to_energy": "1 steel → 2 energy",
    "parts_to_energy": "1 part → 2 energy",
}
"""The Crystal Trader's exchanges, as its menu shows them."""

Menu = Callable[[int], discord.ui.Item[Any]]
"""One row of a panel, made once its row is known."""


def _spots(view: dict[str, Any]) -> dict[tuple[int, int], str]:
    """The decision's island hexes by their letter on the picture."""
    decision = view.get("decision") or {}
    return {(s["at"][0], s["at"][1]): s["label"] for s in decision.get("spots", [])}


def _cell(view: dict[str, Any], seat: int, at: list[int]) -> dict[str, Any]:
    return next(c for c in view["seats"][seat]["island"] if c["at"] == list(at))


def _named(cell: dict[str, Any]) -> str:
    """A tile with its activation number, as on the picture: "Refinery (3)", "Hotel (?)"."""
    if cell["category"] in ("guild", "hub"):
        return f"{cell['name']} ({'?' if cell['number'] is None else cell['number']})"
    return cell_name(cell)


def _on_spot(view: dict[str, Any], seat: int, at: list[int]) -> str:
    """A tile of the seat's island by its letter: "B · Refinery (3)"."""
    letter = _spots(view).get((at[0], at[1]))
    named = _named(_cell(view, seat, at))
    return f"{letter} · {named}" if letter else named


def _offered(view: dict[str, Any], space: int) -> dict[str, Any]:
    return view["offer"][space - 1]


def _fame(n: int) -> str:
    return f" · +{n} fame (guild link{'s' if n > 1 else ''})" if n else ""


def _claim_fame(view: dict[str, Any], space: int, letter: str) -> int:
    claims = (view.get("decision") or {}).get("claims", [])
    return next((c["fame"].get(letter, 0) for c in claims if c["space"] == space), 0)


def _dock_words(view: dict[str, Any], seat: int, space: list[int]) -> str:
    """A dock space by its number on the picture, and the lines taking its worker empties."""
    dock = (view.get("decision") or {}).get("dock", [])
    entry = next(d for d in dock if d["space"] == list(space))
    rewards = {line["line"]: line["text"] for line in view["seats"][seat]["lines"]}
    empties = [f"{line}: {rewards[line]}" for line in entry["empties"]]
    return f"dock space {entry['number']}" + (
        f" · empties {' and '.join(empties)}" if empties else ""
    )


def _use_words(view: dict[str, Any], seat: int, action: dict[str, Any]) -> str:
    """An activation: the tile by its letter, and what this option of it does."""
    cell = _cell(view, seat, action["tile"])
    option = action.get("option")
    if option == "deploy":
        effect = "deploy 1 worker"
    elif option == "resources":
        # The Capitol's text reads "Any number: deploy 1 worker, or <its resources>".
        effect = cell["text"].split(", or ", 1)[-1]
    else:
        effect = TRADES.get(option or "", cell["text"])
    return f"{_on_spot(view, seat, action['tile'])}: {effect}"


def _card_words(card_id: str) -> str:
    card = blueprints()[card_id]
    cost = cost_words(card_id)
    return f"{card_id}: {card.vp} VP, {token_words(card.token)}" + (f", for {cost}" if cost else "")


def label(action: dict[str, Any], view: dict[str, Any], seat: int) -> str:
    """A legal decision as a menu entry, in the words and the letters of the panel's picture."""
    kind = action["type"]
    if kind == "keep_character":
        c = characters()[action["character"]]
        return f"Keep {c.name}: {c.basic}"
    if kind == "draft":
        return f"Draft a {action['value']}"
    if kind == "adjust":
        if view["waiting_for"] == "bonus":
            return f"Count the bonus die as {action['to']} ({character_name('nelson')})"
        how = f"free: {character_name('charles')}" if action.get("free") else "1 energy"
        return f"Change the die to {action['to']} ({how})"
    if kind == "claim":
        tile = _offered(view, action["space"])["name"]
        letter = _spots(view).get((action["at"][0], action["at"][1]), "?")
        fame = _claim_fame(view, action["space"], letter)
        return f"Claim the {tile} (O{action['space']}) onto spot {letter}{_fame(fame)}"
    if kind == "discard":
        energy = (view.get("decision") or {}).get("discard_energy", 2)
        tile = _offered(view, action["space"])["name"]
        return f"Discard the {tile} (O{action['space']}) for {energy} energy"
    if kind == "use":
        return f"Activate {_use_words(view, seat, action)}"
    if kind == "deploy":
        to = _on_spot(view, seat, action["to"])
        return f"Deploy to {to} from {_dock_words(view, seat, action['from'])}"
    if kind == "complete":
        return f"Complete {_card_words(action['card'])}"
    if kind == "reward":
        lines = {ln["line"]: ln["text"] for ln in view["seats"][seat]["lines"]}
        return f"{action['line']} first: {lines[action['line']]}"
    if kind == "place":
        spots = (view.get("decision") or {}).get("spots", [])
        spot = next((s for s in spots if s["at"] == list(action["at"])), None)
        letter = spot["label"] if spot else "?"
        return f"Place it onto spot {letter}{_fame(spot['fame'] if spot else 0)}"
    if kind == "depot":
        cell = _cell(view, seat, action["tile"])
        return f"{_on_spot(view, seat, action['tile'])}: {cell['text'].split(': ', 1)[-1]}"
    if kind == "install":
        return f"Install it on {_on_spot(view, seat, action['tile'])}"
    if kind == "take":
        if action.get("card"):
            return f"Take {_card_words(action['card'])}"
        return f"Draw a face-down level {action['stack']} blueprint"
    if kind == "choose":
        return f"+1 {action['resource']}"
    return _button(action, view)


def _button(action: dict[str, Any], view: dict[str, Any]) -> str:
    """The words of a decision made by one button."""
    kind, point = action["type"], view["waiting_for"]
    if kind == "activate":
        return f"Activate buildings with the {view['turn']['value']}"
    if kind == "end_turn":
        return "End the turn"
    if kind == "keep":
        return "Set the upgrade aside"
    if point == "bonus":
        return "Done with the bonus die" if view["bonus"]["used"] else "Pass on the bonus die"
    if point == "r1":
        return "No more depots"
    if point == "c3":
        return "Nothing more to activate"
    return "Done activating"


def _groups(tv: TurnView) -> dict[str, list[dict[str, Any]]]:
    """The legal decisions made with a menu, by kind, in the panel's order."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for action in tv.legal:
        if action["type"] not in BUTTONS:
            groups.setdefault(action["type"], []).append(action)
    return {k: groups[k] for k in sorted(groups, key=ORDER.index)}


def _short(text: str) -> str:
    """A menu entry within Discord's 100 characters, cut at a word."""
    return text if len(text) <= LABEL else text[: LABEL - 1].rsplit(" ", 1)[0] + "…"


def _selects(tv: TurnView, options: list[tuple[str, dict[str, Any]]], hint: str) -> list[Menu]:
    """ActSelects of `options`, 25 to a row."""
    options = [(_short(text), action) for text, action in options]
    chunks = [options[i : i + 25] for i in range(0, len(options), 25)]
    return [_select(tv, chunk, hint) for chunk in chunks]


def _select(tv: TurnView, options: list[tuple[str, dict[str, Any]]], hint: str) -> Menu:
    """One ActSelect of up to 25 `options`, on the row it is given."""
    return lambda row: ActSelect(tv.table.row.id, tv.turn, row, options, hint)


def _homes(tv: TurnView) -> list[str]:
    """The letters of the buildings a worker may be deployed to."""
    spots = _spots(tv.view)
    homes = {spots[(a["to"][0], a["to"][1])] for a in tv.legal if a["type"] == "deploy"}
    return sorted(homes, key=lambda letter: (len(letter), letter))


def _spot_order(tv: TurnView) -> Callable[[dict[str, Any]], int]:
    """Decisions that pick a spot or tile in the order of their letters (others keep theirs)."""
    order = {at: i for i, at in enumerate(_spots(tv.view))}

    def key(action: dict[str, Any]) -> int:
        at = action.get("at") or action.get("to") or action.get("tile")
        return order.get((at[0], at[1]), 0) if isinstance(at, list) else 0

    return key


def _menus(tv: TurnView, kind: str, actions: list[dict[str, Any]]) -> list[Menu]:
    """The rows a kind of decision takes: a claim's tiles, a deploy's buildings (each then
    asks for the spot), or the decisions themselves."""
    gid, turn = tv.table.row.id, tv.turn
    if kind == "claim":
        spaces = sorted({a["space"] for a in actions})
        return [lambda row: ClaimSelect(gid, turn, [_tile_option(tv, s) for s in spaces], row)]
    if kind == "deploy" and len(homes := _homes(tv)) > 1:
        buildings = [_home_option(tv, letter) for letter in homes]
        return [lambda row: DeploySelect(gid, turn, buildings, row)]
    options = [(label(a, tv.view, tv.seat), a) for a in sorted(actions, key=_spot_order(tv))]
    if kind == "place":
        return _selects(tv, options, f"Place {tile_words(tv.view['tasks'][-1]['tile'])} on…")
    return _selects(tv, options, KINDS[kind])


def _tile_option(tv: TurnView, space: int) -> discord.SelectOption:
    """A tile on offer, for the first step of a claim: its space, name, number and effect."""
    tile = _offered(tv.view, space)
    number = "" if tile["number"] is None and not tile["wild"] else f" ({tile['number'] or '?'})"
    return discord.SelectOption(
        label=f"O{space} · {tile['name']}{number}",
        value=str(space),
        description=tile["text"][:100],
    )


def _home_option(tv: TurnView, letter: str) -> discord.SelectOption:
    """A building that has room for a worker, by its letter on the picture."""
    at = next(at for at, spot in _spots(tv.view).items() if spot == letter)
    return discord.SelectOption(label=_on_spot(tv.view, tv.seat, list(at)), value=letter)


def panel(tv: TurnView) -> discord.ui.View:
    """Every legal decision: a menu (or a few) per kind, the kinds first when they would not
    fit, and a button for each decision without a choice in it."""
    view = discord.ui.View(timeout=None)
    groups = _groups(tv)
    menus = [menu for kind, actions in groups.items() for menu in _menus(tv, kind, actions)]
    if len(menus) <= SELECT_ROWS:
        for row, menu in enumerate(menus):
            view.add_item(menu(row))
    else:
        view.add_item(KindSelect(tv.table.row.id, tv.turn, list(groups)))
    for action in tv.legal:
        if action["type"] in BUTTONS:
            style = (
                discord.ButtonStyle.success
                if action["type"] == "end_turn"
                else discord.ButtonStyle.secondary
            )
            text = label(action, tv.view, tv.seat)
            view.add_item(ActButton(tv.table.row.id, tv.turn, action, text, style, row=4))
    return view


async def _step(
    interaction: discord.Interaction, tv: TurnView, menus: list[Menu], done: str
) -> None:
    """Show the next step of a panel (`menus`, with Back) in place of the panel."""
    view = discord.ui.View(timeout=None)
    for row, menu in enumerate(menus[:SELECT_ROWS]):
        view.add_item(menu(row))
    view.add_item(PanelBack(tv.table.row.id, tv.turn))
    await answer.edit(interaction, content=turn_text(tv, done), view=view)


def _options(select: discord.ui.Select, given: list[discord.SelectOption]) -> None:
    select.options = given or [discord.SelectOption(label="(nothing to choose)", value="-")]
    select.disabled = not given


class KindSelect(
    PanelClick,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"pi:kind:(?P<game>\d+):(?P<turn>\d+)",
):
    """When one menu per kind would not fit: the kind of decision first."""

    def __init__(self, game_id: int, turn: int, kinds: list[str] | None = None) -> None:
        select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
            custom_id=f"pi:kind:{game_id}:{turn}", placeholder="What do you want to do?"
        )
        _options(select, [discord.SelectOption(label=KINDS[k], value=k) for k in kinds or []])
        super().__init__(select)

    async def clicked(self, interaction: discord.Interaction, tv: TurnView) -> None:
        kind = self.choice()
        actions = _groups(tv).get(kind)
        if not actions:
            raise UserError("You can't do that now.")
        await _step(interaction, tv, _menus(tv, kind, actions), "")


class ClaimSelect(
    PanelClick,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"pi:claim:(?P<game>\d+):(?P<turn>\d+)",
):
    """A claim, first step: the tile on offer; then its spot, by letter on the picture."""

    def __init__(
        self,
        game_id: int,
        turn: int,
        tiles: list[discord.SelectOption] | None = None,
        row: int | None = None,
    ) -> None:
        select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
            custom_id=f"pi:claim:{game_id}:{turn}", placeholder=KINDS["claim"], row=row
        )
        _options(select, tiles or [])
        super().__init__(select)

    async def clicked(self, interaction: discord.Interaction, tv: TurnView) -> None:
        space = self.whole(self.choice(), "offer space", 12)
        claims = [a for a in tv.legal if a["type"] == "claim" and a["space"] == space]
        if not claims:
            raise UserError(f"You can't claim the tile in O{space} now.")
        tile = _offered(tv.view, space)["name"]
        spots = _spots(tv.view)
        options = []
        for action in sorted(claims, key=_spot_order(tv)):
            letter = spots[(action["at"][0], action["at"][1])]
            options.append((f"Spot {letter}{_fame(_claim_fame(tv.view, space, letter))}", action))
        menus = _selects(tv, options, f"Put the {tile} on spot…")
        done = f"**The {tile} (O{space})**: pick its spot, lettered on your island picture."
        await _step(interaction, tv, menus, done)


class DeploySelect(
    PanelClick,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"pi:deploy:(?P<game>\d+):(?P<turn>\d+)",
):
    """A deploy, first step: the building, by letter; then the dock space, by number."""

    def __init__(
        self,
        game_id: int,
        turn: int,
        homes: list[discord.SelectOption] | None = None,
        row: int | None = None,
    ) -> None:
        select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
            custom_id=f"pi:deploy:{game_id}:{turn}", placeholder=KINDS["deploy"], row=row
        )
        _options(select, homes or [])
        super().__init__(select)

    async def clicked(self, interaction: discord.Interaction, tv: TurnView) -> None:
        letter = self.choice()
        spots = _spots(tv.view)
        deploys = [
            a for a in tv.legal if a["type"] == "deploy" and spots.get(tuple(a["to"])) == letter
        ]
        if not deploys:
            raise UserError(f"No worker can be deployed to spot {letter} now.")
        home = _on_spot(tv.view, tv.seat, deploys[0]["to"])
        options = []
        for action in deploys:
            words = _dock_words(tv.view, tv.seat, action["from"])
            options.append((words[:1].upper() + words[1:], action))
        menus = _selects(tv, options, "From dock space…")
        done = f"**Deploy to {home}**: pick the dock space, numbered on your dock picture."
        await _step(interaction, tv, menus, done)


DYNAMIC_ITEMS = (KindSelect, ClaimSelect, DeploySelect)
