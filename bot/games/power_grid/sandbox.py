"""The sandbox's Power Grid game: Ada and Ben and an AI on Germany with the WBC house rules.
Ada plays by her DM panels (she buys a coal by mistake and takes it back with Undo, and lets a
maximum bid answer for her in an auction), Ben by `/powergrid` commands; after two rounds both
hand their seats to the AI, which plays the game out (a short game for a newcomer to read).
Where the script cannot move the bot's clock (bot processes on the system clock), Ada bids by
hand instead: her maximum bid would answer only minutes later."""

import json
from typing import TYPE_CHECKING

from engine.power_grid import autopilot
from standin import Channel, Message, User

if TYPE_CHECKING:
    from bot.sandbox import Sandbox

ROUNDS = 2


async def play(sb: "Sandbox", channel: Channel) -> None:
    ada, ben, _ = sb.people
    server = sb.server
    sb.note(f"Ada opens a Power Grid game (Germany, WBC house rules) in #{channel.name}.")
    gid = await sb.open_game(
        ada,
        channel,
        "powergrid open",
        [(ben, "join"), (ada, "ai"), (ada, "start")],
        max_players=3,
    )
    looked = undone = capped = False
    while (table := await sb.service.table(gid)).row.status == "active":
        # A person reads the redrawn panel before tapping it again.
        await sb.settled()
        await sb.moving(gid)
        if table.state.round > ROUNDS:
            break
        if table.state.round == 2 and not looked:
            await sb.look_around(ben, channel, ada)
            looked = True
        seat = next(s for s in table.waiting_for() if not s.is_ai)
        person = ada if seat.user_id == ada.id else ben
        if person is ada:
            turn = await sb.service.turn(gid, ada.id)
            if turn.answering and sb.clock is not None:
                sb.note("Ada's maximum bid answers for her a few minutes later, as a person would.")
                sb.clock.advance(minutes=3)
                await sb.server.wait_for(lambda t=turn.turn: _moved(sb, gid, t), 15)
                continue
            legal = {a["type"] for a in turn.legal}
            if not undone and "buy" in legal:
                undone = await _buy_and_undo(sb, ada, gid, turn.turn)
                continue
            if not capped and "bid" in legal and sb.clock is None:
                sb.note(
                    "Ada bids by hand: the bot processes run on the system clock, so a maximum "
                    "bid would answer for her only minutes later (the in-process sandbox shows it)."
                )
                capped = True
            elif not capped and "bid" in legal:
                capped = await _cap(sb, ada, gid, turn.turn)
                continue
        view = table.game.view(table.state, seat.seat)
        action = autopilot.choose(view, seat.seat).model_dump(mode="json", by_alias=True)
        if person is ada and await _by_panel(sb, ada, gid, action):
            continue
        await _by_command(sb, person, action)
    for person in (ada, ben):
        sb.note(f"{person.name} leaves after round {ROUNDS}; the AI plays the seat to the end.")
        await sb.act(server.slash(person, server.dm_channel(person), "game leave", game=gid))
    await sb.finish(channel)
    sb.note("The Power Grid game is over; the standings are posted.")


async def _by_panel(sb: "Sandbox", person: User, gid: int, action: dict) -> bool:
    """The move with the newest DM panel's select or button, if the panel offers it as one."""
    panel = await sb.server.wait_for(lambda: _panel(sb, person, gid), 15)
    key = json.dumps(action, separators=(",", ":"), sort_keys=True)
    for component in panel.iter_components():
        custom_id = component.get("custom_id", "")
        if custom_id.startswith("pl:do:") and custom_id.endswith(key):
            await sb.act(sb.server.click(person, panel, custom_id))
            return True
        values = [o["value"] for o in component.get("options", [])]
        if custom_id.startswith("pl:act:") and key in values:
            await sb.act(sb.server.select(person, panel, custom_id, [key]))
            return True
    return False


async def _moved(sb: "Sandbox", gid: int, turn: int) -> bool:
    return await sb.service.action_count(gid) > turn


def _component(panel: Message, prefix: str) -> dict | None:
    return next(
        (c for c in panel.iter_components() if c.get("custom_id", "").startswith(prefix)), None
    )


async def _buy_and_undo(sb: "Sandbox", ada: User, gid: int, turn: int) -> bool:
    """Ada picks a resource and buys one by mistake, then takes it back with Undo."""
    panel = await sb.server.wait_for(lambda: _panel(sb, ada, gid), 15)
    kinds = _component(panel, f"pg:kind:{gid}:")
    if kinds is None:
        return False
    sb.note("Ada buys a resource by mistake, and takes it back with Undo.")
    await sb.act(sb.server.select(ada, panel, kinds["custom_id"], [kinds["options"][0]["value"]]))
    amounts = _component(panel, f"pl:act:{gid}:")
    assert amounts is not None
    first = amounts["options"][0]["value"]
    await sb.act(sb.server.select(ada, panel, amounts["custom_id"], [first]))
    undo = f"pl:undo:{gid}:{turn + 1}"
    await sb.server.wait_for(lambda: panel.find_component(custom_id=undo), 15)
    await sb.act(sb.server.click(ada, panel, undo))
    return True


async def _cap(sb: "Sandbox", ada: User, gid: int, turn: int) -> bool:
    """Ada sets a maximum bid on her panel: the bot raises for her, and only she knows it."""
    panel = await sb.server.wait_for(lambda: _panel(sb, ada, gid), 15)
    caps = _component(panel, f"pl:pre:{gid}:")
    if caps is None:
        return False
    cap = caps["options"][min(12, len(caps["options"]) - 1)]["value"]
    sb.note(f"Ada sets a maximum bid of {cap} Elektro on her panel; nobody else learns it.")
    await sb.act(sb.server.select(ada, panel, caps["custom_id"], [cap]))
    return True


def _panel(sb: "Sandbox", person: User, gid: int) -> Message | None:
    for message in reversed(sb.server.dms(person)):
        if message.author.bot and f"game #{gid}]" in message.content and message.components:
            return message
    return None


async def _by_command(sb: "Sandbox", person: User, action: dict) -> None:
    dm, kind = sb.server.dm_channel(person), action["type"]
    slash = sb.server.slash
    if kind == "pick_region":
        await sb.act(slash(person, dm, "powergrid region", region=action["region"]))
    elif kind == "open":
        await sb.act(
            slash(person, dm, "powergrid auction", plant=action["plant"], bid=action["bid"])
        )
    elif kind == "bid":
        await sb.act(slash(person, dm, "powergrid bid", amount=action["amount"]))
    elif kind in ("pass", "drop", "done"):
        await sb.act(slash(person, dm, f"powergrid {kind}"))
    elif kind == "buy":
        for resource, quantity in action["resources"].items():
            await sb.act(slash(person, dm, "powergrid buy", resource=resource, quantity=quantity))
    elif kind == "build":
        await sb.act(slash(person, dm, "powergrid build", cities=", ".join(action["cities"])))
    else:
        key = json.dumps(action, separators=(",", ":"), sort_keys=True)
        if kind == "power":
            await sb.act(slash(person, dm, "powergrid power", run=key))
        else:
            await sb.act(slash(person, dm, "powergrid discard", choice=key))
