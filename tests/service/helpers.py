"""Helpers of the service tests: people, a table with them, and a filled draft."""

from bot.games.powerline.words import parse_key
from bot.service.options import TableOptions

ALICE, BOB, CARL = 100, 101, 102


async def open_table_with(svc, players=(ALICE, BOB), ai=0, **options):
    table = await svc.open_table(
        "powerline", 1, 10, ALICE, "Alice", {"variants": []}, TableOptions(**options)
    )
    for uid in players[1:]:
        await svc.join(table.row.id, uid, f"user{uid}")
    for _ in range(ai):
        await svc.add_ai(table.row.id, ALICE, False)
    return table.row.id


async def fill_draft(svc, gid, uid):
    """Fill the draft with the last offered placement until it can be submitted."""
    draft = await svc.draft(gid, uid)
    while not draft.can_submit:
        draft = await svc.edit_draft(gid, uid, add=parse_key(draft.next_options[-1][1]))
    return draft
