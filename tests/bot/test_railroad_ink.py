"""Railroad Ink through the bot: a table, routes drawn by slash command, AI seats, the end."""

import re

from bot.app import GameBot
from bot.sandbox import press_lobby
from engine.railroad_ink import autopilot
from tests.bot.conftest import Scene
from tests.bot.helpers import answer, png_attachment, respond


async def _plan(s, bot: GameBot, person, gid: int) -> None:
    """Enter the autopilot's plan for this person step by step, then submit."""
    table = await bot.service.table(gid)
    seat = next(x.seat for x in table.seats if x.user_id == person.id)
    plan = autopilot.choose(table.game.view(table.state, seat), seat)
    dm = s.dm_channel(person)
    for step in plan.steps:
        data = step.model_dump(mode="json", exclude_none=True)
        if data["step"] == "draw":
            die = f"special:{data['face']}" if data["die"] == "special" else data["die"]
            dice = await s.autocomplete(person, dm, "railroad draw", focused="die")
            assert die in [c["value"] for c in dice]
            reply = await answer(
                s.slash(
                    person,
                    dm,
                    "railroad draw",
                    die=die,
                    cell=data["cell"],
                    orientation=data["orientation"],
                )
            )
        else:
            reply = await answer(s.slash(person, dm, "railroad step", step=_key(data)))
        assert "your plan" in reply.content, reply.content
        assert png_attachment(s, reply, "draft.png").width >= 1000
    done = await respond(s.slash(person, dm, "railroad submit"))
    assert "Plan submitted" in done.content


def _key(data: dict) -> str:
    import json

    return json.dumps(data, separators=(",", ":"), sort_keys=True)


async def test_a_railroad_ink_game_with_two_people_and_an_ai(scene: Scene, bot: GameBot) -> None:
    s, ada, ben = scene.server, scene.ada, scene.ben
    lobby = await answer(s.slash(ada, scene.channel, "railroad open", street_lamps=True))
    assert lobby.embeds[0]["title"].startswith("Railroad Ink game #")
    table = await bot.service.table_in(scene.channel.id)
    gid = table.row.id
    for person, action in ((ben, "join"), (ada, "ai"), (ada, "start")):
        await respond(press_lobby(s, person, lobby, gid, action))
    bad = await answer(
        s.slash(ada, s.dm_channel(ada), "railroad draw", die="route1", cell="Z9", orientation=0)
    )
    assert bad.content.startswith("There is no") or "Z9" in bad.content
    while (await bot.service.table(gid)).row.status == "active":
        round_ = (await bot.service.table(gid)).state.round
        for person in (ada, ben):
            await _plan(s, bot, person, gid)

        async def moved(r=round_) -> bool:
            t = await bot.service.table(gid)
            return t.row.status != "active" or t.state.round > r

        await s.wait_for(moved, timeout=15)
    await s.wait_for(lambda: any("**Game over!**" in m.content for m in s.messages(scene.channel)))
    await bot.delivery.flush()
    over = next(m for m in s.messages(scene.channel) if "**Game over!**" in m.content)
    assert png_attachment(s, over, "results.png").width >= 1000
    # The last round's score sheet is the results card: it is posted once.
    assert [a.filename for a in over.attachments] == ["results.png"]
    sheets = [
        m
        for m in s.messages(scene.channel)
        if any(a.filename == "results.png" for a in m.attachments)
    ]
    assert sheets == [over]
    summaries = [
        m
        for m in s.messages(scene.channel)
        if m.content.startswith("**Round ") and "built.**" in m.content
    ]
    assert len(summaries) == 6
    boards = [m for m in s.dms(ada) if m.attachments and "your board" in m.content]
    assert len(boards) == 6


async def test_the_dm_planner_draws_a_route_by_die_then_cell_then_orientation(
    scene: Scene, bot: GameBot
) -> None:
    s, ada = scene.server, scene.ada
    lobby = await answer(s.slash(ada, scene.channel, "railroad open", max_players=1))
    gid = (await bot.service.table_in(scene.channel.id)).row.id
    await respond(s.click(ada, lobby, f"pl:lobby:{gid}:start"))

    def planner():
        return next(
            (m for m in reversed(s.dms(ada)) if m.find_component(custom_id=f"ri:die:{gid}:1")),
            None,
        )

    message = await s.wait_for(planner)
    die = message.component(custom_id=f"ri:die:{gid}:1")["options"][0]["value"]
    await respond(s.select(ada, message, f"ri:die:{gid}:1", [die]))
    cells = [
        c
        for c in message.iter_components()
        if c.get("custom_id", "").startswith(f"ri:cell:{gid}:1:") and not c.get("disabled")
    ]
    assert cells, "no column group offers a cell"
    cell = cells[0]["options"][0]["value"]
    back = await respond(s.click(ada, message, f"ri:back:{gid}:1"))
    assert back is message and message.find_component(custom_id=f"ri:die:{gid}:1")
    await respond(s.select(ada, message, f"ri:die:{gid}:1", [die]))
    await respond(s.select(ada, message, cells[0]["custom_id"], [cell]))
    turn_id = f"ri:turn:{gid}:1:{die}:{cell}"
    option = message.component(custom_id=turn_id)["options"][0]
    assert re.fullmatch(r"(highway|railway) [a-z ,;]+", option["label"]), option["label"]
    await respond(s.select(ada, message, turn_id, [option["value"]]))
    assert f" at {cell}, {option['label']}" in message.content
    assert re.search(r"1\. R\d [A-Za-z -]+ at [A-G]\d, ", message.content), message.content
    draft = await bot.service.draft(gid, ada.id)
    assert len(draft.steps) == 1 and draft.steps[0]["cell"] == cell
