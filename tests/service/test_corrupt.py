"""A corrupt game fails alone: its players' other games stay listed and reachable."""

from bot.service.options import TableOptions
from tests.service.helpers import ALICE, BOB


async def _started(svc, game: str, channel: int) -> int:
    options = TableOptions(max_players=2)
    table = await svc.open_table(game, 1, channel, ALICE, "Alice", {}, options)
    await svc.join(table.row.id, BOB, "Bob")
    await svc.start(table.row.id, ALICE, False)
    return table.row.id


async def test_a_corrupt_snapshot_leaves_the_other_games_reachable(world) -> None:
    svc, _, _ = world
    broken = await _started(svc, "power_grid", 10)
    healthy = await _started(svc, "propeller_islands", 11)
    async with svc.repo.transaction() as repo:
        await repo.execute("UPDATE games SET snapshot = ? WHERE id = ?", ("{not a state", broken))
    mine = await svc.games_of(ALICE, guild_id=None)
    assert [t.row.id for t in mine] == [healthy]
    picked = await svc.pick_game(BOB, healthy, guild_id=None)
    assert picked.row.id == healthy
