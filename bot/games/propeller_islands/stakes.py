"""What a Propeller Islands decision is about, in a line or two for the "your turn" message, and
the question before a move that is likely a slip; both read only the seat's view."""

from collections.abc import Callable
from typing import Any

from bot.games.propeller_islands.words import cell_name, cost_words, tile_words, token_words
from bot.service.hosting import join, seat_ref

View = dict[str, Any]

CONFIRM_TYPES = frozenset({"end_turn", "done", "activate", "discard"})
"""Moves that end a turn, pass play or spend the die for little, and may be a slip."""
NAMED = 3
"""Buildings named in a line at most; more are counted."""
FIXED = {
    "start_tiles": "Take any tile on offer as your starting tile, next to your Capitol.",
    "keep_character": "Keep one character: its ability unlocks at fame 5, the advanced one at 10.",
    "take": "Take a blueprint: a face-up one (on the forge picture) or a face-down one.",
    "r1": "Reward R1: take the placement benefit of up to 2 of your depots again.",
    "warehouse": "The Warehouse gives the placement benefit of one of your depots.",
    "choose": "Choose +1 energy or +1 steel.",
}
"""The decisions whose stakes are the same every time."""


def _decision(view: View) -> dict[str, Any]:
    return view.get("decision") or {}


def _names(view: View, seat: int, hexes: list[list[int]]) -> str:
    """Tiles of the seat's island by name: "Refinery, Hotel, Capitol and 2 more"."""
    cells = {tuple(c["at"]): cell_name(c) for c in view["seats"][seat]["island"]}
    names = [cells[(q, r)] for q, r in hexes]
    shown = names[:NAMED] + ([f"{len(names) - NAMED} more"] if len(names) > NAMED else [])
    return join(shown)


def _can_activate(view: View, seat: int) -> str:
    """What the die in play (or a reward) can activate now: "Refinery and Capitol"."""
    active = _decision(view)["activations"]
    return _names(view, seat, active) if active else "nothing of yours"


def _completable(view: View, seat: int) -> list[str]:
    """The blueprints in the seat's hand it can pay for now: "I-03 (3 VP for 1 energy)"."""
    vp = {card["id"]: card["vp"] for card in view["seats"][seat]["hand"] or []}
    return [
        f"{card} ({vp[card]} VP for {cost_words(card) or 'nothing'})"
        for card in _decision(view).get("complete", [])
    ]


def _ending(view: View, seat: int) -> str:
    """What may end the game after this round, where it is close ("" if nothing is)."""
    if view["stack_count"] <= view["players"]:
        left = view["stack_count"]
        return f" The draw stack has {left} tiles left: the game ends after the round it runs out."
    for other in view["seats"]:
        if other["seat"] != seat and len(other["completed"]) >= 6:
            return (
                f" {seat_ref(other['seat'])} has completed {len(other['completed'])} of 7 "
                "blueprints: the 7th ends the game after the round."
            )
    return ""


def _draft(view: View, seat: int) -> str:
    dice = [v for v, n in sorted(view["forge"].items()) for _ in range(n)]
    energy = view["seats"][seat]["energy"]
    return (
        f"Dice in the forge: {', '.join(dice)}. You have {energy} energy (1 changes your die by 1)."
        + _ending(view, seat)
    )


def _act(view: View, seat: int) -> str:
    decision = _decision(view)
    spaces = sorted({c["space"] for c in decision["claims"]} | set(decision["discards"]))
    tiles = join([f"O{s}" for s in spaces]) or "no tile"
    best = max((f for c in decision["claims"] for f in c["fame"].values()), default=0)
    links = f" (guild links: up to +{best} fame)" if best else ""
    return (
        f"Your die is a {view['turn']['value']}: claim or discard {tiles}{links}, or activate "
        f"{_can_activate(view, seat)}."
    )


def _activating(view: View, seat: int) -> str:
    value = view["turn"]["value"]
    if not _decision(view)["activations"]:
        return f"Activating with a {value}: nothing more can be activated."
    return f"Activating with a {value}: you can still activate {_can_activate(view, seat)}."


