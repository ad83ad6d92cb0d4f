"""Power Grid through the stand-in: 2 people and 2 AI, hidden money, panels and slash commands,
a restart in the middle, a timeout, and no other seat's money in anything a person received."""

import json
import re

import pytest

from bot.sandbox import press_lobby
from bot.service.clock import ManualClock
from engine.core import CHANCE, IllegalAction
from engine.power_grid import autopilot
from standin import Message, User
from tests.bot.conftest import Bots, Scene
from tests.bot.helpers import answer, respond, texts

TIMEOUT = 20.0


def _panel(s, person: User, gid: int) -> Message | None:
    """The person's newest "your turn" panel (DM) of this game."""
    for message in reversed(s.dms(person)):
        if message.author.bot and f"game #{gid}]" in message.content and message.components:
            return message
    return None


def _by(panel: Message, prefix: str) -> dict:
    return next(c for c in panel.iter_components() if c.get("custom_id", "").startswith(prefix))


async def _move_by_panel(s, person: User, panel: Message, action: dict) -> bool:
    """Make `action` with the panel's selects and buttons; False if the panel can't show it."""
    kind = action["type"]
    if kind in ("pass", "drop", "done"):
        button = _by(panel, "pl:do:")
        for c in panel.iter_components():
            if c.get("custom_id", "").startswith("pl:do:") and f'"{kind}"' in c["custom_id"]:
                button = c
        await respond(s.click(person, panel, button["custom_id"]))
        return True
    if kind == "open":
        plant = _by(panel, "pg:plant:")
        await respond(s.select(person, panel, plant["custom_id"], [str(action["plant"])]))
    if kind == "buy" and len(action["resources"]) == 1:
        (resource,) = action["resources"]
        kinds = _by(panel, "pg:kind:")
        await respond(s.select(person, panel, kinds["custom_id"], [resource]))
    if kind == "buy" and len(action["resources"]) > 1:
        return False
    if kind == "build":
        return await _build_by_panel(s, person, panel, action["cities"])
    if kind in ("pick_region", "bid", "open", "power", "discard_plant", "buy"):
        key = json.dumps(action, separators=(",", ":"), sort_keys=True)
        if kind in ("bid", "open") and key not in _values(_by(panel, "pl:act:")):
            await _other_amount(s, person, panel, action.get("amount", action.get("bid")))
        select = _by(panel, "pl:act:")
        if key not in _values(select):
            return False
        await respond(s.select(person, panel, select["custom_id"], [key]))
        return True
    return False


def _values(select: dict) -> list[str]:
    return [o["value"] for o in select["options"]]


async def _other_amount(s, person: User, panel: Message, amount: int) -> None:
    """ "Other amount…": the range holding `amount`, then (ranges of ranges) again until the
    panel's first select offers it."""
    while not any(f"{amount} Elektro" in o["label"] for o in _by(panel, "pl:act:")["options"]):
        ranges = _by(panel, "pg:amounts:")
        value = next(
            v for v in _values(ranges) if int(v.split("-")[0]) <= amount <= int(v.split("-")[1])
        )
        await respond(s.select(person, panel, ranges["custom_id"], [value]))


async def _build_by_panel(s, person: User, panel: Message, cities: list[str]) -> bool:
    """All of `cities` chosen at once in the panel's select of cities, then the one button that
    builds them for their total; False if the select does not offer them all."""
    select = _by(panel, "pg:cities:")
    offered = {o["label"].split(":")[0]: o["value"] for o in select["options"]}
    if not set(cities) <= set(offered):
        return False
    await respond(s.select(person, panel, select["custom_id"], [offered[c] for c in cities]))
    button = _by(panel, "pg:build:")
    assert button["label"].startswith("Build "), button
    await respond(s.click(person, panel, button["custom_id"]))
    return True


