"""Doing: carrying out an accepted action, the auto-steps after it, and `apply`."""

from engine.core import CHANCE, IllegalAction
from engine.propeller_islands import actions as A
from engine.propeller_islands.components import blueprints, rules, tiles
from engine.propeller_islands.effects import (
    deploy_worker,
    depot_benefit,
    gain,
    gain_fame,
    pay_reward,
    place_tile,
    refill,
    use_effect,
)
from engine.propeller_islands.flow import VERBS, WHAT, Ctx, expecting, waiting
from engine.propeller_islands.island import any_value, banner_links, cell_at, level
from engine.propeller_islands.legal import first
from engine.propeller_islands.refusals import problem, use_problem
from engine.propeller_islands.state import Bonus, State, Task, Turn


def _setup(ctx: Ctx, a: A.Action) -> None:
    s = ctx.s
    n = s.config.players
    if a.type == "start_player":
        s.start_player = a.seat
    elif a.type == "deal_characters":
        for seat, entry in enumerate(a.characters):
            p = ctx.p(seat)
            if isinstance(entry, str):
                p.character = entry
            else:
                p.dealt = list(entry)
    elif a.type == "shuffle_tiles":
        s.offer = list(a.order[:12])
        s.stack = list(a.order[12:])
    else:
        s.bp_offer[a.level] = list(a.order[:3])
        s.bp_stack[a.level] = list(a.order[3:])
    s.setup_step += 1
    if s.setup_step < 5:
        return
    for i in range(n):
        p = ctx.p((s.start_player + i) % n)
        p.hand = [s.bp_stack["I"].pop(0), s.bp_stack["I"].pop(0), s.bp_stack["II"].pop(0)]
    s.phase = "keep_character" if s.config.character_deal == 2 else "start_tiles"
    s.order_index = 0


def _roll(ctx: Ctx, a: A.Roll) -> None:
    s = ctx.s
    for v in a.dice:
        s.forge[v - 1] += 1
    cap = rules().max_dice_per_value
    over = [v for v in range(6) if s.forge[v] > cap]
    if over:
        s.dice_to_roll = s.forge[over[0]] - cap
        s.forge[over[0]] = cap
        return
    s.dice_to_roll = 0
    s.phase = "turns"
    s.order_index = 0
    s.turn = Turn(s.start_player)


def _die_to_dock(ctx: Ctx, seat: int) -> None:
    turn = ctx.s.turn
    assert turn is not None and turn.value is not None
    ctx.p(seat).dice.append(turn.value)
    turn.stage = "blueprint"


def _complete(ctx: Ctx, seat: int, card_id: str) -> None:
    p = ctx.p(seat)
    card = blueprints()[card_id]
    p.energy -= card.energy
    p.steel -= card.steel
    p.parts -= card.parts
    p.hand.remove(card_id)
    p.completed.append(card_id)
    ctx.ask("install", seat, token=card.token)
    nicola = level(p, "nicola")
    if nicola == 2:
        ctx.ask("choose", seat, source="nicola")
    elif nicola == 1:
        p.energy += 1
    ctx.ask("take", seat)
    assert ctx.s.turn is not None
    ctx.s.turn.stage = "finished"


def _install(ctx: Ctx, seat: int, at: tuple[int, int], token: str) -> None:
    p = ctx.p(seat)
    c = ctx.cell(seat, at)
    info = rules().tokens[token]
    c.tokens[info.kind] = token
    if info.guild:
        gain_fame(ctx, seat, banner_links(p, c, info.guild))


def _take(ctx: Ctx, seat: int, a: A.Take) -> None:
    s = ctx.s
    p = ctx.p(seat)
    if a.card is not None:
        level_ = blueprints()[a.card].level
        row = s.bp_offer[level_]
        row[row.index(a.card)] = s.bp_stack[level_].pop(0) if s.bp_stack[level_] else ""
        s.bp_offer[level_] = [b for b in row if b]
        p.hand.append(a.card)
    else:
        p.hand.append(s.bp_stack[a.stack or "I"].pop(0))


def _next_turn(ctx: Ctx) -> None:
    s = ctx.s
    n = s.config.players
    s.order_index += 1
    if s.order_index < 2 * n:
        s.turn = Turn((s.start_player + s.order_index) % n)
        return
    die = next(v + 1 for v in range(6) if s.forge[v])
    s.phase = "bonus"
    s.turn = None
    s.order_index = 0
    s.bonus = Bonus(die, s.start_player, die)


def _next_bonus(ctx: Ctx) -> None:
    s = ctx.s
    n = s.config.players
    assert s.bonus is not None
    s.order_index += 1
    if s.order_index < n:
        seat = (s.start_player + s.order_index) % n
        s.bonus = Bonus(s.bonus.die, seat, s.bonus.die)
        return
    s.bonus = None
    s.order_index = 0
    ended = (
        not s.stack
        or any(len(p.completed) >= rules().end_blueprints for p in s.players)
        or any(not any(p.dock) for p in s.players)
    )
    if ended:
        s.phase = "over"
        return
    for seat in range(n):
        p = ctx.p(seat)
        for c in p.cells:
            if c.worker == "lying":
                ctx.cell(seat, (c.q, c.r)).worker = "ready"
        p.amelia_used = False
        p.dice = []
    s.start_player = (s.start_player + 1) % n
    s.round += 1
    s.phase = "roll"
    s.forge = [0] * 6
    s.dice_to_roll = s.config.dice


