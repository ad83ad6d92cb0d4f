"""Propeller Islands in words: moves, phases, table options, round summaries and final standings.
What is hidden stays hidden: hands, the characters not kept and blueprints drawn face down."""

from typing import Any

from bot.service.hosting import join, seat_ref
from engine.propeller_islands import actions as A
from engine.propeller_islands.components import (
    blueprints,
    characters,
    rewards,
    rules,
    tile_name,
)
from engine.propeller_islands.config import Config
from engine.propeller_islands.effects import line_spaces
from engine.propeller_islands.flow import Ctx, expecting, reach
from engine.propeller_islands.island import cell_at, fame_level, level
from engine.propeller_islands.play import execute
from engine.propeller_islands.refusals import legal_uses
from engine.propeller_islands.state import Player, State, Task

GUILDS = {"I": "Industry", "S": "Science", "C": "Culture"}
AMOUNTS = ("energy", "steel", "parts", "fame")
LINES = ("C1", "C2", "C3", "C4", "R1", "R2", "R3")
POINTS = {
    "draft": "draft",
    "act": "claim, discard or activate",
    "activating": "activating",
    "blueprint": "blueprint",
    "bonus": "bonus die",
    "deploy": "deploying a worker",
    "rewards": "picking the first dock reward",
    "place": "placing the reward tile",
    "c3": "reward C3 (two activations)",
    "r1": "reward R1 (depots)",
    "radio": "the Radio Station's target",
    "warehouse": "the Warehouse's depot",
    "choose": "choosing energy or steel",
    "install": "installing an upgrade",
    "take": "taking a blueprint",
}
"""The points of play inside a round, as `phase_name` says them."""


def hex_words(at: tuple[int, int] | list[int]) -> str:
    """A hex of an island as "(q, r)"."""
    return f"({at[0]}, {at[1]})"


def tile_words(tile: str) -> str:
    """A tile as players name it: "the Refinery", "the Capitol"."""
    return "the Capitol" if tile.startswith("01") else f"the {tile_name(tile)}"


def token_words(token: str) -> str:
    """An upgrade token: "energy production upgrade", "Science banner", "wild die upgrade"."""
    info = rules().tokens[token]
    if info.kind == "P":
        return f"{info.resource} production upgrade"
    if info.kind == "B":
        return f"{GUILDS[info.guild or 'I']} banner"
    return "wild die upgrade"


def character_name(character: str | None) -> str:
    """A character's short name: "Sir Charles", "Nelson"."""
    return characters()[character].name.split(",")[0] if character else ""


def amount(n: int, what: str) -> str:
    """A count of a resource or of fame: 1 part, 2 parts, 3 energy."""
    return f"{n} {what[:-1] if what == 'parts' and n == 1 else what}"


def amounts_words(delta: dict[str, int], links: bool = False) -> str:
    """Gains and costs as "-1 steel, +2 parts"; with `links`, fame is from guild links."""
    out = []
    for what in AMOUNTS:
        n = delta.get(what, 0)
        if n:
            text = f"{n:+d} {amount(abs(n), what).split(' ', 1)[1]}"
            if what == "fame" and links:
                text += f" ({n} guild link{'s' if n > 1 else ''})"
            out.append(text)
    return ", ".join(out)


def _delta(p0: Player, p1: Player) -> dict[str, int]:
    return {k: getattr(p1, k) - getattr(p0, k) for k in AMOUNTS if getattr(p1, k) != getattr(p0, k)}


def _with(text: str, delta: dict[str, int], links: bool = False, then: str = "") -> str:
    """The move, its gains and costs, then what follows from it (`then`)."""
    said = ", ".join(w for w in (amounts_words(delta, links), then) if w)
    return f"{text}: {said}" if said else text


def a_token(token: str) -> str:
    """An upgrade token with its article: "an energy production upgrade"."""
    words = token_words(token)
    return f"{'an' if words[0] in 'aeiou' else 'a'} {words}"


def _raised(before: list[Task], after: list[Task], kind: str, seat: int) -> Task | None:
    """The newest task of `kind` for `seat` that an action put on the stack."""
    # An action pops at most the top task and pushes new ones; the rest of the stack stays.
    keep = 0
    while keep < min(len(before), len(after)) and before[keep] == after[keep]:
        keep += 1
    return next((t for t in reversed(after[keep:]) if t.kind == kind and t.seat == seat), None)


