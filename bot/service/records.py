"""What games leave: results, ratings, leaderboards, statistics and the replay export."""

import json
from collections.abc import Iterable
from typing import Any

from bot.service import results
from bot.service.reliability import Reliability, reliability_of
from bot.service.tables import Table, Tables
from bot.store.repo import ResultsRepo
from engine.core import public_log


class Records(Tables):
    """Reading results and replays."""

    async def record_start(self, version: str, shards: str) -> None:
        """A process started, with its version and shards (the `starts` history)."""
        async with self.repo.transaction() as repo:
            await repo.record_start(self.clock.now(), version, shards)

    async def leaderboard(
        self, game: str, scope: int, page: int, per_page: int = 10
    ) -> tuple[list[dict[str, Any]], int]:
        """One page of a scope's leaderboard (scope 0: all servers) and the number of people."""
        async with self.repo.reading() as repo:
            return await ResultsRepo(repo).leaderboard(scope, game, per_page, page * per_page)

    async def rebuild_ratings(self, game: str, scope: int) -> int:
        async with self.repo.transaction() as repo:
            return await results.rebuild(repo, game, scope)

    async def player_stats(self, game: str, scope: int, user_id: int) -> dict[str, Any]:
        """A person's rating history, recent games and favourite variants."""
        async with self.repo.reading() as repo:
            store = ResultsRepo(repo)
            history = await store.history(scope, game, user_id)
            recent = await store.player_games(user_id, game, 200)
        variants: dict[str, int] = {}
        for row in recent:
            key = ", ".join(json.loads(row["variants"])) or "base game"
            variants[key] = variants.get(key, 0) + 1
        favourite = sorted(variants.items(), key=lambda kv: (-kv[1], kv[0]))
        return {"history": history, "recent": recent[:10], "variants": favourite[:3]}

    async def reliability(self, users: Iterable[int]) -> dict[int, Reliability]:
        """Each person's reliability over their last games that ended, in one query."""
        async with self.repo.reading() as repo:
            return await reliability_of(repo, users)

    async def solo_scores(self, game: str, guild_id: int | None, limit: int = 10) -> list[dict]:
        async with self.repo.reading() as repo:
            return await ResultsRepo(repo).solo_scores(game, guild_id, limit)

    async def results_of(self, game_id: int) -> list[dict[str, Any]]:
        async with self.repo.reading() as repo:
            return await ResultsRepo(repo).of_game(game_id)

    async def with_log(self, game_id: int) -> tuple[Table, list[tuple[int, dict[str, Any], str]]]:
        """The game and its whole action log, read together (for replays: never out of step)."""
        async with self.repo.reading() as repo:
            return await self._table(game_id), await repo.actions(game_id)

    async def export(self, game_id: int, user_id: int | None) -> dict[str, Any]:
        """The game's replay as a document for `user_id`: while it runs, each action as that
        person may know it (public moves, their own secrets, chance once public); once it has
        ended, the whole log with its seed."""
        async with self.repo.reading() as repo:
            table = await self._table(game_id)
            actions = await repo.actions(game_id)
        game, row = table.game, table.row
        doc: dict[str, Any] = {"game": row.game, "id": row.id, "config": row.config}
        if row.status == "lobby":
            # The seed would predict every roll of the game about to start.
            doc["actions"] = []
            return doc
        if row.status != "active":
            doc["actions"] = [{"seat": s, "action": a, "source": src} for s, a, src in actions]
            doc["seed"] = row.seed
            return doc
        seated = table.seat_of(user_id) if user_id is not None else None
        viewer = seated.seat if seated else None
        config = game.Config(**row.config)
        shown = public_log(
            game,
            config,
            row.seed,
            [(seat, action) for seat, action, _ in actions],
            table.state,
            viewer,
        )
        doc["viewer"] = viewer
        doc["hidden"] = game.hidden(config)
        doc["view"] = game.view(table.state, viewer)
        doc["actions"] = [
            {"seat": seat, "action": action, "source": source}
            for (seat, _, source), action in zip(actions, shown, strict=True)
        ]
        return doc