async def _move_by_command(s, person: User, action: dict) -> None:
    dm = s.dm_channel(person)
    kind = action["type"]
    if kind == "pick_region":
        reply = await answer(s.slash(person, dm, "powergrid region", region=action["region"]))
    elif kind == "open":
        reply = await answer(
            s.slash(person, dm, "powergrid auction", plant=action["plant"], bid=action["bid"])
        )
    elif kind == "bid":
        reply = await answer(s.slash(person, dm, "powergrid bid", amount=action["amount"]))
    elif kind in ("pass", "drop", "done"):
        reply = await answer(s.slash(person, dm, f"powergrid {kind}"))
    elif kind == "buy":
        for resource, quantity in action["resources"].items():
            reply = await answer(
                s.slash(person, dm, "powergrid buy", resource=resource, quantity=quantity)
            )
    elif kind == "build":
        reply = await answer(
            s.slash(person, dm, "powergrid build", cities=", ".join(action["cities"]))
        )
    else:
        choice = json.dumps(action, separators=(",", ":"), sort_keys=True)
        command = "powergrid power" if kind == "power" else "powergrid discard"
        option = "run" if kind == "power" else "choice"
        reply = await answer(s.slash(person, dm, command, **{option: choice}))
    assert reply.content.startswith("✅ You "), reply.content


async def test_a_power_grid_game_with_two_people_and_two_ai(
    scene: Scene, bots: Bots, clock: ManualClock
) -> None:
    s, ada, ben = scene.server, scene.ada, scene.ben
    bot = await bots.start(clock=clock)
    lobby = await answer(s.slash(ada, scene.channel, "powergrid open", max_players=4))
    options = lobby.embeds[0]["fields"][1]["value"]
    assert "Money: hidden (WBC)" in options and "Map: Germany" in options
    gid = (await bot.service.table_in(scene.channel.id)).row.id
    for person, action in ((ben, "join"), (ada, "ai"), (ada, "ai"), (ada, "start")):
        await respond(press_lobby(s, person, lobby, gid, action))

    moves = restarted = timed_out = 0
    by_panel: set[str] = set()
    while (table := await bot.service.table(gid)).row.status == "active":
        waiting = [x for x in table.waiting_for() if not x.is_ai]
        assert waiting, "the game waits for nobody"
        seat = waiting[0]
        person = ada if seat.user_id == ada.id else ben
        if moves == 25 and not restarted:
            await bots.stop(bot)
            bot = await bots.start(clock=clock)
            restarted = 1
        if moves == 40 and not timed_out:
            clock.advance(days=2)
            await s.wait_for(lambda: _timed_out(s, scene), TIMEOUT)
            timed_out = 1
            moves += 1
            continue
        view = table.game.view(table.state, seat.seat)
        action = autopilot.choose(view, seat.seat).model_dump(mode="json", by_alias=True)
        panel = await s.wait_for(lambda p=person: _panel(s, p, gid), TIMEOUT)
        if moves % 2 and await _move_by_panel(s, person, panel, action):
            by_panel.add(action["type"])
        else:
            await _move_by_command(s, person, action)
        moves += 1
        await s.wait_for(bot_idle(bot), TIMEOUT)
    assert restarted and timed_out
    assert {"open", "build", "done"} <= by_panel, by_panel
    await s.wait_for(lambda: any("**Game over!**" in m.content for m in s.messages(scene.channel)))
    await bot.delivery.flush()
    over = next(m for m in s.messages(scene.channel) if "**Game over!**" in m.content)
    assert "\n1. " in over.content and " cities powered" in over.content
    phases = [m.content for m in s.messages(scene.channel) if "the map now" in m.content]
    assert any("building is over" in text for text in phases)
    status = [m for m in s.messages(scene.channel) if m.embeds and "Last moves" in str(m.embeds)]
    assert len(status) == 1, "one status message, edited in place"
    _no_money_of_others(s, scene, bot, gid)


def bot_idle(bot):
    async def idle() -> bool:
        async with bot.service.repo.reading() as repo:
            return not await repo.pending(limit=1)

    return idle


