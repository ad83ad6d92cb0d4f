"""Sharding as Discord does it: IDENTIFY with [shard, count], guild events by
(guild_id >> 22) % count, DMs to shard 0, and the recommended count from GET /gateway/bot."""

import asyncio
from typing import Any

import aiohttp

from standin import StandIn
from tests.standin.conftest import TOKEN

INTENTS = (1 << 0) | (1 << 9) | (1 << 12) | (1 << 15)
"""Guilds, guild messages, direct messages, message content."""


async def _identify(ws: aiohttp.ClientWebSocketResponse, shard: list[int]) -> None:
    assert (await ws.receive_json())["op"] == 10
    identify = {"token": TOKEN, "intents": INTENTS, "properties": {}, "shard": shard}
    await ws.send_json({"op": 2, "d": identify})


async def _events(ws: aiohttp.ClientWebSocketResponse, quiet: float = 0.3) -> list[dict[str, Any]]:
    """Every dispatch that arrives until the socket has been quiet for a moment."""
    found = []
    while True:
        try:
            frame = await ws.receive_json(timeout=quiet)
        except TimeoutError:
            return found
        if frame["op"] == 0:
            found.append(frame)


async def _guilds_on_both_shards(standin: StandIn) -> dict[int, list[Any]]:
    """Guilds until each of two shards has one (ids carry their creation millisecond)."""
    found: dict[int, list[Any]] = {0: [], 1: []}
    while not (found[0] and found[1]):
        guild = standin.add_guild(f"guild {len(found[0]) + len(found[1])}")
        found[(guild.id >> 22) % 2].append(guild)
        await asyncio.sleep(0.002)
    return found


async def test_gateway_bot_recommends_the_configured_shard_count() -> None:
    server = StandIn(TOKEN, shards=3, identify_spacing=0.0)
    await server.start()
    try:
        async with aiohttp.ClientSession() as session:
            headers = {"Authorization": f"Bot {TOKEN}"}
            async with session.get(f"{server.api_base}/gateway/bot", headers=headers) as resp:
                body = await resp.json()
        assert body["shards"] == 3 and body["url"] == server.gateway_url
    finally:
        await server.stop()


async def test_each_shard_gets_its_guilds_and_only_shard_zero_gets_dms() -> None:
    server = StandIn(TOKEN, shards=2, identify_spacing=0.0)
    await server.start()
    try:
        guilds = await _guilds_on_both_shards(server)
        channels = {shard: server.add_channel(gs[0], "games") for shard, gs in guilds.items()}
        person = server.add_user("ada", guilds=[*guilds[0], *guilds[1]])
        async with (
            aiohttp.ClientSession() as session,
            session.ws_connect(server.gateway_url) as zero,
            session.ws_connect(server.gateway_url) as one,
        ):
            await _identify(zero, [0, 2])
            await _identify(one, [1, 2])
            ready = {0: await _events(zero), 1: await _events(one)}
            for shard, frames in ready.items():
                assert frames[0]["t"] == "READY" and frames[0]["d"]["shard"] == [shard, 2]
                mine = [str(g.id) for g in guilds[shard]]
                assert [g["id"] for g in frames[0]["d"]["guilds"]] == mine
                assert [f["d"]["id"] for f in frames if f["t"] == "GUILD_CREATE"] == mine

            await server.say(person, channels[1], "on shard one")
            await server.dm_from(person, "a DM")
            await asyncio.sleep(0)
            zero_got = [
                f["d"]["content"] for f in await _events(zero) if f["t"] == "MESSAGE_CREATE"
            ]
            one_got = [f["d"]["content"] for f in await _events(one) if f["t"] == "MESSAGE_CREATE"]
            assert zero_got == ["a DM"] and one_got == ["on shard one"]
    finally:
        await server.stop()


async def test_an_invalid_shard_is_refused_with_4010() -> None:
    server = StandIn(TOKEN, identify_spacing=0.0)
    await server.start()
    try:
        async with aiohttp.ClientSession() as session, session.ws_connect(server.gateway_url) as ws:
            await _identify(ws, [2, 2])
            closed = await ws.receive()
            assert closed.type == aiohttp.WSMsgType.CLOSE and closed.data == 4010
        assert server.protocol_violations == ["gateway: IDENTIFY with an invalid shard [2, 2]"]
    finally:
        await server.stop()