def reward_words(line: str, tasks: list[Task], seat: int) -> str:
    """What a dock line's reward gives, the tile of reward C1 named once it is drawn."""
    reward = rewards()[line]
    if reward.kind == "resources":
        return amounts_words({what: n for what, n in reward.resources.items()})
    if reward.kind == "fame":
        return amounts_words({"fame": reward.fame})
    if reward.kind == "place_top_tile":
        placing = next((t for t in reversed(tasks) if t.kind == "place" and t.seat == seat), None)
        if placing is None or placing.tile is None:
            return "the top tile of the draw stack, but the stack is empty"
        return f"{tile_words(placing.tile)} from the top of the draw stack, to place"
    if reward.kind == "activate_two":
        return "activate 2 buildings with a ready worker, any number"
    if reward.kind == "depots":
        return "the benefit of up to 2 depots again"
    return "deploy 1 more worker"


def describe(before: State, seat: int, action: dict[str, Any], after: State) -> str:
    """One seat's move in the past tense, without its name; other seats appear as "{seat N}"
    (`bot.service.hosting.fill` names them). `after` is `before` with the action applied."""
    act = A.parse_action(action)
    point = expecting(before)[1]
    # The action alone, before the engine's auto-steps: its own gains apart from theirs.
    ctx = Ctx(before)
    execute(ctx, seat, act, point)
    mid = ctx.s
    parts = [_move(before, seat, act, point, mid)]
    parts += _abilities(before, seat, act, mid, after)
    parts += _paid_later(mid, after, act.type == "reward")
    parts += _fame_levels(before, seat, after)
    parts += _ending(before, after)
    return "; ".join(p for p in parts if p)


def _own_delta(before: State, seat: int, mid: State) -> dict[str, int]:
    """The move's own gains and costs, less Amelia's energy (said apart)."""
    delta = _delta(before.players[seat], mid.players[seat])
    p0, p1 = before.players[seat], mid.players[seat]
    choice = _raised(before.tasks, mid.tasks, "choose", seat)
    if not p0.amelia_used and p1.amelia_used and not (choice and choice.source == "amelia"):
        delta["energy"] = delta.get("energy", 0) - 1
    return {k: v for k, v in delta.items() if v}


def _move(before: State, seat: int, act: A.Action, point: str, mid: State) -> str:
    p = before.players[seat]
    delta = _own_delta(before, seat, mid)
    match act:
        case A.KeepCharacter():
            return f"kept {characters()[act.character].name}"
        case A.Claim():
            tile = before.offer[act.space - 1] or ""
            text = f"claimed {tile_words(tile)} at {hex_words(act.at)}"
            if point == "start_tiles":
                text += " as a starting tile"
            elif before.turn and act.space not in reach(before.turn.value or 0, False):
                text += " (Jacques's wider reach)"
            return _with(text, delta, links=True, then=_depot_deploy(tile, before, seat, mid))
        case A.Draft():
            return f"drafted a {act.value}"
        case A.Adjust():
            if point == "bonus":
                assert before.bonus is not None
                return f"counted the bonus die as {act.to} instead of {before.bonus.value} (Nelson)"
            assert before.turn is not None
            change = f"the die from {before.turn.value} to {act.to}"
            if act.free:
                return f"changed {change} (Sir Charles's free change)"
            return f"paid 1 energy to change {change}"
        case A.Discard():
            tile = before.offer[act.space - 1] or ""
            jacques = " (Jacques)" if level(p, "jacques") else ""
            gained = amount(delta.get("energy", 0), "energy")
            where = f"{tile_words(tile)} from offer space {act.space}"
            return f"discarded {where} for {gained}{jacques}"
        case A.Activate():
            assert before.turn is not None
            text = f"chose to activate buildings with the {before.turn.value}"
            if not legal_uses(mid, seat, "turn"):
                text += ", but none could be activated"
            return text
        case A.Use():
            return _use(before, seat, act, point, mid, delta)
        case A.Done():
            return _done(before, point)
        case A.Complete():
            card = blueprints()[act.card]
            cost = join([amount(getattr(card, r), r) for r in AMOUNTS[:3] if getattr(card, r)])
            text = f"completed blueprint {act.card} ({card.vp} VP, {a_token(card.token)})"
            return text + (f" for {cost}" if cost else "")
        case A.EndTurn():
            return "ended the turn"
        case A.Deploy():
            c = cell_at(p, *act.to)
            assert c is not None
            text = f"deployed a worker from the dock to {tile_words(c.tile)} at {hex_words(act.to)}"
            return text + _lines_emptied(p, mid.players[seat], mid, seat)
        case A.RewardChoice():
            return f"chose the {act.line} reward first: {reward_words(act.line, mid.tasks, seat)}"
        case A.Place():
            tile = before.tasks[-1].tile or ""
            text = f"placed {tile_words(tile)} at {hex_words(act.at)} (reward C1)"
            return _with(text, delta, links=True, then=_depot_deploy(tile, before, seat, mid))
        case A.DepotChoice():
            c = cell_at(p, *act.tile)
            assert c is not None
            where = f"{tile_words(c.tile)} at {hex_words(act.tile)}"
            text = (
                f"took the benefit of {where} again (reward R1)"
                if point == "r1"
                else f"used the Warehouse on {where}"
            )
            return _with(text, delta, then=_depot_deploy(c.tile, before, seat, mid))
        case A.Choose():
            source = character_name(before.tasks[-1].source)
            return f"chose +1 {act.resource} ({source}'s advanced ability)"
        case A.Install():
            c = cell_at(p, *act.tile)
            assert c is not None
            token = token_words(before.tasks[-1].token or "")
            text = f"installed the {token} on {tile_words(c.tile)} at {hex_words(act.tile)}"
            return _with(text, delta, links=True)
        case A.Keep():
            return f"set the {token_words(before.tasks[-1].token or '')} aside"
        case A.Take():
            if act.card is not None:
                return f"took blueprint {act.card} from the offer"
            return f"drew a level {act.stack} blueprint from the stack"
    raise ValueError(f"No words for a {act.type} action.")


