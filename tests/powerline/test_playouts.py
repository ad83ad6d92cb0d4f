"""Random playouts: hundreds of seeded games over every table size and variant combination."""

from itertools import islice
from random import Random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import CHANCE, IllegalAction
from engine.powerline import scoring
from engine.powerline.actions import Placement, Plan
from engine.powerline.board import COLORS, layout, rules
from engine.powerline.game import seat_context
from engine.powerline.planning import Draft, add_placement, can_submit, legal_next
from tests.powerline.helpers import (
    ALL_VARIANTS,
    G,
    complete_plan,
    dice,
    do,
    new_game,
    random_config,
    random_plan,
    rolled,
)

GAMES = 520
BATCHES = 8


def check_invariants(state) -> None:
    """What must hold after every step of every game."""
    for p in state.players:
        lay = layout(p.board)
        assert p.vp >= 0
        assert sum(p.ledger.values()) == p.vp
        assert all(0 <= b <= n for b, n in zip(p.built, lay.length, strict=True))
        assert all((d == 0) == (b == 0) for d, b in zip(p.direction, p.built, strict=True))
        assert all(c >= 0 for c in p.chart)
        assert p.jokers >= 0
        complete = scoring.complete_lines(p, lay)
        assert p.ledger["cities"] == sum(lay.city_vp[i] for i in complete)
        covered = scoring.covered_stations(p, lay)
        assert p.ledger["stations"] == sum(lay.station_vp[s] for s in covered)
        rounds_done = 15 - sum(p.chart)  # each resolved round removes one chart tile
        assert p.energy == rules().start_energy + rounds_done - len(complete)
        assert p.ledger["start"] == rules().start_vp
        assert p.ledger["island"] <= 0 and p.ledger["end_penalty"] <= 0
    text = G.dump_state(state)
    assert G.dump_state(G.load_state(text)) == text


def play(seed: int, check_next: bool = False):
    """One random game from `seed`; returns (config, final state, action log, workers per seat)."""
    rng = Random(seed)
    cfg = random_config(rng)
    state = G.new(cfg, seed)
    check_invariants(state)
    log: list[tuple[int, dict]] = []
    deployed = [0] * cfg.players
    while not G.is_over(state):
        to_act = G.to_act(state)
        if to_act == {CHANCE}:
            seat, action = CHANCE, G.sample_chance(state, rng)
        else:
            assert CHANCE not in to_act and to_act
            seat = rng.choice(sorted(to_act))
            if check_next:
                check_legal_next_completions(state, seat, rng)
            action = random_plan(state, seat, rng)
            deployed[seat] += len(action.placements)
        data = action.model_dump(mode="json")
        state = G.apply(state, seat, G.parse_action(data))
        log.append((seat, data))
        check_invariants(state)
    return cfg, state, log, deployed


def check_legal_next_completions(state, seat, rng) -> None:
    """Every placement `legal_next` offers, after a random legal prefix, completes to a plan that
    `apply` accepts."""
    ctx = seat_context(state, seat)
    draft = Draft()
    prefix: list[Placement] = []
    depth = rng.randint(0, 3)
    while True:
        options = G.legal_next(state, seat, prefix)
        assert options == list(legal_next(ctx, draft))
        for p in options:
            full = complete_plan(state, seat, [*prefix, p], rng)
            G.apply(state, seat, full)  # raises if refused
        if len(prefix) >= depth or not options:
            break
        p = rng.choice(options)
        add_placement(ctx, draft, p)
        prefix.append(p)


def replay(cfg, seed, log):
    state = G.new(cfg, seed)
    for seat, data in log:
        state = G.apply(state, seat, G.parse_action(data))
    return state


