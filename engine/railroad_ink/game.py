"""Railroad Ink as a game object: the shared roll, secret round plans and scoring."""

from collections.abc import Iterator, Sequence
from itertools import product
from random import Random
from typing import Any

from engine.core import (
    CHANCE,
    IllegalAction,
    Outcome,
    SecretRounds,
    check_planner,
    shared_ranks,
    tiebreak_used,
)
from engine.railroad_ink import scoring, views
from engine.railroad_ink.actions import (
    Activate,
    Draw,
    Electrify,
    Plan,
    Roll,
    parse_action,
    parse_step,
)
from engine.railroad_ink.board import ACC, CELLS, rules
from engine.railroad_ink.config import Config as RailroadInkConfig
from engine.railroad_ink.planning import (
    Ctx,
    Draft,
    add_step,
    can_submit,
    check_plan,
    draft_of,
    legal_next,
)
from engine.railroad_ink.state import PlayerState, State
from engine.railroad_ink.state import dump_state as _dump
from engine.railroad_ink.state import load_state as _load

Step = Draw | Activate | Electrify


def seat_context(state: State) -> Ctx:
    """The planning context of the current roll (the same for every seat)."""
    roll = state.roll
    if roll is None:
        raise IllegalAction(f"The dice for round {state.round} are not rolled yet.")
    return Ctx(state.config, state.round, roll.route, roll.lamps, roll.power)


def score_of(state: State, seat: int) -> scoring.Score:
    cfg = state.config
    p = state.players[seat]
    acc = ACC if cfg.power else -1
    return scoring.score(p.cells, p.charges, acc, config=cfg, powered=p.powered)


def _check_roll(config: RailroadInkConfig, roll: Roll) -> None:
    dice = rules().dice
    for k, (die, face) in enumerate(zip(rules().route_dice, roll.route, strict=True), start=1):
        if face not in dice[die].faces:
            raise IllegalAction(f"Route die {k} ({dice[die].name}) has no face {face!r}.")
    for key, on, n, die in (
        ("lamps", config.lamps, rules().lamp_dice, "lamp"),
        ("power", config.power, rules().power_dice, "power"),
    ):
        got = getattr(roll, key)
        if len(got) != (n if on else 0):
            plural = dice[die].name.replace(" die", " dice")
            raise IllegalAction(f"This game rolls {n if on else 0} {plural}.")
        if not set(got) <= set(dice[die].faces):
            raise IllegalAction(f"A {dice[die].name} has no face among {list(got)}.")


def _resolve(state: State, plans: tuple[Plan | None, ...]) -> State:
    """Every plan is in: draw them all; the last round ends the game."""
    ctx = seat_context(state)
    players = tuple(
        check_plan(ctx, p, plan).p for p, plan in zip(state.players, plans, strict=True) if plan
    )
    last = state.round >= state.config.round_count
    return State(
        config=state.config,
        round=state.round if last else state.round + 1,
        phase="over" if last else "roll",
        roll=None,
        plans=(None,) * len(players),
        players=players,
        last_roll=state.roll,
        last_plans=plans,
    )


