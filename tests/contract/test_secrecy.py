"""Secrets stay secret, for every registered game: a reader who is not the owner of a secret sees
exactly the same export, view, standings and posted words whatever that secret is.

Each game names a "twin" of a game in progress: the same log with one hidden thing changed
(another seat's unrevealed plan, the order of a face-down stack, a card drawn blind, a dealt
character). The twin must still be a legal game, its true state must differ, and everything a
reader may obtain must be identical in both.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from bot.service.hosting import hosting
from engine import registry
from engine.core import CHANCE, HIDDEN, Game, IllegalAction, Logged, public_log
from engine.power_grid.rules import DECK_TOP, STEP3
from engine.propeller_islands.components import characters

Log = list[tuple[int, dict[str, Any]]]
Twin = Callable[[Game, Any, Log, int | None, random.Random], Log | None]
"""A twin of `log` hiding a change from `viewer`, or None where nothing is hidden from them."""


def replay(game: Game, config: Any, log: Log) -> Iterator[Logged]:
    state = game.new(config, 0)
    for seat, action in log:
        after = game.apply(state, seat, game.parse_action(action))
        yield Logged(state, seat, action, after)
        state = after


def final(game: Game, config: Any, log: Log) -> Any:
    state = game.new(config, 0)
    for step in replay(game, config, log):
        state = step.after
    return state


def last(game: Game, config: Any, steps: list[Logged]) -> Any:
    """The state after replayed `steps`."""
    return steps[-1].after if steps else game.new(config, 0)


_PLAYED: dict[tuple[str, str, int], Log] = {}


def play(game: Game, config: Any, seed: int) -> Log:
    """A whole game: chance from a seeded RNG, seats by the hosted autopilot from their views
    (each game played once per test process: the contract tests share their seeds)."""
    key = (game.name, config.model_dump_json(), seed)
    if key not in _PLAYED:
        _PLAYED[key] = _play(game, config, seed)
    return copy.deepcopy(_PLAYED[key])


def _play(game: Game, config: Any, seed: int) -> Log:
    choose = hosting(game.name).choose
    state, log = game.new(config, 0), []
    while not game.is_over(state):
        for seat in sorted(game.to_act(state)):
            if seat == CHANCE:
                action = game.sample_chance(state, random.Random(f"{seed}:{len(log)}"))
            else:
                action = choose(game.view(state, seat), seat)
            data = action.model_dump(mode="json")
            state = game.apply(state, seat, game.parse_action(data))
            log.append((seat, data))
    return log


def seen(
    game: Game, config: Any, log: Log, steps: list[Logged], viewer: int | None
) -> dict[str, Any]:
    """Everything `viewer` may obtain of the game after `log` (replayed as `steps`): the
    export's actions, the view (which every image is drawn from), the standings and the moves
    posted in words."""
    now = last(game, config, steps)
    turns = hosting(game.name).turns
    words = []
    if turns is not None:
        words = [
            turns.describe(s.before, s.seat, s.action, s.after) for s in steps if s.seat != CHANCE
        ]
    return {
        "export": public_log(game, config, 0, log, now, viewer),
        "view": game.view(now, viewer),
        "standings": game.standings(now),
        "words": words,
    }


# ---- twins -----------------------------------------------------------------------------------


def plan_twin(game: Game, config: Any, log: Log, viewer: int | None, rng: random.Random):
    """Another seat's plan for the round being planned, replaced by another legal plan."""
    now = final(game, config, log)
    if now.phase != "plan":
        return None
    steps = list(replay(game, config, log))
    secret = [
        i
        for i, s in enumerate(steps)
        if s.seat not in (CHANCE, viewer) and s.before.round == now.round
    ]
    if not secret:
        return None
    i = rng.choice(secret)
    step = steps[i]
    others = []
    for n, plan in enumerate(game.legal_actions(step.before, step.seat)):
        data = plan.model_dump(mode="json")
        if data != step.action:
            others.append(data)
        if n >= 40:
            break
    if not others:
        return None
    return [*log[:i], (step.seat, rng.choice(others)), *log[i + 1 :]]


def _last(log: Log, kind: str) -> int | None:
    return next((i for i in reversed(range(len(log))) if log[i][1]["type"] == kind), None)


