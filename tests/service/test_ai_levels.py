"""AI seats keep the level the host chose: in the seat's row and in the rematch."""

import pytest

from bot.service.errors import UserError
from tests.service.helpers import ALICE, BOB, open_table_with


async def test_an_ai_seat_keeps_its_level_into_the_rematch(world):
    svc, _, _ = world
    gid = await open_table_with(svc, (ALICE, BOB))
    with pytest.raises(UserError) as refused:
        await svc.add_ai(gid, ALICE, False, "genius")
    assert refused.value.message == "There is no 'genius' AI: choose casual, standard or strong."
    await svc.add_ai(gid, ALICE, False, "strong")
    await svc.add_ai(gid, ALICE, False, "casual")
    table = await svc.table(gid)
    assert [(s.name, s.ai_level) for s in table.seats] == [
        ("Alice", None),
        ("user101", None),
        ("AI 1", "strong"),
        ("AI 2", "casual"),
    ]
    await svc.start(gid, ALICE, False)
    for uid in (ALICE, BOB):
        await svc.hand_to_ai(gid, uid, uid, False, leaving=False)
    # The seats the AI took over play at standard, as the autopilot does; the lobby's keep theirs.
    table = await svc.table(gid)
    assert table.row.status == "finished"
    assert [s.ai_level for s in table.seats] == [None, None, "strong", "casual"]
    fresh = await svc.rematch(gid, ALICE, "Alice")
    assert [(s.user_id, s.ai_level) for s in fresh.seats] == [
        (ALICE, None),
        (BOB, None),
        (None, "strong"),
        (None, "casual"),
    ]
