"""Every legal next action of a seat, built from the refusals."""

from collections.abc import Iterable, Iterator
from functools import cache
from itertools import islice

from engine.core import CHANCE
from engine.propeller_islands import actions as A
from engine.propeller_islands.components import blueprints, rules, tiles
from engine.propeller_islands.flow import expecting, reach, steps
from engine.propeller_islands.island import NEIGHBOURS, cell_at, depots, frontier, level, vacant
from engine.propeller_islands.refusals import adjust_problem, legal_uses, uses
from engine.propeller_islands.state import Player, State


def _claims(s: State, seat: int, start: bool) -> list[A.Action]:
    p = s.players[seat]
    if start:
        hexes = [h for h in NEIGHBOURS if cell_at(p, *h) is None]
        spaces = range(1, 13)
    else:
        assert s.turn is not None and s.turn.value is not None
        hexes = frontier(p)
        spaces = sorted(reach(s.turn.value, level(p, "jacques") >= 2))
    return [_claim(sp, h) for sp in spaces if s.offer[sp - 1] is not None for h in hexes]


@cache
def _claim(space: int, at: tuple[int, int]) -> A.Action:
    # Keyed by position, not by keyword as `made` is: claims are most of a legal list.
    return A.made(A.Claim, type="claim", space=space, at=at)


@cache
def _deploy(index: int, to: tuple[int, int]) -> A.Action:
    """The deploy from dock space `index` (row-major); cached as `_claim` is."""
    return A.made(A.Deploy, type="deploy", from_=(index // 4 + 1, index % 4 + 1), to=to)


PAID = {
    v: tuple(
        A.made(A.Adjust, type="adjust", to=to, free=None) for to in range(1, 7) if steps(v, to) == 1
    )
    for v in range(1, 7)
}
"""Per die value the changes paying might make (one step), in `legal`'s order."""
FREE = tuple(A.made(A.Adjust, type="adjust", to=to, free=True) for to in range(1, 7))
FREE_CHANGERS = ("charles", "nelson")
"""Sir Charles (on his turn) and Nelson (on the bonus die) may change a die for free."""


def _adjusts(s: State, seat: int, point: str) -> Iterator[A.Action]:
    """The changes adjust_problem accepts, asked only about those it might."""
    die = s.bonus if point == "bonus" else s.turn
    assert die is not None and die.value is not None
    free = FREE if s.players[seat].character in FREE_CHANGERS else ()
    return (a for a in PAID[die.value] + free if adjust_problem(s, seat, a, point) is None)


DONE = A.made(A.Done, type="done")


def payable(p: Player, card_id: str) -> bool:
    """Whether `p` has what blueprint `card_id` costs."""
    card = blueprints()[card_id]
    return card.energy <= p.energy and card.steel <= p.steel and card.parts <= p.parts


def legal(s: State, seat: int) -> list[A.Action]:
    """Every legal next action of `seat` (none for the chance seat)."""
    out: list[A.Action] = []
    for group in _groups(s, seat):
        out += group
    return out


def first(s: State, seat: int, n: int) -> list[A.Action]:
    """The first n actions of `legal` (all if fewer): the auto-steps only ask whether a seat has
    a choice, so they stop before enumerating every claim or use."""
    out: list[A.Action] = []
    for group in _groups(s, seat):
        out += islice(group, n - len(out))
        if len(out) >= n:
            break
    return out


def _groups(s: State, seat: int) -> Iterator[Iterable[A.Action]]:
    """`legal` in consecutive parts, each built only when asked for (some lazily)."""
    who, point, _ = expecting(s)
    if who is None or who == CHANCE or who != seat:
        return
    p = s.players[seat]
    if point == "keep_character":
        yield [A.made(A.KeepCharacter, type="keep_character", character=c) for c in p.dealt]
    elif point == "start_tiles":
        yield _claims(s, seat, True)
    elif point == "draft":
        yield [A.made(A.Draft, type="draft", value=v) for v in range(1, 7) if s.forge[v - 1]]
    elif point == "act":
        assert s.turn is not None and s.turn.value is not None
        yield _adjusts(s, seat, point)
        yield _claims(s, seat, False)
        yield [
            A.made(A.Discard, type="discard", space=sp)
            for sp in sorted(reach(s.turn.value, False))
            if s.offer[sp - 1] is not None
        ]
        yield [A.made(A.Activate, type="activate")]
    elif point == "activating":
        yield uses(s, seat, "turn")
        yield [DONE]
    elif point == "blueprint":
        yield [A.made(A.Complete, type="complete", card=b) for b in p.hand if payable(p, b)]
        yield [A.made(A.EndTurn, type="end_turn")]
    elif point == "bonus":
        yield _adjusts(s, seat, point)
        yield uses(s, seat, "bonus")
        yield [DONE]
    elif point == "deploy":
        spots = [(c.q, c.r) for c in vacant(p)]
        yield [_deploy(i, h) for i in range(12) if p.dock[i] for h in spots]
    elif point == "rewards":
        yield [A.made(A.RewardChoice, type="reward", line=x) for x in s.tasks[-1].lines]
    elif point == "place":
        yield [A.made(A.Place, type="place", at=h) for h in frontier(p)]
    elif point in ("c3", "radio"):
        found: list[A.Action] = list(legal_uses(s, seat, "free"))
        yield found or ([DONE] if point == "c3" else [])
    elif point in ("r1", "warehouse"):
        used = s.tasks[-1].used
        yield [
            A.made(A.DepotChoice, type="depot", tile=(c.q, c.r))
            for c in depots(p)
            if (c.q, c.r) not in used
        ]
        if point == "r1":
            yield [DONE]
    elif point == "choose":
        yield [A.made(A.Choose, type="choose", resource=r) for r in ("energy", "steel")]
    elif point == "install":
        kind = rules().tokens[s.tasks[-1].token or ""].kind
        yield [
            A.made(A.Install, type="install", tile=(c.q, c.r))
            for c in p.cells
            if not c.tile.startswith("01")
            and kind in tiles()[c.tile].slots
            and kind not in c.tokens
        ]
        yield [A.made(A.Keep, type="keep")]
    elif point == "take":
        yield [
            A.made(A.Take, type="take", card=b, stack=None)
            for level_ in ("I", "II")
            for b in s.bp_offer[level_]
        ]
        yield [
            A.made(A.Take, type="take", card=None, stack=level_)
            for level_ in ("I", "II")
            if s.bp_stack[level_]
        ]
