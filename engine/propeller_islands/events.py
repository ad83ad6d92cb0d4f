"""What a move of Propeller Islands did, as events in order: the move with its own gains, the
abilities it set off, dock rewards, fame levels and the end of a round or of the game."""

from typing import Literal

from engine.core import CHANCE, Event
from engine.propeller_islands import actions as A
from engine.propeller_islands.components import rewards, rules
from engine.propeller_islands.effects import line_spaces
from engine.propeller_islands.flow import Ctx, expecting, reach
from engine.propeller_islands.island import cell_at, fame_level, level
from engine.propeller_islands.play import execute
from engine.propeller_islands.refusals import legal_uses
from engine.propeller_islands.state import Player, State, Task

Hex = tuple[int, int]
Gains = dict[str, int]
"""Energy, steel, parts and fame gained (positive) or paid (negative), zeros left out."""
CrewDepot = Literal["worker", "no_dock_worker", "no_free_housing"]
"""A Crew Depot's benefit: a worker to deploy, or why there is none."""
LINES = ("C1", "C2", "C3", "C4", "R1", "R2", "R3")
AMOUNTS = ("energy", "steel", "parts", "fame")


class CharacterKept(Event):
    kind: Literal["character_kept"] = "character_kept"
    character: str


class TileClaimed(Event):
    """A tile claimed from the offer; its fame is from guild links."""

    kind: Literal["tile_claimed"] = "tile_claimed"
    tile: str
    at: Hex
    start: bool
    """A starting tile, claimed before the first round."""
    wide_reach: bool
    """Out of the die's own reach: Jacques's wider reach."""
    gains: Gains
    crew: CrewDepot | None = None


class DieDrafted(Event):
    kind: Literal["die_drafted"] = "die_drafted"
    value: int


class DieChanged(Event):
    """The turn's die changed: Sir Charles's free change, or for 1 energy."""

    kind: Literal["die_changed"] = "die_changed"
    was: int
    to: int
    free: bool


class BonusDieChanged(Event):
    """Nelson counting the bonus die as another value."""

    kind: Literal["bonus_die_changed"] = "bonus_die_changed"
    was: int
    to: int


class TileDiscarded(Event):
    kind: Literal["tile_discarded"] = "tile_discarded"
    tile: str
    space: int
    energy: int
    jacques: bool
    """Jacques's ability made it 3 energy."""


class ActivationChosen(Event):
    kind: Literal["activation_chosen"] = "activation_chosen"
    value: int
    idle: bool
    """No building can be activated with the die."""


class BuildingUsed(Event):
    """A building (or the Capitol) activated, and what it leaves to do next."""

    kind: Literal["building_used"] = "building_used"
    tile: str
    at: Hex
    by: Literal["turn", "marie", "bonus", "c3", "radio"]
    """The turn's die, Marie's extra activation, the bonus die, reward C3 or a Radio Station."""
    then: Literal["deploy", "activate", "depot"] | None = None
    """A worker to deploy, a tile to activate (Radio Station), a depot again (Warehouse)."""
    no_target: bool = False
    """The Radio Station finds no tile to activate."""
    gains: Gains


class Finished(Event):
    """No more activations (the turn's, the bonus die's, reward C3's) or depots (reward R1)."""

    kind: Literal["finished"] = "finished"
    point: Literal["activating", "bonus", "c3", "r1"]
    bonus_used: bool = False


class BlueprintCompleted(Event):
    kind: Literal["blueprint_completed"] = "blueprint_completed"
    card: str


class TurnEnded(Event):
    kind: Literal["turn_ended"] = "turn_ended"


class WorkerDeployed(Event):
    kind: Literal["worker_deployed"] = "worker_deployed"
    dock: Hex
    """The dock space (row, column) it left."""
    tile: str
    at: Hex


class LinesEmptied(Event):
    """Dock lines a deploy emptied: one pays its reward at once, two wait for an order."""

    kind: Literal["lines_emptied"] = "lines_emptied"
    lines: list[str]
    tile: str | None = None
    """Reward C1's tile drawn to place (None: the stack was empty)."""


class RewardChosen(Event):
    """The dock reward taken first of two."""

    kind: Literal["reward_chosen"] = "reward_chosen"
    line: str
    tile: str | None = None
    """Reward C1's tile drawn to place (None: the stack was empty)."""


