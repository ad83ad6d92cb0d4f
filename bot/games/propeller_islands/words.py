"""Propeller Islands in words: moves, phases, table options, round summaries and final standings.
What is hidden stays hidden: hands, the characters not kept and blueprints drawn face down."""

from typing import Any

from bot.service.hosting import join, seat_ref
from engine.core import Event, Outcome
from engine.propeller_islands import events as E
from engine.propeller_islands.components import (
    blueprints,
    characters,
    rewards,
    rules,
    tile_name,
)
from engine.propeller_islands.config import Config
from engine.propeller_islands.state import State

GUILDS = {"I": "Industry", "S": "Science", "C": "Culture"}
AMOUNTS = ("energy", "steel", "parts", "fame")
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

USED_BY = {
    "marie": " with Marie's extra activation",
    "bonus": " with the bonus die",
    "c3": " (reward C3)",
    "radio": " through the Radio Station",
}
"""How an activation came about, where it was not the turn's own die."""


def tile_words(tile: str) -> str:
    """A tile as players name it: "the Refinery", "the Capitol"."""
    return "the Capitol" if tile.startswith("01") else f"the {tile_name(tile)}"


def cell_name(cell: dict[str, Any]) -> str:
    """A tile of a view's island as players name it: its name, "Capitol" for either side."""
    return "Capitol" if cell["category"] == "capitol" else cell["name"]


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


def cost_words(card_id: str) -> str:
    """What a blueprint costs: "2 energy, 1 steel and 1 part" ("" for none)."""
    card = blueprints()[card_id]
    return join([amount(getattr(card, r), r) for r in AMOUNTS[:3] if getattr(card, r)])


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


def _with(text: str, gains: dict[str, int], links: bool = False, then: str = "") -> str:
    """The move, its gains and costs, then what follows from it (`then`)."""
    said = ", ".join(w for w in (amounts_words(gains, links), then) if w)
    return f"{text}: {said}" if said else text


def a_token(token: str) -> str:
    """An upgrade token with its article: "an energy production upgrade"."""
    words = token_words(token)
    return f"{'an' if words[0] in 'aeiou' else 'a'} {words}"


def reward_words(line: str, tile: str | None) -> str:
    """What a dock line's reward gives, reward C1's `tile` named once it is drawn."""
    reward = rewards()[line]
    if reward.kind == "resources":
        return amounts_words({what: n for what, n in reward.resources.items()})
    if reward.kind == "fame":
        return amounts_words({"fame": reward.fame})
    if reward.kind == "place_top_tile":
        if tile is None:
            return "the top tile of the draw stack, but the stack is empty"
        return f"{tile_words(tile)} from the top of the draw stack, to place"
    if reward.kind == "activate_two":
        return "activate 2 buildings with a ready worker, any number"
    if reward.kind == "depots":
        return "the benefit of up to 2 depots again"
    return "deploy 1 more worker"


def describe(before: State, seat: int, action: dict[str, Any], after: State) -> str:
    """One seat's move in the past tense, without its name; other seats appear as "{seat N}"
    (`bot.service.hosting.fill` names them). `after` is `before` with the action applied."""
    return "; ".join(_event(e, seat) for e in E.happened(before, seat, action, after))


