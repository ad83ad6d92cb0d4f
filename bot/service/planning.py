"""Simultaneous play: each seat's draft of its secret plan, step by step, and its submission."""

from typing import Any

from bot.service.errors import UserError
from bot.service.loop import Loop
from bot.service.shapes import Move
from bot.service.tables import DraftView, Table, first_error
from bot.store.repo import DraftRow
from engine.core import CHANCE, IllegalAction, planning


class Planning(Loop):
    """Drafts and plans of the round being planned."""

    async def check_round(self, game_id: int, round_: int) -> None:
        """Refuse a stale planner: one from an earlier round or a game that has ended."""
        _same_round(await self.table(game_id), round_)

    async def draft(self, game_id: int, user_id: int) -> DraftView:
        async with self.repo.reading():
            table = await self._table(game_id)
            seat = self._planner(table, user_id)
            return await self._draft_view(table, seat)

    async def _draft_view(self, table: Table, seat: int) -> DraftView:
        state, game, plans = table.state, planning(table.game), table.hosted.plans()
        round_ = _round(table)
        row = await self.repo.draft(table.row.id, seat)
        if row is None or row.round != round_:
            row = DraftRow(round_, [], False)
        steps = row.steps
        offered = [
            plans.normalise(s.model_dump(mode="json")) for s in game.legal_next(state, seat, steps)
        ]
        options = [(plans.describe(state, seat, step), plans.key(step)) for step in offered]
        return DraftView(
            table=table,
            seat=seat,
            round=round_,
            steps=steps,
            vacation=row.vacation,
            lines=plans.lines(state, seat, steps),
            next_options=options,
            can_submit=game.can_submit(state, seat, steps),
            submitted=seat not in game.to_act(state),
        )

    def _planner(self, table: Table, user_id: int) -> int:
        seat = table.player(user_id)
        table.hosted.plans()
        if CHANCE in table.game.to_act(table.state):
            raise UserError("The dice for this round are not rolled yet.")
        return seat

    async def edit_draft(
        self,
        game_id: int,
        user_id: int,
        *,
        add: dict[str, Any] | None = None,
        undo: bool = False,
        clear: bool = False,
        vacation: bool | None = None,
    ) -> DraftView:
        """Change the draft by one step; an illegal step changes nothing and says why."""
        async with self.repo.transaction() as repo:
            table = await self._table(game_id)
            seat = self._planner(table, user_id)
            if clear:
                # A draft that no longer reads (a corrupt row) must not lock its owner out.
                await repo.save_draft(
                    game_id, seat, DraftRow(_round(table), [], False), self.clock.now()
                )
            view = await self._draft_view(table, seat)
            steps = list(view.steps)
            if add is not None:
                steps.append(self._legal_step(table, seat, steps, add))
            if undo:
                if not steps:
                    raise UserError("Your draft is already empty.")
                steps.pop()
            if clear:
                steps = []
            on = view.vacation if vacation is None else vacation
            why = table.hosted.plans().flag_refusal(table.state, seat) if on else None
            if why:
                raise UserError(why)
            row = DraftRow(view.round, steps, on)
            await repo.save_draft(game_id, seat, row, self.clock.now())
            return await self._draft_view(table, seat)

    @staticmethod
    def _legal_step(
        table: Table, seat: int, steps: list[dict[str, Any]], add: dict[str, Any]
    ) -> dict[str, Any]:
        """The step, normalised, if the engine accepts it after `steps`; else a clear refusal."""
        game, plans = planning(table.game), table.hosted.plans()
        try:
            step = plans.normalise(add)
            offered = game.legal_next(table.state, seat, steps)
            game.legal_next(table.state, seat, [*steps, step])
        except IllegalAction as exc:
            raise UserError(exc.reason) from None
        except ValueError as exc:
            raise UserError(f"That step is malformed: {first_error(exc)}") from None
        keys = {plans.key(plans.normalise(o.model_dump(mode="json"))) for o in offered}
        if plans.key(step) not in keys:
            raise UserError("That step fits, but then no legal plan could be finished.")
        return step

    async def submit(
        self, game_id: int, user_id: int, round_: int | None = None, reply: int | None = None
    ) -> tuple[Table, bool]:
        """Submit the draft as this round's plan (of `round_`, when a planner names one; the
        answer to interaction `reply` owed until `replied`).

        Returns the table and whether the round resolved.
        """
        async with self.repo.transaction() as repo:
            table = await self._table(game_id)
            seat = self._planner(table, user_id)
            if round_ is not None:
                _same_round(table, round_)
            view = await self._draft_view(table, seat)
            stored = await repo.draft(game_id, seat)
            if not view.steps and stored and stored.round < view.round:
                # A submit that arrives just after its round resolved (a timeout, the others).
                raise UserError(
                    f"Round {stored.round} has already been resolved; round {view.round} "
                    "is being planned now and your plan for it is still empty."
                )
            plan = table.hosted.plans().plan(view.steps, view.vacation)
            state = self._apply(table, seat, plan)
            await repo.update_seat(game_id, seat, timeouts=0)
            await self._commit(table, state, [Move(table.state, seat, plan, state, "player")])
            await self._owe_reply(
                reply, game_id, seat, f"submitted your plan for round {view.round}"
            )
            after = await self._table(game_id)
            return after, _round(after) != view.round or after.row.status != "active"


def _same_round(table: Table, round_: int) -> None:
    """Refuse a planner (button, select) made for another round or a finished game."""
    if table.row.status != "active":
        raise UserError(f"Game #{table.row.id} is over; this planner no longer applies.")
    if _round(table) != round_:
        raise UserError(
            f"This planner is from round {round_}; game #{table.row.id} is in round "
            f"{_round(table)} now. Use the newest planner."
        )


def _round(table: Table) -> int:
    return table.game.progress(table.state).round