class TilePlaced(Event):
    """Reward C1's tile placed; its fame is from guild links."""

    kind: Literal["tile_placed"] = "tile_placed"
    tile: str
    at: Hex
    gains: Gains
    crew: CrewDepot | None = None


class DepotReused(Event):
    kind: Literal["depot_reused"] = "depot_reused"
    tile: str
    at: Hex
    via: Literal["r1", "warehouse"]
    gains: Gains
    crew: CrewDepot | None = None


class ResourceChosen(Event):
    """+1 energy or steel chosen through an advanced ability."""

    kind: Literal["resource_chosen"] = "resource_chosen"
    resource: str
    character: str | None


class UpgradeInstalled(Event):
    """An upgrade token installed; its fame is from guild links."""

    kind: Literal["upgrade_installed"] = "upgrade_installed"
    token: str
    tile: str
    at: Hex
    gains: Gains


class UpgradeKept(Event):
    kind: Literal["upgrade_kept"] = "upgrade_kept"
    token: str


class BlueprintTaken(Event):
    """A blueprint taken from the offer (`card`), or drawn face down from a stack (`level`)."""

    kind: Literal["blueprint_taken"] = "blueprint_taken"
    card: str | None = None
    level: Literal["I", "II"] | None = None


class AbilityGain(Event):
    """Amelia's or Nicola's +1 energy, or a choice of energy or steel (`choice`)."""

    kind: Literal["ability_gain"] = "ability_gain"
    seat: int
    character: Literal["amelia", "nicola"]
    choice: bool


class UpgradeSetAside(Event):
    """A completed blueprint's upgrade with no free slot on the island."""

    kind: Literal["upgrade_set_aside"] = "upgrade_set_aside"
    token: str


class LastRound(Event):
    """The game ends after this round: a seat's empty dock or last blueprint, or the empty
    draw stack (no seat)."""

    kind: Literal["last_round"] = "last_round"
    reason: Literal["dock", "blueprints", "stack"]
    seat: int | None = None


class RewardPaid(Event):
    """A queued dock reward the engine paid after the move."""

    kind: Literal["reward_paid"] = "reward_paid"
    seat: int
    line: str
    tile: str | None = None
    """Reward C1's tile drawn to place (None: the stack was empty)."""


class RewardPending(Event):
    """The second dock reward, still waiting behind the first one's choices."""

    kind: Literal["reward_pending"] = "reward_pending"
    seat: int
    line: str


class FameLevel(Event):
    """Fame reaching a trumpet: level 1 unlocks the character's basic ability, 2 its advanced."""

    kind: Literal["fame_level"] = "fame_level"
    seat: int
    level: int
    character: str | None


class RoundEnded(Event):
    kind: Literal["round_ended"] = "round_ended"
    round: int


class GameEnded(Event):
    """The last round is over, with what ended the game (seats unnamed)."""

    kind: Literal["game_ended"] = "game_ended"
    round: int
    stack_empty: bool
    completed: int
    """Seats with the blueprints that end the game."""
    empty_docks: int


def happened(before: State, seat: int, action: object, after: State) -> list[Event]:
    """What `action` of `seat` did, in order; `after` is `before` with it applied."""
    if seat == CHANCE:
        # Deals are partly secret, and what they and the dice show is in the views.
        return []
    act = A.parse_action(action)
    point = expecting(before)[1]
    # The action alone, before the engine's auto-steps: its own gains apart from theirs.
    ctx = Ctx(before)
    execute(ctx, seat, act, point)
    mid = ctx.s
    out = _move(before, seat, act, point, mid)
    out += _abilities(before, seat, act, mid, after)
    out += _paid_later(mid, after, act.type == "reward")
    out += _fame_levels(before, after)
    out += _ending(before, after)
    return out


def _raised(before: list[Task], after: list[Task], kind: str, seat: int) -> Task | None:
    """The newest task of `kind` for `seat` that an action put on the stack."""
    # An action pops at most the top task and pushes new ones; the rest of the stack stays.
    keep = 0
    while keep < min(len(before), len(after)) and before[keep] == after[keep]:
        keep += 1
    return next((t for t in reversed(after[keep:]) if t.kind == kind and t.seat == seat), None)


def _own_gains(before: State, seat: int, mid: State) -> Gains:
    """The move's own gains and costs, less Amelia's energy (an event of its own)."""
    p0, p1 = before.players[seat], mid.players[seat]
    delta = {k: getattr(p1, k) - getattr(p0, k) for k in AMOUNTS}
    choice = _raised(before.tasks, mid.tasks, "choose", seat)
    if not p0.amelia_used and p1.amelia_used and not (choice and choice.source == "amelia"):
        delta["energy"] -= 1
    return {k: v for k, v in delta.items() if v}


