"""Forged and outdated components (custom ids and select values the bot never drew, as a tampered
client or a message of an older version sends them): a private refusal that says what is wrong,
and nothing changes."""

from __future__ import annotations

import asyncio
import importlib
import logging
import re
import typing
from typing import Any

import discord
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.app import GameBot, extensions
from bot.games.railroad_ink.controls import die_value, draws
from bot.service.hosting import hosted
from bot.ui.clicks import Clicked
from engine.core import CHANCE
from engine.power_grid.rules import game_map
from standin import DriverError, Message, User
from tests.bot.conftest import Scene
from tests.bot.helpers import Game, answer, refusal, started_with_ai
from tests.bot.test_refusals import Unchanged

HUGE = "9" * 20
"""A number no database column holds."""


def components() -> list[type[discord.ui.DynamicItem[Any]]]:
    """Every restart-proof component in the bot's code (its modules and every game's cog)."""
    for module in ["bot.app", *extensions()]:
        importlib.import_module(module)
    found: dict[str, type[discord.ui.DynamicItem[Any]]] = {}
    todo: list[type] = [discord.ui.DynamicItem]
    while todo:
        for sub in todo.pop().__subclasses__():
            todo.append(sub)
            # The list must not change between hypothesis's examples, but earlier tests' bots
            # leave classes until they are collected: the catch-all each bot makes (`stray`), and
            # a cog's classes made anew when a later bot loads the extension again.
            if sub.__module__.startswith("bot.") and "<locals>" not in sub.__qualname__:
                found[f"{sub.__module__}.{sub.__qualname__}"] = sub
    return [found[name] for name in sorted(found)]


def owner(custom_id: str) -> tuple[type, re.Match[str]]:
    """The component whose template the custom id matches, and the match."""
    for cls in components():
        match = cls.__discord_ui_compiled_template__.fullmatch(custom_id)
        if match:
            return cls, match
    raise AssertionError(f"no component claims {custom_id!r}")


def swap(custom_id: str, field: str, text: str) -> str:
    """`custom_id` with its `field` (as its template names it) written as `text`."""
    _, match = owner(custom_id)
    start, end = match.span(field)
    return custom_id[:start] + text + custom_id[end:]


def damaged(kind: str, why: str) -> str:
    return f"That {kind} is out of date or damaged: {why}. Use the newest one the bot sent you."


async def forged(
    game: Game, person: User, message: Message, custom_id: str, values: list[str] | None = None
) -> str:
    """Send a component interaction the message does not carry (a select if `values` are given);
    the private refusal it gets, the message left as it was."""
    edits = len(message.edits)
    kind = 2 if values is None else 3
    sent = game.server.forge_component(
        person, message, custom_id, values=values, component_type=kind
    )
    text = await refusal(sent, person)
    assert len(message.edits) == edits, f"{custom_id} changed the message it was clicked on"
    return text


def of_game(message: Message, gid: int) -> list[dict[str, Any]]:
    """The message's components that act on game `gid`."""
    found = []
    for component in message.iter_components():
        custom_id = component.get("custom_id")
        if custom_id and int(owner(custom_id)[1]["game"]) == gid:
            found.append(component)
    return found


async def panel(game: Game, person: User) -> Message:
    """The person's newest panel or planner of the game (a DM)."""

    def newest() -> Message | None:
        for message in reversed(game.server.dms(person)):
            if message.author.bot and of_game(message, game.gid):
                return message
        return None

    return await game.server.wait_for(newest, 15)


async def started(scene: Scene, bot: GameBot) -> dict[str, Game]:
    return {
        name: await started_with_ai(scene.server, bot, scene.ada, scene.guild, name)
        for name in hosted()
    }


async def opened(scene: Scene, bot: GameBot, name: str) -> tuple[Game, Message]:
    """A started table of `name`, and Ada's panel or planner of it."""
    game = await started_with_ai(scene.server, bot, scene.ada, scene.guild, name)
    return game, await panel(game, scene.ada)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_a_custom_id_its_template_matches_always_rebuilds_the_component(data) -> None:
    """Rebuilding keeps the matched strings: no id, however odd, fails before the callback."""
    cls = data.draw(st.sampled_from(components()))
    assert issubclass(cls, Clicked) and "from_custom_id" not in vars(cls), cls
    template = cls.__discord_ui_compiled_template__
    custom_id = data.draw(st.from_regex(template, fullmatch=True))
    (kind,) = next(
        typing.get_args(base)
        for base in cls.__orig_bases__
        if typing.get_origin(base) is discord.ui.DynamicItem
    )
    item = kind(custom_id=custom_id)
    match = template.fullmatch(custom_id)
    rebuilt = asyncio.run(cls.from_custom_id(None, item, match))
    assert type(rebuilt) is cls and rebuilt.item is item
    assert rebuilt.fields == {k: v for k, v in match.groupdict().items() if v is not None}


