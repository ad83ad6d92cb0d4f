"""Running a tournament on the game service: registration, heats, semifinal, final.

Games are ordinary tables created through the `Service`; their results rows are the summary
sheets, so nothing is handed in by hand. Rolls of the last seeding tiebreak are stored.
"""

from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass
from datetime import datetime
from random import Random
from typing import Any

from bot.service.errors import UserError
from bot.service.hosting import hosting
from bot.service.options import TableOptions
from bot.service.service import Service
from bot.service.tournament.access import organiser_only, tournament
from bot.service.tournament.checkins import CheckIns, heat_words, stage_of
from bot.service.tournament.config import FORMAT_NAMES, check_config, check_pods
from bot.service.tournament.models import DONE, HeatGame, SeatResult
from bot.service.tournament.rounds import Rounds
from bot.service.tournament.seeding import (
    Roll,
    Seeding,
    final_field,
    replay,
    seed_semifinal,
    semifinal_size,
)
from bot.service.tournament.tables import assign_tables, form_tables
from bot.store.tournaments import TournamentRow, TournamentsRepo

Place = Callable[[str, list[int]], Awaitable[tuple[int, int | None]]]
"""Makes a place for a table (label, its players → channel id, thread id); the Discord layer
makes a thread and adds the players to it."""


@dataclass(frozen=True, slots=True)
class StageTable:
    """One table of a stage as its post shows it."""

    table_no: int
    game_id: int
    thread_id: int | None
    players: list[str]
    winner: str | None
    """The winner's name once the game has ended (or was adjudicated)."""
    status: str
    """Where the game stands while it runs ("round 3 of 15")."""


@dataclass(frozen=True, slots=True)
class Event:
    """How a tournament runs beyond its game: its format and pod sizes, its start, its roles."""

    format: str = "wbc"
    """"wbc" (heats, semifinal, final), "swiss" or "round_robin"."""
    pods: list[int] | None = None
    starts_at: datetime | None = None
    signup_role_id: int | None = None
    champion_role_id: int | None = None