def _drawn(line: str, tasks: list[Task], seat: int) -> str | None:
    """Reward C1's tile, drawn to place; None for the other rewards or an empty stack."""
    if rewards()[line].kind != "place_top_tile":
        return None
    placing = next((t for t in reversed(tasks) if t.kind == "place" and t.seat == seat), None)
    return placing.tile if placing else None


def _crew(tile: str, before: State, seat: int, mid: State) -> CrewDepot | None:
    """A Crew Depot's worker, or why there is none; None for any other tile."""
    if tile[:2] != "04":
        return None
    if _raised(before.tasks, mid.tasks, "deploy", seat):
        return "worker"
    return "no_free_housing" if any(mid.players[seat].dock) else "no_dock_worker"


def _move(before: State, seat: int, act: A.Action, point: str, mid: State) -> list[Event]:
    """The move itself, with its own gains (`mid`: the state before the auto-steps)."""
    p = before.players[seat]
    gains = _own_gains(before, seat, mid)
    match act:
        case A.KeepCharacter():
            return [CharacterKept(character=act.character)]
        case A.Claim():
            tile = before.offer[act.space - 1] or ""
            start = point == "start_tiles"
            wide = bool(
                not start and before.turn and act.space not in reach(before.turn.value or 0, False)
            )
            crew = _crew(tile, before, seat, mid)
            claimed = TileClaimed(
                tile=tile, at=act.at, start=start, wide_reach=wide, gains=gains, crew=crew
            )
            return [claimed]
        case A.Draft():
            return [DieDrafted(value=act.value)]
        case A.Adjust():
            if point == "bonus":
                assert before.bonus is not None
                return [BonusDieChanged(was=before.bonus.value, to=act.to)]
            assert before.turn is not None and before.turn.value is not None
            return [DieChanged(was=before.turn.value, to=act.to, free=bool(act.free))]
        case A.Discard():
            tile = before.offer[act.space - 1] or ""
            energy = gains.get("energy", 0)
            jacques = bool(level(p, "jacques"))
            return [TileDiscarded(tile=tile, space=act.space, energy=energy, jacques=jacques)]
        case A.Activate():
            assert before.turn is not None and before.turn.value is not None
            idle = not legal_uses(mid, seat, "turn")
            return [ActivationChosen(value=before.turn.value, idle=idle)]
        case A.Use():
            return [_use(before, seat, act, point, mid, gains)]
        case A.Done():
            used = point == "bonus" and before.bonus is not None and before.bonus.used
            return [Finished(point=point, bonus_used=used)]
        case A.Complete():
            return [BlueprintCompleted(card=act.card)]
        case A.EndTurn():
            return [TurnEnded()]
        case A.Deploy():
            tile = _tile(p, act.to)
            deployed = WorkerDeployed(dock=act.from_, tile=tile, at=act.to)
            return [deployed, *_lines_emptied(p, mid.players[seat], mid, seat)]
        case A.RewardChoice():
            return [RewardChosen(line=act.line, tile=_drawn(act.line, mid.tasks, seat))]
        case A.Place():
            tile = before.tasks[-1].tile or ""
            crew = _crew(tile, before, seat, mid)
            return [TilePlaced(tile=tile, at=act.at, gains=gains, crew=crew)]
        case A.DepotChoice():
            tile = _tile(p, act.tile)
            via = "r1" if point == "r1" else "warehouse"
            crew = _crew(tile, before, seat, mid)
            return [DepotReused(tile=tile, at=act.tile, via=via, gains=gains, crew=crew)]
        case A.Choose():
            return [ResourceChosen(resource=act.resource, character=before.tasks[-1].source)]
        case A.Install():
            token = before.tasks[-1].token or ""
            tile = _tile(p, act.tile)
            return [UpgradeInstalled(token=token, tile=tile, at=act.tile, gains=gains)]
        case A.Keep():
            return [UpgradeKept(token=before.tasks[-1].token or "")]
        case A.Take():
            return [BlueprintTaken(card=act.card, level=act.stack if act.card is None else None)]
    raise ValueError(f"No events for a {act.type} action.")


