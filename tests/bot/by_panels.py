"""People who play a turn-based game by its "your turn" panels through the stand-in, as a person
would: the autopilot's decision, made with the fewest taps the panel offers; and a tally of what
it cost them (DMs, notifications, duplicate panels, taps) and what was left live at the end."""

from __future__ import annotations

import re
import statistics
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any

from bot.app import GameBot
from bot.service.clock import ManualClock
from bot.service.hosting import hosting
from bot.service.shapes import PACE
from bot.service.tables import TurnView
from bot.ui.turns import action_key
from standin import Interaction, Message, StandIn, User
from tests.contract.panels import explore

TIMEOUT = 20.0
Fallback = Callable[[dict[str, Any]], tuple[str, dict[str, Any]]]
"""The slash command (name, options) that makes a move a panel does not offer."""
Hook = Callable[[User, TurnView, Message], Awaitable[int | None]]
"""A person's own way with a turn (an undo, a maximum bid): the taps it took, or None to play
the autopilot's decision as usual."""


@dataclass
class Tally:
    """What playing by panels cost each person, by name."""

    dms: Counter[str] = field(default_factory=Counter)
    """Messages the bot sent to each person about the game (each one a notification)."""
    panels: Counter[str] = field(default_factory=Counter)
    """Of those, the ones that carried a panel."""
    duplicates: Counter[str] = field(default_factory=Counter)
    """New panel DMs while the person stayed on turn (nobody else moved since their move)."""
    taps: Counter[str] = field(default_factory=Counter)
    turns: Counter[str] = field(default_factory=Counter)
    """Turns: runs of moves by one seat with nobody else's move between."""
    per_turn: list[int] = field(default_factory=list)
    """Taps of each turn."""
    commands: int = 0
    """Moves that needed a slash command: the panel did not offer them."""
    rounds: int = 0
    live: int = 0
    """Panel messages still live (with an enabled control of this game) after the end."""
    most_live: int = 0
    """The most live panels one person had at once, after any move (one panel per person)."""

    def lines(self, label: str) -> list[str]:
        people = sorted(self.dms)
        rounds = max(1, self.rounds)
        dms = statistics.mean(self.dms[p] for p in people) / rounds
        taps = statistics.mean(self.taps[p] for p in people)
        return [
            f"{label}: {rounds} rounds, {len(people)} people",
            f"  DMs per person per round: {dms:.1f} "
            f"(panel DMs {sum(self.panels.values())}, duplicates {sum(self.duplicates.values())})",
            f"  taps per turn: mean {statistics.mean(self.per_turn):.2f}, "
            f"median {statistics.median(self.per_turn):g}, max {max(self.per_turn)}",
            f"  taps per person per game: {taps:.0f}; moves by slash command: {self.commands}",
            f"  panels live after the end: {self.live}",
        ]


def _versions(message: Message) -> list[dict[str, Any]]:
    return [*message.edits, message.snapshot()]


def _of_game(message: Message, gid: int) -> bool:
    """Whether any version of the message was about the game (its words, or its controls)."""
    return any(
        f"game #{gid}]" in v["content"] or any(f":{gid}:" in str(row) for row in v["components"])
        for v in _versions(message)
    )


def _had_controls(message: Message) -> bool:
    return any(v["components"] for v in _versions(message))


def _live(message: Message, gid: int) -> bool:
    return any(
        f":{gid}:" in c.get("custom_id", "")
        and not c.get("disabled")
        and not c["custom_id"].startswith(("pl:lobby:", "pl:lobby-ai:", "pl:rematch:"))
        for c in message.iter_components()
    )


def tap(
    server: StandIn, person: User, message: Message, custom_id: str, value: str | None
) -> Awaitable[Interaction]:
    """A step of a panel's path (tests.contract.panels): a button pressed (`value` None) or a
    select's option chosen."""
    if value is None:
        return server.click(person, message, custom_id)
    return server.select(person, message, custom_id, [value])


def panel_of(server: StandIn, person: User, gid: int) -> tuple[Message, int] | None:
    """The person's newest panel of the game, and the turn it was drawn at (its ids carry it: a
    panel stays good while the seat has not moved, whoever else did)."""
    for message in reversed(server.dms(person)):
        for c in message.iter_components():
            found = re.match(rf"[a-z]+:[a-z]+:{gid}:(\d+)", c.get("custom_id", ""))
            if message.author.bot and found and not c.get("disabled"):
                return message, int(found.group(1))
    return None


