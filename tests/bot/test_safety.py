"""What a hostile or careless person can't do: predict the dice, open games from DMs."""

import json

import pytest

from bot.app import GameBot
from engine import registry
from standin.errors import CommandMismatch
from tests.bot.conftest import Scene
from tests.bot.helpers import answer, refusal, respond, started_game


async def _log(s, person, channel, **options) -> dict:
    reply = await answer(s.slash(person, channel, "game log", **options))
    return json.loads(s.attachment_bytes(reply.attachments[0]))


async def test_the_seed_stays_secret_until_the_game_ends_and_then_replays_exactly(
    scene: Scene, bot: GameBot
) -> None:
    s = scene.server
    game = await started_game(s, bot, scene.channel, scene.ada, [scene.ben])
    running = await _log(s, scene.outsider, scene.channel)
    assert "seed" not in running and running["actions"], running.keys()
    for person in (scene.ben, scene.ada):
        await answer(s.slash(person, s.dm_channel(person), "game leave", game=game.gid))
    table = await bot.service.table(game.gid)
    assert table.row.status == "finished"
    done = await _log(s, scene.ada, s.dm_channel(scene.ada), game=game.gid)
    engine = registry.get(done["game"])
    state = engine.new(engine.Config(**done["config"]), done["seed"])
    for entry in done["actions"]:
        state = engine.apply(state, entry["seat"], engine.parse_action(entry["action"]))
    assert engine.dump_state(state) == table.row.snapshot


async def test_a_lobbys_log_has_no_seed(scene: Scene, bot: GameBot) -> None:
    """The seed is drawn with the lobby; shown there, it would predict every roll to come."""
    s = scene.server
    await answer(s.slash(scene.ada, scene.channel, "powerline open"))
    lobby = await _log(s, scene.outsider, scene.channel)
    assert lobby["actions"] == [] and "seed" not in lobby


async def test_games_open_only_in_a_server_channel(scene: Scene, bot: GameBot) -> None:
    s = scene.server
    for command in ("powerline open", "railroad open", "powergrid open"):
        said = await refusal(s.slash(scene.ada, s.dm_channel(scene.ada), command), scene.ada)
        assert said == "Open a game in a server channel, not in DMs."
    assert await bot.service.games_of(scene.ada.id, guild_id=None, lobbies=True) == []


async def test_options_that_dont_work_together_are_refused_privately(
    scene: Scene, bot: GameBot
) -> None:
    s = scene.server
    said = await refusal(
        s.slash(scene.ada, scene.channel, "powerline open", scoring_tiles="A A A"), scene.ada
    )
    assert said.startswith("Those options don't work together:")
    assert await bot.service.table_in(scene.channel.id) is None


async def test_public_posts_ping_only_the_person_they_mean(scene: Scene, bot: GameBot) -> None:
    s = scene.server
    game = await started_game(s, bot, scene.channel, scene.ada, [scene.ben, scene.chloe])
    await answer(s.slash(scene.ada, scene.channel, "game cancel"))
    await s.wait_for(lambda: game.channel_messages(f"Powerline game #{game.gid} was cancelled"))
    posts = [m for m in s.messages(scene.channel) if m.author.bot and not m.ephemeral]
    assert posts and not any(m.pinged_everyone for m in posts)
    pinged = [(m.content[:40], [u.name for u in m.pinged]) for m in posts if m.pinged]
    assert pinged == [(f"{scene.chloe.mention} I can't send you DMs."[:40], [scene.chloe.name])], (
        pinged
    )
    cancelled = game.channel_messages(f"Powerline game #{game.gid} was cancelled by")
    assert cancelled[0].mentions == [scene.ada] and cancelled[0].pinged == []


