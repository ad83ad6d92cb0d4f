"""Propeller Islands on Discord: a whole game through the stand-in (2 people and 1 AI, by panels
and by `/propeller move`, a restart in the middle and one timeout), and offline, the panel's
steps, the stakes of a decision, the questions before a likely slip and the round recaps."""

import json
from collections import Counter
from typing import Any

import discord
import pytest

from bot.games.propeller_islands.controls import ClaimSelect, DeploySelect
from bot.games.propeller_islands.presenter import PRESENTER
from bot.games.propeller_islands.sandbox import first_step
from bot.games.propeller_islands.stakes import confirm, stakes
from bot.sandbox import press_lobby
from bot.service.clock import ManualClock
from bot.service.errors import UserError
from bot.service.hosting import fill
from bot.service.service import TurnView
from bot.ui import turns
from bot.ui.turns import ActSelect
from engine.propeller_islands import autopilot
from engine.propeller_islands.state import Bonus, Turn
from standin import Message, User
from tests.bot.conftest import Bots, Scene
from tests.bot.helpers import answer, respond
from tests.contract.panels import explore, turn_view
from tests.propeller_islands.helpers import (
    LEVEL_I,
    G,
    deciding,
    edit,
    island,
    play,
    random_game,
    turn_state,
)

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


async def _by_panel(s, person: User, panel: Message, action: dict, view: dict) -> bool:
    """The decision with the panel's menus and buttons, its question answered "Yes" if it asks
    one; False if the panel can't show it."""
    key = _key(action)
    first = first_step(panel, action, view)
    if first is not None:
        await respond(s.select(person, panel, first[0], [first[1]]))
    for component in panel.iter_components():
        custom_id = component.get("custom_id", "")
        if custom_id.startswith("pl:do:") and custom_id.endswith(key):
            await respond(s.click(person, panel, custom_id))
            break
        if custom_id.startswith("pl:act:") and key in [o["value"] for o in component["options"]]:
            await respond(s.select(person, panel, custom_id, [key]))
            break
    else:
        return False
    yes = next(
        (c["custom_id"] for c in panel.iter_components() if "pl:yes:" in c.get("custom_id", "")),
        None,
    )
    if yes is not None:
        await respond(s.click(person, panel, yes))
    return True


async def test_a_propeller_islands_game_with_two_people_and_an_ai(
    scene: Scene, bots: Bots, clock: ManualClock
) -> None:
    s, ada, ben = scene.server, scene.ada, scene.ben
    bot = await bots.start(clock=clock)
    lobby = await answer(s.slash(ada, scene.channel, "propeller open", max_players=3))
    assert "Capitol side: A" in lobby.embeds[0]["fields"][1]["value"]
    gid = (await bot.service.table_in(scene.channel.id)).row.id
    for person, action in ((ben, "join"), (ada, "ai"), (ada, "start")):
        await respond(press_lobby(s, person, lobby, gid, action))
    moves = restarted = timed_out = by_panel = 0
    in_steps: Counter[str] = Counter()
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
        if moves % 2 and await _by_panel(s, person, panel, action, view):
            by_panel += 1
            in_steps[action["type"]] += action["type"] in ("claim", "deploy")
        else:
            dm = s.dm_channel(person)
            offered = await s.autocomplete(person, dm, "propeller move", focused="decision")
            assert _key(action) in [c["value"] for c in offered] or len(offered) == 25
            reply = await answer(s.slash(person, dm, "propeller move", decision=_key(action)))
            assert reply.content.startswith("✅ You "), reply.content
        moves += 1
    assert restarted and timed_out and by_panel > 10
    assert in_steps["claim"] and in_steps["deploy"], in_steps
    await s.wait_for(lambda: any("**Game over!**" in m.content for m in s.messages(scene.channel)))
    over = next(m for m in s.messages(scene.channel) if "**Game over!**" in m.content)
    assert "\n1. " in over.content and " VP" in over.content
    status = [m for m in s.messages(scene.channel) if m.embeds and "Last moves" in str(m.embeds)]
    assert len(status) == 1
    versions = [str(e.get("embeds")) for e in status[0].edits] + [str(status[0].embeds)]
    assert any(" drafted a " in text for text in versions)


# ---- the panel, its words and its questions, offline from seeded states ---------------------