async def test_every_game_s_panel_refuses_forged_values_and_game_numbers(
    scene: Scene, bot: GameBot
) -> None:
    """For each hosted game, each component of Ada's first panel or planner: values its select
    does not offer, a game number no database holds, a game that does not exist, and the id of
    another kind of game."""
    games = await started(scene, bot)
    ada = scene.ada
    for name, game in games.items():
        message = await panel(game, ada)
        planned = hosted()[name].turns is None
        other = next(g for n, g in games.items() if (hosted()[n].turns is None) != planned)
        title = (await other.table()).game.title
        async with Unchanged(game), Unchanged(other):
            for component in of_game(message, game.gid):
                custom_id = component["custom_id"]
                is_select = component["type"] == 3
                kind = "menu" if is_select else "button"
                offered = (
                    [o["value"] for o in component.get("options", [])][:1] if is_select else None
                )
                if is_select:
                    assert await forged(game, ada, message, custom_id, ["forged"]) == damaged(
                        "menu", "“forged” is not one of its choices"
                    )
                huge = swap(custom_id, "game", HUGE)
                assert await forged(game, ada, message, huge, offered) == damaged(
                    kind, f"the game {HUGE} is out of range"
                )
                missing = swap(custom_id, "game", str(game.gid + 1000))
                assert await forged(game, ada, message, missing, offered) == (
                    f"There is no game #{game.gid + 1000}."
                )
                elsewhere = swap(custom_id, "game", str(other.gid))
                text = await forged(game, ada, message, elsewhere, offered)
                assert title in text or f"game #{other.gid} " in text, text


async def test_shared_components_refuse_forged_ids(scene: Scene, bot: GameBot) -> None:
    """A turn-based panel (whichever game plays turn by turn), the lobby, the rematch button and
    the leaderboard's pages, each with a custom id the bot never wrote."""
    s, ada = scene.server, scene.ada
    name = next(n for n, h in hosted().items() if h.turns is not None)
    game, message = await opened(scene, bot, name)
    turn = int(owner(of_game(message, game.gid)[0]["custom_id"])[1]["turn"])
    table = await game.table()
    seat = await game.seat(ada)
    async with bot.service.repo.reading() as repo:
        log = await repo.actions(game.gid)
    # A panel drawn before the last deal or move of Ada's is stale.
    stale = max(i for i, (who, _, _) in enumerate(log) if who in (CHANCE, seat))
    gid = game.gid
    board = await answer(s.slash(ada, scene.other_channel, "leaderboard", game=name))
    page = next(c["custom_id"] for c in board.iter_components() if c.get("custom_id"))
    scope = owner(page)[1]["scope"]
    board_edits = len(board.edits)
    out_of_date = (
        f"This panel of {table.label} is out of date: the game has moved on since it was drawn "
        f"(it is at {table.game.progress(table.state).words} now). Use your newest panel."
    )
    async with Unchanged(game):
        for custom_id, values, text in (
            (f"pl:do:{gid}:{turn}:notjson", None, damaged("button", "“notjson” is not a move")),
            (f"pl:act:{gid}:{turn}:9", ["[1, 2]"], damaged("menu", "“[1, 2]” is not a move")),
            (f"pl:act:{gid}:{turn}:9", ["a", "b"], damaged("menu", "it takes one choice, not 2")),
            (f"pl:act:{gid}:{turn}:9", [], damaged("menu", "nothing was chosen")),
            (
                f"pl:do:{HUGE}:{turn}:{{}}",
                None,
                damaged("button", f"the game {HUGE} is out of range"),
            ),
            (
                f"pl:do:{gid}:{HUGE}:{{}}",
                None,
                damaged("button", f"the turn {HUGE} is out of range"),
            ),
            (f"pl:turn:{HUGE}:1", None, damaged("button", f"the game {HUGE} is out of range")),
            (
                f'pl:do:{gid}:{len(log) + 5}:{{"type":"pass"}}',
                None,
                out_of_date,
            ),
            (f"pl:back:{gid}:{HUGE}", None, damaged("button", f"the turn {HUGE} is out of range")),
            (
                f'pl:do:{gid}:{stale}:{{"type":"pass"}}',
                None,
                out_of_date,
            ),
            (
                f"pl:back:{gid}:{stale}",
                None,
                out_of_date,
            ),
            (f"pl:lobby:{HUGE}:join", None, damaged("button", f"the game {HUGE} is out of range")),
            (
                f"pl:lobby:{gid}:start",
                None,
                "That lobby is closed: the game has started or ended.",
            ),
            (f"pl:lobby-ai:{gid}", ["genius"], damaged("menu", "“genius” is not an AI level")),
            (
                f"pl:lobby-ai:{gid}",
                ["strong"],
                "That lobby is closed: the game has started or ended.",
            ),
            (f"pl:rematch:{HUGE}", None, damaged("button", f"the game {HUGE} is out of range")),
            # Ids that match no template at all (an older version's, or made up) are answered.
            ("pl:rematch:abc", None, damaged("button", "the bot no longer knows it")),
            ("no:such\nbutton", None, damaged("button", "the bot no longer knows it")),
            (f"pl:act:{gid}:{turn}", ["{}"], damaged("menu", "the bot no longer knows it")),
            (
                f"pl:rematch:{gid}",
                None,
                f"{table.label} has not finished; a rematch comes after the end.",
            ),
        ):
            where = game.lobby if custom_id.startswith("pl:lobby") else message
            assert await forged(game, ada, where, custom_id, values) == text, custom_id
        for custom_id, text in (
            (f"lb:nosuchgame:{scope}:0", "There is no game “nosuchgame” on this bot."),
            (f"lb:{name}:{scope}:{HUGE}", damaged("button", f"the page {HUGE} is out of range")),
            (f"lb:{name}:{HUGE}:0", damaged("button", f"the scope {HUGE} is out of range")),
        ):
            assert await forged(game, ada, board, custom_id) == text, custom_id
    assert len(board.edits) == board_edits


