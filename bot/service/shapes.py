"""The two shapes of play as the game loop meets them (as boardgame.io's turn orders): rounds of
secret plans, where every seat owes a plan at once (`ActivePlayers.ALL_ONCE`), and turns, where
the seats in `to_act` move one decision at a time. The engine declares its shape (`dynamics`);
the loop asks the shape what a commit owes, and nothing else in the service branches on it."""

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from random import Random
from typing import Any, Protocol

from bot.service import banks
from bot.service.options import TableOptions, clock_start, reminder_marks
from bot.service.preferences import heads_ups, nudgeable
from bot.service.tables import Table
from bot.store.repo import Repo
from engine.core import CHANCE, Dynamics, Game, IllegalAction, Logged

Step = tuple[int, dict[str, Any], str]
"""A logged action: seat, action JSON, source ("player", "ai", "timeout", "chance")."""
Event = tuple[str, dict[str, Any]]
"""A post the change owes (the outbox): kind and payload."""


@dataclass(frozen=True, slots=True)
class Move(Logged):
    """A move made by a person, a pre-move, the autopilot or an AI seat, with its states."""

    source: str


@dataclass(slots=True)
class Commit:
    """What one commit gathers while it deals chance and lets seats move."""

    table: Table
    seq: int
    """Actions in the log before this commit."""
    owed_before: set[int]
    steps: list[Step] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    moves: list[dict[str, Any]] = field(default_factory=list)
    """The moves in words, one {"seat", "text"} each (turn by turn)."""
    phases: list[tuple[Any, int]] = field(default_factory=list)
    """The phases that ended: (round and phase, the action count at their end)."""
    via: int | None = None
    """The panel message a person's move was made from (the click already redrew it)."""
    paced: dict[int, datetime] = field(default_factory=dict)
    """Seats whose pre-move will answer for them at a person's pace, and when."""

    @property
    def at(self) -> int:
        return self.seq + len(self.steps)


def phase_of(game: Game, state: Any) -> list[Any]:
    """Round and phase, as a phase event names the phase that ended."""
    progress = game.progress(state)
    return [progress.round, progress.phase]


class Shape(Protocol):
    noun: str
    """What a deadline closes: "round" or "turn"."""
    verb: str
    """What the autopilot does for the late: "planned" or "moved"."""
    together: bool
    """Every seat acts at once, so how many are in, and who is last, is news."""

    def reminder(self, round_: int, left: str) -> str:
        """What a reminder says is due in `left`, and what happens if it does not come."""

    def told(self, table: Table, move: Move) -> str | None:
        """The autopilot's move for a late person, in words for them (None: the post says it)."""

    def dealt(self, commit: Commit, state: Any) -> None:
        """Chance was dealt; `state` is the state after it."""

    def moved(self, commit: Commit, move: Move) -> None:
        """A seat moved; its step is the commit's last."""

    async def premove(
        self, repo: Repo, commit: Commit, state: Any, owed: set[int], now: datetime
    ) -> Move | None:
        """A decision a person took ahead of their turn, now made (when it is due), or None."""

    async def close(
        self, repo: Repo, commit: Commit, state: Any, now: datetime, fields: dict[str, Any]
    ) -> None:
        """Queue what the change owes (`commit.events`) and set the deadline (`fields`)."""


def _deadline(table: Table, now: datetime) -> datetime:
    return TableOptions(**table.row.options).deadline(now)


class Rounds:
    """Every seat plans the round in secret; the round resolves when the last plan is in."""

    noun = "round"
    verb = "planned"
    together = True

    def reminder(self, round_: int, left: str) -> str:
        return (
            f"round {round_} closes in {left}. "
            "If you don't plan by then, the autopilot plans for you."
        )

    def told(self, table: Table, move: Move) -> str | None:
        return None

    def dealt(self, commit: Commit, state: Any) -> None:
        round_ = commit.table.game.progress(state).round
        commit.events.append(("round_started", {"round": round_, "at": commit.at}))

    def moved(self, commit: Commit, move: Move) -> None:
        return None

    async def premove(
        self, repo: Repo, commit: Commit, state: Any, owed: set[int], now: datetime
    ) -> Move | None:
        return None

    async def close(
        self, repo: Repo, commit: Commit, state: Any, now: datetime, fields: dict[str, Any]
    ) -> None:
        """Rounds started (with the last one's summary), the status board, the nudge to the last
        one planning."""
        table, game = commit.table, commit.table.game
        if game.is_over(state):
            return
        if any(kind == "round_started" for kind, _ in commit.events):
            fields["deadline"] = _deadline(table, now)
            await repo.reset_reminders(table.row.id)
        elif commit.steps:
            seats = {s.seat: s for s in table.seats}
            commit.events.append(("status", {"at": commit.at}))
            waiting = [s for s in game.to_act(state) if not seats[s].is_ai]
            limit = TableOptions(**table.row.options).reminders
            last = seats[waiting[0]] if len(waiting) == 1 and len(seats) > 1 else None
            # Before half the time has run, being last is no news: the half-time reminder
            # says it then.
            late = table.row.deadline is not None and now >= min(
                reminder_marks(clock_start(table.row), table.row.deadline),
                default=table.row.deadline,
            )
            quiet = last is None or last.muted or last.nudged
            if (
                last
                and late
                and not quiet
                and last.reminders_sent + 1 <= limit
                and await nudgeable(repo, last, now)
            ):
                await repo.update_seat(table.row.id, last.seat, nudged=True)
                commit.events.append(("last_one", {"seat": last.seat}))


