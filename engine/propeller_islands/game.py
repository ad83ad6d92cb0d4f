"""Propeller Islands as a game object: setup, the turn machine, scoring and views."""

from random import Random
from typing import Any

from engine.core import (
    CHANCE,
    Dynamics,
    Event,
    IllegalAction,
    Logged,
    Outcome,
    Progress,
    Standing,
    open_standings,
    shared_ranks,
    tiebreak_used,
)
from engine.propeller_islands import actions as A
from engine.propeller_islands import events, flow, legal, play, scoring, secrecy, views
from engine.propeller_islands.components import blueprints, characters, rules, tiles
from engine.propeller_islands.config import Config
from engine.propeller_islands.state import Cell, Player, State
from engine.propeller_islands.state import dump_state as _dump
from engine.propeller_islands.state import load_state as _load

_PHASES = {
    "setup": "the setup",
    "keep_character": "choosing characters",
    "start_tiles": "the starting tiles",
    "roll": "round {round}, the roll",
    "turns": "round {round}, the draft",
    "bonus": "round {round}, the bonus die",
    "over": "the end",
}


class PropellerIslands:
    """The rules of Propeller Islands behind the engine contract."""

    name = "propeller_islands"
    title = "Propeller Islands"
    dynamics: Dynamics = "sequential"
    summary = "2–4 players, a dice draft to build and upgrade mechanical islands"
    Config = Config

    def new(self, config: Config | dict[str, Any], seed: int) -> State:
        """The state before setup; the chance seat then deals everything (`seed` is unused:
        randomness comes from the caller's RNG through `sample_chance`)."""
        cfg = config if isinstance(config, Config) else Config.model_validate(config)
        start = rules().start
        capitol = rules().capitols[cfg.capitol_side].id
        players = [
            Player(
                character=None,
                dealt=[],
                energy=start.energy,
                steel=start.steel,
                parts=start.parts,
                fame=start.fame,
                dock=[True] * start.dock_workers,
                cells=[Cell(0, 0, capitol, "ready")],
                hand=[],
                completed=[],
                unused=[],
                dice=[],
            )
            for _ in range(cfg.players)
        ]
        return State(config=cfg, players=players)

    def to_act(self, state: State) -> set[int]:
        who = flow.expecting(state)[0]
        return set() if who is None else {who}

    def sample_chance(self, state: State, rng: Random) -> A.Action:
        """The chance action due now, drawn from `rng`."""
        n = state.config.players
        if state.phase == "roll":
            dice = tuple(rng.randint(1, 6) for _ in range(state.dice_to_roll))
            return A.Roll(type="roll", dice=dice)
        if state.phase != "setup":
            raise IllegalAction(f"No chance action now: the game waits for {flow.waiting(state)}.")
        step = state.setup_step
        if step == 0:
            return A.StartPlayer(type="start_player", seat=rng.randrange(n))
        if step == 1:
            deal = state.config.character_deal
            names = rng.sample(sorted(characters()), n * deal)
            dealt = (
                tuple(names)
                if deal == 1
                else tuple((names[2 * i], names[2 * i + 1]) for i in range(n))
            )
            return A.DealCharacters(type="deal_characters", characters=dealt)
        if step == 2:
            order = list(tiles())
            rng.shuffle(order)
            return A.ShuffleTiles(type="shuffle_tiles", order=tuple(order))
        level = "I" if step == 3 else "II"
        cards = [b for b in blueprints() if blueprints()[b].level == level]
        rng.shuffle(cards)
        return A.ShuffleBlueprints(type="shuffle_blueprints", level=level, order=tuple(cards))

    def legal_actions(self, state: State, seat: int) -> list[A.Action]:
        """The complete list of legal next actions of `seat` ([] for the chance seat)."""
        return legal.legal(state, seat)

    def apply(self, state: State, seat: int, action: A.Action | dict[str, Any]) -> State:
        return play.apply(state, seat, action)

    def happened(
        self, before: State, seat: int, action: A.Action | dict[str, Any], after: State
    ) -> list[Event]:
        return events.happened(before, seat, action, after)

    def reversible(self, step: Logged) -> bool:
        """True while the mover is still on the same turn and the move turned nothing face up.
        A claim or a discard refills its offer space from the draw stack at once ("Replace the
        building tile you took with a new one from the draw stack", part of the claim in the
        rules), so either is final unless the stack is empty; so is a blueprint taken or drawn."""
        before: State = step.before
        after: State = step.after
        if step.seat == CHANCE or flow.expecting(after)[0] != step.seat:
            return False
        same_turn = (before.round, before.phase, before.order_index) == (
            after.round,
            after.phase,
            after.order_index,
        )
        drew = len(after.stack) != len(before.stack) or any(
            len(after.bp_stack[level]) != len(before.bp_stack[level]) for level in before.bp_stack
        )
        return same_turn and not drew

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return views.view(state, seat, self.result(state) if self.is_over(state) else None)

    def is_over(self, state: State) -> bool:
        return state.phase == "over"

    def _keys(self, state: State) -> list[tuple[int, int, int]]:
        """Per seat the rank key (total, dock workers, youth); youth is 0 without `age_order`."""
        order = state.config.age_order
        keys = []
        for seat, p in enumerate(state.players):
            b = scoring.breakdown(p)
            youth = len(order) - order.index(seat) if order is not None else 0
            keys.append((b["total"], b["dock_workers"], youth))
        return keys

    def result(self, state: State) -> dict[str, Any]:
        """Final scores per seat, competition ranks on (total, dock workers, age) and winners."""
        seats = [{"seat": seat, **scoring.breakdown(p)} for seat, p in enumerate(state.players)]
        ranks = shared_ranks(self._keys(state))
        for entry, rank in zip(seats, ranks, strict=True):
            entry["rank"] = rank
        return {
            "seats": seats,
            "ranks": ranks,
            "winners": [s for s, r in enumerate(ranks) if r == 1],
        }

    def outcome(self, state: State) -> list[Outcome]:
        """Standings per seat: total VP, then dock workers, then age; ties shared. `tiebreak` is
        the whole rank key, and details name the key that placed the seat among equal totals."""
        keys = self._keys(state)
        out = []
        for e in self.result(state)["seats"]:
            key = keys[e["seat"]]
            details = {k: v for k, v in e.items() if k not in ("seat", "rank")}
            details["tiebreak"] = tiebreak_used(keys, e["seat"], ("total", "dock_workers", "age"))
            out.append(
                Outcome(
                    seat=e["seat"],
                    score=e["total"],
                    rank=e["rank"],
                    tiebreak=list(key),
                    primary=e["total"],
                    secondary=e["dock_workers"],
                    details=details,
                )
            )
        return out

    def queue(self, state: State) -> list[int] | None:
        return flow.queue(state)

    def progress(self, state: State) -> Progress:
        return Progress(state.round, state.phase, _PHASES[state.phase].format(round=state.round))

    def standings(self, state: State) -> list[Standing]:
        return open_standings(self.outcome(state))

    def redact(self, step: Logged, now: State, viewer: int | None) -> dict[str, Any]:
        return secrecy.redact(step, viewer)

    def hidden(self, config: Config) -> list[str]:
        return secrecy.hidden(config)

    def dump_state(self, state: State) -> str:
        return _dump(state)

    def load_state(self, text: str) -> State:
        return _load(text)

    def parse_action(self, data: dict[str, Any]) -> A.Action:
        return A.parse_action(data)


GAME = PropellerIslands()