class _Edit:
    """An interaction whose response only keeps what the panel edited it to."""

    def __init__(self) -> None:
        self.response = self
        self.edited: dict[str, Any] = {}
        self.extras: dict[str, Any] = {}

    async def edit_message(self, **kwargs: Any) -> None:
        self.edited = kwargs

    def is_done(self) -> bool:
        return bool(self.edited)


async def _step_options(tv: TurnView, item_type: type, value: str) -> dict[str, str]:
    """A first step of the panel picked (`value` in its menu): its next menu, key → label."""
    item = next(i for i in turns.panel(tv).children if isinstance(i, item_type))
    item.item._values = [value]
    interaction = _Edit()
    await item.clicked(interaction, tv)
    shown = interaction.edited["view"]
    return {
        o.value: o.label for c in shown.children if isinstance(c, ActSelect) for o in c.item.options
    }


async def test_a_claim_is_two_taps_the_tile_then_its_spot_lettered_as_on_the_picture() -> None:
    state, seat = deciding("act")
    tv = turn_view(G, state, seat, 3)
    letters = {tuple(s["at"]): s["label"] for s in tv.view["decision"]["spots"]}
    paths = (await explore(tv)).paths
    claims = [a for a in tv.legal if a["type"] == "claim"]
    assert claims
    for action in claims:
        (menu, space), (_, key) = paths[_key(action)]
        assert menu.startswith("pi:claim:") and space == str(action["space"])
        spots = await _step_options(tv, ClaimSelect, space)
        assert spots[key].startswith(f"Spot {letters[tuple(action['at'])]}")


async def test_a_deploy_is_the_building_by_its_letter_then_the_dock_space_by_its_number() -> None:
    state, seat = deciding(
        "deploy", also=lambda d: len(d["spots"]) > 1 and any(x["empties"] for x in d["dock"])
    )
    tv = turn_view(G, state, seat, 3)
    decision = tv.view["decision"]
    paths = (await explore(tv)).paths
    for action in (a for a in tv.legal if a["type"] == "deploy"):
        path = paths[_key(action)]
        assert len(path) == 2
        letter = next(s["label"] for s in decision["spots"] if s["at"] == action["to"])
        assert path[0] == (path[0][0], letter) and path[0][0].startswith("pi:deploy:")
        docks = await _step_options(tv, DeploySelect, letter)
        entry = next(d for d in decision["dock"] if d["space"] == action["from"])
        words = f"Dock space {entry['number']}"
        if entry["empties"]:
            words += f" · empties {entry['empties'][0]}: "
        assert docks[_key(action)].startswith(words), docks[_key(action)]


async def test_every_decision_of_a_whole_game_is_one_or_two_taps_away() -> None:
    log = random_game(3, 2)[1]
    state = G.new(G.Config(players=2), 3)
    taps: Counter[int] = Counter()
    for seat, action in log:
        if seat >= 0:
            tv = turn_view(G, state, seat, 2)
            offered = (await explore(tv)).taps
            assert all(_key(a) in offered for a in tv.legal)
            taps.update(offered.values())
        state = G.apply(state, seat, action)
    assert set(taps) == {1, 2}


def _view(state: Any, seat: int = 0) -> dict[str, Any]:
    return G.view(state, seat)


def test_the_stakes_name_the_die_what_it_reaches_and_what_it_activates() -> None:
    s = island(turn_state(2, dice=[1, 2, 3, 4, 5]), 0, [(1, 0, "05-3", "ready", {})])
    s = play(s, 0, {"type": "draft", "value": 3})
    words = stakes(_view(s), 0)
    assert words.startswith("Your die is a 3: claim or discard O4, O5 and O6")
    assert "activate Capitol and Tinker Shop" in words


def test_the_stakes_of_a_blueprint_name_its_vp_and_the_turn_asks_before_leaving_it() -> None:
    s = edit(turn_state(2), 0, energy=2, steel=1, parts=0, hand=["I-01", "II-01"])
    s.turn = Turn(0, "blueprint", 1, 1)
    assert stakes(_view(s), 0).startswith("You can complete I-01 (2 VP for 2 energy and 1 steel)")
    question = confirm(_view(s), 0, {"type": "end_turn"})
    assert question is not None and "I-01 (2 VP" in question
    poor = edit(s, 0, energy=0)
    assert stakes(_view(poor), 0).startswith("No blueprint in your hand can be paid for now")
    assert confirm(_view(poor), 0, {"type": "end_turn"}) is None


