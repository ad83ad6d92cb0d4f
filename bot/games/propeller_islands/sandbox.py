"""The sandbox's Propeller Islands game: Ada, Ben and an AI, on a time bank. Ada plays her
decisions with her DM panels, Ben with `/propeller move`; after the first round both hand their
seats to the AI, which plays the game out (a short game for a newcomer to read)."""

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
    lounge = sb.lounge(sb.guilds[0])
    sb.note(
        "Meanwhile Ben opens a Powerline game in #lounge and Ada joins it: two games at once, "
        "as /mygames will show."
    )
    side = await sb.open_game(ben, lounge, "powerline open", [(ada, "join"), (ben, "start")])
    gid = await sb.open_game(
        ada, channel, "propeller open", [(ben, "join"), (ada, "ai")], max_players=3
    )
    sb.note(
        "Before starting, Ada gives the table a time bank: a day each, an hour more per turn; "
        "each seat's clock runs only on its own turn."
    )
    bank = {"clock": "time bank", "bank": "1 day", "increment": "1 hour"}
    await sb.act(server.slash(ada, channel, "game setup", **bank))
    await sb.settled()
    lobby_id = (await sb.service.table(gid)).row.lobby_message_id
    lobby = next(m for m in server.messages(channel) if m.id == lobby_id)
    await sb.act(server.click(ada, lobby, f"pl:lobby:{gid}:start"))
    looked = False
    while (table := await sb.service.table(gid)).row.status == "active":
        # A person reads the redrawn panel before tapping it again.
        await sb.settled()
        await sb.moving(gid)
        if table.state.round > ROUNDS:
            break
        if not looked and table.state.round == 1 and table.state.phase == "turns":
            await sb.look_around(ben, channel, ada)
            looked = True
        seat = next(s for s in table.waiting_for() if not s.is_ai)
        person = ada if seat.user_id == ada.id else ben
        view = table.game.view(table.state, seat.seat)
        action = autopilot.choose(view, seat.seat).model_dump(mode="json", by_alias=True)
        turn = await sb.service.action_count(gid)
        if person is ada and await _by_panel(sb, ada, gid, turn, action, view):
            continue
        dm = server.dm_channel(person)
        key = json.dumps(action, separators=(",", ":"), sort_keys=True)
        await sb.act(server.slash(person, dm, "propeller move", decision=key))
    for person in (ada, ben):
        sb.note(f"{person.name} leaves after round {ROUNDS}; the AI plays the seat to the end.")
        await sb.act(server.slash(person, server.dm_channel(person), "game leave", game=gid))
    await sb.finish(channel)
    sb.note("The Propeller Islands game is over; the standings are posted.")
    sb.note("Ben, its host, cancels the Powerline game in #lounge that nobody planned.")
    await sb.act(server.slash(ben, lounge, "game cancel"))
    assert (await sb.service.table(side)).row.status == "abandoned"


async def _by_panel(
    sb: "Sandbox", person: User, gid: int, turn: int, action: dict[str, Any], view: dict[str, Any]
) -> bool:
    """The decision with the panel of this turn, in its steps (the kind, a claim's tile, a
    deploy's building), answering "Yes" where the panel asks first; False if it can't."""
    panel = await sb.server.wait_for(lambda: _panel(sb, person, gid, turn), 15)
    key = json.dumps(action, separators=(",", ":"), sort_keys=True)
    first = first_step(panel, action, view)
    if first is not None:
        await sb.act(sb.server.select(person, panel, first[0], [first[1]]))
    for component in panel.iter_components():
        custom_id = component.get("custom_id", "")
        values = [o["value"] for o in component.get("options", [])]
        if custom_id.startswith("pl:do:") and custom_id.endswith(key):
            await sb.act(sb.server.click(person, panel, custom_id))
            break
        if custom_id.startswith("pl:act:") and key in values:
            await sb.act(sb.server.select(person, panel, custom_id, [key]))
            break
    else:
        return False
    ids = [c.get("custom_id", "") for c in panel.iter_components()]
    yes = next((i for i in ids if i.startswith("pl:yes:")), None)
    if yes is not None:
        await sb.act(sb.server.click(person, panel, yes))
    return True


def first_step(
    panel: Message, action: dict[str, Any], view: dict[str, Any]
) -> tuple[str, str] | None:
    """The menu and the value that open the step of `panel` making `action`: a claim's tile, a
    deploy's building, or the kind of decision; None if the panel shows the move itself."""
    spots = {tuple(spot["at"]): spot["label"] for spot in view["decision"]["spots"]}
    for component in panel.iter_components():
        custom_id = component.get("custom_id", "")
        values = [o["value"] for o in component.get("options", [])]
        if custom_id.startswith("pi:claim:") and action["type"] == "claim":
            return custom_id, str(action["space"])
        if custom_id.startswith("pi:deploy:") and action["type"] == "deploy":
            return custom_id, spots[tuple(action["to"])]
        if custom_id.startswith("pi:kind:") and action["type"] in values:
            return custom_id, action["type"]
    return None


def _panel(sb: "Sandbox", person: User, gid: int, turn: int) -> Message | None:
    for message in reversed(sb.server.dms(person)):
        ids = [c.get("custom_id", "") for c in message.iter_components()]
        if message.author.bot and any(f":{gid}:{turn}" in i for i in ids):
            return message
    return None
