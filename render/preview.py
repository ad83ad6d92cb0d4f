"""Every image of the four games for seeded mid- and end-game states.

Run: `python -m render.preview OUTDIR`.
"""

import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from random import Random
from typing import Any

from engine import registry
from engine.core import step
from engine.power_grid import autopilot as pg_autopilot
from engine.powerline import autopilot
from engine.propeller_islands import autopilot as pi_autopilot
from engine.railroad_ink import autopilot as ri_autopilot
from render import power_grid, railroad_ink
from render.powerline import centre_board, final_results, player_board, round_summary
from render.propeller_islands import forge, island, results

GAME = registry.get("powerline")

NAMES = (
    "Ludmila Wattenberg-Kilowattsdóttir of the Northern Grid",
    "Bob",
    "山田太郎",
    "Zoë 🎲⚡",
    "Анастасия",
    "x" * 70,
)

SCENARIOS: tuple[tuple[str, int, frozenset[str]], ...] = (
    ("solo", 1, frozenset()),
    ("three-limits", 3, frozenset({"construction_limits"})),
    ("three-adventure", 3, frozenset({"adventure_island"})),
    ("six-contracts", 6, frozenset({"contracts"})),
    ("six-special", 6, frozenset({"special_contracts", "adventure_island"})),
    (
        "six-all",
        6,
        frozenset({"construction_limits", "adventure_island", "contracts", "special_contracts"}),
    ),
)


@dataclass(frozen=True)
class Sample:
    """A seeded game stopped at an interesting moment, with the names at its table."""

    name: str
    state: Any
    names: tuple[str, ...]


def play_until(players: int, variants: frozenset[str], seed: int, round_: int | None) -> Any:
    """Autopilot game from `seed`, stopped in round `round_`'s planning (None: played out).

    Mid-game, seat 0 has already submitted, so its own board shows planned workers.
    """
    rng = Random(seed)
    state = GAME.new(GAME.Config(players=players, variants=variants), seed)
    while not GAME.is_over(state):
        if round_ is not None and state.round == round_ and state.phase == "plan":
            if players > 1 and state.plans[0] is None:
                state = GAME.apply(state, 0, autopilot.act(state, 0))
            return state
        state = step(GAME, state, rng, autopilot.act)
    return state


def samples() -> Iterator[Sample]:
    for i, (name, players, variants) in enumerate(SCENARIOS):
        for stage, round_ in (("mid", 8), ("end", None)):
            state = play_until(players, variants, seed=100 + i, round_=round_)
            yield Sample(f"{name}-{stage}", state, NAMES[:players])


def images(sample: Sample) -> Iterator[tuple[str, bytes]]:
    """(file name, PNG) for every image of a sample, each drawn from the proper view."""
    public = GAME.view(sample.state, None)
    names = sample.names
    yield f"{sample.name}-centre.png", centre_board(public, names)
    if public["last_round"]:
        yield f"{sample.name}-summary.png", round_summary(public, names)
    if public["over"]:
        yield f"{sample.name}-results.png", final_results(public, names)
    for seat in range(len(names)):
        own = GAME.view(sample.state, seat)
        yield f"{sample.name}-board-{seat + 1}.png", player_board(own, seat, names)


RAILROAD_INK = registry.get("railroad_ink")

RAILROAD_SCENARIOS: tuple[tuple[str, int, frozenset[str]], ...] = (
    ("solo", 1, frozenset()),
    ("three-lamps", 3, frozenset({"street_lamps"})),
    ("three-power", 3, frozenset({"power_grid"})),
    ("six-both", 6, frozenset({"street_lamps", "power_grid"})),
)


def railroad_ink_images() -> Iterator[tuple[str, bytes]]:
    """(file name, PNG) for Railroad Ink: mid-game boards with a draft and a submitted plan,
    the roll, and the final boards and score sheet, each from the proper view."""
    game = RAILROAD_INK
    for i, (name, players, expansions) in enumerate(RAILROAD_SCENARIOS):
        seed = 200 + i
        rng = Random(seed)
        state = game.new(game.Config(players=players, expansions=expansions), seed)
        names = NAMES[:players]
        while not (state.round == 4 and state.phase == "plan"):
            state = step(game, state, rng, ri_autopilot.act)
        plan = ri_autopilot.act(state, 0)
        draft = [s.model_dump(mode="json") for s in plan.steps]
        own = game.view(state, 0)
        yield f"ri-{name}-mid-draft.png", railroad_ink.board(own, 0, names, draft=draft[:-1])
        yield f"ri-{name}-mid-roll.png", railroad_ink.roll(own)
        state = game.apply(state, 0, plan)
        yield f"ri-{name}-mid-submitted.png", railroad_ink.board(game.view(state, 0), 0, names)
        if players > 1:
            public = game.view(state, None)
            yield f"ri-{name}-mid-other.png", railroad_ink.board(public, 1, names)
        while not game.is_over(state):
            state = step(game, state, rng, ri_autopilot.act)
        final = game.view(state, None)
        yield f"ri-{name}-end-board.png", railroad_ink.board(final, 0, names)
        yield f"ri-{name}-end-scores.png", railroad_ink.score_sheet(final, names)


