"""What the simulated people do through the stand-in, and what tests read back from it."""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any

from PIL import Image

from bot.app import GameBot
from bot.games.powerline.words import placement_key
from bot.sandbox import press_lobby
from bot.service.hosting import hosted
from bot.service.service import Table
from engine.powerline import autopilot
from standin import Channel, Guild, Interaction, Message, StandIn, User

TIMEOUT = 15.0


async def respond(action: Awaitable[Interaction], timeout: float = TIMEOUT) -> Message | None:
    """Run a driver action and wait for the bot's acknowledgement; the message it answered with."""
    interaction = await action
    return await interaction.response(timeout=timeout)


async def answer(action: Interaction | Awaitable[Interaction], timeout: float = TIMEOUT) -> Message:
    """The bot's final reply: the response message, or what a deferred response became."""
    interaction = action if isinstance(action, Interaction) else await action
    message = await interaction.response(timeout=timeout)
    if interaction.response_type == 5:
        await wait(lambda: not interaction.loading_pending, timeout)
    if interaction.response_type == 6 and interaction.message is not None:
        # A deferred update: the clicked message itself is redrawn once the work is done.
        panel = interaction.message
        await wait(lambda: (panel.edited_at or 0) >= interaction.created_at, timeout)
        message = panel
    assert message is not None, f"{interaction!r} was answered without a message"
    return message


async def wait(predicate: Callable[[], object], timeout: float = TIMEOUT) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        assert asyncio.get_running_loop().time() < deadline, f"timed out: {predicate!r}"
        await asyncio.sleep(0.01)


async def refusal(action: Awaitable[Interaction], user: User) -> str:
    """Run an action that must be refused privately; the refusal's text."""
    message = await answer(action)
    assert message.ephemeral or message.channel.is_dm, f"{message.content!r} is shown to all"
    assert message.visible_to is user or message.channel.recipient is user
    assert message.content, "a refusal must say why"
    return message.content


def png(data: bytes) -> Image.Image:
    """Decode PNG bytes fully (raises on anything that is not a whole, valid PNG)."""
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    image.load()
    assert image.width > 100 and image.height > 100
    return image


def png_attachment(server: StandIn, message: Message, filename: str) -> Image.Image:
    """The message's attachment `filename` (a post may carry several), decoded."""
    names = [a.filename for a in message.attachments]
    assert names.count(filename) == 1, f"{message!r} has attachments {names}, not {filename!r}"
    return png(server.attachment_bytes(message.attachments[names.index(filename)]))


def first_content(message: Message) -> str:
    return str(message.edits[0]["content"]) if message.edits else message.content


def texts(message: Message) -> str:
    """What a message says (content, embeds, button labels), old edits too.

    Select options are left out: they list the viewer's own legal moves, not anyone's plan.
    """
    parts = [message.content]
    for version in [*message.edits, {"embeds": message.embeds, "components": message.components}]:
        parts.append(str(version.get("content", "")))
        parts.append(json.dumps(version.get("embeds", []), ensure_ascii=False))
    parts += [str(c.get("label", "")) for c in message.iter_components()]
    return "\n".join(parts)


async def pick_worker(
    server: StandIn, person: User, planner: Message, gid: int, round_: int, key: str
) -> bool:
    """Choose one worker by clicking: in the select, or its colour's group then its select."""
    group = planner.find_component(custom_id=f"pl:group:{gid}:{round_}")
    if group is not None:
        colour = f"{key.split(':', 1)[0]} worker"
        await respond(server.select(person, planner, group["custom_id"], [colour]))
    for component in planner.iter_components():
        custom_id = component.get("custom_id", "")
        offered = [o["value"] for o in component.get("options", [])]
        if custom_id.startswith(f"pl:pick:{gid}:{round_}") and key in offered:
            updated = await respond(server.select(person, planner, custom_id, [key]))
            assert updated is planner
            return True
    return False