def execute(ctx: Ctx, seat: int, a: A.Action, point: str) -> None:
    """Carry out an accepted action on the context's state."""
    s = ctx.s
    t = a.type
    if point == "setup":
        _setup(ctx, a)
    elif t == "roll":
        _roll(ctx, a)
    elif t == "keep_character":
        p = ctx.p(seat)
        p.character = a.character
        s.order_index += 1
        if s.order_index == s.config.players:
            s.phase = "start_tiles"
            s.order_index = 0
    elif point == "start_tiles":
        tile = s.offer[a.space - 1] or ""
        refill(s, a.space)
        place_tile(ctx, seat, tile, a.at)
        s.order_index += 1
        if s.order_index == s.config.players:
            s.phase = "roll"
            s.order_index = 0
            s.dice_to_roll = s.config.dice
    elif t == "draft":
        assert s.turn is not None
        s.forge[a.value - 1] -= 1
        s.turn.drafted = s.turn.value = a.value
        s.turn.stage = "act"
    elif t == "adjust":
        _adjust(ctx, seat, a, point)
    elif t == "claim":
        tile = s.offer[a.space - 1] or ""
        refill(s, a.space)
        _die_to_dock(ctx, seat)
        place_tile(ctx, seat, tile, a.at)
    elif t == "discard":
        s.discarded.append(s.offer[a.space - 1] or "")
        refill(s, a.space)
        ctx.p(seat).energy += 3 if level(s.players[seat], "jacques") else 2
        _die_to_dock(ctx, seat)
    elif t == "activate":
        assert s.turn is not None
        s.turn.stage = "activating"
    elif t == "use":
        _use(ctx, seat, a, point)
    elif t == "done":
        _done(ctx, seat, point)
    elif t == "complete":
        _complete(ctx, seat, a.card)
    elif t == "end_turn":
        _next_turn(ctx)
    else:
        _answer(ctx, seat, a)
    ctx.flush()


def _adjust(ctx: Ctx, seat: int, a: A.Adjust, point: str) -> None:
    s = ctx.s
    if point == "bonus":
        assert s.bonus is not None
        s.bonus.value = a.to
        s.bonus.adjusted = True
        return
    assert s.turn is not None
    if a.free:
        s.turn.free = True
    else:
        s.turn.paid = True
        ctx.p(seat).energy -= 1
    s.turn.value = a.to


def _use(ctx: Ctx, seat: int, a: A.Use, point: str) -> None:
    s = ctx.s
    mode = {"activating": "turn", "bonus": "bonus"}.get(point, "free")
    _, extra = use_problem(s, seat, a, mode)
    if mode == "turn" and s.turn is not None:
        c = cell_at(s.players[seat], *a.tile)
        assert c is not None
        if not any_value(c) and tiles()[c.tile].number != s.turn.value:
            s.turn.extra = True
    elif mode == "bonus" and s.bonus is not None:
        s.bonus.used = True
    elif point == "c3":
        task = s.tasks.pop()
        if task.count > 1:
            s.tasks.append(Task("c3", seat, count=task.count - 1))
    else:
        s.tasks.pop()
    use_effect(ctx, seat, a, extra)


def _done(ctx: Ctx, seat: int, point: str) -> None:
    s = ctx.s
    if point == "activating":
        _die_to_dock(ctx, seat)
    elif point == "bonus":
        _next_bonus(ctx)
    else:
        s.tasks.pop()


def _answer(ctx: Ctx, seat: int, a: A.Action) -> None:
    """Answer the pending choice on top of the stack."""
    s = ctx.s
    task = s.tasks.pop()
    t = a.type
    p = ctx.p(seat)
    if t == "deploy":
        deploy_worker(ctx, seat, a)
    elif t == "reward":
        other = next(line for line in task.lines if line != a.line)
        pay_reward(ctx, seat, a.line)
        ctx.ask("pay", seat, lines=[other])
    elif t == "place":
        place_tile(ctx, seat, task.tile or "", a.at)
    elif t == "depot":
        c = cell_at(p, *a.tile)
        assert c is not None
        if task.kind == "r1" and not task.used:
            s.tasks.append(Task("r1", seat, used=[a.tile]))
        depot_benefit(ctx, seat, c.tile)
    elif t == "choose":
        gain(p, a.resource, 1)
    elif t == "install":
        _install(ctx, seat, a.tile, task.token or "")
    elif t == "keep":
        p.unused.append(task.token or "")
    elif t == "take":
        _take(ctx, seat, a)


def settle(ctx: Ctx) -> None:
    """Apply the auto-steps: queued rewards, dropped choices, forced declines, turn ends."""
    s = ctx.s
    while True:
        seat, point, _ = expecting(s)
        if seat is None or seat == CHANCE:
            return
        if s.tasks and s.tasks[-1].kind == "pay":
            task = s.tasks.pop()
            pay_reward(ctx, task.seat, task.lines[0])
            ctx.flush()
            continue
        if not s.tasks and s.phase == "turns" and point == "finished":
            _next_turn(ctx)
            continue
        if not s.tasks and point not in ("activating", "blueprint", "bonus"):
            return
        acts = first(s, seat, 2)
        if not acts:
            s.tasks.pop()
            continue
        if len(acts) == 1 and acts[0].type in A.DECLINES:
            execute(ctx, seat, acts[0], point)
            continue
        return


def apply(state: State, seat: int, action: object) -> State:
    """The state after `seat` plays `action` and the auto-steps; a refusal changes nothing."""
    a = A.parse_action(action)
    who, point, types = expecting(state)
    if who is None:
        raise IllegalAction("The game is over.")
    if seat != who:
        raise IllegalAction(f"It is not your move: the game waits for {waiting(state)}.")
    if a.type not in types:
        doing = VERBS.get(a.type, "do that")
        raise IllegalAction(f"You can't {doing} now: the game waits for you {WHAT[point]}.")
    reason = problem(state, seat, a, point)
    if reason is not None:
        raise IllegalAction(reason)
    ctx = Ctx(state)
    execute(ctx, seat, a, point)
    settle(ctx)
    return ctx.s
