"""After the game: its replay as round-by-round frames (the animated recap), and the coach's
weighing of a seat's decisions, made off the event loop within a budget."""

from itertools import pairwise
from typing import Any

from bot.service.errors import UserError
from bot.service.hosting import hosted
from bot.service.tables import Table, Tables
from bot.store.repo import GameRow
from engine import registry
from engine.coaching import Coaching, Step

COACH_SECONDS = 20.0
"""The most the coach thinks about one seat's game (in the thinking worker)."""
FRAMES = 24
"""The most frames a recap has: a long game shows evenly spaced rounds, and always the end."""

Log = list[tuple[int, dict[str, Any], str]]


def replay(row: GameRow, log: Log) -> tuple[list[Step], Any]:
    """Every action of the log with the state it was made in, and the state at the end."""
    return _replay(row.game, row.config, row.seed, log)


def _replay(name: str, config: dict[str, Any], seed: int, log: Log) -> tuple[list[Step], Any]:
    game = registry.get(name)
    state = game.new(game.Config(**config), seed)
    steps = []
    for seat, action, _ in log:
        steps.append(Step(state, seat, action))
        state = game.apply(state, seat, game.parse_action(action))
    return steps, state


def round_views(row: GameRow, log: Log) -> list[tuple[str, dict[str, Any]]]:
    """The public view at the end of each round, captioned, then the final one; at most
    `FRAMES`, evenly spaced, the first and the end kept."""
    game = registry.get(row.game)
    steps, final = replay(row, log)
    frames: list[tuple[str, dict[str, Any]]] = []
    states = [step.before for step in steps] + [final]
    for before, after in pairwise(states):
        now, later = game.progress(before).round, game.progress(after).round
        if later > now > 0 and after is not final:
            frames.append((f"After round {now}", game.view(after, None)))
    if len(frames) > FRAMES - 1:
        keep = FRAMES - 1
        frames = [frames[round(i * (len(frames) - 1) / (keep - 1))] for i in range(keep)]
    return [*frames, ("The end", game.view(final, None))]


def coach_game(
    name: str, config: dict[str, Any], seed: int, log: Log, seat: int, budget: float
) -> Coaching:
    """The coach's weighing of `seat`'s game; module-level, so it runs in a worker process."""
    coach = hosted()[name].coach
    if coach is None:
        raise UserError(f"{registry.get(name).title} has no coach yet.")
    steps, final = _replay(name, config, seed, log)
    return coach(steps, final, seat, budget=budget)


class Recaps(Tables):
    """Replays of finished games for the recap and the coach."""

    async def recap_views(self, game_id: int) -> tuple[Table, list[tuple[str, dict[str, Any]]]]:
        """A finished game's frames (caption, public view), read with its log."""
        async with self.repo.reading() as repo:
            table = await self._table(game_id)
            log = await repo.actions(game_id)
        if table.row.status not in ("finished", "abandoned"):
            raise UserError(f"{table.label} has not ended: its recap comes after the end.")
        return table, await self.offload(round_views, table.row, log)

    async def coaching(self, game_id: int, user_id: int) -> tuple[Table, Coaching, list[Step]]:
        """The coach's report on the person's own seat in a finished game, with the game's
        steps (to draw its advice); money and hands are revealed only because it has ended."""
        async with self.repo.reading() as repo:
            table = await self._table(game_id)
            log = await repo.actions(game_id)
        seat = next((s.seat for s in table.seats if s.user_id == user_id), None)
        if seat is None:
            raise UserError(f"You had no seat in {table.label}: the coach looks at your own game.")
        if table.row.status not in ("finished", "abandoned"):
            raise UserError(
                f"{table.label} has not ended: the coach looks back only once it is over."
            )
        if table.hosted.coach is None:
            raise UserError(f"{table.game.title} has no coach yet.")
        row = table.row
        coaching = await self.offload(
            coach_game, row.game, row.config, row.seed, log, seat, COACH_SECONDS
        )
        steps, _ = replay(row, log)  # cheap beside the coach: every engine applies in microseconds
        return table, coaching, steps
