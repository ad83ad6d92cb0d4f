"""What tiles, buildings, dock rewards and fame do to a player once an action is accepted."""

from engine.propeller_islands import actions as A
from engine.propeller_islands.components import capitol_ids, category, rewards, rules
from engine.propeller_islands.flow import Ctx
from engine.propeller_islands.island import can_deploy, place_links
from engine.propeller_islands.state import Cell, Player, State

TRADES = {
    "energy_to_steel": ("energy", 2, "steel", 1),
    "energy_to_parts": ("energy", 2, "parts", 1),
    "steel_to_energy": ("steel", 1, "energy", 2),
    "parts_to_energy": ("parts", 1, "energy", 2),
}


def gain(p: Player, resource: str, n: int) -> None:
    setattr(p, resource, getattr(p, resource) + n)


def gain_fame(ctx: Ctx, seat: int, n: int) -> None:
    """Fame, with Amelia's once-per-round bonus judged at the level before the gain."""
    if n <= 0:
        return
    p = ctx.p(seat)
    before = p.fame
    p.fame += n
    if p.character == "amelia" and not p.amelia_used:
        first, second = rules().trumpets
        if before >= first:
            p.amelia_used = True
            if before >= second:
                ctx.ask("choose", seat, source="amelia")
            else:
                p.energy += 1


def place_tile(ctx: Ctx, seat: int, tile: str, at: tuple[int, int]) -> None:
    """A normal placement: links score, then a depot's benefit."""
    p = ctx.p(seat)
    cell = Cell(at[0], at[1], tile)
    p.cells.append(cell)
    gain_fame(ctx, seat, place_links(p, cell))
    if category(tile) == "depot":
        depot_benefit(ctx, seat, tile)


def depot_benefit(ctx: Ctx, seat: int, tile: str) -> None:
    p = ctx.p(seat)
    kind = tile[:2]
    if kind == "02":
        p.energy += 3
    elif kind == "03":
        p.steel += 1
        p.parts += 1
    elif can_deploy(p):
        ctx.ask("deploy", seat)


def refill(s: State, space: int) -> None:
    s.offer[space - 1] = s.stack.pop(0) if s.stack else None


def line_spaces(line: str) -> list[int]:
    """Dock indexes (row-major) of a line C1–C4 or R1–R3."""
    k = int(line[1]) - 1
    return [k + 4 * row for row in range(3)] if line[0] == "C" else [4 * k + c for c in range(4)]


def pay_reward(ctx: Ctx, seat: int, line: str) -> None:
    p = ctx.p(seat)
    reward = rewards()[line]
    if reward.kind == "resources":
        for res, n in reward.resources.items():
            gain(p, res, n)
    elif reward.kind == "fame":
        gain_fame(ctx, seat, reward.fame)
    elif reward.kind == "place_top_tile":
        if ctx.s.stack:
            ctx.ask("place", seat, tile=ctx.s.stack.pop(0))
    elif reward.kind == "activate_two":
        ctx.ask("c3", seat, count=2)
    elif reward.kind == "depots":
        ctx.ask("r1", seat)
    elif can_deploy(p):
        ctx.ask("deploy", seat)


def use_effect(ctx: Ctx, seat: int, a: A.Use, extra_energy: int) -> None:
    """Lay the worker down, pay, resolve the effect, then a PROD token's +1."""
    p = ctx.p(seat)
    c = ctx.cell(seat, a.tile)
    c.worker = "lying"
    p.energy -= extra_energy
    kind = c.tile[:2]
    if c.tile.startswith("01"):
        if a.option == "deploy":
            ctx.ask("deploy", seat)
        else:
            for res, n in capitol_ids()[c.tile].resources.items():
                gain(p, res, n)
    elif kind == "05":
        p.parts += 1
    elif kind == "06":
        p.energy += 2
    elif kind == "07":
        p.steel += 1
    elif kind == "08":
        ctx.ask("deploy", seat)
    elif kind == "09":
        p.energy -= 2
        p.parts += 1
        p.steel += 1
    elif kind == "10":
        p.steel -= 1
        p.parts += 2
    elif kind == "11":
        ctx.ask("radio", seat, tile=c.tile)
    elif kind == "12":
        ctx.ask("warehouse", seat)
    elif kind == "13":
        pay, n_pay, get, n_get = TRADES[a.option or ""]
        gain(p, pay, -n_pay)
        gain(p, get, n_get)
    if (token := c.tokens.get("P")) is not None:
        gain(p, rules().tokens[token].resource or "energy", 1)


def deploy_worker(ctx: Ctx, seat: int, a: A.Deploy) -> None:
    p = ctx.p(seat)
    index = (a.from_[0] - 1) * 4 + a.from_[1] - 1
    p.dock[index] = False
    ctx.cell(seat, a.to).worker = "ready"
    row, col = a.from_
    emptied = [
        line for line in (f"C{col}", f"R{row}") if not any(p.dock[i] for i in line_spaces(line))
    ]
    if len(emptied) == 2:
        ctx.ask("rewards", seat, lines=emptied)
    elif emptied:
        pay_reward(ctx, seat, emptied[0])
