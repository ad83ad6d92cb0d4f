"""The game loop: one commit path for every change. It deals chance, lets AI seats (and
pre-moves) act until a person must, and stores the actions, the snapshot and the posts they owe
(the outbox) in the change's own transaction."""

from datetime import timedelta
from random import Random
from typing import Any

from bot.service import results
from bot.service.options import TableOptions, next_due
from bot.service.tables import Table, Tables, phase_of
from bot.store.repo import DraftRow, Repo
from engine.core import CHANCE, IllegalAction


class Loop(Tables):
    """The commit path and what it queues for each shape of play."""

    async def _commit(
        self,
        table: Table,
        state: Any,
        logged: list[tuple[int, dict[str, Any], str]],
        words: list[dict[str, Any]] | None = None,
        phases: list[tuple[Any, int]] | None = None,
        **fields: Any,
    ) -> None:
        """Deal chance and let AI seats act until people must; store it all and queue posts.

        `words`: the logged moves in words (turn-based games), one {"seat", "text"} each."""
        game = table.game
        seq = await self.repo.action_count(table.row.id)
        seats = {s.seat: s for s in table.seats}
        turns = table.hosted.turns
        events: list[tuple[str, dict[str, Any]]] = []
        owed_before = game.to_act(table.state) if table.state else set()
        phases = list(phases or [])
        moves = list(words or [])
        steps = list(logged)
        while not game.is_over(state):
            acting = game.to_act(state)
            if CHANCE in acting:
                rng = Random(f"{table.row.seed}:{seq + len(steps)}")
                action = game.sample_chance(state, rng).model_dump(mode="json")
                state = game.apply(state, CHANCE, game.parse_action(action))
                steps.append((CHANCE, action, "chance"))
                if turns is None:
                    events.append(("round_started", {"round": state.round, "at": seq + len(steps)}))
                continue
            ai = sorted(s for s in acting if seats[s].is_ai)
            if not ai and turns is not None:
                premoved = await self._premove(table, state, acting)
                if premoved is not None:
                    seat, action, after = premoved
                    moves.append({"seat": seat, "text": turns.describe(state, seat, action, after)})
                    if phase_of(after) != phase_of(state):
                        phases.append((phase_of(state), seq + len(steps) + 1))
                    state = after
                    steps.append((seat, action, "player"))
                    continue
            if not ai:
                break
            for s in ai:
                action = table.hosted.choose(game.view(state, s), s).model_dump(mode="json")
                after = game.apply(state, s, game.parse_action(action))
                if turns is not None:
                    moves.append({"seat": s, "text": turns.describe(state, s, action, after)})
                    if phase_of(after) != phase_of(state):
                        phases.append((phase_of(state), seq + len(steps) + 1))
                state = after
                steps.append((s, action, "ai"))
        now = self.clock.now()
        for i, (seat, action, source) in enumerate(steps):
            await self.repo.append_action(table.row.id, seq + i, seat, action, source, now)
        at = seq + len(steps)
        if turns is not None:
            await self._turn_events(table, state, owed_before, steps, moves, phases, events, fields)
        else:
            await self._round_events(table, state, steps, events, fields)
        if game.is_over(state):
            fields["status"] = "finished"
            fields["deadline"] = None
            events.append(("game_over", {"at": at}))
            seats_now = await self.repo.seats(table.row.id)
            await results.record(
                self.repo, table.row, seats_now, game.outcome(state), "finished", now
            )
        if fields.get("status") == "active" and table.row.status == "lobby":
            events.insert(0, ("started", {"at": 0}))
        if "deadline" in fields:
            fields["next_due"] = next_due(table.row.options, fields["deadline"], now)
        await self.repo.update_game(table.row, now, snapshot=game.dump_state(state), **fields)
        for kind, payload in events:
            await self.repo.queue(table.row.id, kind, payload, now)

    async def _round_events(
        self,
        table: Table,
        state: Any,
        steps: list[tuple[int, dict[str, Any], str]],
        events: list[tuple[str, dict[str, Any]]],
        fields: dict[str, Any],
    ) -> None:
        """A simultaneous game's posts: rounds started (with the last one's summary), the status
        board, the nudge to the last one planning."""
        game, now = table.game, self.clock.now()
        seats = {s.seat: s for s in table.seats}
        at = await self.repo.action_count(table.row.id)
        if game.is_over(state):
            return
        if any(kind == "round_started" for kind, _ in events):
            minutes = TableOptions(**table.row.options).deadline_minutes
            fields["deadline"] = now + timedelta(minutes=minutes)
            await self.repo.reset_reminders(table.row.id)
        elif steps:
            events.append(("status", {"at": at}))
            waiting = [s for s in game.to_act(state) if not seats[s].is_ai]
            limit = TableOptions(**table.row.options).reminders
            last = seats[waiting[0]] if len(waiting) == 1 and len(seats) > 1 else None
            if last and not last.nudged and last.reminders_sent + 1 <= limit:
                await self.repo.update_seat(table.row.id, last.seat, nudged=True)
                events.append(("last_one", {"seat": last.seat}))

    async def _turn_events(
        self,
        table: Table,
        state: Any,
        owed_before: set[int],
        steps: list[tuple[int, dict[str, Any], str]],
        moves: list[dict[str, Any]],
        phases: list[tuple[Any, int]],
        events: list[tuple[str, dict[str, Any]]],
        fields: dict[str, Any],
    ) -> None:
        """A turn-based game's posts: the moves in words (the status message), the phases that
        ended (their images), and a "your turn" to each person who now owes a move."""
        game, now = table.game, self.clock.now()
        at = await self.repo.action_count(table.row.id)
        if moves:
            events.append(("moves", {"moves": moves, "at": at}))
        events += [("phase", {"phase": phase, "at": end}) for phase, end in phases]
        if phases:
            await self._lapse_premoves(table, [phase for phase, _ in phases])
        if game.is_over(state):
            return
        acted = {seat for seat, _, source in steps if source != "chance"}
        people = {s.seat for s in table.seats if not s.is_ai}
        owed = game.to_act(state) & people
        fresh = sorted(s for s in owed if s not in owed_before or s in acted)
        for seat in fresh:
            events.append(("turn", {"seat": seat, "at": at}))
        if fresh or (steps and owed):
            minutes = TableOptions(**table.row.options).deadline_minutes
            fields["deadline"] = now + timedelta(minutes=minutes)
            await self.repo.reset_reminders(table.row.id)
        elif not owed:
            fields["deadline"] = None

    async def _premove(self, table: Table, state: Any, acting: set[int]) -> Any:
        """The first pre-move of a person owing a move that applies now: (seat, action, after)."""
        turns, game = table.hosted.turns, table.game
        for seat in sorted(acting):
            for premove in await self._stored_premoves(self.repo, table, seat):
                action = turns.premove_action(premove["premove"], premove["scope"], state, seat)
                if action is None:
                    continue
                try:
                    return seat, action, game.apply(state, seat, game.parse_action(action))
                except IllegalAction:
                    continue
        return None

    async def _lapse_premoves(self, table: Table, ended: list[Any]) -> None:
        """Pre-moves of phases that ended are gone."""
        for seat in table.seats:
            stored = await self._stored_premoves(self.repo, table, seat.seat)
            kept = [p for p in stored if p["scope"] not in ended]
            if kept != stored:
                await self.repo.save_draft(
                    table.row.id, seat.seat, DraftRow(0, kept, False), self.clock.now()
                )

    @staticmethod
    async def _stored_premoves(repo: Repo, table: Table, seat: int) -> list[dict[str, Any]]:
        row = await repo.draft(table.row.id, seat)
        return [p for p in (row.steps if row else []) if isinstance(p, dict) and "premove" in p]
