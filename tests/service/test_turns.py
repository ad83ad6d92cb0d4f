"""Turn-based tables through the service (Power Grid): moves, refusals, stale panels, pre-moves,
per-turn deadlines and timeouts."""

from datetime import timedelta

import pytest

from bot.service.errors import UserError
from bot.service.options import TableOptions
from engine import registry
from engine.power_grid import autopilot
from tests.service.helpers import ALICE, BOB, CARL

NAMES = {ALICE: "Alice", BOB: "Bob", CARL: "Carl"}


def _owed(state) -> set[int]:
    return registry.get("power_grid").to_act(state)


async def _game(svc, people=(ALICE, BOB, CARL), **config):
    table = await svc.open_table(
        "power_grid", 1, 10, ALICE, "Alice", {"hidden_money": True, **config}, TableOptions()
    )
    for uid in people[1:]:
        await svc.join(table.row.id, uid, NAMES[uid])
    await svc.start(table.row.id, ALICE, False)
    return table.row.id


async def _mover(svc, gid) -> int:
    table = await svc.table(gid)
    return next(s.user_id for s in table.waiting_for())


async def _play(svc, gid, until) -> None:
    """Everyone plays the autopilot's move until `until(state)` holds."""
    while not until((table := await svc.table(gid)).state):
        uid = await _mover(svc, gid)
        seat = table.seat_of(uid).seat
        action = autopilot.choose(table.game.view(table.state, seat), seat)
        await svc.act(gid, uid, action.model_dump(mode="json", by_alias=True))


async def test_only_the_seat_to_act_moves_and_a_stale_panel_is_refused(world):
    svc, _, _ = world
    gid = await _game(svc)
    mover = await _mover(svc, gid)
    other = next(u for u in (ALICE, BOB, CARL) if u != mover)
    with pytest.raises(UserError, match=r"It is not your turn in Power Grid game #\d+: waiting"):
        await svc.act(gid, other, {"type": "pick_region", "region": "green"})
    turn = await svc.turn(gid, mover)
    assert {a["type"] for a in turn.legal} == {"pick_region"}
    _, text, _ = await svc.act(gid, mover, turn.legal[0], turn.turn)
    assert text == f"picked the {turn.legal[0]['region']} region"
    mover_seat = (await svc.table(gid)).seat_of(mover).seat

    await _play(svc, gid, lambda state: mover_seat in _owed(state))
    fresh = await svc.turn(gid, mover)
    with pytest.raises(UserError, match=r"This panel of Power Grid game #\d+ is out of date"):
        await svc.act(gid, mover, fresh.legal[-1], turn.turn)
    with pytest.raises(UserError, match=r"That action is malformed"):
        await svc.act(gid, mover, {"type": "fly"})
    assert (await svc.turn(gid, mover)).turn == fresh.turn, "refusals changed nothing"


async def test_pre_moves_pass_the_auction_and_skip_buying_then_lapse(world):
    svc, _, _ = world
    gid = await _game(svc)
    await _play(svc, gid, lambda s: s.round == 2 and s.phase == "auction")
    table = await svc.table(gid)
    async with svc.repo.reading() as repo:
        start = len(await repo.actions(gid))
    assert await svc.set_premove(gid, BOB, "auction", True) == ["auction"]
    assert await svc.set_premove(gid, CARL, "resources", True) == ["resources"]
    await svc.set_premove(gid, CARL, "resources", False)
    assert await svc.set_premove(gid, CARL, "resources", True) == ["resources"]
    with pytest.raises(UserError, match="There is no such pre-move"):
        await svc.set_premove(gid, ALICE, "build", True)
    bob = table.seat_of(BOB).seat
    carl = table.seat_of(CARL).seat
    await _play(svc, gid, lambda s: s.round == 2 and s.phase == "build")
    async with svc.repo.reading() as repo:
        log = await repo.actions(gid)
    since = log[start:]
    assert any(seat == bob and a["type"] in ("pass", "drop") for seat, a, _ in since)
    bought = [a for seat, a, _ in since if seat == carl and a["type"] in ("buy", "done")]
    assert bought == [{"type": "done"}], "Carl bought nothing: his pre-move ended his turn"
    _, _, left = await svc.premoves(gid, CARL)
    assert left == [], "the pre-move lapsed with its phase"
    moves = await svc.recent_moves(gid, 20)
    assert any(m["seat"] == carl and m["text"] == "finished buying" for m in moves)


async def test_a_turn_deadline_times_out_to_the_autopilot(world):
    svc, clock, _ = world
    gid = await _game(svc)
    table = await svc.table(gid)
    assert table.row.deadline is not None
    waiting = await _mover(svc, gid)
    clock.advance(minutes=24 * 60 + 1)
    assert await svc.tick() == 1
    after = await svc.table(gid)
    assert await _mover(svc, gid) != waiting or after.state != table.state
    async with svc.repo.reading() as repo:
        assert (await repo.actions(gid))[-1][2] in ("timeout", "ai", "chance")
        timeouts = await repo.recent(gid, "timeout", 1)
    assert timeouts and timeouts[0]["seats"] == [table.seat_of(waiting).seat]
    assert after.row.deadline > clock.now() + timedelta(hours=23)


