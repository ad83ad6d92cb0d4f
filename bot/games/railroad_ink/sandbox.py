"""The sandbox's Railroad Ink game: Ada, Ben and an AI with both Electricity dice, routes drawn
with `/railroad draw` and lamps and power with `/railroad step`."""

from typing import TYPE_CHECKING

from bot.games.railroad_ink.plugin import PLUGIN
from engine.railroad_ink import autopilot
from standin import Channel, User

if TYPE_CHECKING:
    from bot.sandbox import Sandbox


async def play(sb: "Sandbox", channel: Channel) -> None:
    ada, ben, _ = sb.people
    server = sb.server
    sb.note(f"Ada opens a Railroad Ink game with Street Lamps and Power Grid in #{channel.name}.")
    gid = await sb.open_game(
        ada,
        channel,
        "railroad open",
        [(ben, "join"), (ada, "ai"), (ada, "start")],
        street_lamps=True,
        power_grid=True,
    )
    while (table := await sb.service.table(gid)).row.status == "active":
        round_ = table.state.round
        if round_ == 2:
            await sb.look_around(ada, channel, ben)
        sb.note(f"Ada and Ben draw their routes for round {round_} with /railroad draw.")
        for person in (ada, ben):
            await _draw_routes(sb, person, gid)
        await server.wait_for(lambda r=round_: sb.moved_on(gid, r), timeout=30)
    await sb.finish(channel)
    sb.note("The Railroad Ink game is over; the score sheet is posted.")


async def _draw_routes(sb: "Sandbox", person: User, gid: int) -> None:
    """Enter the plan the autopilot suggests, one slash command per step, then submit."""
    table = await sb.service.table(gid)
    seat = next(s.seat for s in table.seats if s.user_id == person.id)
    plan = autopilot.choose(table.game.view(table.state, seat), seat)
    dm = sb.server.dm_channel(person)
    for step in plan.steps:
        data = step.model_dump(mode="json", exclude_none=True)
        if data["step"] == "draw":
            die = f"special:{data['face']}" if data["die"] == "special" else data["die"]
            command = sb.server.slash(
                person,
                dm,
                "railroad draw",
                die=die,
                cell=data["cell"],
                orientation=data["orientation"],
            )
        else:
            key = PLUGIN.plans().key(data)
            command = sb.server.slash(person, dm, "railroad step", step=key)
        await sb.act(command)
    await sb.act(sb.server.slash(person, dm, "railroad submit"))
