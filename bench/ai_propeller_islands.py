"""Propeller Islands AI levels against today's frozen AI, random play, and themselves.

Run: .venv/bin/python -m bench.ai_propeller_islands [--games N] [--four N] [--random N]
    [--first SEED] [--levels L ...]
- 2-player: each level against "frozen" (today's AI as at commit bench.strength.FROZEN, in its
  own process) on seeds FIRST.., each seed played twice with the seats swapped; win rate (a
  shared win counts half) with its 95 % interval.
- 4-player: one seat of the level (rotating by seed) against three frozen seats; its win rate.
- 2-player against a random player (seats alternated); the level's win rate.
- In the games against frozen: how often the seat whose move triggered the end wins, for the
  level's seat and for frozen's.
- The level's decision times (issue 33: max <= 100 ms), by the wall clock and by this process's
  CPU time (on a shared machine the wall clock's maximum mostly measures the other loads).
"""

import argparse
import time
from collections.abc import Callable
from random import Random
from typing import Any

from bench.strength import FROZEN, Frozen, rate_ci, times_line
from engine.core import CHANCE, LEVELS, Level
from engine.propeller_islands import actions as A
from engine.propeller_islands import autopilot
from engine.propeller_islands.ai_eval import ending
from engine.propeller_islands.game import GAME

Policy = Callable[[dict[str, Any], int], A.Action]


class Tally:
    """Wins of our seat, and who triggered the end and whether that seat won."""

    def __init__(self) -> None:
        self.wins = 0.0
        self.games = 0
        self.ender_won = {"ours": [0, 0], "other": [0, 0]}
        self.times: list[float] = []
        self.cpu: list[float] = []


def play(seats: list[Policy], ours: int, seed: int, tally: Tally) -> None:
    """One seeded game, `seats[i]` playing seat i; `ours` is the seat whose times count."""
    rng = Random(seed)
    state = GAME.new(GAME.Config(players=len(seats)), seed)
    ender: int | None = None
    while not GAME.is_over(state):
        (seat,) = GAME.to_act(state)
        if seat == CHANCE:
            state = GAME.apply(state, CHANCE, GAME.sample_chance(state, rng))
            continue
        view = GAME.view(state, seat)
        start, cpu = time.perf_counter(), time.process_time()
        action = seats[seat](view, seat)
        if seat == ours:
            tally.times.append(time.perf_counter() - start)
            tally.cpu.append(time.process_time() - cpu)
        was = ending(state) or state.phase not in ("turns", "bonus")
        state = GAME.apply(state, seat, action)
        if ender is None and not was and ending(state):
            ender = seat
    winners = GAME.result(state)["winners"]
    tally.games += 1
    tally.wins += (ours in winners) / len(winners)
    if ender is not None:
        side = tally.ender_won["ours" if ender == ours else "other"]
        side[0] += ender in winners
        side[1] += 1


def level(name: Level) -> Policy:
    """That level of this tree's AI."""
    return lambda view, seat: autopilot.choose(view, seat, level=name)


def randomly(seed: int) -> Policy:
    rng = Random(seed)
    return lambda view, seat: autopilot.random_action(
        GAME.legal_actions(autopilot.state_from_view(view, seat), seat), rng
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50, help="2-player seeds (x2 seat swaps)")
    parser.add_argument("--four", type=int, default=12, help="4-player games per level")
    parser.add_argument("--random", type=int, default=10, help="games against random per level")
    parser.add_argument("--first", type=int, default=0, help="first seed")
    parser.add_argument("--levels", nargs="*", choices=LEVELS, default=list(LEVELS))
    args = parser.parse_args()
    seeds = range(args.first, args.first + args.games)
    print(
        f"frozen = today's AI at {FROZEN}; seeds {seeds.start}-{seeds.stop - 1}; "
        "a shared win counts as a fraction"
    )
    with Frozen(FROZEN, "engine.propeller_islands.autopilot") as old:

        def frozen(view: dict[str, Any], seat: int) -> A.Action:
            return GAME.parse_action(old(view, seat))

        for name in args.levels:
            ours = level(name)
            duel, four, rand = Tally(), Tally(), Tally()
            for seed in seeds:
                for me in (0, 1):
                    play([ours, frozen] if me == 0 else [frozen, ours], me, seed, duel)
            for seed in range(args.first, args.first + args.four):
                me = seed % 4
                play([ours if i == me else frozen for i in range(4)], me, seed, four)
            for seed in range(args.first, args.first + args.random):
                me = seed % 2
                other = randomly(seed)
                play([ours if i == me else other for i in range(2)], me, seed, rand)
            print(f"\n{name}:")
            print(f"  2-player vs frozen, {name}'s win rate: {rate_ci(duel.wins, duel.games)}")
            print(f"  4-player vs 3 frozen, {name}'s win rate: {rate_ci(four.wins, four.games)}")
            print(f"  2-player vs random, {name}'s win rate: {rate_ci(rand.wins, rand.games)}")
            for who, label in (("ours", name), ("other", "frozen")):
                (a, n), (b, m) = duel.ender_won[who], four.ender_won[who]
                print(f"  {label} ended the game (vs frozen): it won {rate_ci(a + b, n + m)}")
            times = duel.times + four.times + rand.times
            cpu = duel.cpu + four.cpu + rand.cpu
            print(f"  {name} decision times, wall clock: {times_line(times)}")
            print(f"  {name} decision times, CPU of this process: {times_line(cpu)}")


if __name__ == "__main__":
    main()
