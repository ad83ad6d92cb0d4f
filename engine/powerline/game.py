"""Powerline as a game object: setup, turn structure, construction and scoring."""

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
from engine.powerline import scoring, views
from engine.powerline.actions import Placement, Plan, Roll, parse_action, parse_placement
from engine.powerline.board import (
    COLORS,
    ChartData,
    board_numbers,
    charts,
    layout,
    rules,
    tiles,
)
from engine.powerline.config import Config as PowerlineConfig
from engine.powerline.planning import (
    Draft,
    Seat,
    add_placement,
    can_submit,
    check_plan,
    draft_of,
    legal_next,
)
from engine.powerline.state import PlayerState, RoundReport, SeatReport, State
from engine.powerline.state import dump_state as _dump
from engine.powerline.state import load_state as _load

LEDGER_KEYS = (
    "start",
    "cities",
    "stations",
    "island",
    "scoring_1",
    "scoring_2",
    "scoring_3",
    "end_penalty",
)


def _draw_tiles(config: PowerlineConfig, rng: Random) -> tuple[str, str, str]:
    if config.scoring_tiles is not None:
        return config.scoring_tiles
    letters = sorted(tiles())
    specials = [t for t in letters if tiles()[t].colour == "special"]
    contracts = [t for t in letters if t not in specials]
    variants = config.variants
    if "special_contracts" in variants and config.special_contracts == "alone":
        drawn = specials
    elif "special_contracts" in variants:
        # The special tiles carry no colour, so mixing them in means a draw from all twelve.
        drawn = rng.sample(letters, 3)
    elif "contracts" in variants:
        if config.contract_draw == "any":
            drawn = rng.sample(contracts, 3)
        else:
            drawn = [
                rng.choice([t for t in contracts if tiles()[t].colour == c])
                for c in ("red", "green", "yellow")
            ]
    else:
        drawn = list(rules().default_scoring_tiles)
    a, b, c = sorted(drawn)
    return a, b, c


def _chart(config: PowerlineConfig) -> ChartData:
    return charts().blue if "construction_limits" in config.variants else charts().green


def seat_context(state: State, seat: int) -> Seat:
    """The planning context of `seat` for the current roll."""
    p = state.players[seat]
    dice = state.dice or {}
    return Seat(
        layout=layout(p.board),
        built=tuple(p.built),
        direction=tuple(p.direction),
        chart=tuple(p.chart),
        jokers=p.jokers,
        dice=tuple(dice.get(c, 0) for c in COLORS),
        line_limits=_chart(state.config).line_limits,
        vacation=p.vacation if state.config.vacation_tile else None,
    )


def _construct_seat(state: State, p: PlayerState, plan: Plan, dice: dict[str, int]) -> SeatReport:
    """Build one seat's planned round onto `p` (a fresh copy) and report what happened."""
    lay = layout(p.board)
    report = SeatReport(plan=plan, vp_before=p.vp, vp_after=p.vp)
    covered_before = set(scoring.covered_stations(p, lay))

    n = len(plan.placements)
    column = _chart(state.config).columns[n - 1]
    taken = len(column.suns) - p.chart[n - 1]
    p.chart[n - 1] -= 1
    p.energy += 1
    p.jokers -= sum(1 for pl in plan.placements if pl.joker)
    if column.suns[taken]:
        p.jokers += 1
        report.jokers_gained += 1

    island: list[Placement] = []
    for pl in plan.placements:
        if pl.island:
            island.append(pl)
            continue
        i = lay.line_index[pl.line or ""]
        if p.built[i] == 0:
            p.direction[i] = 1 if pl.segment == 0 else -1
        p.built[i] += 1

    if island and plan.vacation:
        p.vacation = False
    elif island:
        loss = _island_loss(state, p, island, dice)
        lost = min(loss, p.vp)
        p.vp -= lost
        p.ledger["island"] -= lost
        report.island_loss = lost

    for pl in plan.placements:
        line = lay.line_index.get(pl.line or "")
        if (
            line is not None
            and p.built[line] == lay.length[line]
            and lay.line_ids[line] not in report.cities
        ):
            if p.energy <= 0:
                raise AssertionError("a player ran out of energy tiles; the board data is wrong")
            p.energy -= 1
            p.vp += lay.city_vp[line]
            p.ledger["cities"] += lay.city_vp[line]
            report.cities.append(lay.line_ids[line])

    for s in scoring.covered_stations(p, lay):
        if s not in covered_before:
            p.vp += lay.station_vp[s]
            p.ledger["stations"] += lay.station_vp[s]
            report.stations.append(lay.station_ids[s])
    return report