def test_another_seat_about_to_end_the_game_is_named_as_a_seat() -> None:
    s = edit(turn_state(2, dice=[1, 2, 3, 4, 5]), 1, completed=LEVEL_I[:6])
    words = stakes(_view(s), 0)
    assert "{seat 1} has completed 6 of 7 blueprints" in words
    assert fill(words, ["Ada", "Ben"]).count("Ben") == 1


def test_the_stakes_of_a_deploy_name_the_dock_line_it_empties_and_its_reward() -> None:
    s = island(turn_state(2, dice=[1, 2, 3, 4, 5]), 0, [(1, 0, "05-3", None, {})])
    s = edit(s, 0, dock=[False, True, False, False] + [False] * 4 + [True, True, False, False])
    s.turn = Turn(0, "activating", 1, 1)
    s = play(s, 0, {"type": "use", "tile": [0, 0], "option": "deploy"})
    words = stakes(_view(s), 0)
    assert "space 2 empties R1 (Gain the placement benefit" in words
    assert "space 9 empties C1 (Place the top tile" in words


def test_passing_on_the_bonus_die_or_spending_the_die_on_nothing_asks_first() -> None:
    s = island(turn_state(2), 0, [(1, 0, "05-2", "ready", {})])
    s.phase, s.turn, s.bonus = "bonus", None, Bonus(2, 0, 2)
    question = confirm(_view(s), 0, {"type": "done"})
    assert question is not None and "Capitol and Tinker Shop" in question
    s = island(turn_state(2, dice=[1, 2, 3, 4, 5]), 0, [])
    s = play(edit(s, 0, energy=0), 0, {"type": "draft", "value": 1})
    s.players[0].cells[0].worker = "lying"
    question = confirm(_view(s), 0, {"type": "activate"})
    assert question is not None and "spent for nothing" in question
    assert confirm(_view(s), 0, {"type": "discard", "space": 1}) is not None
    assert confirm(_view(s), 0, {"type": "claim", "space": 1, "at": [1, 0]}) is None


def test_stopping_activations_asks_only_when_it_ends_the_turn() -> None:
    s = island(turn_state(2, dice=[1, 2, 3, 4, 5]), 0, [(1, 0, "05-3", "ready", {})])
    s = edit(s, 0, energy=0, steel=0, parts=0, hand=["I-01"])
    s.turn = Turn(0, "activating", 3, 3)
    question = confirm(_view(s), 0, {"type": "done"})
    assert question is not None and question.startswith("Stop activating and end the turn?")
    rich = edit(s, 0, energy=9, steel=9)
    assert confirm(_view(rich), 0, {"type": "done"}) is None


def test_the_channel_gets_one_recap_a_round_and_the_last_round_its_results() -> None:
    state = G.new(G.Config(players=3), 4)
    posted: list[str] = []
    for seat, action in random_game(4, 3)[1]:
        after = G.apply(state, seat, action)
        ended = G.progress(state)
        if G.progress(after).phase != ended.phase:
            made = PRESENTER.phase_image(
                G.view(after, None), ["A", "B", "C"], [ended.round, ended.phase]
            )
            if made is not None:
                posted.append(made[0])
        state = after
    rounds = G.progress(state).round
    assert posted == [
        f"Round {r} is over: every island, with fame and VP so far." for r in range(1, rounds)
    ]


async def test_a_tile_or_a_building_the_panel_did_not_offer_is_refused_in_words() -> None:
    state, seat = deciding("act")
    tv = turn_view(G, state, seat, 3)
    offered = {c["space"] for c in tv.view["decision"]["claims"]}
    far = next(space for space in range(1, 13) if space not in offered)
    for value, words in (
        (str(far), f"can't claim the tile in O{far} now"),
        ("13", "out of range"),
    ):
        menu = ClaimSelect(1, tv.turn, [discord.SelectOption(label="?", value=value)])
        menu.item._values = [value]
        with pytest.raises(UserError, match=words):
            await menu.clicked(_Edit(), tv)
    menu = DeploySelect(1, tv.turn, [discord.SelectOption(label="?", value="Z")])
    menu.item._values = ["Z"]
    with pytest.raises(UserError, match="No worker can be deployed to spot Z now"):
        await menu.clicked(_Edit(), tv)