POWER_GRID = registry.get("power_grid")

POWER_GRID_SCENARIOS: tuple[tuple[str, str, int, bool], ...] = (
    ("germany-2", "germany", 2, False),
    ("germany-4-hidden", "germany", 4, True),
    ("usa-3", "usa", 3, False),
    ("usa-6-hidden", "usa", 6, True),
)


def power_grid_state(
    map_name: str, players: int, seed: int, round_: int | None, hidden_money: bool = False
) -> Any:
    """Autopilot Power Grid game stopped at round `round_`'s build (None: played out; 0: the
    first region pick made)."""
    game = POWER_GRID
    config = game.Config(players=players, map=map_name, hidden_money=hidden_money)
    rng = Random(seed)
    state = game.new(config, seed)
    while not game.is_over(state):
        if round_ == 0 and state.phase == "regions" and state.regions:
            return state
        if round_ and state.round == round_ and state.phase == "build":
            return state
        state = step(
            game, state, rng, lambda s, seat: pg_autopilot.choose(game.view(s, seat), seat)
        )
    return state


def power_grid_images() -> Iterator[tuple[str, bytes]]:
    """(file name, PNG) for Power Grid: region picks, a mid-game map (whole, around seat 0's
    network and as an overview) and market from seat 0's view (other money hidden where the
    option is on), and the final map and standings."""
    game = POWER_GRID
    for i, (name, map_name, players, hidden) in enumerate(POWER_GRID_SCENARIOS):
        names = NAMES[:players]
        picking = game.view(power_grid_state(map_name, players, 300 + i, 0, hidden), None)
        yield f"pg-{name}-regions-map.png", power_grid.map_image(picking, names)
        yield f"pg-{name}-regions-overview.png", power_grid.map_overview(picking, names)
        mid = game.view(power_grid_state(map_name, players, 300 + i, 6, hidden), 0)
        yield f"pg-{name}-mid-map.png", power_grid.map_image(mid, names)
        yield f"pg-{name}-mid-focus.png", power_grid.map_focus(mid, names)
        yield f"pg-{name}-mid-overview.png", power_grid.map_overview(mid, names)
        yield f"pg-{name}-mid-market.png", power_grid.market(mid, names)
        final = game.view(power_grid_state(map_name, players, 300 + i, None, hidden), None)
        yield f"pg-{name}-end-map.png", power_grid.map_image(final, names)
        yield f"pg-{name}-end-market.png", power_grid.market(final, names)
        yield f"pg-{name}-end-results.png", power_grid.results(final, names)


PROPELLER_ISLANDS = registry.get("propeller_islands")

PROPELLER_SCENARIOS: tuple[tuple[str, int, str], ...] = (
    ("two-B", 2, "B"),
    ("three-A", 3, "A"),
    ("four-B", 4, "B"),
)


def propeller_islands_state(players: int, side: str, seed: int, round_: int | None) -> Any:
    """Autopilot Propeller Islands game stopped in round `round_` once every seat has taken a
    turn, so some workers lie (None: played out)."""
    game = PROPELLER_ISLANDS
    rng = Random(seed)
    state = game.new(game.Config(players=players, capitol_side=side), seed)
    while not game.is_over(state):
        if state.round == round_ and state.phase == "turns" and state.order_index >= players:
            return state
        state = step(game, state, rng, pi_autopilot.act)
    return state


def propeller_islands_images() -> Iterator[tuple[str, bytes]]:
    """(file name, PNG) for Propeller Islands: mid-game forge and islands (each from its owner's
    view, seat 1's also as others see it), then the final islands and score breakdown."""
    game = PROPELLER_ISLANDS
    for i, (name, players, side) in enumerate(PROPELLER_SCENARIOS):
        names = NAMES[:players]
        for stage, round_ in (("mid", 5), ("end", None)):
            state = propeller_islands_state(players, side, 400 + i, round_)
            public = game.view(state, None)
            yield f"pi-{name}-{stage}-forge.png", forge(public, names)
            for seat in range(players):
                own = island(game.view(state, seat), seat, names)
                yield f"pi-{name}-{stage}-island-{seat + 1}.png", own
            yield f"pi-{name}-{stage}-island-2-others.png", island(public, 1, names)
            yield f"pi-{name}-{stage}-results.png", results(public, names)


def main(argv: list[str]) -> None:
    if len(argv) != 1:
        raise SystemExit("usage: python -m render.preview OUTDIR")
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    count = 0
    for sample in samples():
        for file_name, data in images(sample):
            (out / file_name).write_bytes(data)
            count += 1
    for file_name, data in railroad_ink_images():
        (out / file_name).write_bytes(data)
        count += 1
    for file_name, data in power_grid_images():
        (out / file_name).write_bytes(data)
        count += 1
    for file_name, data in propeller_islands_images():
        (out / file_name).write_bytes(data)
        count += 1
    print(f"wrote {count} images to {out}")


if __name__ == "__main__":
    main(sys.argv[1:])
