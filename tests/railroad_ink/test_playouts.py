"""Random playouts over 1–12 players and every expansion combination: no crash, JSON round trip
at every step, replay from seed and log identical, and the score lines add up."""

from itertools import islice
from random import Random

from engine.core import CHANCE
from engine.railroad_ink.game import score_of
from tests.railroad_ink.helpers import EXPANSION_SETS, G, random_plan

GAMES = 100


def _config(rng: Random):
    # Mostly small tables keep the run short; every size from 1 to 12 still appears.
    players = rng.choice((1, 1, 2, 2, 3, 4, 5, 6, 8, 10, 12))
    return G.Config(
        players=players,
        expansions=rng.choice(EXPANSION_SETS),
        longest_route=rng.choice(("simple", "trail")),
        lamp_activation=rng.choice(("after_special", "round_end")),
        charge_after_line=rng.random() < 0.5,
    )


def _check(state) -> None:
    text = G.dump_state(state)
    assert G.dump_state(G.load_state(text)) == text
    for seat, p in enumerate(state.players):
        s = score_of(state, seat)
        assert s.total == (
            s.network_points + s.longest_highway + s.longest_railway + s.centre - s.errors
            + s.lamps + s.power
        )  # fmt: skip
        assert (
            0 <= p.charges <= 3 and len(p.specials) <= 3 and len(set(p.specials)) == len(p.specials)
        )
        assert sum(s.networks) <= 12
        if not state.config.power:
            assert p.charges == 0 and not any(c and c.electrified for c in p.cells)
        if not state.config.lamps:
            assert not any(c and c.lamp_on for c in p.cells)


def play(seed: int):
    rng = Random(seed)
    config = _config(rng)
    state = G.new(config, seed)
    log: list[tuple[int, dict]] = []
    while not G.is_over(state):
        for seat in sorted(G.to_act(state)):
            action = (
                G.sample_chance(state, rng) if seat == CHANCE else random_plan(state, seat, rng)
            )
            data = action.model_dump(mode="json")
            state = G.apply(state, seat, G.parse_action(data))
            log.append((seat, data))
            _check(state)
    return config, state, log


def test_random_games_round_trip_and_replay():
    sizes, combos = set(), set()
    for seed in range(GAMES):
        config, final, log = play(seed)
        sizes.add(config.players)
        combos.add(config.expansions)
        assert final.round == config.round_count
        replay = G.new(config, seed)
        for seat, data in log:
            replay = G.apply(replay, seat, G.parse_action(data))
        assert G.dump_state(replay) == G.dump_state(final)
        assert G.view(final, None)["over"] is True
        out = G.outcome(final)
        assert sorted(o["seat"] for o in out) == list(range(config.players))
        assert min(o["rank"] for o in out) == 1
        rolls = sum(1 for seat, _ in log if seat == CHANCE)
        assert rolls == config.round_count
    assert sizes == {1, 2, 3, 4, 5, 6, 8, 10, 12}
    assert len(combos) == 4


def test_apply_never_mutates_its_input():
    rng = Random(7)
    state = G.new(G.Config(players=2, expansions=frozenset({"street_lamps", "power_grid"})), 7)
    for _ in range(12):
        for seat in sorted(G.to_act(state)):
            action = (
                G.sample_chance(state, rng) if seat == CHANCE else random_plan(state, seat, rng)
            )
            before = G.dump_state(state)
            nxt = G.apply(state, seat, action)
            assert G.dump_state(state) == before
            state = nxt
        if G.is_over(state):
            break


def test_legal_actions_are_all_accepted():
    rng = Random(3)
    state = G.new(G.Config(players=1, expansions=frozenset({"street_lamps", "power_grid"})), 3)
    state = G.apply(state, CHANCE, G.sample_chance(state, rng))
    for action in islice(G.legal_actions(state, 0), 200):
        G.apply(state, 0, action)