def _timed_out(s, scene) -> bool:
    return any(m.content.startswith("Time is up") for m in s.messages(scene.channel))


def _no_money_of_others(s, scene: Scene, bot, gid: int) -> None:
    """Nothing Ben received names Ada's money, nor anything Ada received Ben's: every amount of
    Elektro they saw is a price, a bid or their own money."""
    for person in (scene.ada, scene.ben):
        seen = [m for m in s.messages(scene.channel) if not m.ephemeral or m.visible_to is person]
        seen += s.dms(person)
        for message in seen:
            for line in texts(message).splitlines():
                for match in re.finditer(r"(\w+): [^,]*, (\d+) Elektro", line):
                    assert match.group(1) == person.name, (person.name, line)


async def test_a_running_games_log_and_status_keep_the_deck_and_money_secret(
    scene: Scene, bots: Bots, clock: ManualClock
) -> None:
    s, ada, ben = scene.server, scene.ada, scene.ben
    bot = await bots.start(clock=clock)
    lobby = await answer(s.slash(ada, scene.channel, "powergrid open", max_players=4))
    gid = (await bot.service.table_in(scene.channel.id)).row.id
    for person, action in ((ben, "join"), (ada, "ai"), (ada, "ai"), (ada, "start")):
        await respond(press_lobby(s, person, lobby, gid, action))
    await s.wait_for(bot_idle(bot), TIMEOUT)
    status = await answer(s.slash(ben, scene.channel, "game status"))
    scores = next(f["value"] for f in status.embeds[0]["fields"] if f["name"] == "Scores")
    # Nobody powers a city yet: all share first place, and money is not allowed to part them.
    *places, note = scores.splitlines()
    assert [line.split(".")[0] for line in places] == ["1"] * 4
    assert note == "*Tied on cities powered; money decides at the end.*"

    for _ in range(30):
        table = await bot.service.table(gid)
        seat = next(x for x in table.waiting_for() if not x.is_ai)
        person = ada if seat.user_id == ada.id else ben
        view = table.game.view(table.state, seat.seat)
        action = autopilot.choose(view, seat.seat).model_dump(mode="json", by_alias=True)
        await _move_by_command(s, person, action)
        await s.wait_for(bot_idle(bot), TIMEOUT)
    table = await bot.service.table(gid)
    assert table.row.status == "active"

    reply = await answer(s.slash(scene.outsider, scene.channel, "game log"))
    assert "every player's money" in reply.content and "order of the plant deck" in reply.content
    doc = json.loads(s.attachment_bytes(reply.attachments[0]))
    assert "seed" not in doc and doc["viewer"] is None
    assert doc["actions"][0]["action"] == {"type": "shuffle", "deck": "hidden", "removed": "hidden"}
    assert [seat["money"] for seat in doc["view"]["seats"]] == [None] * 4
    drawn = [p for e in doc["actions"] for p in e["action"].get("drawn", [])]
    assert drawn, "30 moves in, an auction has drawn a plant"
    shown = {p["number"] for part in doc["view"]["plant_market"].values() for p in part}
    assert set(drawn) & shown, "the plants drawn are named, and there they are in the market"
    with pytest.raises(IllegalAction):
        # The hidden shuffle is the first thing a replay needs: the log does not replay.
        table.game.apply(
            table.game.new(table.game.Config(**doc["config"]), 0),
            CHANCE,
            table.game.parse_action(doc["actions"][0]["action"]),
        )

    mine = json.loads(
        s.attachment_bytes((await answer(s.slash(ada, scene.channel, "game log"))).attachments[0])
    )
    me = next(x.seat for x in table.seats if x.user_id == ada.id)
    money = [seat["money"] for seat in mine["view"]["seats"]]
    assert money[me] == table.state.players[me].money
    assert money[:me] + money[me + 1 :] == [None] * 3
