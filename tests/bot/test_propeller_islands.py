"""Propeller Islands through the stand-in: 2 people and 1 AI, by panels and by `/propeller move`,
with a restart in the middle and one timeout."""

import json

from bot.service.clock import ManualClock
from engine.propeller_islands import autopilot
from standin import Message, User
from tests.bot.conftest import Bots, Scene
from tests.bot.helpers import answer, respond

TIMEOUT = 20.0


def _key(action: dict) -> str:
    return json.dumps(action, separators=(",", ":"), sort_keys=True)


def _panel(s, person: User, gid: int, turn: int) -> Message | None:
    """The person's panel of this turn (its ids carry the game and the turn)."""
    for message in reversed(s.dms(person)):
        ids = [c.get("custom_id", "") for c in message.iter_components()]
        if message.author.bot and any(f":{gid}:{turn}" in i for i in ids):
            return message
    return None


async def _by_panel(s, person: User, panel: Message, action: dict) -> bool:
    """The decision with the panel's selects and buttons; False if it can't show it."""
    key = _key(action)
    kinds = [c for c in panel.iter_components() if c.get("custom_id", "").startswith("pi:kind:")]
    if kinds and action["type"] in [o["value"] for o in kinds[0]["options"]]:
        await respond(s.select(person, panel, kinds[0]["custom_id"], [action["type"]]))
    for component in panel.iter_components():
        custom_id = component.get("custom_id", "")
        if custom_id.startswith("pl:do:") and custom_id.endswith(key):
            await respond(s.click(person, panel, custom_id))
            return True
        if custom_id.startswith("pl:act:") and key in [o["value"] for o in component["options"]]:
            await respond(s.select(person, panel, custom_id, [key]))
            return True
    return False


async def test_a_propeller_islands_game_with_two_people_and_an_ai(
    scene: Scene, bots: Bots, clock: ManualClock
) -> None:
    s, ada, ben = scene.server, scene.ada, scene.ben
    bot = await bots.start(clock=clock)
    lobby = await answer(s.slash(ada, scene.channel, "propeller open", max_players=3))
    assert "Capitol side: A" in lobby.embeds[0]["fields"][1]["value"]
    gid = (await bot.service.table_in(scene.channel.id)).row.id
    for person, action in ((ben, "join"), (ada, "ai"), (ada, "start")):
        await respond(s.click(person, lobby, f"pl:lobby:{gid}:{action}"))
    moves = restarted = timed_out = by_panel = 0
    while (table := await bot.service.table(gid)).row.status == "active":
        seat = next(x for x in table.waiting_for() if not x.is_ai)
        person = ada if seat.user_id == ada.id else ben
        if moves == 30 and not restarted:
            await bots.stop(bot)
            bot = await bots.start(clock=clock)
            restarted = 1
        if moves == 50 and not timed_out:
            clock.advance(days=2)
            await s.wait_for(
                lambda: any(m.content.startswith("Time is up") for m in s.messages(scene.channel)),
                TIMEOUT,
            )
            timed_out = moves = moves + 1
            continue
        view = table.game.view(table.state, seat.seat)
        action = autopilot.choose(view, seat.seat).model_dump(mode="json", by_alias=True)
        async with bot.service.repo.reading() as repo:
            turn = await repo.action_count(gid)
        panel = await s.wait_for(lambda p=person, t=turn: _panel(s, p, gid, t), TIMEOUT)
        if moves % 2 and await _by_panel(s, person, panel, action):
            by_panel += 1
        else:
            dm = s.dm_channel(person)
            offered = await s.autocomplete(person, dm, "propeller move", focused="decision")
            assert _key(action) in [c["value"] for c in offered] or len(offered) == 25
            reply = await answer(s.slash(person, dm, "propeller move", decision=_key(action)))
            assert reply.content.startswith("✅ You "), reply.content
        moves += 1
    assert restarted and timed_out and by_panel > 10
    await s.wait_for(lambda: any("**Game over!**" in m.content for m in s.messages(scene.channel)))
    over = next(m for m in s.messages(scene.channel) if "**Game over!**" in m.content)
    assert "\n1. " in over.content and " VP" in over.content
    status = [m for m in s.messages(scene.channel) if m.embeds and "Last moves" in str(m.embeds)]
    assert len(status) == 1
    versions = [str(e.get("embeds")) for e in status[0].edits] + [str(status[0].embeds)]
    assert any(" drafted a " in text for text in versions)
