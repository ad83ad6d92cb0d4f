"""The game loop: one commit path for every change, whatever the shape of play. It deals chance,
lets pre-moves and AI seats act until a person must, and stores the actions, the snapshot and the
posts they owe (the outbox) in the change's own transaction."""

import logging
from collections.abc import Sequence
from datetime import timedelta
from functools import partial
from random import Random
from typing import Any

from bot.service import results
from bot.service.away import paused_from
from bot.service.options import next_due
from bot.service.shapes import Commit, Move, shape
from bot.service.tables import Table, Tables
from bot.store.dailies import DailyRepo
from engine.core import CHANCE, LEVELS, Level

log = logging.getLogger(__name__)


THINK_SECONDS: dict[Level, float] = {"casual": 1.0, "standard": 2.0, "strong": 4.0}
"""The most one AI decision may search, by level: a table never waits long for the AI."""
REPLY_GRACE = timedelta(seconds=30)
"""How long a stored move's author may go unanswered before a DM confirms it (the process that
took the move died between its commit and its answer)."""


class Loop(Tables):
    """The commit path; what each shape of play owes is its shape's to say."""

    async def _think(self, table: Table, state: Any, seat: int) -> Any:
        """The AI's choice for `seat` at its level, made off the event loop within its
        `THINK_SECONDS`: a search holds the interpreter while it runs, and a table left to the AI
        plays out to its end. A seat the AI took over plays at standard."""
        stored = next(s.ai_level for s in table.seats if s.seat == seat)
        # A level this version does not know (a corrupt row) plays at standard.
        level: Level = next((known for known in LEVELS if known == stored), "standard")
        choose = partial(table.hosted.choose, budget=THINK_SECONDS[level], level=level)
        return await self.offload(choose, table.game.view(state, seat), seat)

    async def _owe_reply(self, reply: int | None, game_id: int, seat: int, words: str) -> None:
        """Within a change's transaction: the answer to interaction `reply` is owed until
        `replied`; the words say what was done ("bought …", with {seat} names)."""
        if reply is not None:
            now = self.clock.now()
            await self.repo.owe_reply(reply, game_id, seat, words, now + REPLY_GRACE)

    async def replied(self, reply: int) -> None:
        """The person was answered: no DM needs to confirm their change. Best effort: a DM that
        follows anyway says only what they know."""
        try:
            async with self.repo.transaction() as repo:
                await repo.forget_reply(reply)
        except Exception as exc:
            log.info("an owed reply stays owed: %r", exc)

    async def _commit(
        self,
        table: Table,
        state: Any,
        made: Sequence[Move] = (),
        via: int | None = None,
        **fields: Any,
    ) -> None:
        """After `made` (the moves of this change, ending at `state`, made from the panel
        message `via`): deal chance and let pre-moves and AI seats act until people must; store
        it all and queue the posts."""
        game, form = table.game, shape(table)
        seats = {s.seat: s for s in table.seats}
        commit = Commit(
            table,
            await self.repo.action_count(table.row.id),
            game.to_act(table.state) if table.state else set(),
            via=via,
        )
        for move in made:
            _record(commit, move)
        while not game.is_over(state):
            acting = game.to_act(state)
            if CHANCE in acting:
                rng = Random(f"{table.row.seed}:{commit.at}")
                action = game.sample_chance(state, rng).model_dump(mode="json")
                state = game.apply(state, CHANCE, game.parse_action(action))
                commit.steps.append((CHANCE, action, "chance"))
                form.dealt(commit, state)
                continue
            ai = sorted(s for s in acting if seats[s].is_ai)
            for s in ai:
                action = (await self._think(table, state, s)).model_dump(mode="json")
                move = Move(state, s, action, game.apply(state, s, game.parse_action(action)), "ai")
                _record(commit, move)
                state = move.after
            if ai:
                continue
            premove = await form.premove(self.repo, commit, state, acting, self.clock.now())
            if premove is None:
                break
            _record(commit, premove)
            state = premove.after
        now = self.clock.now()
        for i, (seat, action, source) in enumerate(commit.steps):
            await self.repo.append_action(table.row.id, commit.seq + i, seat, action, source, now)
        await form.close(self.repo, commit, state, now, fields)
        if game.is_over(state):
            fields["status"] = "finished"
            fields["deadline"] = None
            seats_now = await self.repo.seats(table.row.id)
            outcome = game.outcome(state)
            moved = await results.record(self.repo, table.row, seats_now, outcome, "finished", now)
            ratings = {str(user): list(change) for user, change in moved.items()}
            commit.events.append(("game_over", {"at": commit.at, "ratings": ratings}))
            # After the results, never before: drawing it must not hold them up.
            commit.events.append(("recap", {}))
            if table.row.challenge is not None:
                await DailyRepo(self.repo).finished(table.row.id, float(outcome[0]["score"]), now)
        if fields.get("status") == "active" and table.row.status == "lobby":
            commit.events.insert(0, ("started", {"at": 0}))
        if "deadline" in fields:
            deadline = fields["deadline"]
            if deadline != table.row.deadline:
                fields["clock_started"] = now if deadline else None
            started = fields.get("clock_started", table.row.clock_started) or now
            fields["next_due"] = next_due(started, deadline, now)
            # A clock that waits for someone on vacation stands still until they are back.
            paused, back = (None, None)
            if deadline is not None:
                paused, back = await paused_from(self.repo, table, state, now)
            fields["paused_at"] = paused
            fields["next_due"] = back or fields["next_due"]
        if commit.paced:
            # The tick makes a paced pre-move when its time comes.
            soonest = min(commit.paced.values())
            fields["next_due"] = min(soonest, fields.get("next_due") or soonest)
        await self.repo.update_game(table.row, now, snapshot=game.dump_state(state), **fields)
        for kind, payload in commit.events:
            await self.repo.queue(table.row.id, kind, payload, now)


def _record(commit: Commit, move: Move) -> None:
    commit.steps.append((move.seat, move.action, move.source))
    shape(commit.table).moved(commit, move)