def deck_twin(game: Game, config: Any, log: Log, viewer: int | None, rng: random.Random):
    """The plants not yet drawn in another order, and one swapped with a plant removed unseen."""
    i = _last(log, "shuffle")
    if i is None:
        return None
    steps = list(replay(game, config, log))
    # A plant once face up may go back under the deck: it is no secret any more.
    seen = {DECK_TOP, STEP3}
    for step in steps:
        seen |= {*step.after.market, *step.after.removed_in_play}
    undrawn = set(steps[-1].after.deck) - seen
    twin = [(seat, dict(action)) for seat, action in log]
    deck = list(twin[i][1]["deck"])
    spots = [k for k, plant in enumerate(deck) if plant in undrawn]
    if len(spots) < 2:
        return None
    moved = [deck[k] for k in spots]
    rng.shuffle(moved)
    for k, plant in zip(spots, moved, strict=True):
        deck[k] = plant
    twin[i][1]["deck"] = deck
    removed = twin[0][1].get("removed") or []
    if removed:
        gone, kept = rng.choice(removed), rng.choice(sorted(undrawn))
        swap = {gone: kept, kept: gone}
        for _, action in twin:
            if action["type"] == "shuffle":
                action["deck"] = [swap.get(p, p) for p in action["deck"]]
                action["removed"] = [swap.get(p, p) for p in action.get("removed", [])]
    return twin


def stack_twin(game: Game, config: Any, log: Log, viewer: int | None, rng: random.Random):
    """Cards never face up, nor in the viewer's hand, swapped in their stacks' order (a blind
    draw of another seat included); another seat's unkept dealt character swapped for one
    nobody was dealt."""
    steps = list(replay(game, config, log))
    if not steps:
        return None
    now = steps[-1].after
    known = set()
    for s in steps:
        for state in (s.before, s.after):
            known |= {t for t in state.offer if t}
            known |= {c for row in state.bp_offer.values() for c in row}
            known |= {c for p in state.players for c in p.completed}
            known |= {c.tile for p in state.players for c in p.cells}
            if viewer is not None:
                known |= set(state.players[viewer].hand)
    twin = [(seat, dict(action)) for seat, action in log]
    changed = False
    for i, (_, action) in enumerate(twin):
        if not action["type"].startswith("shuffle_"):
            continue
        head = 12 if action["type"] == "shuffle_tiles" else 3
        order = list(action["order"])
        spots = [k for k in range(head, len(order)) if order[k] not in known]
        if len(spots) >= 2:
            moved = [order[k] for k in spots]
            rng.shuffle(moved)
            for k, card in zip(spots, moved, strict=True):
                order[k] = card
            changed |= moved != [action["order"][k] for k in spots]
        twin[i] = (twin[i][0], {**action, "order": order})
    deal = _last(log, "deal_characters")
    if deal is not None and config.character_deal == 2:
        dealt = [list(pair) for pair in log[deal][1]["characters"]]
        kept = {p.character for p in now.players}
        spare = sorted(set(characters()) - {c for pair in dealt for c in pair})
        unkept = [
            next(c for c in pair if c not in kept)
            for seat, pair in enumerate(dealt)
            if seat != viewer
        ]
        if unkept and len(unkept + spare) >= 2:
            a = rng.choice(unkept)
            b = rng.choice([c for c in unkept + spare if c != a])
            swap = {a: b, b: a}
            dealt = [[swap.get(c, c) for c in pair] for pair in dealt]
            twin[deal] = (twin[deal][0], {**log[deal][1], "characters": dealt})
            changed = True
    return twin if changed else None


@dataclass(frozen=True)
class Secrets:
    configs: list[dict[str, Any]]
    twin: Twin


SECRETS: dict[str, Secrets] = {
    "powerline": Secrets([{"players": 3}], plan_twin),
    "railroad_ink": Secrets([{"players": 3}], plan_twin),
    "power_grid": Secrets([{"players": 3, "hidden_money": True}, {"players": 3}], deck_twin),
    "propeller_islands": Secrets([{"players": 3, "character_deal": 2}, {"players": 4}], stack_twin),
}


