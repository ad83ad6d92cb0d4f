"""The sandbox's Propeller Islands game: Ada, Ben and an AI. Ada plays her decisions with her DM
panels, Ben with `/propeller move`; after the first round both hand their seats to the AI,
which plays the game out (a short game for a newcomer to read)."""

import json
from typing import TYPE_CHECKING, Any

from engine.propeller_islands import autopilot
from standin import Channel, Message, User

if TYPE_CHECKING:
    from bot.sandbox import Sandbox

ROUNDS = 1


async def play(sb: "Sandbox", channel: Channel) -> None:
    ada, ben, _ = sb.people
    server = sb.server
    sb.note(f"Ada opens a Propeller Islands game in #{channel.name}.")
    gid = await sb.open_game(
        ada,
        channel,
        "propeller open",
        [(ben, "join"), (ada, "ai"), (ada, "start")],
        max_players=3,
    )
    looked = False
    while (table := await sb.bot.service.table(gid)).row.status == "active":
        if table.state.round > ROUNDS:
            break
        if not looked and table.state.round == 1 and table.state.phase == "turns":
            await sb.look_around(ben, channel, ada)
            looked = True
        seat = next(s for s in table.waiting_for() if not s.is_ai)
        person = ada if seat.user_id == ada.id else ben
        view = table.game.view(table.state, seat.seat)
        action = autopilot.choose(view, seat.seat).model_dump(mode="json", by_alias=True)
        key = json.dumps(action, separators=(",", ":"), sort_keys=True)
        turn = await sb.bot.service.action_count(gid)
        if person is ada and await _by_panel(sb, ada, gid, turn, action, key):
            continue
        dm = server.dm_channel(person)
        await sb.act(server.slash(person, dm, "propeller move", decision=key))
    for person in (ada, ben):
        sb.note(f"{person.name} leaves after round {ROUNDS}; the AI plays the seat to the end.")
        await sb.act(server.slash(person, server.dm_channel(person), "game leave", game=gid))
    await sb.finish(channel)
    sb.note("The Propeller Islands game is over; the standings are posted.")


async def _by_panel(
    sb: "Sandbox", person: User, gid: int, turn: int, action: dict[str, Any], key: str
) -> bool:
    """The decision with the panel of this turn, if the panel shows it in one step or two."""
    panel = await sb.server.wait_for(lambda: _panel(sb, person, gid, turn), 15)
    for component in panel.iter_components():
        custom_id = component.get("custom_id", "")
        values = [o["value"] for o in component.get("options", [])]
        if custom_id.startswith("pi:kind:") and action["type"] in values:
            await sb.act(sb.server.select(person, panel, custom_id, [action["type"]]))
            return await _by_panel(sb, person, gid, turn, action, key)
        if custom_id.startswith("pl:do:") and custom_id.endswith(key):
            await sb.act(sb.server.click(person, panel, custom_id))
            return True
        if custom_id.startswith("pl:act:") and key in values:
            await sb.act(sb.server.select(person, panel, custom_id, [key]))
            return True
    return False


def _panel(sb: "Sandbox", person: User, gid: int, turn: int) -> Message | None:
    for message in reversed(sb.server.dms(person)):
        ids = [c.get("custom_id", "") for c in message.iter_components()]
        if message.author.bot and any(f":{gid}:{turn}" in i for i in ids):
            return message
    return None