def _island_loss(
    state: State, p: PlayerState, island: list[Placement], dice: dict[str, int]
) -> int:
    if "adventure_island" in state.config.variants:
        loss = 0
        for pl in island:
            face = dice[pl.color] - 1
            p.island_stacks[face] += 1
            loss += min(p.island_stacks[face], rules().adventure_loss_cap)
        return loss
    if "L" in state.scoring_tiles:
        p.island_tokens += len(island)
    return len(island)


def _construct(state: State) -> State:
    """Every plan is in: build them all, then score if the round marker reaches a scoring space."""
    dice = state.dice or {}
    players = tuple(p.copy() for p in state.players)
    reports = [
        _construct_seat(state, p, plan, dice)
        for p, plan in zip(players, state.plans, strict=True)
        if plan is not None
    ]
    after = rules().scoring_after
    number = after.index(state.round) + 1 if state.round in after else None
    if number is not None:
        jokers = rules().jokers_above_scoring[state.config.centre_side][number - 1]
        for p, report in zip(players, reports, strict=True):
            for letter in state.scoring_tiles:
                gain = scoring.tile_pays(letter, number, p)
                report.scoring[letter] = gain
                p.vp += gain
                p.ledger[f"scoring_{number}"] += gain
            p.jokers += jokers
            report.jokers_gained += jokers
    last = state.round == rules().rounds
    for p, report in zip(players, reports, strict=True):
        if last:
            penalty = min(scoring.end_penalty(scoring.unfinished_lines(p)), p.vp)
            p.vp -= penalty
            p.ledger["end_penalty"] -= penalty
            report.end_penalty = penalty
        report.vp_after = p.vp
    return State(
        config=state.config,
        boards=state.boards,
        scoring_tiles=state.scoring_tiles,
        round=state.round if last else state.round + 1,
        phase="over" if last else "roll",
        dice=None,
        plans=(None,) * len(players),
        players=players,
        last_round=RoundReport(round=state.round, dice=dict(dice), seats=reports, scoring=number),
    )