def _bonus(view: View, seat: int) -> str:
    value = view["bonus"]["value"]
    return f"The bonus die is a {value}: it can activate {_can_activate(view, seat)}."


def _blueprint(view: View, seat: int) -> str:
    can = _completable(view, seat)
    done = f"{len(view['seats'][seat]['completed'])} of 7 completed"
    if can:
        return f"You can complete {join(can)}; {done}." + _ending(view, seat)
    return f"No blueprint in your hand can be paid for now; {done}." + _ending(view, seat)


def _deploy(view: View, seat: int) -> str:
    empties = [d for d in _decision(view)["dock"] if d["empties"]]
    if not empties:
        return "Deploy a worker: no dock space empties a line yet."
    rewards = {line["line"]: line["text"] for line in view["seats"][seat]["lines"]}
    said = [
        f"space {d['number']} empties {join(d['empties'])} ({rewards[d['empties'][0]]})"
        for d in empties[:2]
    ]
    return f"Deploy a worker: dock {'; '.join(said)}."


def _place(view: View, seat: int) -> str:
    best = max((s["fame"] for s in _decision(view)["spots"]), default=0)
    links = f"; guild links give up to +{best} fame" if best else ""
    return f"Reward C1: place {tile_words(view['tasks'][-1]['tile'])} on your island{links}."


def _install(view: View, seat: int) -> str:
    token = token_words(view["tasks"][-1]["token"])
    return f"Install the {token} now, or set it aside for good (2 set aside = 1 VP)."


def _rewards(view: View, seat: int) -> str:
    lines = join(view["tasks"][-1]["lines"])
    return f"Dock lines {lines} are empty: both rewards come, in the order you pick."


def _c3(view: View, seat: int) -> str:
    return f"Reward C3: activate any building with a ready worker: {_can_activate(view, seat)}."


def _radio(view: View, seat: int) -> str:
    return f"The Radio Station activates one more tile, any number: {_can_activate(view, seat)}."


LINES: dict[str, Callable[[View, int], str]] = {
    "draft": _draft,
    "act": _act,
    "activating": _activating,
    "bonus": _bonus,
    "blueprint": _blueprint,
    "deploy": _deploy,
    "place": _place,
    "install": _install,
    "rewards": _rewards,
    "c3": _c3,
    "radio": _radio,
}
"""The stakes of each decision that depend on the view."""


def stakes(view: View, seat: int) -> str:
    """This decision and what rides on it, in one or two short lines ("" if none is pending)."""
    point = _decision(view).get("point", "")
    if point in LINES:
        return LINES[point](view, seat)
    return FIXED.get(point, "")


def confirm(view: View, seat: int, action: dict[str, Any]) -> str | None:
    """The question before a move that ends the turn or passes with something still worth
    doing, spends the die for nothing, or throws a tile away; None: make it at once."""
    decision = _decision(view)
    kind, point = action.get("type"), decision.get("point")
    if kind == "end_turn" and (can := _completable(view, seat)):
        return f"End the turn without completing a blueprint? You can still complete {join(can)}."
    active = decision.get("activations", [])
    if kind == "done" and point == "bonus" and active:
        return f"Pass on the bonus die? It can still activate {_names(view, seat, active)}."
    # While a blueprint can be completed the turn goes on, and Undo takes "done" back.
    if kind == "done" and point == "activating" and active and not _completable(view, seat):
        return (
            f"Stop activating and end the turn? The {view['turn']['value']} can still activate "
            f"{_names(view, seat, active)}."
        )
    if kind == "activate" and point == "act" and not active:
        return (
            f"Activate with the {view['turn']['value']}? None of your buildings can be activated "
            "with it: the die would be spent for nothing."
        )
    if kind == "discard" and point == "act":
        tile = view["offer"][action["space"] - 1]["tile"]
        energy = decision["discard_energy"]
        return (
            f"Discard {tile_words(tile)} from O{action['space']} for {energy} energy instead of "
            "claiming it? It leaves the game."
        )
    return None
