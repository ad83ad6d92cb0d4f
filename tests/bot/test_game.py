"""Whole games through the real bot in-process: people click, pick and type; the bot posts."""

from __future__ import annotations

import json
import re

from bot.app import GameBot
from engine.core import CHANCE
from standin import Message, User
from tests.bot.conftest import Scene
from tests.bot.helpers import Game, png_attachment, respond, started_game, texts


def check_round_posts(
    game: Game, round_: int, dm_people: list[User], seats: dict[int, int]
) -> None:
    """Round ``round_`` was announced once with the centre board; each DM got its board."""
    announced = game.channel_messages(f"**Round {round_} of 15**")
    assert len(announced) == 1, [m.content for m in announced]
    png_attachment(game.server, announced[0], f"round-{round_}.png")
    for person in dm_people:
        boards = game.board_dms(person, round_)
        assert len(boards) == 1, f"{person.name} got {len(boards)} boards for round {round_}"
        png_attachment(game.server, boards[0], f"board-{seats[person.id] + 1}.png")
        assert boards[0].find_component(custom_id=f"pl:plan:{game.gid}:{round_}:submit")


def check_summary(game: Game, round_: int, names: list[str]) -> Message:
    summaries = game.summaries(round_)
    assert len(summaries) == 1, f"round {round_} summarised {len(summaries)} times"
    summary = summaries[0]
    png_attachment(game.server, summary, "summary.png")
    for name in names:
        assert f"\n{name}: " in summary.content
    return summary


def check_game_over(game: Game, names: list[str], dm_people: list[User]) -> None:
    over = game.channel_messages("**Game over!**")
    assert len(over) == 1
    image = png_attachment(game.server, over[0], "results.png")
    assert image.width >= 400
    lines = over[0].content.splitlines()
    assert lines[0] == "**Round 15 built.**", "the last round's summary comes with the results"
    (head,) = [line for line in lines if line.startswith("**Game over!**")]
    winners = [line.split(". ", 1)[1].split(":")[0] for line in lines if line.startswith("1. ")]
    assert head.startswith(f"**Game over!** Powerline game #{game.gid}: ") and winners
    standings = lines[lines.index(head) + 1 :]
    assert len(standings) == len(names)
    assert sorted(line.split(". ", 1)[1].split(":")[0] for line in standings) == sorted(names)
    # A rated game shows each person's rating after it, and the move it made.
    assert all(re.search(r" VP( · rating [\d,]+ \([+-]\d+\))?$", line) for line in standings)
    for person in dm_people:
        final = [m for m in game.server.dms(person) if "is over: you placed " in m.content]
        assert len(final) == 1 and final[0].content.endswith("VP. Your final board:")
        png_attachment(game.server, final[0], "final-board.png")


async def assert_plans_hidden(game: Game, people: list[User], seen: dict[int, set[str]]) -> None:
    """No plan line of one person is in a channel message or in another person's view.

    ``seen`` collects every line each person has planned so far: a line that a viewer planned
    themselves (an identical placement on their own board) is theirs to see.
    """
    lines: dict[int, set[str]] = {}
    for person in people:
        draft = await game.bot.service.draft(game.gid, person.id)
        lines[person.id] = set(draft.lines)
        assert lines[person.id], f"{person.name} has no plan yet"
        seen.setdefault(person.id, set()).update(draft.lines)
    for message in game.server.messages(game.channel):
        viewer = message.visible_to if message.ephemeral else None
        text = texts(message)
        for owner in people:
            if viewer is owner:
                continue
            own = seen.get(viewer.id, set()) if viewer else set()
            leaked = [line for line in lines[owner.id] - own if line in text]
            assert not leaked, f"{owner.name}'s plan {leaked} is in the channel: {message!r}"
    for viewer in people:
        for message in game.server.dms(viewer):
            text = texts(message)
            for owner in people:
                if owner is viewer:
                    continue
                leaked = [line for line in lines[owner.id] - seen[viewer.id] if line in text]
                assert not leaked, f"{owner.name}'s plan {leaked} is in {viewer.name}'s DMs"