def _depot_deploy(tile: str, before: State, seat: int, mid: State) -> str:
    """A Crew Depot's benefit: a worker to deploy, or why there is none."""
    if tile[:2] != "04":
        return ""
    if _raised(before.tasks, mid.tasks, "deploy", seat):
        return "a worker to deploy"
    return "no worker can be deployed"


def _use(
    before: State, seat: int, act: A.Use, point: str, mid: State, delta: dict[str, int]
) -> str:
    c = cell_at(before.players[seat], *act.tile)
    assert c is not None
    text = f"activated {tile_words(c.tile)} at {hex_words(act.tile)}"
    if point == "activating" and _marie(before, mid):
        text += " with Marie's extra activation"
    elif point == "bonus":
        text += " with the bonus die"
    elif point == "c3":
        text += " (reward C3)"
    elif point == "radio":
        text += " through the Radio Station"
    kind = "01" if c.tile.startswith("01") else c.tile[:2]
    if act.option == "deploy" or kind == "08":
        text += " to deploy a worker"
    elif kind == "11":
        text += " to activate another tile"
        if not legal_uses(mid, seat, "free"):
            text += ", but none could be"
    elif kind == "12":
        text += " to take a depot's benefit again"
    return _with(text, delta)


def _marie(before: State, mid: State) -> bool:
    """Whether this activation was Marie's extra one (a building of another number)."""
    return bool(before.turn and mid.turn and mid.turn.extra and not before.turn.extra)


def _done(before: State, point: str) -> str:
    if point == "activating":
        return "finished activating"
    if point == "bonus":
        used = before.bonus is not None and before.bonus.used
        return "finished with the bonus die" if used else "passed on the bonus die"
    if point == "c3":
        return "activated no more buildings (reward C3)"
    return "took no more depots (reward R1)"


def _cleared(p: Player) -> set[str]:
    return {line for line in LINES if not any(p.dock[i] for i in line_spaces(line))}


def _lines_emptied(p0: Player, p1: Player, mid: State, seat: int) -> str:
    """The dock lines a deploy emptied and their rewards."""
    emptied = sorted(_cleared(p1) - _cleared(p0))
    text = ""
    if len(emptied) == 1:
        line = emptied[0]
        text = f"; the dock line {line} is empty: reward {reward_words(line, mid.tasks, seat)}"
    elif emptied:
        text = f"; the dock lines {join(emptied)} are empty: both rewards, in an order to pick"
    if not any(p1.dock):
        text += "; their dock is empty: the game ends after this round"
    return text


