"""Running a tournament on the game service: registration, heats, semifinal, final.

Games are ordinary tables created through the `Service`; their results rows are the summary
sheets, so nothing is handed in by hand. Rolls of the last seeding tiebreak are stored.
"""

from collections.abc import Awaitable, Callable
from random import Random
from typing import Any

from bot.service.errors import UserError
from bot.service.hosting import hosting
from bot.service.options import TableOptions
from bot.service.service import Service
from bot.service.tournament.config import check_config
from bot.service.tournament.models import HeatGame, SeatResult
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

Place = Callable[[str], Awaitable[tuple[int, int | None]]]
"""Makes a place for a table (label → channel id, thread id); the Discord layer makes threads."""

DONE = ("finished", "adjudicated")


class Tournaments:
    """Tournament commands as transactions on the same database as the games."""

    def __init__(self, service: Service) -> None:
        self.svc = service
        self.repo = service.repo
        # On the same Repo, so its statements run in whichever block of self.repo is open.
        self.store = TournamentsRepo(service.repo)

    async def _one(self, tid: int) -> TournamentRow:
        t = await self.store.tournament(tid)
        if t is None:
            raise UserError(f"There is no tournament #{tid}.")
        return t

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
    ) -> TournamentRow:
        """A tournament in registration; `config` is every table's engine config (see
        `tournament.config.tournament_config`), refused here if the engine would refuse it."""
        if not 1 <= heats <= 3:
            raise UserError("A tournament has 1 to 3 heats.")
        check_config(hosting(game), config)
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
            return await self._one(tid)

    async def register(self, tid: int, user_id: int, name: str, on: bool = True) -> int:
        """(Un)register a person for the heats still to come; returns how many are registered."""
        async with self.repo.transaction():
            t = await self._one(tid)
            if t.stage not in ("registration", "heat") or t.heats_started >= t.heats:
                raise UserError("Registration is closed: every heat has started.")
            if on:
                await self.store.add_player(tid, user_id, name, self.svc.clock.now())
            else:
                await self.store.remove_player(tid, user_id)
            return await self.store.player_count(tid)

    async def players(self, tid: int) -> dict[int, str]:
        return await self.store.players(tid)

    def _organiser(self, t: TournamentRow, by: int, moderator: bool) -> None:
        if by != t.organiser_id and not moderator:
            raise UserError("Only the organiser or a moderator can do that.")

    async def start_heat(
        self, tid: int, by: int, moderator: bool, place: Place, check: bool = False
    ) -> list[int]:
        """Seat every registered person at tables of 5 (then 4 or 6) and start the games (with
        `check`, only refuse what would be refused, and start nothing)."""
        t = await self.get(tid)
        self._organiser(t, by, moderator)
        if t.heats_started >= t.heats:
            raise UserError(f"All {t.heats} heats have started.")
        if t.heats_started and not await self._stage_done(tid, "heat", t.heats_started):
            raise UserError(f"Heat {t.heats_started} is still being played.")
        players = await self.players(tid)
        heat = t.heats_started + 1
        if len(players) < 3:
            raise UserError("A heat needs at least 3 registered players.")
        if check:
            return []
        groups = assign_tables(
            list(players), form_tables(len(players)), Random(f"{t.seed}:h{heat}")
        )
        games = await self._start_tables(t, "heat", heat, groups, players, place)
        async with self.repo.transaction():
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
            channel_id, thread_id = await place(f"{t.name} · {stage} {heat} · table {no}")
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

    async def seeding(self, tid: int) -> Seeding:
        """The semifinal seeding from the finished heats, with stored or seeded rolls."""
        t = await self.get(tid)
        games = await self.stage_results(tid, "heat")
        if not games:
            raise UserError("No heat game has finished yet.")
        winners = {s.player for g in games for s in g.seats if s.rank == 1}
        others = {s.player for g in games for s in g.seats} - winners
        sizes = semifinal_size(len(winners), len(others))
        return seed_semifinal(games, sum(sizes), await self._roll(t, "semifinal"))

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
        seeding = await self.seeding(tid)
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
        games = await self.stage_results(tid, "semifinal")
        field = final_field(games, await self._roll(t, "final"))
        async with self.repo.transaction():
            await self.store.set_stage(tid, "final")
        started = await self._start_tables(t, "final", 1, [field], await self.players(tid), place)
        return started[0]

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
