"""A game's log replayed for the pages: the state after every action, where each round begins,
the moves in the words of the channel, and each step's public image (drawn once, then kept)."""

import asyncio
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.service.hosting import fill
from bot.service.shapes import shape
from bot.service.tables import Table
from bot.ui.presenter import presenter
from bot.workers import draw
from engine.core import CHANCE

Step = tuple[int, dict[str, Any], str]
"""A logged action: seat, action JSON, source."""
GAMES_KEPT = 16
"""Replays held in memory (the games people are watching)."""
IMAGES_KEPT = 512
"""Step images held in memory; each is a few dozen kilobytes."""


@dataclass(slots=True)
class Replay:
    """States after each action of one game (`states[i]`: after the first i actions)."""

    table: Table
    steps: list[Step]
    states: list[Any]
    rounds: dict[int, int] = field(default_factory=dict)
    """The first step at which each round is under way."""
    said: tuple[tuple[int, tuple[str, ...]], list[dict[str, Any]]] = ((-1, ()), [])
    """The moves in words, and for which steps and names they were worded."""

    def extend(self, steps: Sequence[Step]) -> None:
        """Apply the actions logged since this replay was made."""
        game = self.table.game
        for seat, action, source in steps:
            state = game.apply(self.states[-1], seat, game.parse_action(action))
            self.steps.append((seat, action, source))
            self.states.append(state)
            self.rounds.setdefault(game.progress(state).round, len(self.states) - 1)

    def moves(self, upto: int, names: list[str]) -> list[dict[str, Any]]:
        """What happened up to step `upto`, as the channel says it: each move of a turn-based
        game; each resolved round's summary of one played in rounds. Worded once per move of
        the game, not once per page asking."""
        key = (len(self.steps), tuple(names))
        if self.said[0] != key:
            self.said = (key, self._said(names))
        return [dict(m) for m in self.said[1] if m["at"] <= upto]

    def _said(self, names: list[str]) -> list[dict[str, Any]]:
        """Every move (or round) in words, each with the step it ends on."""
        table, game = self.table, self.table.game
        out: list[dict[str, Any]] = []
        if not shape(table).together:
            turns = table.hosted.moves()
            for i, (seat, action, _) in enumerate(self.steps):
                if seat == CHANCE:
                    continue
                text = turns.describe(self.states[i], seat, action, self.states[i + 1])
                out.append({"at": i + 1, "text": f"{names[seat]} {fill(text, names)}"})
            return out
        lines = table.hosted.round_lines
        if lines is None:
            return out
        for i, (seat, _, _) in enumerate(self.steps):
            # Each roll after the first starts a round, as the channel's round post says: the
            # round before it is built in the state just before the roll.
            round_ = game.progress(self.states[i + 1]).round
            if seat != CHANCE or round_ <= 1:
                continue
            built = game.view(self.states[i], None)
            text = f"**Round {round_ - 1}:** " + " · ".join(lines(built, names))
            out.append({"at": i + 1, "text": text})
        if game.is_over(self.states[-1]):
            # The last round ends the game: no roll follows it.
            built = game.view(self.states[-1], None)
            text = f"**Round {game.progress(self.states[-1]).round}:** "
            out.append({"at": len(self.steps), "text": text + " · ".join(lines(built, names))})
        return out


class Replays:
    """Replays and step images kept between requests, the least recently used dropped."""

    def __init__(self) -> None:
        self._games: OrderedDict[int, Replay] = OrderedDict()
        self._images: OrderedDict[tuple[int, int], bytes] = OrderedDict()
        self._locks: dict[int, asyncio.Lock] = {}

    async def of(self, table: Table, steps: list[Step]) -> Replay:
        """The replay of `table` up to its logged `steps` (extended, or made anew)."""
        gid = table.row.id
        async with self._locks.setdefault(gid, asyncio.Lock()):
            kept = self._games.pop(gid, None)
            if kept is None or kept.steps != steps[: len(kept.steps)]:
                game = table.game
                kept = Replay(
                    table, [], [game.new(game.Config(**table.row.config), table.row.seed)]
                )
                kept.rounds[game.progress(kept.states[0]).round] = 0
            kept.table = table
            new = steps[len(kept.steps) :]
            if new:
                await asyncio.to_thread(kept.extend, new)
            self._games[gid] = kept
            while len(self._games) > GAMES_KEPT:
                self._games.popitem(last=False)
            return kept

    async def image(self, replay: Replay, at: int) -> bytes:
        """The public image of the table after step `at` (what `/game status` draws)."""
        key = (replay.table.row.id, at)
        if (kept := self._images.pop(key, None)) is None:
            table = replay.table
            view = table.game.view(replay.states[at], None)
            kept = await draw(presenter(table.row.game).status_image, view, names_of(table))
        self._images[key] = kept
        while len(self._images) > IMAGES_KEPT:
            self._images.popitem(last=False)
        return kept


def names_of(table: Table) -> list[str]:
    return [s.name for s in table.seats]