async def test_three_people_play_a_whole_game(scene: Scene, bot: GameBot) -> None:
    s, ada, ben, chloe = scene.server, scene.ada, scene.ben, scene.chloe
    game = await started_game(s, bot, scene.channel, ada, [ben, chloe], adventure_island=True)
    table = await game.table()
    assert [seat.name for seat in table.seats] == ["Ada", "Ben", "Chloe"]
    seats = {seat.user_id: seat.seat for seat in table.seats if seat.user_id}
    started = game.lobby
    assert started.embeds[0]["description"] == "The game has started."
    assert not started.components  # the lobby buttons are gone
    names = ["Ada", "Ben", "Chloe"]
    seen: dict[int, set[str]] = {}
    for round_ in range(1, 16):
        check_round_posts(game, round_, [ada, ben], seats)
        assert game.dm_planner(chloe, round_) is None
        # Chloé's DMs are closed: the channel tells her, and she plans from the Plan button.
        planner = await game.open_channel_planner(chloe, round_)
        chloe_keys, chloe_vacation = await game.suggested(chloe)
        await game.pick(chloe, planner, round_, chloe_keys)
        # Ada uses the select in her DMs; Ben alternates between the select and the command.
        ada_planner = await game.wait_dm_planner(ada, round_)
        await game.plan_with_select(ada, ada_planner, round_)
        # The planner's picture was redrawn with the plan, and it now says it is submitted.
        assert [a.filename for a in ada_planner.attachments] == ["draft.png"]
        if round_ % 2:
            await game.plan_with_select(ben, await game.wait_dm_planner(ben, round_), round_)
        else:
            await game.plan_with_commands(ben)
        await s.wait_for(game.outbox_empty)
        board = status_board(game)
        assert board.embeds[0]["title"] == f"Powerline game #{game.gid} · round {round_}"
        assert board.embeds[0]["fields"][0]["value"].splitlines() == [
            "✅ submitted — Ada",
            "✅ submitted — Ben",
            "⏳ planning — Chloe",
        ]
        assert game.summaries(round_) == []
        await assert_plans_hidden(game, [ada, ben, chloe], seen)
        if round_ == 3:
            await check_public_log(game, ben)
        if chloe_vacation:
            await game.click_planner(chloe, planner, round_, "vacation")
        await game.click_planner(chloe, planner, round_, "submit")
        assert planner.content == "✅ Plan submitted, and the round is resolving."
        await game.wait_round_over(round_)
        check_summary(game, round_, names)
    table = await game.table()
    assert table.row.status == "finished"
    check_game_over(game, names, [ada, ben])
    check_quiet_channel(game)
    async with bot.service.repo.reading() as repo:
        actions = await repo.actions(game.gid)
    assert sum(1 for _, _, source in actions if source == "player") == 45
    assert {source for _, _, source in actions} == {"player", "chance"}


async def check_public_log(game: Game, person: User) -> None:
    """Mid-round, /game log shows that Ada and Ben planned, and only Ben's own plan (he asks);
    it has no seed, and says what it leaves out."""
    reply = await respond(game.server.slash(person, game.channel, "game log"))
    assert reply is not None and reply.ephemeral and reply.visible_to is person
    told = "hidden from you for now: each player's plan for the round being planned"
    assert told in reply.content
    doc = json.loads(game.server.attachment_bytes(reply.attachments[0]))
    async with game.bot.service.repo.reading() as repo:
        stored = await repo.actions(game.gid)
    assert "seed" not in doc and doc["viewer"] == await game.seat(person)
    last_roll = max(i for i, (seat, _, _) in enumerate(stored) if seat == CHANCE)
    assert len(doc["actions"]) == len(stored) == last_roll + 3
    assert [e["action"] for e in doc["actions"][: last_roll + 1]] == [
        action for _, action, _ in stored[: last_roll + 1]
    ]
    plans = {e["seat"]: e["action"] for e in doc["actions"][last_roll + 1 :]}
    stored_plans = {seat: action for seat, action, _ in stored[last_roll + 1 :]}
    mine = await game.seat(person)
    assert plans[mine] == stored_plans[mine]
    (other,) = set(plans) - {mine}
    hidden = {k: "hidden" for k in stored_plans[other] if k != "type"}
    assert plans[other] == {"type": "plan", **hidden}
    assert doc["view"]["seats"][other]["plan"] is None


async def test_solo_game(scene: Scene, bot: GameBot) -> None:
    s, ada = scene.server, scene.ada
    game = await started_game(s, bot, scene.channel, ada, max_players=1)
    for round_ in range(1, 16):
        check_round_posts(game, round_, [ada], {ada.id: 0})
        planner = await game.wait_dm_planner(ada, round_)
        await game.plan_with_select(ada, planner, round_)
        await game.wait_round_over(round_)
        check_summary(game, round_, ["Ada"])
    assert (await game.table()).row.status == "finished"
    check_game_over(game, ["Ada"], [ada])
    # Alone at the table, nobody is "the last one" to be waited for.
    assert not [m for m in s.dms(ada) if "waiting for you" in m.content]