def _abilities(before: State, seat: int, act: A.Action, mid: State, after: State) -> list[str]:
    """Amelia's and Nicola's abilities where they act (Sir Charles, Nelson, Jacques and Marie
    are said with the move they change)."""
    out = []
    if act.type == "complete" and (nicola := level(before.players[seat], "nicola")):
        out.append(
            "Nicola's ability: +1 energy"
            if nicola == 1
            else "Nicola's ability: +1 energy or +1 steel, to choose"
        )
    for s, (p0, p1) in enumerate(zip(before.players, after.players, strict=True)):
        if not p0.amelia_used and p1.amelia_used:
            who = "" if s == seat else f" ({seat_ref(s)})"
            choose = any(t.source == "amelia" and t.seat == s for t in after.tasks)
            gain = "+1 energy or +1 steel, to choose" if choose else "+1 energy"
            out.append(f"Amelia's ability{who}: {gain}")
    if act.type == "complete":
        kept = len(after.players[seat].unused) > len(mid.players[seat].unused)
        if kept:
            out.append("no tile has a free slot for it, so the upgrade is set aside")
        if (
            len(before.players[seat].completed)
            < rules().end_blueprints
            <= len(mid.players[seat].completed)
        ):
            out.append(
                f"that is their {rules().end_blueprints}th blueprint: "
                "the game ends after this round"
            )
    return out


def _paid_later(mid: State, after: State, chosen: bool) -> list[str]:
    """A second dock reward the engine paid in its auto-steps, or that still waits."""
    due = [t for t in mid.tasks if t.kind == "pay"]
    left = sum(1 for t in after.tasks if t.kind == "pay")
    paid = due[left:] if left < len(due) else []
    out = [
        f"then the {t.lines[0]} reward: {reward_words(t.lines[0], after.tasks, t.seat)}"
        for t in reversed(paid)
    ]
    if chosen and not paid and due:
        out.append(f"the {due[-1].lines[0]} reward follows")
    return out


def _fame_levels(before: State, seat: int, after: State) -> list[str]:
    """Fame reaching a trumpet, which unlocks the character's basic or advanced ability."""
    out = []
    for s, (p0, p1) in enumerate(zip(before.players, after.players, strict=True)):
        new = fame_level(p1.fame)
        if new <= fame_level(p0.fame):
            continue
        who = "" if s == seat else f"{seat_ref(s)} "
        text = f"{who}reached {rules().trumpets[new - 1]} fame"
        if p1.character:
            ability = "advanced" if new == 2 else "basic"
            text += f": {character_name(p1.character)}'s {ability} ability is unlocked"
        out.append(text)
    return out


def _ending(before: State, after: State) -> list[str]:
    """The end of a round or of the game, and what makes this round the last."""
    if after.phase == "over" and before.phase != "over":
        return [f"round {before.round} is over and so is the game: {join(_reasons(after))}"]
    if after.round > before.round:
        return [f"round {before.round} is over"]
    if before.stack and not after.stack:
        return ["the draw stack is empty: the game ends after this round"]
    return []


def _reasons(state: State) -> list[str]:
    """Why the game ended, without naming seats (the standings follow)."""
    out = ["the draw stack is empty"] if not state.stack else []
    done = sum(1 for p in state.players if len(p.completed) >= rules().end_blueprints)
    empty = sum(1 for p in state.players if not any(p.dock))
    if done:
        has = "a player has" if done == 1 else f"{done} players have"
        out.append(f"{has} completed {rules().end_blueprints} blueprints")
    if empty:
        out.append("a dock is empty" if empty == 1 else f"{empty} docks are empty")
    return out


def phase_name(view: dict[str, Any]) -> str:
    """Where the game stands: "Round 3 · turn 5 of 8 · claim, discard or activate (a 4)"."""
    phase = view["phase"]
    if phase == "setup":
        return "setup"
    if phase == "keep_character":
        return "keeping characters"
    if phase == "start_tiles":
        return "starting tiles" + _task_words(view)
    if phase == "over":
        return "game over"
    head = f"Round {view['round']}"
    if phase == "roll":
        return f"{head} · rolling the dice"
    if phase == "bonus":
        bonus = view["bonus"]
        return f"{head} · bonus die (a {bonus['value']})" + _task_words(view)
    turn = view["turn"]
    where = f"{head} · turn {view['turn_index'] + 1} of {2 * view['players']}"
    if view["tasks"]:
        return where + _task_words(view)
    what = POINTS.get(view["waiting_for"], view["waiting_for"])
    if turn["stage"] in ("act", "activating"):
        what += f" (a {turn['value']})"
    return f"{where} · {what}"