def decide(tv: TurnView, offered: dict[str, Any]) -> dict[str, Any]:
    """The autopilot's decision; where the panel makes it in steps (one city, one resource at a
    time), its first step that the rules allow now."""
    plug = hosting(tv.table.row.game)
    action = plug.choose(tv.view, tv.seat).model_dump(mode="json", by_alias=True)
    if action_key(action) in offered or action in tv.legal:
        return action
    kind = action["type"]
    same = [a for a in tv.legal if a["type"] == kind]
    if kind == "build":
        steps = [a for a in same if set(a["cities"]) <= set(action["cities"])]
        return max(steps, key=lambda a: len(a["cities"]), default=action)
    if kind == "buy":
        for a in same:
            if all(action["resources"].get(r, 0) >= n for r, n in a["resources"].items()):
                return a
    return action


async def play(
    server: StandIn,
    bot: GameBot,
    gid: int,
    people: dict[int, User],
    fallback: Fallback,
    hook: Hook | None = None,
    clock: ManualClock | None = None,
) -> Tally:
    """Play the game to its end by panels; `people` by user id. A seat whose paced pre-move
    (a maximum bid) will answer is left to it: the clock moves on until it has."""
    tally = Tally()
    service = bot.service

    async def idle() -> bool:
        async with service.repo.reading() as repo:
            return not await repo.pending(limit=1)

    last_seat: int | None = None
    turn_taps = 0
    while (table := await service.table(gid)).row.status == "active":
        waiting = [s for s in table.waiting_for() if not s.is_ai]
        assert waiting, "the game waits for nobody"
        seat = waiting[0]
        person = people[seat.user_id or 0]
        now = await service.turn(gid, person.id)
        if now.answering:
            assert clock is not None, "a paced pre-move answers only as time passes"
            clock.advance(seconds=PACE[1] + 1)
            await server.wait_for(lambda t=now.turn: _moved_on(service, gid, t), TIMEOUT)
            await server.wait_for(idle, TIMEOUT)
            continue
        panel, turn = await server.wait_for(lambda p=person: panel_of(server, p, gid), TIMEOUT)
        tv = replace(now, turn=turn)
        if seat.seat != last_seat and last_seat is not None:
            tally.per_turn.append(turn_taps)
            turn_taps = 0
        if seat.seat != last_seat:
            tally.turns[person.name] += 1
        last_seat = seat.seat
        own = await hook(person, tv, panel) if hook else None
        if own is not None:
            turn_taps += own
            tally.taps[person.name] += own
            await server.wait_for(idle, TIMEOUT)
            continue
        reach = await explore(tv)
        action = decide(tv, reach.paths)
        before = {m.id for m in server.dms(person)}
        count = await service.action_count(gid)
        path = reach.paths.get(action_key(action))
        if path is None:
            tally.commands += 1
            name, options = fallback(action)
            await (await server.slash(person, server.dm_channel(person), name, **options)).response(
                TIMEOUT
            )
            turn_taps += 1
        else:
            sure = f"pl:yes:{gid}:{tv.turn}:{action_key(action)}"
            for custom_id, value in path:
                edits = len(panel.edits)
                await (await tap(server, person, panel, custom_id, value)).response(TIMEOUT)
                turn_taps += 1
            if panel.find_component(custom_id=sure):  # the game asked if it was a slip: it wasn't
                edits = len(panel.edits)
                await (await server.click(person, panel, sure)).response(TIMEOUT)
                turn_taps += 1
                path = [*path, (sure, None)]
            # The click is answered at once; the panel is redrawn (its picture too) just after.
            await server.wait_for(lambda m=panel, n=edits: len(m.edits) > n, TIMEOUT)
        tally.taps[person.name] += 1 if path is None else len(path)
        await server.wait_for(idle, TIMEOUT)
        table = await service.table(gid)
        async with service.repo.reading() as repo:
            since = [s for s, _, _ in (await repo.actions(gid))[count:]]
        stayed = set(since) == {seat.seat} and seat.seat in table.game.to_act(table.state)
        fresh = [m for m in server.dms(person) if m.id not in before and m.components]
        for someone in people.values():
            live = sum(1 for m in server.dms(someone) if m.author.bot and _live(m, gid))
            tally.most_live = max(tally.most_live, live)
        if stayed:
            tally.duplicates[person.name] += len(fresh)

    tally.per_turn.append(turn_taps)
    await server.wait_for(idle, TIMEOUT)
    table = await service.table(gid)
    tally.rounds = table.game.progress(table.state).round
    for person in people.values():
        mine = [m for m in server.dms(person) if m.author.bot and _of_game(m, gid)]
        tally.dms[person.name] = len(mine)
        tally.panels[person.name] = sum(1 for m in mine if _had_controls(m))
        tally.live += sum(1 for m in mine if _live(m, gid))

    channel = server.messages(await _channel_of(server, bot, gid))
    tally.live += sum(1 for m in channel if _live(m, gid))
    return tally


async def _moved_on(service: Any, gid: int, turn: int) -> bool:
    return await service.action_count(gid) > turn


async def _channel_of(server: StandIn, bot: GameBot, gid: int) -> Any:
    table = await bot.service.table(gid)
    return server.world.channels[table.row.where]