async def test_one_person_and_five_ai_seats(scene: Scene, bot: GameBot) -> None:
    s, ada = scene.server, scene.ada
    game = await started_game(s, bot, scene.channel, ada, ai=5)
    table = await game.table()
    assert [seat.name for seat in table.seats] == ["Ada", "AI 1", "AI 2", "AI 3", "AI 4", "AI 5"]
    assert "Seats (6/6)" in game.lobby.embeds[0]["fields"][0]["name"]
    names = [seat.name for seat in table.seats]
    for round_ in range(1, 16):
        check_round_posts(game, round_, [ada], {ada.id: 0})
        table = await game.table()
        assert table.state.round == round_
        # The AI seats planned the moment the dice were rolled; only Ada is waited for.
        assert table.state.plans[0] is None
        assert all(table.state.plans[seat] is not None for seat in range(1, 6))
        if round_ % 2:
            await game.plan_with_select(ada, await game.wait_dm_planner(ada, round_), round_)
        else:
            dm = s.dm_channel(ada)
            keys, vacation = await game.suggested(ada)
            await game.place_by_command(ada, dm, keys)
            if vacation:
                await respond(s.slash(ada, dm, "powerline vacation", on=True))
            reply = await respond(s.slash(ada, dm, "powerline submit"))
            assert reply is not None
            assert reply.content == "✅ Plan submitted. Everyone is in: the round is resolving."
        await game.wait_round_over(round_)
        check_summary(game, round_, names)
    check_game_over(game, names, [ada])


async def test_place_in_the_game_channel_stays_private(scene: Scene, bot: GameBot) -> None:
    """/powerline place, undo, clear and vacation answer in the channel only to the planner."""
    s, ada, ben = scene.server, scene.ada, scene.ben
    game = await started_game(s, bot, scene.channel, ada, [ben])
    keys, _ = await game.suggested(ada)
    before = len([m for m in s.messages(scene.channel) if not m.ephemeral])
    reply = await respond(s.slash(ada, scene.channel, "powerline place", placement=keys[0]))
    assert reply is not None and "1. " in reply.content
    assert reply.ephemeral and reply.visible_to is ada, "Ada's plan is shown to the channel"
    reply = await respond(s.slash(ada, scene.channel, "powerline undo"))
    assert reply is not None and reply.ephemeral and reply.visible_to is ada
    assert len([m for m in s.messages(scene.channel) if not m.ephemeral]) == before


def check_quiet_channel(game: Game) -> None:
    """One status board for the whole game, edited in place; a round's summary and the next
    roll in one post; at most two posts a round (with the notice for closed DMs)."""
    posts = [m for m in game.server.messages(game.channel) if m.author.bot and not m.ephemeral]
    boards = [m for m in posts if m.embeds and "Seats" in str(m.edits[:1] or m.embeds)]
    assert len(boards) == 1 and len(boards[0].edits) >= 15
    assert boards[0].embeds[0]["title"] == f"Powerline game #{game.gid} · finished"
    for round_ in range(2, 16):
        (post,) = game.channel_messages(f"**Round {round_} of 15**")
        assert post.content.startswith(f"**Round {round_ - 1} built.**")
    rounds = [m for m in posts if "**Round " in m.content]
    assert len(rounds) == 16, "15 rolls with the summaries before them, and the results"
    # The lobby, the status board, a round's post (and a closed-DMs notice), the results and
    # the recap.
    assert len(posts) <= 1 + 1 + 2 * 15 + 1 + 1, len(posts)


def status_board(game: Game) -> Message:
    return next(
        m
        for m in reversed(game.server.messages(game.channel))
        if m.embeds
        and m.embeds[0].get("title", "").startswith(f"Powerline game #{game.gid} · round")
    )


async def test_status_board_shows_ai_seats_as_submitted(scene: Scene, bot: GameBot) -> None:
    """AI seats plan as the dice are rolled; the round's status board must say so."""
    s, ada, ben = scene.server, scene.ada, scene.ben
    game = await started_game(s, bot, scene.channel, ada, [ben], ai=2)
    table = await game.table()
    assert table.state.plans[2] is not None and table.state.plans[3] is not None
    expected = ["⏳ planning — Ada", "⏳ planning — Ben"]
    expected += ["✅ submitted — AI 1 (AI)", "✅ submitted — AI 2 (AI)"]
    assert status_board(game).embeds[0]["fields"][0]["value"].splitlines() == expected