def _tile(p: Player, at: Hex) -> str:
    """The tile on `p`'s island at hex `at` (the action names one there)."""
    c = cell_at(p, *at)
    assert c is not None
    return c.tile


def _use(
    before: State, seat: int, act: A.Use, point: str, mid: State, gains: Gains
) -> BuildingUsed:
    tile = _tile(before.players[seat], act.tile)
    if point == "activating":
        marie = before.turn and mid.turn and mid.turn.extra and not before.turn.extra
        by = "marie" if marie else "turn"
    else:
        by = point
    kind = "01" if tile.startswith("01") else tile[:2]
    then, no_target = None, False
    if act.option == "deploy" or kind == "08":
        then = "deploy"
    elif kind == "11":
        then, no_target = "activate", not legal_uses(mid, seat, "free")
    elif kind == "12":
        then = "depot"
    return BuildingUsed(tile=tile, at=act.tile, by=by, then=then, no_target=no_target, gains=gains)


def _cleared(p: Player) -> set[str]:
    return {line for line in LINES if not any(p.dock[i] for i in line_spaces(line))}


def _lines_emptied(p0: Player, p1: Player, mid: State, seat: int) -> list[Event]:
    """The dock lines a deploy emptied, and the last worker leaving the dock."""
    emptied = sorted(_cleared(p1) - _cleared(p0))
    out: list[Event] = []
    if len(emptied) == 1:
        out.append(LinesEmptied(lines=emptied, tile=_drawn(emptied[0], mid.tasks, seat)))
    elif emptied:
        out.append(LinesEmptied(lines=emptied))
    if not any(p1.dock):
        out.append(LastRound(reason="dock", seat=seat))
    return out


def _abilities(before: State, seat: int, act: A.Action, mid: State, after: State) -> list[Event]:
    """Amelia's and Nicola's abilities where they act, and what a completed blueprint sets off
    (Sir Charles, Nelson, Jacques and Marie change the move itself)."""
    out: list[Event] = []
    if act.type == "complete" and (nicola := level(before.players[seat], "nicola")):
        out.append(AbilityGain(seat=seat, character="nicola", choice=nicola == 2))
    for s, (p0, p1) in enumerate(zip(before.players, after.players, strict=True)):
        if not p0.amelia_used and p1.amelia_used:
            choice = any(t.source == "amelia" and t.seat == s for t in after.tasks)
            out.append(AbilityGain(seat=s, character="amelia", choice=choice))
    if act.type == "complete":
        unused = after.players[seat].unused
        if len(unused) > len(mid.players[seat].unused):
            out.append(UpgradeSetAside(token=unused[-1]))
        goal = rules().end_blueprints
        if len(before.players[seat].completed) < goal <= len(mid.players[seat].completed):
            out.append(LastRound(reason="blueprints", seat=seat))
    return out


def _paid_later(mid: State, after: State, chosen: bool) -> list[Event]:
    """Queued dock rewards the engine paid in its auto-steps, or the one that still waits."""
    due = [t for t in mid.tasks if t.kind == "pay"]
    left = sum(1 for t in after.tasks if t.kind == "pay")
    paid = due[left:] if left < len(due) else []
    out: list[Event] = [
        RewardPaid(seat=t.seat, line=t.lines[0], tile=_drawn(t.lines[0], after.tasks, t.seat))
        for t in reversed(paid)
    ]
    if chosen and not paid and due:
        out.append(RewardPending(seat=due[-1].seat, line=due[-1].lines[0]))
    return out


def _fame_levels(before: State, after: State) -> list[Event]:
    """Fame reaching a trumpet, for every seat."""
    out: list[Event] = []
    for s, (p0, p1) in enumerate(zip(before.players, after.players, strict=True)):
        new = fame_level(p1.fame)
        if new > fame_level(p0.fame):
            out.append(FameLevel(seat=s, level=new, character=p1.character))
    return out


def _ending(before: State, after: State) -> list[Event]:
    """The end of a round or of the game, or the draw stack running out."""
    if after.phase == "over" and before.phase != "over":
        goal = rules().end_blueprints
        ended = GameEnded(
            round=before.round,
            stack_empty=not after.stack,
            completed=sum(1 for p in after.players if len(p.completed) >= goal),
            empty_docks=sum(1 for p in after.players if not any(p.dock)),
        )
        return [ended]
    if after.round > before.round:
        return [RoundEnded(round=before.round)]
    if before.stack and not after.stack:
        return [LastRound(reason="stack")]
    return []
