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
                game=gid,
            )
        else:
            key = PLUGIN.plans().key(data)
            command = sb.server.slash(person, dm, "railroad step", step=key, game=gid)
        await sb.act(command)
    await sb.act(sb.server.slash(person, dm, "railroad submit", game=gid))


async def play_daily(sb: "Sandbox", lounge: Channel) -> None:
    """Today's daily: Ada and Ben on the same dice in their DMs; Ben may not look at Ada's board
    before he has finished; the day closes and its table is posted in the lounge."""
    ada, ben, _ = sb.people
    server = sb.server
    sb.note("Ada and Ben each start today's Railroad Ink daily with /daily play in #lounge.")
    games = []
    for person in (ada, ben):
        await sb.act(server.slash(person, lounge, "daily play", challenge="railroad_ink"))
        mine = await sb.service.games_of(person.id, guild_id=None)
        games.append(max(t.row.id for t in mine if t.row.challenge == "railroad_ink"))
    for person, gid in zip((ada, ben), games, strict=True):
        sb.note(f"{person.name} plays the daily's rounds in DMs, alone, at their own pace.")
        while (table := await sb.service.table(gid)).row.status == "active":
            round_ = table.state.round
            await _draw_routes(sb, person, gid)
            await server.wait_for(lambda r=round_, g=gid: sb.moved_on(g, r), timeout=30)
        if person is ada:
            sb.note("Ben, still to play, asks to see Ada's board: not before he has finished.")
            await sb.act(
                server.slash(ben, lounge, "daily compare", challenge="railroad_ink", person=ada)
            )
    await sb.settled()
    sb.note("Ben, done, compares his board with Ada's and looks at /daily today.")
    await sb.act(server.slash(ben, lounge, "daily compare", challenge="railroad_ink", person=ada))
    await sb.act(server.slash(ben, lounge, "daily today"))
    if await sb.next_day():
        sb.note("The day has closed: its table is posted once in #lounge.")
    else:
        sb.note("The day's table is posted at midnight: these processes run on the real clock.")
