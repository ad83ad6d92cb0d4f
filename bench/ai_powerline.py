"""Powerline AI levels in solo games per rules variant, against today's frozen AI and greedy play.

Run: .venv/bin/python -m bench.ai_powerline [--games N] [--first SEED] [--variants V ...]
- Every player plays the same seeded solo games (seeds FIRST..FIRST+N-1, default 0..199; each
  game's board and dice come from its seed) in the standard rules, Construction Limits alone and
  Contracts alone.
- Players: the casual, standard and strong levels of this tree; "frozen", today's AI as at commit
  bench.strength.FROZEN in its own process; "greedy", the best-looking placement one at a time.
- Per variant and player: mean VP, the top solo title's rate (VP >= 101), VP lost to the island
  (workers sent there, less what the vacation tile saves), each with its 95 % interval.
- Per variant and level: the mean VP gap to frozen and to greedy on the same seeds (paired).
- Per level: decision times over all variants (issue 33: standard median <= 5 ms; strong's
  p95 at most ~1 s); the bars are measured on strong.
"""

import argparse
import time
from collections.abc import Callable
from random import Random
from typing import Any

from bench.strength import FROZEN, Frozen, mean_ci, rate_ci, times_line
from engine.core import CHANCE, LEVELS, Level
from engine.powerline import autopilot
from engine.powerline.actions import Plan
from engine.powerline.board import rules
from engine.powerline.game import GAME

VARIANTS = {
    "standard": frozenset[str](),
    "construction_limits": frozenset({"construction_limits"}),
    "contracts": frozenset({"contracts"}),
}
TOP = rules().solo_titles[-1]

Policy = Callable[[dict[str, Any], int], Plan]


def play(
    policy: Policy, seed: int, variants: frozenset[str], times: list[float]
) -> tuple[int, int]:
    """One seeded solo game: its final VP and the VP lost to the island."""
    rng = Random(seed)
    state = GAME.new(GAME.Config(players=1, variants=variants), seed)
    while not GAME.is_over(state):
        if CHANCE in GAME.to_act(state):
            state = GAME.apply(state, CHANCE, GAME.sample_chance(state, rng))
            continue
        view = GAME.view(state, 0)
        start = time.perf_counter()
        plan = policy(view, 0)
        times.append(time.perf_counter() - start)
        state = GAME.apply(state, 0, plan)
    me = state.players[0]
    return me.vp, -me.ledger["island"]


def level(name: Level) -> Policy:
    """That level of this tree's AI."""
    return lambda view, seat: autopilot.choose(view, seat, level=name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="seeded games per variant")
    parser.add_argument("--first", type=int, default=0, help="first seed")
    parser.add_argument("--variants", nargs="*", choices=list(VARIANTS), default=list(VARIANTS))
    args = parser.parse_args()
    seeds = range(args.first, args.first + args.games)
    times: dict[str, list[float]] = {name: [] for name in LEVELS}
    print(
        f"solo games, seeds {seeds.start}-{seeds.stop - 1} per variant; top title: {TOP.title!r} "
        f"(VP >= {TOP.min}); frozen = today's AI at {FROZEN}; greedy = best next placement"
    )
    with Frozen(FROZEN, "engine.powerline.autopilot") as old:

        def frozen(view: dict[str, Any], seat: int) -> Plan:
            action = GAME.parse_action(old(view, seat))
            assert isinstance(action, Plan)
            return action

        players: dict[str, Policy] = {
            "greedy": autopilot.greedy_plan,
            "frozen": frozen,
            **{name: level(name) for name in LEVELS},
        }
        for variant in args.variants:
            results: dict[str, tuple[list[int], list[int]]] = {}
            for name, policy in players.items():
                spent = times.get(name, [])
                games = [play(policy, seed, VARIANTS[variant], spent) for seed in seeds]
                results[name] = ([vp for vp, _ in games], [lost for _, lost in games])
            print(f"\n{variant}:")
            for name, (vp, lost) in results.items():
                titles = sum(v >= TOP.min for v in vp)
                print(
                    f"  {name:8} VP {mean_ci(vp)}; top title {rate_ci(titles, len(vp))}; "
                    f"VP lost to the island {mean_ci(lost)}"
                )
            for name in LEVELS:
                for base in ("frozen", "greedy"):
                    gaps = [a - b for a, b in zip(results[name][0], results[base][0], strict=True)]
                    print(f"  {name} - {base}: VP gap {mean_ci(gaps)} on the same seeds")
    print("\ndecision times, all variants:")
    for name in LEVELS:
        print(f"  {name:8} {times_line(times[name])}")


if __name__ == "__main__":
    main()
