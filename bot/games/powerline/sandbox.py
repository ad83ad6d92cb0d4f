"""The sandbox's Powerline game: Ada, Ben and Chloé (DMs closed) and an AI, with Adventure
Island, planned by the DM planner, by `/powerline place` and from the channel's Plan button,
each person in their own way."""

from random import Random
from typing import TYPE_CHECKING, Any

from bot.games.powerline.words import placement_key
from bot.service.service import Table
from engine.core import planning
from engine.powerline import autopilot
from engine.powerline.actions import Placement
from standin import Channel, Message, User

if TYPE_CHECKING:
    from bot.sandbox import Sandbox


async def play(sb: "Sandbox", channel: Channel) -> None:
    ada, ben, chloe = sb.people
    server = sb.server
    sb.note(f"Ada opens a Powerline game with the Adventure Island variant in #{channel.name}.")
    gid = await sb.open_game(
        ada,
        channel,
        "powerline open",
        [(ben, "join"), (chloe, "join"), (ada, "ai"), (ada, "start")],
        adventure_island=True,
    )
    while (table := await sb.service.table(gid)).row.status == "active":
        round_ = table.state.round
        if round_ == 2:
            await sb.look_around(ben, channel, ada)
        for seat in table.waiting_for():
            if not seat.is_ai:
                person = next(p for p in sb.people if p.id == seat.user_id)
                await _plan(sb, channel, person, gid, round_, seat.seat)
        await server.wait_for(lambda r=round_: sb.moved_on(gid, r), timeout=30)
    await sb.finish(channel)
    sb.note("The Powerline game is over; the results are posted.")


STYLES = {"Ada": "autopilot", "Ben": "steady", "Chloé": "daring"}
"""Each person plays their own way: Ada as the autopilot would, Ben builds three workers from
the first line segments offered, Chloé picks at random and stops when she likes."""


def _own_way(table: Table, seat: int, style: str, rng: Random) -> tuple[list[str], bool]:
    """The placements (keys) and the vacation tile of one person's plan, in their style."""
    game, state = planning(table.game), table.state
    if style == "autopilot":
        plan = autopilot.choose(game.view(state, seat), seat)
        return [placement_key(p) for p in plan.placements], plan.vacation
    steps: list[dict[str, Any]] = []
    while True:
        offered = [o.model_dump(mode="json") for o in game.legal_next(state, seat, steps)]
        ready = game.can_submit(state, seat, steps)
        enough = len(steps) >= 3 if style == "steady" else rng.random() < 0.4
        if not offered or (ready and enough):
            break
        on_lines = [o for o in offered if not o.get("island")] or offered
        steps.append(on_lines[0] if style == "steady" else rng.choice(offered))
    return [placement_key(Placement.model_validate(s)) for s in steps], False


async def _plan(
    sb: "Sandbox", channel: Channel, person: User, gid: int, round_: int, seat: int
) -> None:
    """A person enters their plan, as a person would, click by click."""
    table = await sb.service.table(gid)
    keys, vacation = _own_way(table, seat, STYLES[person.name], Random(f"{gid}:{round_}:{seat}"))
    server = sb.server
    if not person.dms_open:
        notice = await server.wait_for(lambda: _find(sb, channel, f"pl:open:{gid}:{round_}"), 15)
        sb.note(f"{person.name} (DMs closed) opens the planner from the channel, round {round_}.")
        planner = await sb.act(server.click(person, notice, f"pl:open:{gid}:{round_}"))
    elif round_ % 2:
        dm = server.dm_channel(person)
        planner = await server.wait_for(lambda: _find(sb, dm, f"pl:plan:{gid}:{round_}:submit"), 15)
        sb.note(f"{person.name} plans round {round_} with the DM planner.")
    else:
        dm = server.dm_channel(person)
        sb.note(f"{person.name} plans round {round_} with /powerline place in DMs.")
        for key in keys:
            await sb.act(server.slash(person, dm, "powerline place", placement=key))
        if vacation:
            await sb.act(server.slash(person, dm, "powerline vacation", on=True))
        await sb.act(server.slash(person, dm, "powerline submit"))
        return
    assert planner is not None
    for key in keys:
        group = planner.find_component(custom_id=f"pl:group:{gid}:{round_}")
        if group is not None:
            colour = f"{key.split(':', 1)[0]} worker"
            sb.note(f"{person.name} has more choices than one menu holds: picks {colour} first.")
            await sb.act(server.select(person, planner, group["custom_id"], [colour]))
        picks = [
            c
            for c in planner.iter_components()
            if c.get("custom_id", "").startswith(f"pl:pick:{gid}:{round_}")
            and key in [o["value"] for o in c["options"]]
        ]
        await sb.act(server.select(person, planner, picks[0]["custom_id"], [key]))
    if vacation:
        await sb.act(server.click(person, planner, f"pl:plan:{gid}:{round_}:vacation"))
    await sb.act(server.click(person, planner, f"pl:plan:{gid}:{round_}:submit"))


def _find(sb: "Sandbox", channel: Channel, custom_id: str) -> Message | None:
    for message in reversed(sb.server.messages(channel)):
        if message.find_component(custom_id=custom_id):
            return message
    return None