@pytest.mark.parametrize("batch", range(BATCHES))
def test_random_playouts(batch):
    for seed in range(batch, GAMES, BATCHES):
        cfg, state, log, deployed = play(seed, check_next=seed % 40 == 0)
        assert deployed == [51] * cfg.players, (seed, cfg)
        assert all(p.chart == [0] * 6 for p in state.players)
        assert state.round == 15 and state.phase == "over"
        assert G.to_act(state) == set()
        assert len(log) == 15 * (1 + cfg.players)
        final = G.dump_state(state)
        assert G.dump_state(replay(cfg, seed, log)) == final, seed
        out = G.outcome(state)
        assert [o["score"] for o in out] == [p.vp for p in state.players]
        best = max((p.vp, o["tiebreak"][1]) for p, o in zip(state.players, out, strict=True))
        for o in out:
            assert (o["rank"] == 1) == ((o["score"], o["tiebreak"][1]) == best)
        if cfg.players == 1:
            assert out[0]["details"]["title"] == scoring.solo_title(state.players[0].vp)


def test_playouts_cover_all_table_sizes_and_variants():
    seen_players, seen_variants = set(), set()
    for seed in range(GAMES):
        cfg = random_config(Random(seed))
        seen_players.add(cfg.players)
        seen_variants |= cfg.variants
    assert seen_players == {1, 2, 3, 4, 5, 6}
    assert seen_variants == set(ALL_VARIANTS)


def test_legal_actions_lazily_all_accepted():
    rng = Random(11)
    state = new_game(3, variants={"adventure_island"})
    for _ in range(4):
        state = G.apply(state, CHANCE, G.sample_chance(state, rng))
        for seat in range(3):
            actions = list(islice(G.legal_actions(state, seat), 300))
            assert actions, "a seat always has a legal plan"
            for a in actions:
                assert isinstance(a, Plan)
                G.apply(state, seat, a)
            state = G.apply(state, seat, rng.choice(actions))


def test_legal_actions_count_matches_legal_next_walk():
    state = rolled(new_game(1, variants={"construction_limits"}), dice(1, 5, 3, 4, 2, 6))
    ctx = seat_context(state, 0)

    def count(draft: Draft) -> int:
        n = 0
        if can_submit(ctx, draft):
            n += 2 if draft.island else 1  # the vacation tile doubles plans with island workers
        for p in legal_next(ctx, draft):
            d = draft.copy()
            add_placement(ctx, d, p)
            n += count(d)
        return n

    plans = list(G.legal_actions(state, 0))
    assert len(plans) == count(Draft())
    assert len({p.model_dump_json() for p in plans}) == len(plans)
    for p in plans[::97]:
        G.apply(state, 0, p)


def test_chance_legal_actions_are_all_rolls():
    state = new_game(2)
    rolls = list(islice(G.legal_actions(state, CHANCE), 7))
    assert rolls[0].dice == dict.fromkeys(COLORS, 1)
    assert rolls[6].dice == {**dict.fromkeys(COLORS, 1), "white": 2}
    assert rolls[1].dice["black"] == 2
    assert sum(1 for _ in G.legal_actions(state, CHANCE)) == 6**6
    assert list(G.legal_actions(state, 0)) == []


# --------------------------------------------------------------------------- hypothesis

PLACEMENT = st.one_of(
    st.builds(
        lambda c: {"color": c, "island": True},
        st.sampled_from(COLORS),
    ),
    st.builds(
        lambda c, line, s, j: {"color": c, "line": line, "segment": s, "joker": j},
        st.sampled_from(COLORS),
        st.sampled_from([f"L{i}" for i in range(0, 12)]),
        st.integers(-1, 12),
        st.booleans(),
    ),
)


def _state_after(seed: int, rounds: int, variants: frozenset, players: int):
    """A random position: `rounds` random rounds played, then a fresh roll."""
    rng = Random(seed)
    state = G.new(G.Config(players=players, variants=variants), seed)
    for _ in range(rounds):
        state = G.apply(state, CHANCE, G.sample_chance(state, rng))
        for seat in range(players):
            state = G.apply(state, seat, random_plan(state, seat, rng))
    return G.apply(state, CHANCE, G.sample_chance(state, rng)), rng


