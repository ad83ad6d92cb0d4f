"""Hostile and careless input at volume: 900 random slash commands and component payloads
against running games. Every one gets a reply, none crashes the bot, and a refused one changes
nothing that is stored."""

import json
import random
import sqlite3
import string

from bot.app import GameBot
from bot.sandbox import press_lobby
from standin import Channel, Interaction, User
from standin.errors import DriverError
from standin.model import MESSAGE_COMPONENT
from tests.bot.conftest import Scene
from tests.bot.helpers import answer, respond, started_game

ROUNDS = 900
WORDS = ["red", "L1", "island", "A1", "route1", "special:", "coal", "Kiel", "-1", "{}", "[", "@"]


def _text(rng: random.Random, limit: int) -> str:
    pool = string.printable + "éß🙂" + "".join(WORDS)
    return "".join(rng.choice(pool) for _ in range(rng.randint(0, limit))) or "x"


def _json(rng: random.Random) -> str:
    choices = [
        "null",
        "[]",
        "[" * rng.randint(1, 400) + "]" * rng.randint(0, 3),
        json.dumps({"step": rng.choice(["draw", "power", "activate", "fly"]), "die": "route1"}),
        json.dumps({"type": rng.choice(["bid", "pass", "build", "draft", "claim"]), "x": 1}),
        json.dumps({"type": "build", "cities": [_text(rng, 12)]}),
        json.dumps({"type": "bid", "amount": rng.randint(-5, 9999)}),
        _text(rng, 80),
    ]
    return rng.choice(choices)[:300]


def _command(rng: random.Random, gids: list[int]) -> tuple[str, dict]:
    game = rng.choice([*gids, rng.randint(-3, 99999)])
    options: list[tuple[str, dict]] = [
        ("powerline place", {"placement": _text(rng, 60)[:60]}),
        ("powerline vacation", {"on": rng.random() < 0.5}),
        ("powerline submit", {}),
        ("powerline undo", {}),
        ("railroad step", {"step": _json(rng)}),
        ("railroad draw", {"die": _text(rng, 20), "cell": _text(rng, 3)[:3], "orientation": 3}),
        ("powergrid bid", {"amount": rng.randint(1, 500)}),
        ("powergrid build", {"cities": _text(rng, 100)}),
        ("powergrid region", {"region": _text(rng, 30)[:30]}),
        ("powergrid power", {"run": _json(rng)[:200]}),
        ("powergrid discard", {"choice": _json(rng)[:200]}),
        ("powergrid done", {}),
        ("propeller move", {"decision": _json(rng)[:200]}),
        ("game board", {"game": game}),
        ("game status", {"game": game}),
        ("game log", {"game": game}),
        ("game reclaim", {"game": game}),
        ("game premove", {"choice": _text(rng, 40)[:40]}),
        ("game deadline", {"deadline": "1 hour"}),
        ("game kick", {}),
        ("result", {"game_id": game}),
        ("tournament register", {"tournament": rng.randint(-2, 50)}),
    ]
    return rng.choice(options)


def _fingerprint(path) -> str:
    with sqlite3.connect(path) as db:
        games = db.execute("SELECT id, version, status, deadline FROM games ORDER BY id").fetchall()
        actions = db.execute("SELECT count(*) FROM actions").fetchone()
        drafts = db.execute("SELECT game_id, seat, steps, vacation FROM drafts").fetchall()
        seats = db.execute("SELECT * FROM seats ORDER BY game_id, seat").fetchall()
    return json.dumps([games, actions, sorted(drafts), seats])


async def _component(s, rng: random.Random, person: User, where: Channel):
    """A click or a choice on any component the person can see, whenever: stale panels, other
    people's lobbies and planners, finished games (Discord only sends what a message shows)."""
    messages = [
        m
        for m in s.messages(where)
        if m.author.bot and m.components and (not m.ephemeral or m.visible_to is person)
    ]
    if not messages:
        return None
    message = rng.choice(messages)
    component = rng.choice(list(message.iter_components()))
    custom_id = component.get("custom_id")
    if not custom_id or component.get("disabled"):
        return None
    data: dict = {"custom_id": custom_id, "component_type": component["type"]}
    if component["type"] == 3:
        values = [o["value"] for o in component.get("options", [])]
        data["values"] = [rng.choice(values)] if values and rng.random() < 0.8 else [_text(rng, 20)]
    return await s._interact(MESSAGE_COMPONENT, person, where, data, message=message)


async def test_random_input_always_gets_a_reply_and_a_refusal_changes_nothing(
    scene: Scene, bot: GameBot
) -> None:
    s, rng = scene.server, random.Random(2026)
    line = await started_game(s, bot, scene.channel, scene.ada, [scene.ben])
    lobby = await answer(s.slash(scene.ada, scene.other_channel, "powergrid open"))
    grid = (await bot.service.table_in(scene.other_channel.id)).row.id
    for person, action in ((scene.ben, "join"), (scene.ada, "ai"), (scene.ada, "start")):
        await respond(press_lobby(s, person, lobby, grid, action))
    gids = [line.gid, grid]
    people = [scene.ada, scene.ben, scene.outsider, scene.chloe]
    path = bot.settings.database
    replies = refused = 0
    for _ in range(ROUNDS):
        person = rng.choice(people)
        where = rng.choice([scene.channel, scene.other_channel, s.dm_channel(person)])
        if where.is_dm and not person.dms_open:
            where = scene.channel
        before = _fingerprint(path)
        it: Interaction | None
        try:
            if rng.random() < 0.7:
                command, options = _command(rng, gids)
                it = await s.slash(person, where, command, **options)
            else:
                command = "a component"
                it = await _component(s, rng, person, where)
        except DriverError:
            continue  # an input Discord itself would not send (an unknown option, a long value)
        if it is None:
            continue
        message = await answer(it)
        replies += 1
        text = message.content or json.dumps(message.embeds)
        assert "Something went wrong on our side" not in text, (command, text)
        success = text.startswith(("✅", "**")) or message.attachments or message.embeds
        if not success:
            refused += 1
            assert _fingerprint(path) == before, text
    assert replies >= 500 and refused >= 300, (replies, refused)