class Turns:
    """The seats in `to_act` move one decision at a time; pre-moves are made when it is theirs."""

    noun = "turn"
    verb = "moved"
    together = False

    def reminder(self, round_: int, left: str) -> str:
        return (
            f"your move is due in {left}. If you don't move by then, the autopilot moves for you."
        )

    def told(self, table: Table, move: Move) -> str | None:
        return table.hosted.moves().describe(move.before, move.seat, move.action, move.after)

    def dealt(self, commit: Commit, state: Any) -> None:
        return None

    def moved(self, commit: Commit, move: Move) -> None:
        table = commit.table
        text = table.hosted.moves().describe(move.before, move.seat, move.action, move.after)
        commit.moves.append({"seat": move.seat, "text": text})
        ended = phase_of(table.game, move.before)
        if phase_of(table.game, move.after) != ended:
            commit.phases.append((ended, commit.at))

    async def premove(
        self, repo: Repo, commit: Commit, state: Any, owed: set[int], now: datetime
    ) -> Move | None:
        table, game = commit.table, commit.table.game
        turns = table.hosted.moves()
        for seat in sorted(owed - set(commit.paced)):
            stored = await repo.premoves(table.row.id, seat)
            for i, p in enumerate(stored):
                key, due = p["premove"], p["due"]
                action = turns.premove_action(key, p["scope"], state, seat, p["amount"])
                if action is None:
                    continue
                try:
                    after = game.apply(state, seat, game.parse_action(action))
                except IllegalAction:
                    continue
                if key in turns.paced and (due is None or due > now):
                    if due is None:
                        due = now + _pace(table, commit)
                        stored[i] = {**p, "due": due}
                        await repo.save_premoves(table.row.id, seat, stored, now)
                    commit.paced[seat] = due
                    break
                if due is not None:
                    stored[i] = {**p, "due": None}  # the next answer waits a pace of its own
                    await repo.save_premoves(table.row.id, seat, stored, now)
                return Move(state, seat, action, after, "player")
        return None

    async def close(
        self, repo: Repo, commit: Commit, state: Any, now: datetime, fields: dict[str, Any]
    ) -> None:
        """The moves in words (the status message), the phases that ended (their images), and a
        "your turn" to each person who now owes a move."""
        table, game = commit.table, commit.table.game
        if commit.moves:
            commit.events.append(("moves", {"moves": commit.moves, "at": commit.at}))
        commit.events += [("phase", {"phase": phase, "at": end}) for phase, end in commit.phases]
        if commit.phases:
            await _lapse_premoves(repo, table, [phase for phase, _ in commit.phases], now)
        if game.is_over(state):
            return
        people = {s.seat for s in table.seats if not s.is_ai}
        acted = {seat for seat, _, source in commit.steps if source != "chance"} & people
        owed = game.to_act(state) & people
        # A new panel (a notification) only when the turn comes to a person, or back to them
        # after someone else moved; one who stays on turn keeps their panel, redrawn in place.
        fresh = sorted(
            s
            for s in owed - set(commit.paced)
            if s not in commit.owed_before or _others_after(commit, s)
        )
        commit.events += [("turn", {"seat": seat, "at": commit.at}) for seat in fresh]
        commit.events += await heads_ups(repo, table, state, fresh, now)
        commit.events += [
            ("panel", {"seat": seat, "at": commit.at, "via": commit.via})
            for seat in sorted(acted - set(fresh))
        ]
        if TableOptions(**table.row.options).clock == "bank":
            # Each seat's own clock: the deadline is the first bank to run out.
            late = {seat for seat, _, source in commit.steps if source == "timeout"}
            fields["deadline"] = await banks.settle(repo, table, state, now, late)
            if fresh:
                await repo.reset_reminders(table.row.id)
        elif fresh or (commit.steps and owed):
            fields["deadline"] = _deadline(table, now)
            await repo.reset_reminders(table.row.id)
        elif not owed:
            fields["deadline"] = None


PACE = (60.0, 180.0)
"""Seconds a paced pre-move waits before it answers: about as long as a person would."""


def _pace(table: Table, commit: Commit) -> timedelta:
    rng = Random(f"{table.row.seed}:{commit.at}:pace")
    return timedelta(seconds=rng.uniform(*PACE))


def _others_after(commit: Commit, seat: int) -> bool:
    """Whether another seat moved after `seat`'s last move of this change (chance is no one)."""
    mine = [i for i, (s, _, _) in enumerate(commit.steps) if s == seat]
    later = commit.steps[mine[-1] + 1 :] if mine else []
    return any(s not in (seat, CHANCE) for s, _, _ in later)


async def _lapse_premoves(repo: Repo, table: Table, ended: list[Any], now: datetime) -> None:
    """Pre-moves of phases that ended are gone."""
    for seat in table.seats:
        stored = await repo.premoves(table.row.id, seat.seat)
        # A scope may name more than its phase (an auction's plant): its phase is its head.
        kept = [p for p in stored if p["scope"][:2] not in ended]
        if kept != stored:
            await repo.save_premoves(table.row.id, seat.seat, kept, now)


SHAPES: dict[Dynamics, Shape] = {"simultaneous": Rounds(), "sequential": Turns()}


def shape(table: Table) -> Shape:
    """The shape the table's game declares."""
    return SHAPES[table.game.dynamics]