class Powerline(SecretRounds):
    """The rules of Powerline behind the engine contract."""

    name = "powerline"
    title = "Powerline"
    summary = "1–6 players, 15 simultaneous rounds of dice-driven network building"
    Config = PowerlineConfig

    def solo_title(self, vp: int) -> str:
        """The solo chart's title for a final score."""
        return scoring.solo_title(vp)

    def new(self, config: PowerlineConfig, seed: int) -> State:
        rng = Random(seed)
        boards = config.boards or tuple(rng.sample(board_numbers(), config.players))
        start = rules()
        columns = _chart(config).columns
        players = tuple(
            PlayerState(
                board=b,
                vp=start.start_vp,
                built=[0] * len(layout(b).line_ids),
                direction=[0] * len(layout(b).line_ids),
                chart=[len(c.suns) for c in columns],
                jokers=0,
                energy=start.start_energy,
                vacation=config.vacation_tile,
                island_stacks=[0] * 6,
                island_tokens=0,
                ledger={k: start.start_vp if k == "start" else 0 for k in LEDGER_KEYS},
            )
            for b in boards
        )
        return State(
            config=config,
            boards=tuple(boards),
            scoring_tiles=_draw_tiles(config, rng),
            round=1,
            phase="roll",
            dice=None,
            plans=(None,) * config.players,
            players=players,
        )

    def to_act(self, state: State) -> set[int]:
        if state.phase == "roll":
            return {CHANCE}
        if state.phase == "plan":
            return {s for s, plan in enumerate(state.plans) if plan is None}
        return set()

    def sample_chance(self, state: State, rng: Random) -> Roll:
        return Roll(dice={c: rng.randint(1, 6) for c in COLORS})

    def legal_actions(self, state: State, seat: int) -> Iterator[Roll | Plan]:
        """All legal actions, lazily: a seat's plans can number in the thousands."""
        if seat == CHANCE and state.phase == "roll":
            for faces in product(range(1, 7), repeat=len(COLORS)):
                yield Roll(dice=dict(zip(COLORS, faces, strict=True)))
        elif 0 <= seat < len(state.players) and state.phase == "plan":
            yield from _plans(seat_context(state, seat), Draft(), ())

    def legal_next(
        self, state: State, seat: int, placements: Sequence[Placement | dict[str, Any]]
    ) -> list[Placement]:
        """Legal next placements after a partial plan (for menus and autocomplete)."""
        check_planner(state, seat)
        ctx = seat_context(state, seat)
        partial = [parse_placement(p) if isinstance(p, dict) else p for p in placements]
        return list(legal_next(ctx, draft_of(ctx, partial)))

    def can_submit(
        self, state: State, seat: int, placements: Sequence[Placement | dict[str, Any]]
    ) -> bool:
        """Whether the partial plan may be submitted as it is."""
        check_planner(state, seat)
        ctx = seat_context(state, seat)
        partial = [parse_placement(p) if isinstance(p, dict) else p for p in placements]
        return can_submit(ctx, draft_of(ctx, partial))

    def apply(self, state: State, seat: int, action: Roll | Plan) -> State:
        if state.phase == "over":
            raise IllegalAction("The game is over.")
        if isinstance(action, Roll):
            if seat != CHANCE:
                raise IllegalAction("Players do not roll: the dice are the chance seat's.")
            if state.phase != "roll":
                raise IllegalAction(f"The dice for round {state.round} are already rolled.")
            return State(
                config=state.config,
                boards=state.boards,
                scoring_tiles=state.scoring_tiles,
                round=state.round,
                phase="plan",
                dice={colour: face for colour, face in action.dice.items()},
                plans=state.plans,
                players=state.players,
                last_round=state.last_round,
            )
        check_planner(state, seat)
        check_plan(seat_context(state, seat), action)
        plans = (*state.plans[:seat], action, *state.plans[seat + 1 :])
        planned = State(
            config=state.config,
            boards=state.boards,
            scoring_tiles=state.scoring_tiles,
            round=state.round,
            phase="plan",
            dice=state.dice,
            plans=plans,
            players=state.players,
            last_round=state.last_round,
        )
        return _construct(planned) if all(p is not None for p in plans) else planned

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return views.view(state, seat, self.outcome(state))

    def is_over(self, state: State) -> bool:
        return state.phase == "over"

    def outcome(self, state: State) -> list[Outcome]:
        """Standings per seat (final once the game is over): VP, then station tiles, ties shared."""
        keys = [(p.vp, len(scoring.covered_stations(p, layout(p.board)))) for p in state.players]
        ranks = shared_ranks(keys)
        result = []
        for seat, (p, key, rank) in enumerate(zip(state.players, keys, ranks, strict=True)):
            details: dict[str, Any] = {
                "tiebreak": tiebreak_used(keys, seat, ("vp", "station_tiles")),
                "breakdown": dict(p.ledger),
                "cities_supplied": len(scoring.complete_lines(p, layout(p.board))),
                "station_tiles": key[1],
                "unfinished_lines": scoring.unfinished_lines(p),
            }
            if len(state.players) == 1:
                details["title"] = scoring.solo_title(p.vp)
            result.append(
                Outcome(
                    seat=seat,
                    score=p.vp,
                    rank=rank,
                    tiebreak=list(key),
                    primary=p.vp,
                    secondary=key[1],
                    details=details,
                )
            )
        return result

    def dump_state(self, state: State) -> str:
        return _dump(state)

    def load_state(self, text: str) -> State:
        return _load(text)

    def parse_action(self, data: dict[str, Any]) -> Roll | Plan:
        return parse_action(data)


def _plans(ctx: Seat, draft: Draft, prefix: tuple[Placement, ...]) -> Iterator[Plan]:
    if can_submit(ctx, draft):
        yield Plan(placements=prefix)
        if ctx.vacation and draft.island:
            yield Plan(placements=prefix, vacation=True)
    for p in legal_next(ctx, draft):
        nxt = draft.copy()
        add_placement(ctx, nxt, p)
        yield from _plans(ctx, nxt, (*prefix, p))


GAME = Powerline()