def _task_words(view: dict[str, Any]) -> str:
    tasks = [t for t in view["tasks"] if t["kind"] != "pay"]
    return f" · {POINTS.get(tasks[-1]['kind'], tasks[-1]['kind'])}" if tasks else ""


def _option(config: dict[str, Any], key: str) -> Any:
    return config.get(key, Config.model_fields[key].default)


def options_in_words(config: dict[str, Any]) -> list[str]:
    """The table's rules options from a (JSON) Propeller Islands config, "players" optional."""
    side = _option(config, "capitol_side")
    capitol = rules().capitols[side]
    gains = ", ".join(f"+{amount(n, r)}" for r, n in capitol.resources.items())
    kind = capitol.name.split("(")[-1].rstrip(")")
    hub = ", a hub for every guild" if capitol.hub else ""
    deal = _option(config, "character_deal")
    ages = _option(config, "age_order")
    lines = [
        f"Capitol side: {side} ({kind}: {gains}{hub})",
        "Characters dealt: 1 each" if deal == 1 else "Characters dealt: 2 each, keep one",
        "Last tiebreak: the youngest player (age order given)"
        if ages
        else "Last tiebreak: none, equal players share the place",
    ]
    if config.get("players"):
        lines.append(f"Dice: {2 * config['players'] + 1} a round")
    return lines


def round_lines(view: dict[str, Any], names: list[str]) -> list[str]:
    """One line per seat from the start player: character, fame, island, blueprints completed
    and resources (all public)."""
    seats = view["seats"]
    n = len(seats)
    lines = []
    for i in range(n):
        seat = seats[(view["start_player"] + i) % n]
        who = names[seat["seat"]]
        if seat["character_name"]:
            who += f" ({character_name(seat['character'])})"
        tiles = len(seat["island"]) - 1
        done = len(seat["completed"])
        parts = [
            f"{seat['fame']} fame",
            f"{tiles} tile{'s' if tiles != 1 else ''}",
            f"{seat['island_workers']} worker{'s' if seat['island_workers'] != 1 else ''} "
            "on the island",
            f"{done} blueprint{'s' if done != 1 else ''} completed",
            amount(seat["energy"], "energy"),
            amount(seat["steel"], "steel"),
            amount(seat["parts"], "parts"),
        ]
        lines.append(f"{who}: {', '.join(parts)}")
    return lines


def standings_lines(outcome: list[dict[str, Any]], names: list[str]) -> list[str]:
    """Final standings, best first: "1. Ada: 31 VP (fame 12, blueprints 10, …)", with the
    tiebreak that placed a seat among those level with it on VP (dock workers, then age)."""
    rows = sorted(outcome, key=lambda r: (r["rank"], r["seat"]))
    lines = []
    for row in rows:
        d = row["details"]
        sources = [
            f"fame {d['fame']}",
            f"blueprints {d['blueprints']}",
            f"landmarks {sum(d['landmarks'].values())}",
            f"resources {d['resources']}",
        ]
        inside = ", ".join(sources)
        if d.get("tiebreak"):
            level_ = [r for r in rows if r is not row and r["score"] == row["score"]]
            inside += f"; {_tiebreak(row, level_, names)}"
        lines.append(f"{row['rank']}. {names[row['seat']]}: {row['score']} VP ({inside})")
    return lines


def _tiebreak(row: dict[str, Any], level_: list[dict[str, Any]], names: list[str]) -> str:
    """Against each seat level on VP: ahead of those below, tied with equals; a seat ahead of
    nobody says which seat it came just behind."""
    ahead: list[str] = []
    tied: list[str] = []
    behind: list[str] = []
    mine = row["tiebreak"]
    for other in level_:
        theirs = other["tiebreak"]
        name = names[other["seat"]]
        if theirs == mine:
            tied.append(name)
        elif mine[1] != theirs[1]:
            how = f"{name} on workers left on the dock: {mine[1]} to {theirs[1]}"
            (ahead if mine[1] > theirs[1] else behind).append(how)
        elif mine[2] > theirs[2]:
            ahead.append(f"{name} as the younger player")
        else:
            behind.append(f"{name}, the younger player")
    clauses = [f"ahead of {how}" for how in ahead]
    if tied:
        clauses.append(f"tied with {join(tied)} on every tiebreak")
    # `level_` is sorted best first, so the last seat above this one is the nearest.
    return "; ".join(clauses or [f"behind {behind[-1]}"])