async def _buyer(svc, gid):
    """Play on until a seat in resource buying can buy something; its user and turn."""

    def can_buy(state) -> bool:
        if state.phase != "resources":
            return False
        (seat,) = _owed(state)
        return any(a.type == "buy" for a in registry.get("power_grid").legal_actions(state, seat))

    await _play(svc, gid, can_buy)
    uid = await _mover(svc, gid)
    return uid, await svc.turn(gid, uid)


async def test_undo_takes_back_a_buy_only_while_its_buyer_is_still_on_turn(world):
    svc, _, _ = world
    gid = await _game(svc)
    uid, turn = await _buyer(svc, gid)
    before = await svc.table(gid)
    assert turn.undo is None, "nothing of this seat's to take back at the start of its turn"
    buy = next(a for a in turn.legal if a["type"] == "buy")
    _, text, after = await svc.act(gid, uid, buy, turn.turn)
    assert after is not None and after.undo == text
    table, took, back = await svc.undo(gid, uid, after.turn)
    assert took == text and back.undo is None and back.turn == turn.turn
    assert table.game.dump_state(table.state) == before.game.dump_state(before.state)
    moves = await svc.recent_moves(gid, 3)
    assert moves[-1]["text"] == f"took back a move ({text})"
    with pytest.raises(UserError, match="There is no move of yours to take back"):
        await svc.undo(gid, uid)
    _, _, again = await svc.act(gid, uid, buy)
    assert again is not None and again.undo
    await svc.act(gid, uid, {"type": "done"})
    with pytest.raises(UserError, match="It is not your turn"):
        await svc.undo(gid, uid)


async def test_a_move_that_keeps_its_seat_on_turn_redraws_its_panel_and_notifies_no_one(world):
    svc, _, _ = world
    gid = await _game(svc)
    uid, turn = await _buyer(svc, gid)
    seat = (await svc.table(gid)).seat_of(uid).seat
    async with svc.repo.reading() as repo:
        seen = len(await repo.pending(limit=10_000))
    await svc.act(gid, uid, next(a for a in turn.legal if a["type"] == "buy"), turn.turn, via=7)
    async with svc.repo.reading() as repo:
        queued = [
            (kind, payload) for _, _, kind, payload, _ in (await repo.pending(limit=10_000))[seen:]
        ]
    assert ("panel", {"seat": seat, "at": turn.turn + 1, "via": 7}) in queued
    assert not [p for kind, p in queued if kind == "turn"], queued
    await svc.act(gid, uid, {"type": "done"})
    async with svc.repo.reading() as repo:
        later = [
            (k, p) for _, _, k, p, _ in (await repo.pending(limit=10_000))[seen + len(queued) :]
        ]
    turns = [p["seat"] for kind, p in later if kind == "turn"]
    assert turns and seat not in turns, "the turn went on to someone else, who is told"


async def test_a_timeout_finishes_the_late_seat_s_whole_step_and_says_what_it_did(world):
    svc, clock, _ = world
    gid = await _game(svc)
    uid, _ = await _buyer(svc, gid)
    seat = (await svc.table(gid)).seat_of(uid).seat
    clock.advance(minutes=24 * 60 + 1)
    assert await svc.tick() == 1
    table = await svc.table(gid)
    assert seat not in _owed(table.state) or table.state.phase != "resources"
    async with svc.repo.reading() as repo:
        (timeout,) = await repo.recent(gid, "timeout", 1)
    words = timeout["said"][str(seat)]  # JSON keys are text
    assert words and words[-1] == "finished buying", words


async def test_pre_moves_tell_the_truth(world):
    svc, _, _ = world
    gid = await _game(svc)
    with pytest.raises(UserError, match="was not set"):
        await svc.set_premove(gid, BOB, "resources", False)
    with pytest.raises(UserError, match="round 1"):
        await svc.set_premove(gid, BOB, "auction", True)


async def test_standing_orders_buy_the_fuel_needed_and_pass_auctions_below_a_plant(world):
    svc, _, _ = world
    gid = await _game(svc)
    await _play(svc, gid, lambda s: s.round == 2 and s.phase == "auction")
    table = await svc.table(gid)
    async with svc.repo.reading() as repo:
        start = len(await repo.actions(gid))
    with pytest.raises(UserError, match="lowest plant number"):
        await svc.set_premove(gid, BOB, "auction_unless", True)
    await svc.set_premove(gid, BOB, "auction_unless", True, 99)
    await svc.set_premove(gid, CARL, "fuel", True)
    bob, carl = table.seat_of(BOB).seat, table.seat_of(CARL).seat
    asked = []
    while not ((table := await svc.table(gid)).state.round == 2 and table.state.phase == "build"):
        uid = await _mover(svc, gid)
        asked.append((uid, table.state.phase))
        seat = table.seat_of(uid).seat
        action = autopilot.choose(table.game.view(table.state, seat), seat)
        await svc.act(gid, uid, action.model_dump(mode="json", by_alias=True))
    assert (BOB, "auction") not in asked and (CARL, "resources") not in asked, asked
    async with svc.repo.reading() as repo:
        since = (await repo.actions(gid))[start:]
    assert any(seat == bob and a["type"] in ("pass", "drop") for seat, a, _ in since)
    carls = [a["type"] for seat, a, _ in since if seat == carl and a["type"] in ("buy", "done")]
    assert carls[-1] == "done", carls
