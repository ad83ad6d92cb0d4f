"""Swiss and round-robin events on the service: pairing each round from the standings so far,
and the standings with their tiebreaks in words."""

from collections import Counter
from dataclasses import dataclass
from random import Random

from bot.service.service import Service
from bot.service.tournament.access import tournament
from bot.service.tournament.models import DONE
from bot.service.tournament.points import TIEBREAKS, Game, Ranking, Seat, standings
from bot.service.tournament.round_robin import replan, round_robin
from bot.service.tournament.swiss import pairs_met, swiss_round
from bot.store.tournaments import TournamentRow, TournamentsRepo

COLUMNS = ("Pts", "Opp", "Wins", "Score")
"""The standings' short headings, one per tiebreak of `points.TIEBREAKS` but the roll."""
SHORT = (
    "Pts: points by place (60 a win, 0 last)",
    "Opp: your opponents' average points",
    "Wins: games won",
    "Score: your score ÷ the table winner's",
)


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's line: their points and tiebreaks, as shown."""

    player: int
    name: str
    cells: list[str]
    """One per column of `Standings.columns`."""
    withdrawn: bool


@dataclass(frozen=True, slots=True)
class Standings:
    """An event's standings in order, with what each column means."""

    rows: list[Standing]
    columns: list[str]
    """Short headings: the points, then each tiebreak."""
    words: list[str]
    """Each column in a sentence, in the order they decide."""
    short: list[str]
    """Each heading explained in a few words, for the image's note."""
    rounds_done: int


class Rounds:
    """The rounds of Swiss and round-robin events, on the tournament tables."""

    svc: Service
    store: TournamentsRepo

    async def _games(self, t: TournamentRow) -> list[Game]:
        """Every finished table of the event's rounds, as the points see it: places the game
        could not separate are shared; a seat its player left is a forfeit."""
        out = []
        for game_id, heat in await self.store.stage_games(t.id, "heat"):
            rows = await self.svc.results_of(game_id)
            if not rows or rows[0]["status"] not in DONE:
                continue
            seats = []
            for r in rows:
                place = 1 + sum(1 for o in rows if o["rank"] < r["rank"])
                player = r["user_id"] if r["user_id"] is not None else -(game_id * 10 + r["seat"])
                seats.append(
                    Seat(player, place, float(r["primary_measure"] or 0), bool(r["left_game"]))
                )
            out.append(Game(round=heat, seats=tuple(seats)))
        return out

    async def ranking(self, t: TournamentRow, games: list[Game]) -> Ranking:
        """The standings over the finished tables `games` (`_games`), everyone registered
        included."""
        byes = await self.store.byes(t.id)
        players = set(await self.store.players(t.id))
        ranking = standings(games, byes, Random(f"{t.seed}:roll"), players)
        # The AI seats of a table (none are registered) take no place in the standings.
        return Ranking(rows=tuple(r for r in ranking.rows if r.player in players))

    async def pair(
        self, t: TournamentRow, heat: int, players: list[int]
    ) -> tuple[list[list[int]], list[int]]:
        """The tables and byes of round `heat` for the `players` present."""
        rng = Random(f"{t.seed}:r{heat}")
        pods = t.pods or [4]
        if t.format == "round_robin":
            return await self._scheduled(t, heat, players, pods[0])
        games = await self._games(t)
        ranking = await self.ranking(t, games)
        order = [r.player for r in ranking.rows if r.player in players]
        order += [p for p in players if p not in order]
        met = pairs_met([s.player for s in game.seats] for game in games)
        had_bye = {p for ps in (await self.store.byes(t.id)).values() for p in ps}
        points = {r.player: float(r.points) for r in ranking.rows}
        made = swiss_round(order, met, had_bye, pods, pods[0], rng, points)
        return made.tables, made.byes

    async def _scheduled(
        self, t: TournamentRow, heat: int, players: list[int], size: int
    ) -> tuple[list[list[int]], list[int]]:
        """Round `heat` of the round robin planned for everyone registered, re-planned without
        those who withdrew; an absent player's table plays without them."""
        everyone = list(await self.store.players(t.id))
        schedule = round_robin(everyone, size, Random(f"{t.seed}:schedule"), t.heats)
        gone = await self.store.withdrawn(t.id)
        if gone:
            schedule = replan(schedule, heat - 1, gone, size, Random(f"{t.seed}:r{heat}"))
        planned = schedule[heat - 1]
        present = set(players)
        tables = [[p for p in table if p in present] for table in planned.tables]
        byes = [p for p in planned.byes if p in present]
        for table in tables:
            if len(table) < 2:
                byes += table
        return [table for table in tables if len(table) >= 2], byes

    async def swiss_standings(self, tid: int) -> Standings:
        """The standings of a Swiss or round-robin event, with each tiebreak in words."""
        t = await tournament(self.store, tid)
        games = await self._games(t)
        ranking = await self.ranking(t, games)
        names = await self.store.players(tid)
        withdrawn = await self.store.withdrawn(tid)
        played = Counter(game.round for game in games)
        tables = Counter(heat for _, heat in await self.store.stage_games(tid, "heat"))
        done = [heat for heat, n in tables.items() if played[heat] == n]
        rows = [
            Standing(
                player=r.player,
                name=names.get(r.player, "?"),
                cells=[
                    f"{float(r.points):g}",
                    f"{float(r.opponents):.1f}",
                    str(r.wins),
                    f"{r.score:.2f}",
                ],
                withdrawn=r.player in withdrawn,
            )
            for r in ranking.rows
        ]
        return Standings(
            rows=rows,
            columns=list(COLUMNS),
            words=[f"{name.capitalize()}: {words}" for name, words in TIEBREAKS],
            short=list(SHORT),
            rounds_done=max(done, default=0),
        )