@dataclass
class Game:
    """One table as the tests follow it: where it plays and the bot that runs it."""

    server: StandIn
    bot: GameBot
    channel: Channel
    gid: int
    lobby: Message

    async def table(self) -> Table:
        return await self.bot.service.table(self.gid)

    @property
    def ref(self) -> str:
        """How DMs name this game: its label linking to its channel."""
        guild = self.channel.guild.id if self.channel.guild else "@me"
        link = f"https://discord.com/channels/{guild}/{self.channel.id}"
        return f"[Powerline game #{self.gid}]({link})"

    async def seat(self, person: User) -> int:
        table = await self.table()
        return next(s.seat for s in table.seats if s.user_id == person.id)

    async def click_lobby(self, person: User, action: str) -> Interaction:
        return await press_lobby(self.server, person, self.lobby, self.gid, action)

    async def lobby_action(self, person: User, action: str) -> None:
        message = await respond(self.click_lobby(person, action))
        assert message is self.lobby

    async def suggested(self, person: User) -> tuple[list[str], bool]:
        """The plan the autopilot would make for this person's seat: keys and vacation."""
        table = await self.table()
        seat = await self.seat(person)
        plan = autopilot.choose(table.game.view(table.state, seat), seat)
        return [placement_key(p) for p in plan.placements], plan.vacation

    async def round(self) -> int:
        return (await self.table()).state.round

    async def wait_round_over(self, round_: int) -> None:
        """Until the game has moved past ``round_`` and the next round's posts are out."""

        async def moved_on() -> bool:
            table = await self.table()
            if table.row.status != "active":
                return True
            return table.state.round > round_

        await self.server.wait_for(moved_on, TIMEOUT)
        await self.server.wait_for(self.outbox_empty, TIMEOUT)

    async def outbox_empty(self) -> bool:
        async with self.bot.service.repo.reading() as repo:
            return not await repo.pending(limit=1)

    # ---- finding messages -------------------------------------------------------------------

    def channel_messages(self, prefix: str) -> list[Message]:
        return [
            m for m in self.server.messages(self.channel) if not m.ephemeral and prefix in m.content
        ]

    def summaries(self, round_: int) -> list[Message]:
        return self.channel_messages(f"**Round {round_} built.**")

    def dm_planner(self, person: User, round_: int) -> Message | None:
        wanted = f"pl:plan:{self.gid}:{round_}:submit"
        for message in reversed(self.server.dms(person)):
            if message.author.bot and message.find_component(custom_id=wanted):
                return message
        return None

    def plan_button(self, round_: int) -> Message | None:
        wanted = f"pl:open:{self.gid}:{round_}"
        for message in reversed(self.server.messages(self.channel)):
            if message.find_component(custom_id=wanted):
                return message
        return None

    def board_dms(self, person: User, round_: int) -> list[Message]:
        """The round's board DMs (the planner edits the text; the first version is the DM)."""
        start = f"[Powerline game #{self.gid}]("
        tail = f"), round {round_}: your board."
        return [
            m
            for m in self.server.dms(person)
            if first_content(m).startswith(start) and tail in first_content(m)
        ]

    # ---- planning as a person ---------------------------------------------------------------

    async def wait_dm_planner(self, person: User, round_: int) -> Message:
        return await self.server.wait_for(lambda: self.dm_planner(person, round_), TIMEOUT)

    async def open_channel_planner(self, person: User, round_: int) -> Message:
        """Click the channel's Plan button (DMs closed): the planner, only for them."""
        notice = await self.server.wait_for(lambda: self.plan_button(round_), TIMEOUT)
        assert notice.content == f"{person.mention} I can't send you DMs. " + (
            "Use the button to plan privately here."
        )
        planner = await respond(self.server.click(person, notice, f"pl:open:{self.gid}:{round_}"))
        assert planner is not None and planner.ephemeral and planner.visible_to is person
        return planner

    async def pick(self, person: User, planner: Message, round_: int, keys: Iterable[str]) -> None:
        """Choose each worker in the planner, as offered (its colour first when the choices are
        more than one select holds)."""
        for key in keys:
            assert await pick_worker(self.server, person, planner, self.gid, round_, key), key

    async def place_by_command(self, person: User, where: Channel, keys: Iterable[str]) -> None:
        for key in keys:
            reply = await respond(
                self.server.slash(person, where, "powerline place", placement=key)
            )
            assert reply is not None and "your plan**" in reply.content, reply

    async def plan_with_select(
        self, person: User, planner: Message, round_: int, *, submit: bool = True
    ) -> list[str]:
        keys, vacation = await self.suggested(person)
        await self.pick(person, planner, round_, keys)
        if vacation:
            await self.click_planner(person, planner, round_, "vacation")
        if submit:
            await self.click_planner(person, planner, round_, "submit")
        return keys

    async def click_planner(self, person: User, planner: Message, round_: int, action: str) -> None:
        custom_id = f"pl:plan:{self.gid}:{round_}:{action}"
        updated = await respond(self.server.click(person, planner, custom_id))
        assert updated is planner, f"{action} answered {updated!r}"

    async def plan_with_commands(self, person: User, *, submit: bool = True) -> list[str]:
        """The whole plan with /powerline place (and vacation, submit) in the person's DMs."""
        dm = self.server.dm_channel(person)
        keys, vacation = await self.suggested(person)
        await self.place_by_command(person, dm, keys)
        if vacation:
            await respond(self.server.slash(person, dm, "powerline vacation", on=True))
        if submit:
            reply = await respond(self.server.slash(person, dm, "powerline submit"))
            assert reply is not None and reply.content.startswith("✅ Plan submitted."), reply
        return keys


async def open_game(
    server: StandIn, bot: GameBot, host: User, channel: Channel, **options: Any
) -> Game:
    """The host opens a table in ``channel`` with ``/powerline open``."""
    lobby = await answer(server.slash(host, channel, "powerline open", **options))
    assert lobby is not None and not lobby.ephemeral
    table = await bot.service.table_in(channel.id)
    assert table is not None and table.row.status == "lobby"
    assert lobby.embeds[0]["title"] == f"Powerline game #{table.row.id}"
    return Game(server, bot, channel, table.row.id, lobby)


async def started_game(
    server: StandIn,
    bot: GameBot,
    channel: Channel,
    host: User,
    others: Iterable[User] = (),
    ai: int = 0,
    **options: Any,
) -> Game:
    """Open, join, add AI seats, start; returns once round 1's posts are out."""
    game = await open_game(server, bot, host, channel, **options)
    for person in others:
        await game.lobby_action(person, "join")
    for _ in range(ai):
        await game.lobby_action(host, "ai")
    await game.lobby_action(host, "start")
    await server.wait_for(lambda: game.channel_messages("**Round 1 of 15**"), TIMEOUT)
    await server.wait_for(game.outbox_empty, TIMEOUT)
    return game


async def started_with_ai(
    server: StandIn, bot: GameBot, host: User, guild: Guild, name: str
) -> Game:
    """`host` opens a table of game `name` in a channel of its own; AI seats fill it to start."""
    channel = server.add_channel(guild, f"{name}-{len(guild.channels)}")
    lobby = await answer(server.slash(host, channel, f"{hosted()[name].command} open"))
    table = await bot.service.table_in(channel.id)
    assert table is not None
    gid = table.row.id
    while (await bot.service.table(gid)).row.status == "lobby":
        await respond(press_lobby(server, host, lobby, gid, "ai"))
        await answer(server.click(host, lobby, f"pl:lobby:{gid}:start"))
    return Game(server, bot, channel, gid, lobby)