class RailroadInk(SecretRounds):
    """The rules of Railroad Ink (with the Electricity expansions) behind the engine contract."""

    name = "railroad_ink"
    title = "Railroad Ink"
    summary = "1–12 players draw the same rolled routes to link exits; Street Lamps, Power Grid"
    Config = RailroadInkConfig

    def new(self, config: RailroadInkConfig, seed: int) -> State:
        # Boards start blank and identical: the seed has nothing to draw at setup.
        n = config.players
        return State(
            config=config,
            round=1,
            phase="roll",
            roll=None,
            plans=(None,) * n,
            players=tuple(PlayerState([None] * CELLS, 0, []) for _ in range(n)),
        )

    def to_act(self, state: State) -> set[int]:
        if state.phase == "roll":
            return {CHANCE}
        if state.phase == "plan":
            return {s for s, plan in enumerate(state.plans) if plan is None}
        return set()

    def sample_chance(self, state: State, rng: Random) -> Roll:
        dice = rules().dice
        cfg = state.config
        return Roll(
            route=tuple(rng.choice(dice[d].faces) for d in rules().route_dice),
            lamps=tuple(rng.choice(dice["lamp"].faces) for _ in range(rules().lamp_dice))
            if cfg.lamps
            else (),
            power=tuple(rng.choice(dice["power"].faces) for _ in range(rules().power_dice))
            if cfg.power
            else (),
        )

    def legal_actions(self, state: State, seat: int) -> Iterator[Roll | Plan]:
        """All legal actions, lazily: a seat's plans can number in the millions."""
        if seat == CHANCE and state.phase == "roll":
            dice = rules().dice
            cfg = state.config

            def distinct(die: str, n: int) -> list[list[str]]:
                return [sorted(set(dice[die].faces))] * n

            route = [sorted(set(dice[d].faces)) for d in rules().route_dice]
            lamps = distinct("lamp", rules().lamp_dice) if cfg.lamps else []
            power = distinct("power", rules().power_dice) if cfg.power else []
            nr, nl = len(route), len(lamps)
            for faces in product(*route, *lamps, *power):
                yield Roll(
                    route=faces[:nr],
                    lamps=faces[nr : nr + nl],
                    power=faces[nr + nl :],
                )
        elif 0 <= seat < len(state.players) and state.phase == "plan":
            ctx = seat_context(state)
            yield from _plans(ctx, draft_of(state.players[seat]), ())

    def legal_next(
        self, state: State, seat: int, partial: Sequence[Step | dict[str, Any]]
    ) -> list[Step]:
        """Legal next steps after a partial plan (for menus); see `can_submit` for when to stop."""
        return legal_next(seat_context(state), self._draft(state, seat, partial))

    def can_submit(self, state: State, seat: int, partial: Sequence[Step | dict[str, Any]]) -> bool:
        """Whether the partial plan may be submitted as it is."""
        return can_submit(seat_context(state), self._draft(state, seat, partial))

    def _draft(self, state: State, seat: int, partial: Sequence[Step | dict[str, Any]]) -> Draft:
        check_planner(state, seat)
        ctx = seat_context(state)
        draft = draft_of(state.players[seat])
        for step in partial:
            add_step(ctx, draft, parse_step(step) if isinstance(step, dict) else step)
        return draft

    def apply(self, state: State, seat: int, action: Roll | Plan) -> State:
        if state.phase == "over":
            raise IllegalAction("The game is over.")
        if isinstance(action, Roll):
            if seat != CHANCE:
                raise IllegalAction("Players do not roll: the dice are the chance seat's.")
            if state.phase != "roll":
                raise IllegalAction(f"The dice for round {state.round} are already rolled.")
            _check_roll(state.config, action)
            return State(
                config=state.config,
                round=state.round,
                phase="plan",
                roll=action,
                plans=state.plans,
                players=state.players,
                last_roll=state.last_roll,
                last_plans=state.last_plans,
            )
        check_planner(state, seat)
        if state.plans[seat] is not None:
            raise IllegalAction(f"Seat {seat} has already planned round {state.round}.")
        check_plan(seat_context(state), state.players[seat], action)
        plans = (*state.plans[:seat], action, *state.plans[seat + 1 :])
        if all(p is not None for p in plans):
            return _resolve(state, plans)
        return State(
            config=state.config,
            round=state.round,
            phase="plan",
            roll=state.roll,
            plans=plans,
            players=state.players,
            last_roll=state.last_roll,
            last_plans=state.last_plans,
        )

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return views.view(state, seat, self.outcome(state))

    def is_over(self, state: State) -> bool:
        return state.phase == "over"

    def outcome(self, state: State) -> list[Outcome]:
        """Standings per seat (final once the game is over): points, then fewer errors."""
        scores = [score_of(state, s) for s in range(len(state.players))]
        by_errors = state.config.tiebreak == "fewer_errors"
        keys = [(s.total, -s.errors) if by_errors else (s.total,) for s in scores]
        ranks = shared_ranks(keys)
        result = []
        for seat, (s, key, rank) in enumerate(zip(scores, keys, ranks, strict=True)):
            result.append(
                Outcome(
                    seat=seat,
                    score=s.total,
                    rank=rank,
                    tiebreak=list(key),
                    primary=s.total,
                    secondary=-s.errors,
                    details={
                        "tiebreak": tiebreak_used(keys, seat, ("points", "fewer_errors")),
                        "breakdown": s.lines(),
                        "specials_used": list(state.players[seat].specials),
                    },
                )
            )
        return result

    def dump_state(self, state: State) -> str:
        return _dump(state)

    def load_state(self, text: str) -> State:
        return _load(text)

    def parse_action(self, data: dict[str, Any]) -> Roll | Plan:
        return parse_action(data)


def _plans(ctx: Ctx, draft: Draft, prefix: tuple[Step, ...]) -> Iterator[Plan]:
    if can_submit(ctx, draft):
        yield Plan(steps=prefix)
    for step in legal_next(ctx, draft):
        nxt = Draft(draft.p.copy(), set(draft.used), draft.owed, draft.phase, draft.special)
        add_step(ctx, nxt, step)
        yield from _plans(ctx, nxt, (*prefix, step))


GAME = RailroadInk()