def test_every_game_names_its_secrets():
    assert sorted(SECRETS) == registry.names()


def flow(game: Game, steps: list[Logged]) -> list[list[int]]:
    """Who was to act before each of the replayed `steps`, and now."""
    return [sorted(game.to_act(s.before)) for s in steps] + [sorted(game.to_act(steps[-1].after))]


def legal_twin(
    game: Game,
    config: Any,
    log: Log,
    truth: list[list[int]],
    viewer: int | None,
    rng: random.Random,
    make: Twin,
) -> tuple[Log, list[Logged]] | None:
    """A twin the rules accept, with the turns `truth` took (`flow` of `log`), and its replay.

    A secret may steer the turns, and that is the one thing a reader learns of it: a Propeller
    Islands turn ends by itself when its player can complete no blueprint (waiting for them
    would cost a tap every turn). Such a twin is no game or shows other turns: try another."""
    for _ in range(8):
        twin = make(game, config, log, viewer, rng)
        if twin is None:
            return None
        try:
            steps = list(replay(game, config, twin))
        except IllegalAction:
            continue
        if flow(game, steps) == truth:
            return twin, steps
    return None


# ---- the test --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", registry.names())
def test_nothing_a_reader_may_obtain_tells_a_secret(name: str) -> None:
    game = registry.get(name)
    secrets = SECRETS[name]
    rng = random.Random(24)
    compared = 0
    for seed, options in enumerate(secrets.configs):
        config = game.Config(**options)
        log = play(game, config, seed)
        points = sorted(rng.sample(range(1, len(log)), min(12, len(log) - 1)))
        for n in points:
            steps = list(replay(game, config, log[:n]))
            truth = flow(game, steps)
            for viewer in [None, *range(config.players)]:
                found = legal_twin(game, config, log[:n], truth, viewer, rng, secrets.twin)
                if found is None:
                    continue
                twin, twin_steps = found
                assert game.dump_state(last(game, config, steps)) != game.dump_state(
                    last(game, config, twin_steps)
                ), "the twin hides nothing"
                mine = seen(game, config, log[:n], steps, viewer)
                theirs = seen(game, config, twin, twin_steps, viewer)
                for part in mine:
                    assert mine[part] == theirs[part], f"{part} tells a secret at action {n}"
                compared += 1
    assert compared >= 12, f"only {compared} twins: the secrets were never put to the test"


@pytest.mark.parametrize("name", registry.names())
def test_a_running_export_does_not_replay(name: str) -> None:
    """The hidden parts are gone, not disguised: the engine cannot replay a spectator's export
    of a game in progress past its first secret (where the game has one at the start)."""
    game = registry.get(name)
    config = game.Config(**SECRETS[name].configs[0])
    log = play(game, config, 5)
    n = len(log) // 2
    now = final(game, config, log[:n])
    shown = public_log(game, config, 0, log[:n], now, None)
    hidden = [i for i, action in enumerate(shown) if HIDDEN in action.values()]
    assert hidden, "half way through, a spectator's export hides nothing"
    state = game.new(config, 0)
    with pytest.raises(IllegalAction):
        for (seat, _), action in zip(log[:n], shown, strict=True):
            state = game.apply(state, seat, game.parse_action(action))


def test_hidden_money_is_in_no_export_nor_view() -> None:
    game = registry.get("power_grid")
    config = game.Config(players=4, hidden_money=True)
    log = play(game, config, 3)
    for n in range(50, len(log), 60):
        now = final(game, config, log[:n])
        for viewer in (None, 0):
            view = game.view(now, viewer)
            shown = [s["money"] for s in view["seats"] if s["seat"] != viewer]
            assert shown == [None] * len(shown)
            for action in public_log(game, config, 0, log[:n], now, viewer):
                assert "money" not in action
            ranks = [(r["rank"], r["note"]) for r in game.standings(now)]
            powered = [s["can_power"] for s in view["seats"]]
            for seat, (rank, note) in enumerate(ranks):
                level = [p for p in powered if p == powered[seat]]
                assert rank == 1 + sum(p > powered[seat] for p in powered)
                assert (note is not None) == (len(level) > 1)