class Tournaments(CheckIns, Rounds):
    """Tournament commands as transactions on the same database as the games."""

    def __init__(self, service: Service) -> None:
        self.svc = service
        self.repo = service.repo
        # On the same Repo, so its statements run in whichever block of self.repo is open.
        self.store = TournamentsRepo(service.repo)

    async def _one(self, tid: int) -> TournamentRow:
        return await tournament(self.store, tid)

    async def get(self, tid: int, guild_id: int | None = None) -> TournamentRow:
        """The tournament; with `guild_id`, only if it belongs to that server."""
        async with self.repo.reading():
            t = await self._one(tid)
        if guild_id is not None and t.guild_id != guild_id:
            raise UserError(f"There is no tournament #{tid} in this server.")
        return t

    async def create(
        self,
        guild_id: int,
        channel_id: int,
        organiser_id: int,
        name: str,
        game: str,
        heats: int,
        config: dict[str, Any],
        options: TableOptions,
        seed: int,
        event: Event | None = None,
    ) -> TournamentRow:
        """A tournament in registration; `config` is every table's engine config (see
        `tournament.config.tournament_config`), refused here if the engine would refuse it.
        `heats` counts the heats of the WBC format, the rounds of the others."""
        event = event or Event()
        plugin = hosting(game)
        if event.format == "wbc" and not 1 <= heats <= 3:
            raise UserError("A tournament has 1 to 3 heats.")
        if event.format not in FORMAT_NAMES:
            raise UserError(f"There is no tournament format “{event.format}”.")
        if event.format != "wbc":
            check_pods(event.pods or [], plugin)
            if event.format == "round_robin" and len(event.pods or []) != 1:
                raise UserError("A round robin seats every table alike: give one pod size.")
            if not 1 <= heats <= 12:
                raise UserError("A Swiss or round-robin event has 1 to 12 rounds.")
        check_config(plugin, config)
        async with self.repo.transaction():
            tid = await self.store.insert_tournament(
                guild_id,
                channel_id,
                game,
                name,
                organiser_id,
                heats,
                config,
                options.model_dump(),
                seed,
                self.svc.clock.now(),
            )
            await self.store.update(
                tid,
                format=event.format,
                pods=event.pods if event.format != "wbc" else None,
                signup_role_id=event.signup_role_id,
                champion_role_id=event.champion_role_id,
                starts_at=event.starts_at,
            )
            return await self._one(tid)

    async def set_event(self, tid: int, event_id: int) -> None:
        """Remember the server's scheduled event made for the tournament."""
        async with self.repo.transaction():
            await self.store.update(tid, event_id=event_id)

    async def register(
        self, tid: int, user_id: int, name: str, on: bool = True, roles: Collection[int] = ()
    ) -> int:
        """(Un)register a person (who holds `roles`) for the heats or rounds still to come;
        returns how many are registered."""
        async with self.repo.transaction():
            t = await self._one(tid)
            rounds = "round" if t.format != "wbc" else "heat"
            if t.stage not in ("registration", "heat") or t.heats_started >= t.heats:
                raise UserError(f"Registration is closed: every {rounds} has started.")
            if on and t.signup_role_id is not None and t.signup_role_id not in roles:
                raise UserError(
                    f"Sign-up for {t.name} is open to members with the <@&{t.signup_role_id}> role."
                )
            if t.format != "wbc" and t.heats_started and on:
                raise UserError(f"{t.name} has started: a Swiss or round-robin field is fixed.")
            if on and user_id in await self.store.withdrawn(tid):
                raise UserError(f"You withdrew from {t.name}.")
            if on:
                await self.store.add_player(tid, user_id, name, self.svc.clock.now())
            else:
                await self.store.remove_player(tid, user_id)
            return await self.store.player_count(tid)

    async def players(self, tid: int) -> dict[int, str]:
        return await self.store.players(tid)

    def _organiser(self, t: TournamentRow, by: int, moderator: bool) -> None:
        organiser_only(t, by, moderator)

    async def start_heat(
        self, tid: int, by: int, moderator: bool, place: Place, check: bool = False
    ) -> list[int]:
        """Seat every present player (WBC: at tables of 5, then 4 or 6; Swiss and round robin:
        paired in pods) and start the games (with `check`, only refuse what would be refused,
        and start nothing)."""
        t = await self.get(tid)
        self._organiser(t, by, moderator)
        kind = "heats" if t.format == "wbc" else "rounds"
        if t.heats_started >= t.heats:
            raise UserError(f"All {t.heats} {kind} have started.")
        if t.heats_started and not await self._stage_done(tid, "heat", t.heats_started):
            raise UserError(f"{heat_words(t, t.heats_started).capitalize()} is still being played.")
        heat = t.heats_started + 1
        stage = stage_of(t, "heat", heat)
        names = await self.store.players(tid, active=True)
        window = await self.store.check_in_row(tid, "heat", heat)
        if window is None and len(names) < 3:
            raise UserError(f"{stage.words.capitalize()} needs at least 3 registered players.")
        if window is not None:
            present = await self.store.present(tid, "heat", heat) & set(names)
            if len(present) < 3:
                raise UserError(
                    f"{stage.words.capitalize()} needs at least 3 players present: "
                    f"{len(present)} checked in."
                )
        if check:
            return []
        async with self.repo.transaction():
            absent = await self.absent(t, stage)
        players = [p for p in names if p not in absent]
        if t.format == "wbc":
            groups = assign_tables(players, form_tables(len(players)), Random(f"{t.seed}:h{heat}"))
            byes: list[int] = []
        else:
            groups, byes = await self.pair(t, heat, players)
        games = await self._start_tables(t, "heat", heat, groups, names, place)
        async with self.repo.transaction():
            for player in byes:
                await self.store.add_bye(tid, heat, player)
            await self.store.start_heat(tid, heat)
        return games

    async def _start_tables(
        self,
        t: TournamentRow,
        stage: str,
        heat: int,
        groups: list[list[int]],
        names: dict[int, str],
        place: Place,
    ) -> list[int]:
        # Tournaments refuse vacations unless their organiser allowed them.
        options = TableOptions(**{"vacations": False, **t.options, "max_players": 6})
        games = []
        for no, group in enumerate(groups, start=1):
            where = heat_words(t, heat) if stage == "heat" else stage
            channel_id, thread_id = await place(f"{t.name} · {where} · table {no}", group)
            table = await self.svc.open_table(
                t.game,
                t.guild_id,
                channel_id,
                group[0],
                names[group[0]],
                t.config,
                options,
                thread_id=thread_id,
            )
            for user in group[1:]:
                await self.svc.join(table.row.id, user, names[user])
            async with self.repo.transaction():
                await self.store.add_game(t.id, stage, heat, no, table.row.id)
            await self.svc.start(table.row.id, t.organiser_id, moderator=True)
            games.append(table.row.id)
        return games

    async def _stage_done(self, tid: int, stage: str, heat: int | None = None) -> bool:
        games = await self.store.game_ids(tid, stage, heat)
        results = [await self.result(g) for g in games]
        return bool(games) and all(r is not None for r in results)

    async def result(self, game_id: int, heat: int = 1) -> HeatGame | None:
        """A finished (or adjudicated) game as the seeding rules see it; None while it runs."""
        rows = await self.svc.results_of(game_id)
        if not rows or rows[0]["status"] not in DONE:
            return None
        # Seeding needs one rank per seat: a shared place is split by a roll seeded per game.
        rng = Random(f"{game_id}:split")
        order = sorted(rows, key=lambda r: (r["rank"], rng.random()))
        seats = [
            SeatResult(
                player=r["user_id"] if r["user_id"] is not None else -(game_id * 10 + r["seat"]),
                rank=i + 1,
                primary=r["primary_measure"],
                secondary=r["secondary_measure"],
            )
            for i, r in enumerate(order)
        ]
        return HeatGame(heat=heat, table_size=len(seats), seats=seats)

    async def stage_tables(self, tid: int, stage: str, heat: int) -> list[StageTable]:
        """The tables of one stage (one heat or round) as they stand."""
        out = []
        for row in await self.store.bracket(tid):
            if (row.stage, row.heat) != (stage, heat):
                continue
            table = await self.svc.table(row.game_id)
            result = await self.result(row.game_id, row.heat)
            names = {s.user_id: s.name for s in table.seats}
            winner = names.get(result.winner().player, "?") if result else None
            out.append(
                StageTable(
                    table_no=row.table_no,
                    game_id=row.game_id,
                    thread_id=table.row.thread_id,
                    players=[s.name for s in table.seats],
                    winner=winner,
                    status=table.game.progress(table.state).words if table.state else "",
                )
            )
        return out

    async def bracket(self, tid: int) -> list[tuple[str, int, int, int, list[str], str]]:
        """Every table so far: (stage, heat, table, game, players, status or winner)."""
        out = []
        for row in await self.store.bracket(tid):
            table = await self.svc.table(row.game_id)
            result = await self.result(row.game_id, row.heat)
            names = {s.user_id: s.name for s in table.seats}
            status = (
                f"won by {names.get(result.winner().player, '?')}"
                if result
                else table.game.progress(table.state).words
            )
            seated = [s.name for s in table.seats]
            out.append((row.stage, row.heat, row.table_no, row.game_id, seated, status))
        return out

    async def stage_results(self, tid: int, stage: str) -> list[HeatGame]:
        """The finished games of a stage as the seeding rules see them (one rank per seat)."""
        games = await self.store.stage_games(tid, stage)
        found = [await self.result(g, heat) for g, heat in games]
        return [g for g in found if g is not None]

    async def seeding(self, tid: int, absent: Collection[int] = ()) -> Seeding:
        """The semifinal seeding from the finished heats, with stored or seeded rolls; the
        `absent` (not checked in, or withdrawn) are left out and alternates fill their places."""
        t = await self.get(tid)
        games = await self.stage_results(tid, "heat")
        if not games:
            raise UserError("No heat game has finished yet.")
        gone = set(absent) | await self.store.withdrawn(tid)
        winners = {s.player for g in games for s in g.seats if s.rank == 1} - gone
        others = {s.player for g in games for s in g.seats} - winners - gone
        sizes = semifinal_size(len(winners), len(others))
        return seed_semifinal(games, sum(sizes), await self._roll(t, "semifinal"), absent=gone)

    async def _roll(self, t: TournamentRow, stage: str) -> Roll:
        stored: dict[int, list[float]] = {}
        for user, value in await self.store.rolls(t.id, stage):
            stored.setdefault(user, []).append(value)
        if stored:
            return replay(stored)
        rng = Random(f"{t.seed}:{stage}")
        return lambda player: rng.random()

    async def start_semifinal(
        self, tid: int, by: int, moderator: bool, place: Place, check: bool = False
    ) -> list[int]:
        t = await self.get(tid)
        self._organiser(t, by, moderator)
        if t.stage != "heat" or not await self._stage_done(tid, "heat", t.heats_started):
            raise UserError("The semifinal starts once every heat game has finished.")
        if check:
            return []
        async with self.repo.transaction():
            absent = await self.absent(t, stage_of(t, "semifinal", 1))
        seeding = await self.seeding(tid, absent)
        winners = {e.player for e in seeding.winners}
        sizes = semifinal_size(len(winners), len(seeding.alternates))
        groups = assign_tables(list(seeding.field), sizes, Random(f"{t.seed}:semifinal"))
        async with self.repo.transaction():
            for player, rolls in seeding.rolls.items():
                for value in rolls[-1:]:
                    await self.store.save_roll(tid, "semifinal", player, value)
            await self.store.set_stage(tid, "semifinal")
        return await self._start_tables(t, "semifinal", 1, groups, await self.players(tid), place)

    async def start_final(
        self, tid: int, by: int, moderator: bool, place: Place, check: bool = False
    ) -> int:
        t = await self.get(tid)
        self._organiser(t, by, moderator)
        if t.stage != "semifinal" or not await self._stage_done(tid, "semifinal"):
            raise UserError("The final starts once every semifinal game has finished.")
        if check:
            return 0
        async with self.repo.transaction():
            absent = await self.absent(t, stage_of(t, "final", 1))
        games = await self.stage_results(tid, "semifinal")
        try:
            field = final_field(games, await self._roll(t, "final"), absent)
        except ValueError:
            raise UserError("Too few semifinal players checked in to fill the final.") from None
        async with self.repo.transaction():
            await self.store.set_stage(tid, "final")
        started = await self._start_tables(t, "final", 1, [field], await self.players(tid), place)
        return started[0]

    async def withdraw(self, tid: int, user_id: int, by: int, moderator: bool) -> list[int]:
        """A player leaves the event (by their own choice or the organiser's): the AI finishes
        their running tables, where their seat stands as forfeited, and they are not paired
        again. Returns the games handed to the AI."""
        async with self.repo.transaction():
            t = await self._one(tid)
            if by != user_id:
                self._organiser(t, by, moderator)
            if t.stage == "finished":
                raise UserError(f"{t.name} is over.")
            if not await self.store.withdraw(tid, user_id, self.svc.clock.now()):
                who = "You are" if by == user_id else "That person is"
                raise UserError(f"{who} not playing in {t.name}.")
            running = []
            for game_id in await self.store.all_games(tid):
                table = await self.svc.table(game_id)
                seat = table.seat_of(user_id)
                if table.row.status == "active" and seat is not None:
                    running.append(game_id)
        for game_id in running:
            await self.svc.hand_to_ai(game_id, t.organiser_id, user_id, True, leaving=True)
        return running

    async def zone(self, guild_id: int) -> str | None:
        """The server's time zone (`/server hours`), None for UTC."""
        async with self.repo.reading() as repo:
            hours = await repo.server_hours(guild_id)
        return str(hours["zone"]) if hours else None

    async def bye_names(self, tid: int, heat: int) -> list[str]:
        """Who sat out a round with a bye, by name."""
        async with self.repo.reading():
            names = await self.store.players(tid)
            return [names.get(p, "?") for p in (await self.store.byes(tid)).get(heat, [])]

    async def save_post(self, tid: int, stage: str, heat: int, message_id: int) -> None:
        async with self.repo.transaction():
            await self.store.save_post(tid, stage, heat, message_id)

    async def post(self, tid: int, stage: str, heat: int) -> int | None:
        """The message of a stage's one post."""
        async with self.repo.reading():
            return await self.store.post(tid, stage, heat)

    async def place_of(self, game_id: int) -> tuple[TournamentRow, str, int] | None:
        """The tournament, stage and heat of a game; None for a game of no tournament."""
        async with self.repo.reading():
            found = await self.store.place_of_game(game_id)
            if found is None:
                return None
            tid, stage, heat = found
            return await self._one(tid), stage, heat

    async def claim_announcement(self, tid: int) -> bool:
        """True to the one caller that announces the champion, whatever processes race."""
        async with self.repo.transaction():
            return await self.store.claim_announcement(tid)

    async def champion(self, tid: int) -> int | None:
        """The champion once the last stage has finished (the tournament is then closed): the
        final's winner, or the top of a Swiss or round-robin event's standings."""
        t = await self.get(tid)
        if t.format == "wbc":
            return await self.winner(tid)
        if t.heats_started < t.heats or not await self._stage_done(tid, "heat", t.heats):
            return None
        standings = await self.swiss_standings(tid)
        async with self.repo.transaction():
            await self.store.set_stage(tid, "finished")
        return standings.rows[0].player

    async def adjudicate(self, game_id: int, by: int, moderator: bool) -> None:
        """End a game that cannot finish; a tournament's organiser may, for its own games."""
        organiser = await self.store.organiser_of_game(game_id) == by
        await self.svc.adjudicate(game_id, by, moderator or organiser)

    async def winner(self, tid: int) -> int | None:
        """The champion once the final has finished (and the tournament is closed)."""
        finals = await self.store.game_ids(tid, "final")
        result = await self.result(finals[0]) if finals else None
        if result is None:
            return None
        async with self.repo.transaction():
            await self.store.set_stage(tid, "finished")
        return result.winner().player
