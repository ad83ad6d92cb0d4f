"""Whole turn-based games played by their panels through the stand-in, as people would: one
panel per person per turn, edited in place, none left live at the end; an undo; and in Power
Grid a maximum bid that wins an auction for a person who is not there, without anyone else
learning it."""

import json
from typing import Any

from bench.bot_turns import command, islands_command
from bot.service.clock import ManualClock
from bot.ui.turns import action_key
from engine.power_grid.events import PlantBought
from standin import Message, User
from tests.bot.by_panels import Tally, play
from tests.bot.conftest import Bots, Scene
from tests.bot.helpers import answer, respond
from tests.contract.panels import explore


async def _start(scene: Scene, bot: Any, name: str, people: list[User]) -> int:
    s = scene.server
    channel = s.add_channel(scene.guild, name)
    lobby = await answer(s.slash(people[0], channel, f"{name} open", deadline="1 hour"))
    gid = (await bot.service.table_in(channel.id)).row.id
    for person in people[1:]:
        await respond(s.click(person, lobby, f"pl:lobby:{gid}:join"))
    await answer(s.click(people[0], lobby, f"pl:lobby:{gid}:start"))
    return gid


async def _tap(
    scene: Scene, person: User, panel: Message, path: list[tuple[str, str | None]]
) -> None:
    s = scene.server
    for custom_id, value in path:
        if value is None:
            await answer(s.click(person, panel, custom_id))
        else:
            await answer(s.select(person, panel, custom_id, [value]))


async def _undo_once(scene: Scene, bot: Any, gid: int, kind: str, done: list[str]) -> Any:
    """A hook: the first time a person may make a move of `kind`, they make it, then undo it."""

    async def hook(person: User, tv: Any, panel: Message) -> int | None:
        if done or not any(a["type"] == kind for a in tv.legal):
            return None
        reach = await explore(tv)
        action = next(a for a in tv.legal if a["type"] == kind and action_key(a) in reach.paths)
        before = (await bot.service.table(gid)).state
        path = reach.paths[action_key(action)]
        await _tap(scene, person, panel, path)
        undo = f"pl:undo:{gid}:{await bot.service.action_count(gid)}"
        if not panel.find_component(custom_id=undo):
            return len(path)  # not one to take back here (it ended the turn): another time
        await respond(scene.server.click(person, panel, undo))
        await scene.server.wait_for(lambda: panel.content.startswith("↩️"), 10)
        table = await bot.service.table(gid)
        assert table.game.dump_state(table.state) == table.game.dump_state(before)
        assert panel.content.startswith("↩️ You took back: you "), panel.content
        done.append(panel.content)
        return len(path) + 1

    return hook


def _clean(tally: Tally) -> None:
    assert sum(tally.duplicates.values()) == 0, tally.duplicates
    assert tally.live == 0, "no panel keeps live controls after the end"
    assert tally.most_live <= 1, "a person never has two live panels at once"
    assert tally.commands == 0, "every move was on a panel"


async def test_propeller_islands_by_panels(scene: Scene, bots: Bots, clock: ManualClock) -> None:
    bot = await bots.start(clock=clock)
    people = [scene.ada, scene.ben]
    gid = await _start(scene, bot, "propeller", people)
    undone: list[str] = []
    # A claim turns the next tile of the stack face up (the offer refills at once, as the rule
    # text says), so it is final; activating a building is the move to take back.
    hook = await _undo_once(scene, bot, gid, "use", undone)
    tally = await play(scene.server, bot, gid, {p.id: p for p in people}, islands_command, hook)
    assert undone and "activated" in undone[0], undone
    _clean(tally)


def _seen_by(scene: Scene, person: User) -> str:
    """Every word `person` could read: their DMs and the channel's posts, all versions."""
    s = scene.server
    messages = [*s.dms(person)] + [
        m for c in scene.guild.channels for m in s.messages(c) if not m.ephemeral
    ]
    return "\n".join(
        f"{v['content']}\n{json.dumps(v['embeds'])}"
        for m in messages
        for v in [*m.edits, m.snapshot()]
    ).lower()


async def test_power_grid_by_panels(scene: Scene, bots: Bots, clock: ManualClock) -> None:
    bot = await bots.start(clock=clock)
    s, ada, ben = scene.server, scene.ada, scene.ben
    gid = await _start(scene, bot, "powergrid", [ada, ben])
    undone: list[str] = []
    undo = await _undo_once(scene, bot, gid, "buy", undone)
    capped: dict[str, int] = {}

    async def hook(person: User, tv: Any, panel: Message) -> int | None:
        auction = (await bot.service.table(gid)).state.auction
        if person is ada and capped and auction and auction.plant == capped["plant"]:
            raise AssertionError("Ada was asked to bid in the auction her maximum covers")
        if person is not ada or capped or not any(a["type"] == "bid" for a in tv.legal):
            return await undo(person, tv, panel)
        select = next(
            c for c in panel.iter_components() if c.get("custom_id", "").startswith("pl:pre:")
        )
        cap = max(int(o["value"]) for o in select["options"])
        await respond(s.select(ada, panel, select["custom_id"], [str(cap)]))
        assert panel.content.startswith(f"✅ Set, and seen by nobody else: Bid for me, up to {cap}")
        capped.update(plant=auction.plant, cap=cap, seat=tv.seat)
        return 1

    tally = await play(s, bot, gid, {ada.id: ada, ben.id: ben}, command, hook, clock)
    assert undone and "bought" in undone[0]
    _clean(tally)
    assert capped, "Ada never bid, so never set a maximum"
    table = await bot.service.table(gid)
    game, state = table.game, table.game.new(table.game.Config(**table.row.config), table.row.seed)
    won = []
    async with bot.service.repo.reading() as repo:
        log = await repo.actions(gid)
    for seat, action, _ in log:
        after = game.apply(state, seat, game.parse_action(action))
        won += [e for e in game.happened(state, seat, action, after) if isinstance(e, PlantBought)]
        state = after
    assert any(e.seat == capped["seat"] and e.plant == capped["plant"] for e in won), won
    seen = _seen_by(scene, ben)
    assert "maximum" not in seen and "bid for me" not in seen
