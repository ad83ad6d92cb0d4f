"""Railroad Ink on the same service as Powerline: drafts of steps, AI seats, deadlines, results."""

import pytest

from bot.service.errors import UserError
from bot.service.options import TableOptions
from tests.service.helpers import ALICE, BOB


async def _open(svc, ai: int = 1, **options):
    table = await svc.open_table(
        "railroad_ink",
        1,
        40,
        ALICE,
        "Alice",
        {"expansions": ["street_lamps"]},
        TableOptions(**options),
    )
    await svc.join(table.row.id, BOB, "Bob")
    for _ in range(ai):
        await svc.add_ai(table.row.id, ALICE, False)
    return table.row.id


async def _fill(svc, gid, uid):
    draft = await svc.draft(gid, uid)
    while not draft.can_submit:
        draft = await svc.edit_draft(gid, uid, add=svc_key(draft))
    return draft


def svc_key(draft):
    from bot.service.hosting import hosting

    return hosting("railroad_ink").planner.parse_key(draft.next_options[0][1])


async def test_a_whole_railroad_ink_game_through_the_service(world):
    svc, _, _ = world
    gid = await _open(svc)
    table = await svc.start(gid, ALICE, False)
    assert table.state.phase == "plan" and table.state.plans[2] is not None  # the AI planned
    draft = await svc.draft(gid, ALICE)
    assert draft.next_options and "→" in draft.next_options[0][0]
    while table.row.status == "active":
        for uid in (ALICE, BOB):
            await _fill(svc, gid, uid)
            table, _ = await svc.submit(gid, uid)
    assert table.game.is_over(table.state) and table.state.round == 6
    rows = await svc.results_of(gid)
    assert [r["seat"] for r in rows] == [0, 1, 2] and rows[2]["is_ai"]
    assert [r["score"] for r in rows] == [o["score"] for o in table.game.outcome(table.state)]


async def test_railroad_ink_steps_are_judged_by_the_engine(world):
    svc, _, _ = world
    gid = await _open(svc, ai=0)
    await svc.start(gid, ALICE, False)
    with pytest.raises(UserError, match=r"There is no|malformed"):
        await svc.edit_draft(
            gid, ALICE, add={"step": "draw", "die": "route9", "cell": "Z9", "orientation": 0}
        )
    draft = await svc.draft(gid, ALICE)
    first = draft.next_options[0]
    after = await svc.edit_draft(gid, ALICE, add=svc_key(draft))
    # The choice reads "route die 1 (railway straight) → D1, …"; the draft then says it as the
    # board's preview does: "R1 railway straight at D1, …".
    step = after.steps[0]
    tag, cell = f"R{step['die'][-1]}", step["cell"]
    assert first[0].startswith(f"route die {step['die'][-1]} (") and f"→ {cell}, " in first[0]
    (line,) = after.lines
    assert line.startswith(f"{tag} ") and f" at {cell}, " in line
    assert line.split(", ", 1)[1] == first[0].split(", ", 1)[1], "the same route ends"
    assert len(after.steps) == 1
    assert (await svc.edit_draft(gid, ALICE, undo=True)).steps == []
    with pytest.raises(UserError):
        await svc.edit_draft(gid, ALICE, vacation=True)


async def test_a_railroad_ink_deadline_lets_the_autopilot_plan(world):
    svc, clock, _ = world
    gid = await _open(svc, ai=0, deadline_minutes=30)
    await svc.start(gid, ALICE, False)
    clock.advance(minutes=31)
    await svc.tick()
    table = await svc.table(gid)
    assert table.state.round == 2 and [s.timeouts for s in table.seats] == [1, 1]
