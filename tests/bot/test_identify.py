"""Discord takes one IDENTIFY per 5 s per bucket across all of a bot's processes; discord.py
spaces only a process's own shards. Two processes on one database take turns through it, and the
stand-in refuses a too-early IDENTIFY as Discord does, so a breach fails a test."""

import asyncio

from bot.store.database import open_database
from tests.bot.conftest import Bots


async def test_two_processes_starting_together_identify_in_turn(bots: Bots) -> None:
    server = bots.server
    server.identify_spacing = 1.0
    # The database exists already, as in a deployment: the processes meet at the gateway.
    await (await open_database(bots.database)).close()
    first, second = await asyncio.gather(
        bots.start(identify_seconds=1.0), bots.start(identify_seconds=1.0)
    )
    assert first.is_ready() and second.is_ready()
    assert server.gateway.identifies == 2
    assert not server.protocol_violations


async def test_a_process_that_does_not_wait_is_refused(bots: Bots) -> None:
    server = bots.server
    server.identify_spacing = 1.0
    await bots.start(identify_seconds=1.0)
    early = asyncio.create_task(bots.start(identify_seconds=0.0))
    await server.wait_for(lambda: server.protocol_violations, 10)
    assert "IDENTIFY" in server.protocol_violations[0]
    assert (await early).is_ready(), "refused once, it identifies again after a while"
    server.protocol_violations.clear()  # the breach this test provoked
