"""What a reader of a running game's log may know: the deck's order and the plants removed at
setup stay secret, a plant drawn face up is public, and money stays hidden with that option."""

from collections import Counter
from typing import Any

from engine.core import Logged, Standing, hide, open_standings, shared_ranks
from engine.power_grid.config import Config
from engine.power_grid.outcome import standings
from engine.power_grid.state import State


def redact(step: Logged, viewer: int | None) -> dict[str, Any]:
    """A shuffle shows only that it happened; any other action names the plants it drew."""
    if step.action["type"] == "shuffle":
        return hide(step.action)
    before: State = step.before
    after: State = step.after
    left = set(after.deck)
    drawn = [plant for plant in before.deck if plant not in left]
    return {**step.action, "drawn": drawn} if drawn else step.action


def hidden(config: Config) -> list[str]:
    secrets = ["the order of the plant deck", "which plants were removed unseen at setup"]
    if config.hidden_money:
        secrets.append("every player's money (each player knows their own)")
    return secrets


def running_standings(state: State) -> list[Standing]:
    """The standings while the game runs: money ranks only once it is public (open money, or
    the end), so seats level on cities powered share a place under hidden money."""
    rows = standings(state)
    if not state.config.hidden_money or state.phase == "over":
        return open_standings(rows)
    powered = [row["details"]["powered"] for row in rows]
    ranks = shared_ranks([(n,) for n in powered])
    level = Counter(powered)
    return [
        Standing(
            seat=row["seat"],
            score=row["score"],
            rank=rank,
            tiebreak=[n],
            primary=n,
            secondary=None,
            details={"powered": n},
            note="tied on cities powered; money decides at the end" if level[n] > 1 else None,
        )
        for row, n, rank in zip(rows, powered, ranks, strict=True)
    ]