def _event(event: Event, seat: int) -> str:
    """One event as a clause; `seat` moved, and other seats are named."""
    match event:
        case E.CharacterKept():
            return f"kept {characters()[event.character].name}"
        case E.TileClaimed():
            text = f"claimed {tile_words(event.tile)}"
            if event.start:
                text += " as a starting tile"
            elif event.wide_reach:
                text += " (Jacques's wider reach)"
            return _with(text, event.gains, links=True, then=_crew(event.crew))
        case E.DieDrafted():
            return f"drafted a {event.value}"
        case E.BonusDieChanged():
            return f"counted the bonus die as {event.to} instead of {event.was} (Nelson)"
        case E.DieChanged():
            change = f"the die from {event.was} to {event.to}"
            if event.free:
                return f"changed {change} (Sir Charles's free change)"
            return f"paid 1 energy to change {change}"
        case E.TileDiscarded():
            jacques = " (Jacques)" if event.jacques else ""
            where = f"{tile_words(event.tile)} from offer space {event.space}"
            return f"discarded {where} for {amount(event.energy, 'energy')}{jacques}"
        case E.ActivationChosen():
            text = f"chose to activate buildings with the {event.value}"
            return text + (", but none could be activated" if event.idle else "")
        case E.BuildingUsed():
            return _used(event)
        case E.Finished():
            return _finished(event)
        case E.BlueprintCompleted():
            card = blueprints()[event.card]
            cost = cost_words(event.card)
            text = f"completed blueprint {event.card} ({card.vp} VP, {a_token(card.token)})"
            return text + (f" for {cost}" if cost else "")
        case E.TurnEnded():
            return "ended the turn"
        case E.WorkerDeployed():
            where = f"{tile_words(event.tile)}"
            return f"deployed a worker from the dock to {where}"
        case E.LinesEmptied():
            if len(event.lines) == 1:
                line = event.lines[0]
                return f"the dock line {line} is empty: reward {reward_words(line, event.tile)}"
            return (
                f"the dock lines {join(event.lines)} are empty: both rewards, in an order to pick"
            )
        case E.RewardChosen():
            return f"chose the {event.line} reward first: {reward_words(event.line, event.tile)}"
        case E.TilePlaced():
            text = f"placed {tile_words(event.tile)} (reward C1)"
            return _with(text, event.gains, links=True, then=_crew(event.crew))
        case E.DepotReused():
            where = f"{tile_words(event.tile)}"
            text = (
                f"took the benefit of {where} again (reward R1)"
                if event.via == "r1"
                else f"used the Warehouse on {where}"
            )
            return _with(text, event.gains, then=_crew(event.crew))
        case E.ResourceChosen():
            source = character_name(event.character)
            return f"chose +1 {event.resource} ({source}'s advanced ability)"
        case E.UpgradeInstalled():
            where = f"{tile_words(event.tile)}"
            text = f"installed the {token_words(event.token)} on {where}"
            return _with(text, event.gains, links=True)
        case E.UpgradeKept():
            return f"set the {token_words(event.token)} aside"
        case E.BlueprintTaken():
            if event.card is not None:
                return f"took blueprint {event.card} from the offer"
            return f"drew a level {event.level} blueprint from the stack"
        case E.AbilityGain():
            return _ability(event, seat)
        case E.UpgradeSetAside():
            return "no tile has a free slot for it, so the upgrade is set aside"
        case E.LastRound():
            return f"{_last_round(event)}: the game ends after this round"
        case E.RewardPaid():
            return f"then the {event.line} reward: {reward_words(event.line, event.tile)}"
        case E.RewardPending():
            return f"the {event.line} reward follows"
        case E.FameLevel():
            return _fame_level(event, seat)
        case E.RoundEnded():
            return f"round {event.round} is over"
        case E.GameEnded():
            return f"round {event.round} is over and so is the game: {join(_reasons(event))}"
    raise ValueError(f"No words for a {type(event).__name__} event.")


def _crew(crew: E.CrewDepot | None) -> str:
    """A Crew Depot's benefit: a worker to deploy, or that there is none."""
    if crew is None:
        return ""
    return "a worker to deploy" if crew == "worker" else "no worker can be deployed"


def _used(event: E.BuildingUsed) -> str:
    text = f"activated {tile_words(event.tile)}"
    text += USED_BY.get(event.by, "")
    if event.then == "deploy":
        text += " to deploy a worker"
    elif event.then == "activate":
        text += " to activate another tile"
        if event.no_target:
            text += ", but none could be"
    elif event.then == "depot":
        text += " to take a depot's benefit again"
    return _with(text, event.gains)


def _finished(event: E.Finished) -> str:
    if event.point == "activating":
        return "finished activating"
    if event.point == "bonus":
        return "finished with the bonus die" if event.bonus_used else "passed on the bonus die"
    if event.point == "c3":
        return "activated no more buildings (reward C3)"
    return "took no more depots (reward R1)"


def _ability(event: E.AbilityGain, seat: int) -> str:
    gain = "+1 energy or +1 steel, to choose" if event.choice else "+1 energy"
    if event.character == "nicola":
        return f"Nicola's ability: {gain}"
    who = "" if event.seat == seat else f" ({seat_ref(event.seat)})"
    return f"Amelia's ability{who}: {gain}"


def _last_round(event: E.LastRound) -> str:
    """What makes this round the last."""
    if event.reason == "dock":
        return "their dock is empty"
    if event.reason == "blueprints":
        return f"that is their {rules().end_blueprints}th blueprint"
    return "the draw stack is empty"


def _fame_level(event: E.FameLevel, seat: int) -> str:
    """Fame reaching a trumpet, which unlocks the character's basic or advanced ability."""
    who = "" if event.seat == seat else f"{seat_ref(event.seat)} "
    text = f"{who}reached {rules().trumpets[event.level - 1]} fame"
    if event.character:
        ability = "advanced" if event.level == 2 else "basic"
        text += f": {character_name(event.character)}'s {ability} ability is unlocked"
    return text


def _reasons(event: E.GameEnded) -> list[str]:
    """Why the game ended, without naming seats (the standings follow)."""
    out = ["the draw stack is empty"] if event.stack_empty else []
    if event.completed:
        has = "a player has" if event.completed == 1 else f"{event.completed} players have"
        out.append(f"{has} completed {rules().end_blueprints} blueprints")
    if event.empty_docks:
        out.append(
            "a dock is empty" if event.empty_docks == 1 else f"{event.empty_docks} docks are empty"
        )
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


def standings_lines(outcome: list[Outcome], names: list[str]) -> list[str]:
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


def _tiebreak(row: Outcome, level_: list[Outcome], names: list[str]) -> str:
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