async def test_the_stand_in_still_refuses_a_click_the_message_does_not_carry(
    scene: Scene, bot: GameBot
) -> None:
    s, ada = scene.server, scene.ada
    panels = [(game, await panel(game, ada)) for game in (await started(scene, bot)).values()]
    game, message = panels[0]
    real = of_game(message, game.gid)[0]["custom_id"]
    with pytest.raises(DriverError, match="no component"):
        await s.click(ada, message, swap(real, "game", HUGE))
    message, select = next(
        (m, c) for _, m in panels for c in m.iter_components() if c.get("type") == 3
    )
    with pytest.raises(DriverError, match="offers"):
        await s.select(ada, message, select["custom_id"], ["forged"])


async def test_an_unexpected_error_in_a_click_is_answered_with_a_reference(
    scene: Scene, bot: GameBot, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The safety net: an error nobody foresaw is logged once, and the person is told its
    reference rather than left with "This interaction failed"."""
    s, ada = scene.server, scene.ada
    game, message = await opened(scene, bot, next(iter(hosted())))

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the disk is on fire")

    for method in ("turn", "act", "check_round", "draft", "edit_draft", "submit"):
        monkeypatch.setattr(bot.service, method, broken)
    component = of_game(message, game.gid)[0]
    caplog.clear()
    with caplog.at_level(logging.ERROR):
        if component["type"] == 3:
            value = component["options"][0]["value"]
            sent = s.select(ada, message, component["custom_id"], [value])
        else:
            sent = s.click(ada, message, component["custom_id"])
        text = await refusal(sent, ada)
        await asyncio.sleep(0.05)
    found = re.fullmatch(
        r"Something went wrong on our side \(ref ([0-9a-f]{6})\)\. Please try again in a moment\.",
        text,
    )
    assert found, text
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1, [r.getMessage() for r in errors]
    assert found[1] in errors[0].getMessage()
    assert errors[0].exc_info and isinstance(errors[0].exc_info[1], RuntimeError)


def field(message: Message, gid: int, name: str) -> str:
    """A field (the turn, the round) of the message's first component acting on game `gid`."""
    return owner(of_game(message, gid)[0]["custom_id"])[1][name]


async def forged_all(game: Game, person: User, message: Message, cases: list[tuple]) -> None:
    """Each (custom id, values or None, refusal) forged on `message`; nothing changes."""
    async with Unchanged(game):
        for custom_id, values, text in cases:
            assert await forged(game, person, message, custom_id, values) == text, custom_id


async def test_power_grid_s_own_components(scene: Scene, bot: GameBot) -> None:
    game, message = await opened(scene, bot, "power_grid")
    gid, turn = game.gid, int(field(message, game.gid, "turn"))
    table = await game.table()
    code = table.game.view(table.state, None)["map"]
    country = game_map(code).name
    stale = (
        f"This panel of {table.label} is out of date: the game has moved on since it was drawn "
        f"(it is at {table.game.progress(table.state).words} now). Use your newest panel."
    )
    cases = [
        (
            f"pg:build:{gid}:{turn}:{code}:999",
            None,
            damaged("button", f"{country} has no city number 999"),
        ),
        (
            f"pg:build:{gid}:{turn}:{code}:1..2",
            None,
            damaged("button", "the city “” is not a number"),
        ),
        (
            f"pg:build:{gid}:{turn}:zzz:1",
            None,
            damaged("button", f"it names the map “zzz”, and this game is on {country}"),
        ),
        (f"pg:build:{gid}:0:{code}:1", None, stale),
        (
            f"pg:cities:{gid}:{turn}:{code}",
            ["999"],
            damaged("menu", f"{country} has no city number 999"),
        ),
        (
            f"pg:cities:{gid}:{turn}:{code}",
            ["-1"],
            damaged("menu", f"{country} has no city number -1"),
        ),
        (f"pg:plant:{gid}:{turn}", ["abc"], damaged("menu", "the plant “abc” is not a number")),
        (f"pg:plant:{gid}:{turn}", ["999"], "Plant 999 can't be auctioned now."),
        (f"pg:kind:{gid}:{turn}", ["gold"], "Pick coal, oil, garbage or uranium."),
        (f"pg:region:{gid}:{turn}", ["Atlantis"], "You can't build in Atlantis now."),
    ]
    await forged_all(game, scene.ada, message, cases)


async def test_railroad_ink_s_own_components(scene: Scene, bot: GameBot) -> None:
    game, message = await opened(scene, bot, "railroad_ink")
    gid, round_ = game.gid, int(field(message, game.gid, "round"))
    draw = draws(await bot.service.draft(gid, scene.ada.id))[0]
    die, cell = die_value(draw), draw["cell"]
    # A leading zero names the same game with an id the message does not carry.
    cases = [
        (f"ri:die:{gid}:{round_}", ["zzz"], damaged("menu", "“zzz” is not one of its choices")),
        (f"ri:die:0{gid}:{round_}", ["zzz"], "You can't draw that die now."),
        (f"ri:cell:{gid}:{round_}:zzz:0", [cell], f"You can't draw that die in {cell} now."),
        (f"ri:cell:{gid}:{round_}:{die}:0", ["Q9"], "You can't draw that die in Q9 now."),
        (
            f"ri:turn:{gid}:{round_}:{die}:{cell}",
            ["x"],
            damaged("menu", "the orientation “x” is not a number"),
        ),
        (
            f"ri:turn:{gid}:{round_}:{die}:{cell}",
            ["99"],
            f"That orientation doesn't fit in {cell} now.",
        ),
        (f"ri:back:{gid}:{HUGE}", None, damaged("button", f"the round {HUGE} is out of range")),
        (
            f"ri:die:0{gid}:{round_ + 1}",
            [die],
            f"This planner is from round {round_ + 1}; game #{gid} is in round {round_} now. "
            "Use the newest planner.",
        ),
    ]
    await forged_all(game, scene.ada, message, cases)


async def test_propeller_islands_own_components(scene: Scene, bot: GameBot) -> None:
    game, message = await opened(scene, bot, "propeller_islands")
    gid, turn = game.gid, int(field(message, game.gid, "turn"))
    cases = [
        (f"pi:kind:{gid}:{turn}", ["fly"], "You can't do that now."),
        (
            f"pi:kind:{gid}:{turn}",
            ["claim", "draft"],
            damaged("menu", "it takes one choice, not 2"),
        ),
        (f"pi:kind:{gid}:{HUGE}", ["fly"], damaged("menu", f"the turn {HUGE} is out of range")),
    ]
    await forged_all(game, scene.ada, message, cases)


async def test_powerline_s_planner(scene: Scene, bot: GameBot) -> None:
    game, message = await opened(scene, bot, "powerline")
    gid, round_ = game.gid, int(field(message, game.gid, "round"))
    cases = [
        (f"pl:pick:0{gid}:{round_}", ["garbage"], damaged("menu", "“garbage” is not a step")),
        (
            f"pl:pick:0{gid}:{round_}",
            ["red:L99:0:"],
            "There is no line L99; the lines are L1 to L10.",
        ),
        (
            f"pl:group:{gid}:{round_}",
            ["nothing"],
            "Nothing in “nothing” can be added to this plan now.",
        ),
        (
            f"pl:plan:{gid}:{HUGE}:submit",
            None,
            damaged("button", f"the round {HUGE} is out of range"),
        ),
    ]
    await forged_all(game, scene.ada, message, cases)


async def test_a_planner_naming_a_turn_based_game_in_its_round_is_refused_in_words(
    scene: Scene, bot: GameBot
) -> None:
    """Past the round check (the other game is in that round too), a planner's select that names
    a game played turn by turn gets a refusal in words, not an unexpected error."""
    planned = next(n for n, h in hosted().items() if h.planner is not None)
    turned = next(n for n, h in hosted().items() if h.turns is not None)
    game, message = await opened(scene, bot, planned)
    other = await started_with_ai(scene.server, bot, scene.ada, scene.guild, turned)
    table = await other.table()
    round_ = table.game.progress(table.state).round
    text = table.game.title + " has no plans to draft: it is played turn by turn."
    await forged_all(game, scene.ada, message, [(f"pl:pick:{other.gid}:{round_}", ["x"], text)])