async def test_a_moderator_of_another_server_has_no_power_here(scene: Scene, bot: GameBot) -> None:
    s = scene.server
    other = s.add_guild("Elsewhere")
    there = s.add_channel(other, "games")
    boss = s.add_user("Boss", manage_channels=True, guilds=[other])
    reader = s.add_user("Reader", guilds=[other])
    created = await answer(
        s.slash(scene.ada, scene.channel, "tournament create", name="Cup", game="powerline")
    )
    tid = int(created.content.split("tournament #")[1].split(",")[0])
    for person in (scene.ada, scene.ben, scene.dan):
        await answer(s.slash(person, scene.channel, "tournament register", tournament=tid))
    game = await started_game(s, bot, scene.other_channel, scene.ada, [scene.ben])
    before = [len(s.messages(c)) for c in (scene.channel, there)]
    assert await refusal(s.slash(boss, there, "tournament heat", tournament=tid), boss) == (
        f"There is no tournament #{tid} in this server."
    )
    assert await refusal(s.slash(boss, there, "tournament adjudicate", game=game.gid), boss) == (
        f"There is no game #{game.gid} in this server."
    )
    for command in ("game status", "game board", "game log"):
        said = await refusal(s.slash(reader, there, command, game=game.gid), reader)
        assert said == f"There is no game #{game.gid} in this server.", command
    assert (await bot.service.table(game.gid)).row.status == "active"
    assert (await bot.tournaments.get(tid)).heats_started == 0
    assert [len(s.messages(c)) for c in (scene.channel, there)] == [before[0], before[1] + 5]


async def test_tournament_commands_are_refused_in_dms_and_heat_refusals_stay_private(
    scene: Scene, bot: GameBot
) -> None:
    s = scene.server
    # The group is registered for servers only: Discord doesn't offer it in DMs at all.
    with pytest.raises(CommandMismatch, match="not available in DMs"):
        await s.slash(scene.ada, s.dm_channel(scene.ada), "tournament create", name="X")
    created = await answer(
        s.slash(scene.ada, scene.channel, "tournament create", name="Cup", game="powerline")
    )
    tid = int(created.content.split("tournament #")[1].split(",")[0])
    said = await refusal(
        s.slash(scene.ada, scene.channel, "tournament heat", tournament=tid), scene.ada
    )
    assert said == "Heat 1 needs at least 3 registered players."


async def test_bad_input_gets_a_short_clear_refusal_and_changes_nothing(
    scene: Scene, bot: GameBot
) -> None:
    s, ada = scene.server, scene.ada
    lobby = await answer(s.slash(ada, scene.channel, "railroad open"))
    gid = (await bot.service.table_in(scene.channel.id)).row.id
    await respond(s.click(ada, lobby, f"pl:lobby:{gid}:start"))
    dm = s.dm_channel(ada)
    for step in ("[" * 250 + "]" * 50, "null", "7", '"draw"'):
        said = await refusal(s.slash(ada, dm, "railroad step", step=step), ada)
        assert said == "That is not a step: pick one of the suggested steps."
    said = await refusal(s.slash(ada, dm, "railroad step", step='{"step": "fly"}'), ada)
    assert "Tuple should" not in said and "Unable to extract" not in said and len(said) < 300
    assert (await bot.service.draft(gid, ada.id)).steps == []
    long = "x" * 3000
    with pytest.raises(CommandMismatch):
        await s.slash(ada, dm, "powerline place", placement=long)


async def test_names_show_as_text_never_as_links_or_markup(scene: Scene, bot: GameBot) -> None:
    s = scene.server
    trick = s.add_user("[free nitro](https://x.example)", guilds=[scene.guild])
    lobby = await answer(s.slash(scene.ada, scene.channel, "powerline open"))
    gid = (await bot.service.table_in(scene.channel.id)).row.id
    await respond(s.click(trick, lobby, f"pl:lobby:{gid}:join"))
    seats = lobby.embeds[0]["fields"][0]["value"]
    # An escaped "[" opens no masked link: Discord shows the name as it was typed.
    assert "2. \\[free nitro](https://x.example)" in seats