def _oracle(state, seat, placements: list[Placement], vacation: bool) -> bool:
    """Legal iff each placement is offered by legal_next after its prefix, the plan can be
    submitted, and the vacation tile (if declared) is available and has island workers."""
    ctx = seat_context(state, seat)
    draft = Draft()
    for p in placements:
        if p not in list(legal_next(ctx, draft)):
            return False
        add_placement(ctx, draft, p)
    if not can_submit(ctx, draft):
        return False
    return not vacation or bool(ctx.vacation and draft.island)


@settings(
    max_examples=250,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    seed=st.integers(0, 10**6),
    rounds=st.integers(0, 14),
    variants=st.frozensets(st.sampled_from(ALL_VARIANTS)),
    players=st.integers(1, 3),
    placements=st.lists(PLACEMENT, min_size=0, max_size=7),
    vacation=st.booleans(),
    mode=st.sampled_from(["raw", "legal", "mutated"]),
)
def test_apply_agrees_with_legal_next(seed, rounds, variants, players, placements, vacation, mode):
    """Any plan dict is either accepted (exactly when the legal_next walk allows it) or refused
    with IllegalAction and no change to the state."""
    state, rng = _state_after(seed, rounds, variants, players)
    seat = rng.randrange(players)
    if mode != "raw":  # most raw dicts fail at once; also try legal plans, with one change or none
        legal = random_plan(state, seat, rng)
        items = [p.model_dump(mode="json") for p in legal.placements]
        if mode == "mutated" and placements:
            items[rng.randrange(len(items))] = placements[0]
        placements = items
    data = {"type": "plan", "placements": placements, "vacation": vacation}
    before = G.dump_state(state)
    try:
        action = G.parse_action(data)
    except IllegalAction:
        assert len(placements) > 6
        return
    expected = _oracle_safe(state, seat, action)
    try:
        after = G.apply(state, seat, action)
    except IllegalAction as exc:
        assert not expected, exc.reason
        assert exc.reason
        assert G.dump_state(state) == before
        return
    assert expected
    if G.to_act(state) == {seat}:  # the last plan in: the round resolved
        assert after.last_round.seats[seat].plan == action
    else:
        assert after.plans[seat] == action


def _oracle_safe(state, seat, action) -> bool:
    try:
        return _oracle(state, seat, list(action.placements), action.vacation)
    except IllegalAction:
        return False


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(1, 6))
def test_dump_load_round_trip_mid_round(seed, players):
    """Mid-round states (some plans in, some not) survive dump/load and keep playing alike."""
    rng = Random(seed)
    state = G.new(G.Config(players=players), seed)
    state = G.apply(state, CHANCE, G.sample_chance(state, rng))
    for seat in range(players - 1):
        state = G.apply(state, seat, random_plan(state, seat, rng))
    loaded = G.load_state(G.dump_state(state))
    assert G.dump_state(loaded) == G.dump_state(state)
    assert G.to_act(loaded) == G.to_act(state) == {players - 1}
    last = random_plan(state, players - 1, rng)
    a, b = G.apply(state, players - 1, last), G.apply(loaded, players - 1, last)
    assert G.dump_state(a) == G.dump_state(b)


@given(n=st.integers(0, 30))
def test_end_penalty_formula(n):
    expected = n * (n + 1) // 2 if n <= 4 else 10 + 5 * (n - 4)
    assert scoring.end_penalty(n) == expected


def test_workers_per_game_with_scripted_chart_order():
    """Any order of the 15 chart tiles deploys 51 workers."""
    rng = Random(5)
    counts = [1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 6, 6]
    rng.shuffle(counts)
    state = new_game(1)
    total = 0
    for n in counts:
        state = rolled(state, dice(1, 1, 1, 1, 1, 1))
        state = do(
            state,
            0,
            {"type": "plan", "placements": [{"color": c, "island": True} for c in COLORS[:n]]},
        )
        total += n
    assert G.is_over(state)
    assert total == 51
