"""Worker for bench.clicks: the database work (statements, transactions, reads) of each turn-panel
click and each planner submit, through the loopback stand-in with the tree's bot on SQLite; prints
{"tree", "turn", "submit", "resolve"}, each {"game", "clicks"}: per click, its move's and its
delivery's counts, and the statements of the first.

Run: PYTHONPATH=<tree> python bench/workers/clicks.py [clicks]
"""

import asyncio
import importlib.util
import json
import sys
import tempfile
from collections.abc import Awaitable
from dataclasses import asdict, replace
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import bot
from bot.app import HANDLER_TASKS, GameBot, point_at
from bot.service.clock import SystemClock
from bot.service.hosting import Hosted, hosted
from bot.service.service import Service
from bot.settings import Settings
from bot.store.repo import Repo
from standin import Guild, Interaction, Message, StandIn, User
from tests.bot.by_panels import panel_of, tap
from tests.contract.panels import explore

if TYPE_CHECKING:
    from bot.store.counting import CountingDatabase

SEED = 20261125
"""Every game's seed, so that each run (and each tree) plays the same moves."""
TIMEOUT = 30.0
DELIVERY = "delivery"
"""The label of what `Delivery.flush()` runs; the rest of a click is its move's own."""
STRING_SELECT = 3


def _counting() -> ModuleType:
    """This tree's counter, whichever tree's bot it measures (an older one has none), so both
    sides of a comparison count alike."""
    path = Path(__file__).resolve().parents[2] / "bot" / "store" / "counting.py"
    spec = importlib.util.spec_from_file_location("bench_counting", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


COUNTING = _counting()


def newest(messages: list[Message], prefixes: tuple[str, ...]) -> Message | None:
    """The newest of the bot's messages with a component whose custom id starts with one of
    `prefixes`."""
    for message in reversed(messages):
        if message.author.bot and any(
            c.get("custom_id", "").startswith(prefixes) for c in message.iter_components()
        ):
            return message
    return None


class Bench:
    """The bot with its database behind a counter, and two people who play through the stand-in."""

    def __init__(self, server: StandIn, client: GameBot, guild: Guild, people: list[User]) -> None:
        self.server = server
        self.guild = guild
        self.people = people
        repo = client.service.repo
        self.counter: CountingDatabase = COUNTING.CountingDatabase(repo.database)
        repo.database = self.counter
        # The bench's own reads go around the counter, through a service with no state shared.
        self.observer = Service(Repo(self.counter.inner), SystemClock())
        flush = client.delivery.flush

        async def labelled_flush() -> int:
            with self.counter.labelled(DELIVERY):
                return await flush()

        client.delivery.flush = labelled_flush  # type: ignore[method-assign]

    async def idle(self) -> None:
        """Until no interaction is being handled and the outbox is empty."""

        async def quiet() -> bool:
            if any(
                not t.done() and t.get_name().startswith(HANDLER_TASKS) for t in asyncio.all_tasks()
            ):
                return False
            async with self.observer.repo.reading() as repo:
                return not await repo.pending(limit=1)

        await self.server.wait_for(quiet, TIMEOUT, interval=0.005)

    async def counted(self, action: Awaitable[Interaction], what: str, gid: int) -> dict[str, Any]:
        """Run the click `action` and count from its arrival until the bot is idle again."""
        before = await self.observer.action_count(gid)
        self.counter.start()
        interaction = await action
        await interaction.response(TIMEOUT)
        await self.idle()
        counts = self.counter.stop()
        # Made when the game's log grew: a panel is redrawn in place or answered in words.
        if await self.observer.action_count(gid) == before:
            reply = interaction.original.content if interaction.original else ""
            raise RuntimeError(f"{what} was answered with {reply!r}, not made")
        move = sum((c for label, c in counts.items() if label != DELIVERY), COUNTING.Counts())
        return {
            "what": what,
            "move": asdict(move),
            "delivery": asdict(counts.get(DELIVERY, COUNTING.Counts())),
            "trace": self.counter.trace,
        }

    async def step(self, person: User, message: Message, custom_id: str, value: str | None) -> None:
        """A click that is not measured: into a panel's menu, or a plan's step."""
        await (await tap(self.server, person, message, custom_id, value)).response(TIMEOUT)
        await self.idle()

    async def open_game(self, game: Hosted) -> int:
        """The first person opens a table of `game`, the others join, and it starts (on `SEED`)."""
        channel = self.server.add_channel(self.guild, game.command)
        host, *others = self.people
        await (await self.server.slash(host, channel, f"{game.command} open")).response(TIMEOUT)
        await self.idle()
        table = await self.observer.table_in(channel.id)
        assert table is not None
        gid = table.row.id
        lobby = newest(self.server.messages(channel), (f"pl:lobby:{gid}:",))
        assert lobby is not None
        for person in others:
            await self.server.click(person, lobby, f"pl:lobby:{gid}:join")
            await self.idle()
        await self.observer.repo.execute("UPDATE games SET seed = ? WHERE id = ?", (SEED, gid))
        await self.server.click(host, lobby, f"pl:lobby:{gid}:start")
        await self.idle()
        return gid

    async def turn_clicks(self, game: Hosted, clicks: int) -> list[dict[str, Any]]:
        """Moves made on "your turn" panels, each the one with the fewest taps there (the taps
        into its menus unmeasured, the last one measured), as tests/bot/by_panels finds them."""
        gid = await self.open_game(game)
        by_id = {p.id: p for p in self.people}
        measured: list[dict[str, Any]] = []
        while len(measured) < clicks:
            table = await self.observer.table(gid)
            if table.row.status != "active":
                raise RuntimeError(f"the game ended after {len(measured)} clicks")
            person = by_id[next(s.user_id for s in table.waiting_for() if s.user_id)]
            panel, turn = await self.server.wait_for(
                lambda p=person: panel_of(self.server, p, gid), TIMEOUT
            )
            tv = replace(await self.observer.turn(gid, person.id), turn=turn)
            key, path = min((await explore(tv)).paths.items(), key=lambda found: len(found[1]))
            *into, (custom_id, value) = path
            for step_id, step_value in into:
                await self.step(person, panel, step_id, step_value)
            click = tap(self.server, person, panel, custom_id, value)
            measured.append(await self.counted(click, json.loads(key)["type"], gid))
        return measured

    async def fill_plan(self, person: User, planner: Message, submit: str) -> None:
        """Choose each step's first option in the planner (unmeasured) until it can be submitted."""
        while (button := planner.find_component(custom_id=submit)) is None or button.get(
            "disabled"
        ):
            selects = [
                c
                for c in planner.iter_components()
                if c.get("type") == STRING_SELECT and not c.get("disabled")
            ]
            # A select of steps before a select of their groups, which only leads to one.
            pick = next((c for c in selects if c["custom_id"].startswith("pl:pick:")), selects[0])
            await self.step(person, planner, pick["custom_id"], pick["options"][0]["value"])

    async def submits(
        self, game: Hosted, rounds: int
    ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """Each round, every person submits a plan from the DM planner: the submits before the
        last, and the last ones, which resolve their rounds."""
        gid = await self.open_game(game)
        early: list[dict[str, Any]] = []
        last: list[dict[str, Any]] = []
        for _ in range(rounds):
            round_ = (await self.observer.table(gid)).state.round
            submit = f"pl:plan:{gid}:{round_}:submit"
            for person in self.people:
                planner = newest(self.server.dms(person), (submit,))
                assert planner is not None, f"{person.name} has no planner for round {round_}"
                await self.fill_plan(person, planner, submit)
                click = self.server.click(person, planner, submit)
                (last if person is self.people[-1] else early).append(
                    await self.counted(click, "submit", gid)
                )
        return early, last


async def measure(clicks: int) -> dict[str, Any]:
    """Counts per click for the first turn-based and the first simultaneous hosted game."""
    server = StandIn("bench-token", bot_name="Board Games Bot")
    await server.start()
    guild = server.add_guild("Bench")
    people = [server.add_user(name, guilds=[guild]) for name in ("Ada", "Ben")]
    turn_game = next(h for h in hosted().values() if h.turns is not None)
    plan_game = next(h for h in hosted().values() if h.planner is not None)
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(
            _env_file=None,
            discord_token="bench-token",
            discord_api_base=server.api_base,
            discord_gateway_url=server.gateway_url,
            database=str(Path(tmp) / "bench.sqlite3"),
            tick_seconds=3600,
        )
        point_at(settings)
        client = GameBot(settings, guild_ready_timeout=0.05)
        await client.login("bench-token")
        task = asyncio.create_task(client.connect(reconnect=False))
        await asyncio.wait_for(client.wait_until_ready(), 10)
        try:
            bench = Bench(server, client, guild, people)
            await bench.idle()
            turns = await bench.turn_clicks(turn_game, clicks)
            early, last = await bench.submits(plan_game, clicks)
        finally:
            await client.close()
            task.cancel()
            await server.stop()
    results: dict[str, Any] = {"tree": str(Path(bot.__file__).parents[1])}
    for kind, game, runs in (
        ("turn", turn_game, turns),
        ("submit", plan_game, early),
        ("resolve", plan_game, last),
    ):
        for run in runs[1:]:
            del run["trace"]
        results[kind] = {"game": game.name, "clicks": runs}
    return results


if __name__ == "__main__":
    print(json.dumps(asyncio.run(measure(int(sys.argv[1]) if len(sys.argv) > 1 else 10))))
