"""Discord's rules, enforced with Discord's status codes and JSON error codes."""

from __future__ import annotations

import io
from typing import Any

import aiohttp
import discord
import pytest

from standin.limits import Code
from tests.standin.conftest import Scene


async def _raw_callback(scene: Scene, interaction_id: int, token: str, body: dict) -> tuple:
    url = f"{scene.standin.api_base}/interactions/{interaction_id}/{token}/callback"
    async with (
        aiohttp.ClientSession() as session,
        session.post(url, json=body, params={"with_response": "1"}) as response,
    ):
        return response.status, response.headers["Content-Type"], await response.json()


async def test_late_ack_is_unknown_interaction(scene: Scene) -> None:
    s, bot = scene.standin, scene.bot
    s.ack_deadline = 0.1
    bot.slow_delay = 0.2
    it = await s.slash(scene.alice, scene.channel, "slow")
    await s.wait_for(lambda: bot.errors)
    (error,) = bot.errors
    assert isinstance(error, discord.NotFound) and error.code == Code.UNKNOWN_INTERACTION
    assert [e.code for e in it.errors] == [Code.UNKNOWN_INTERACTION]
    with pytest.raises(AssertionError, match="not acknowledged"):
        await it.response(timeout=0.05)
    with pytest.raises(AssertionError, match="10062"):
        s.assert_clean()
    scene.allow.add(Code.UNKNOWN_INTERACTION)


async def test_second_callback_is_already_acknowledged(scene: Scene) -> None:
    s, bot = scene.standin, scene.bot
    bot.slow_delay = 0.5
    it = await s.slash(scene.alice, scene.channel, "slow")
    first = await _raw_callback(scene, it.id, it.token, {"type": 4, "data": {"content": "raw"}})
    status, content_type, body = first
    assert (status, content_type) == (200, "application/json")
    assert body["interaction"]["id"] == str(it.id)
    assert body["resource"]["type"] == 4 and body["resource"]["message"]["content"] == "raw"
    assert body["interaction"]["response_message_id"] == body["resource"]["message"]["id"]
    second = await _raw_callback(scene, it.id, it.token, {"type": 4, "data": {"content": "again"}})
    assert (second[0], second[2]["code"]) == (400, Code.ALREADY_ACKNOWLEDGED)
    # The bot's own (third) answer is refused the same way.
    await s.wait_for(lambda: bot.errors)
    assert isinstance(bot.errors[0], discord.HTTPException)
    assert bot.errors[0].code == Code.ALREADY_ACKNOWLEDGED
    assert [m.content for m in s.messages(scene.channel)] == ["raw"]
    scene.allow.add(Code.ALREADY_ACKNOWLEDGED)


async def test_update_message_is_only_for_components(scene: Scene) -> None:
    s, bot = scene.standin, scene.bot
    bot.slow_delay = 0.5
    it = await s.slash(scene.alice, scene.channel, "slow")
    status, _, body = await _raw_callback(
        scene, it.id, it.token, {"type": 7, "data": {"content": "nope"}}
    )
    assert (status, body["code"]) == (400, Code.INVALID_FORM_BODY)
    assert body["errors"]["type"]["_errors"][0]["code"] == "BASE_TYPE_CHOICES"
    # A refused callback does not count as the acknowledgement.
    reply = await it.response()
    assert reply is not None and reply.content == "finally"
    scene.allow.add(Code.INVALID_FORM_BODY)


async def test_oversized_content_is_invalid_form_body(scene: Scene) -> None:
    channel = scene.bot.get_channel(scene.channel.id)
    assert isinstance(channel, discord.TextChannel)
    with pytest.raises(discord.HTTPException) as caught:
        await channel.send("x" * 2001)
    assert caught.value.status == 400 and caught.value.code == Code.INVALID_FORM_BODY
    assert "content" in caught.value.text
    assert scene.standin.messages(scene.channel) == []
    scene.allow.add(Code.INVALID_FORM_BODY)


def _button(custom_id: str) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": custom_id, "custom_id": custom_id}


def _row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


_SELECT = {"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}]}


@pytest.mark.parametrize(
    ("payload", "path", "code"),
    [
        ({"content": "x" * 2001}, "content", "BASE_TYPE_MAX_LENGTH"),
        ({"embeds": [{"title": "t"}] * 11}, "embeds", "BASE_TYPE_MAX_LENGTH"),
        (
            {"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]},
            "embeds",
            "MAX_EMBED_SIZE_EXCEEDED",
        ),
        (
            {"components": [_row(_button(f"b{i}")) for i in range(6)]},
            "components",
            "BASE_TYPE_MAX_LENGTH",
        ),
        (
            {"components": [_row(*[_button(f"b{i}") for i in range(6)])]},
            "components.0.components",
            "BASE_TYPE_BAD_LENGTH",
        ),
        (
            {"components": [_row(_button("b"), _SELECT)]},
            "components.0.components.1",
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
        ),
        (
            {"components": [_row(_button("same")), _row(_button("same"))]},
            "components.1.components.0.custom_id",
            "COMPONENT_CUSTOM_ID_DUPLICATED",
        ),
        (
            {"components": [_row(_button("c" * 101))]},
            "components.0.components.0.custom_id",
            "BASE_TYPE_BAD_LENGTH",
        ),
    ],
)
async def test_message_limits_are_invalid_form_body(
    scene: Scene, payload: dict[str, Any], path: str, code: str
) -> None:
    route = discord.http.Route(
        "POST", "/channels/{channel_id}/messages", channel_id=scene.channel.id
    )
    with pytest.raises(discord.HTTPException) as caught:
        await scene.bot.http.request(route, json=payload)
    assert caught.value.status == 400 and caught.value.code == Code.INVALID_FORM_BODY
    (error,) = scene.standin.errors
    node: Any = error.errors
    for part in path.split("."):
        node = node[part]
    assert node["_errors"][0]["code"] == code
    scene.allow.add(Code.INVALID_FORM_BODY)


async def test_attachment_over_10_mib_is_too_large(scene: Scene) -> None:
    channel = scene.bot.get_channel(scene.channel.id)
    assert isinstance(channel, discord.TextChannel)
    big = discord.File(io.BytesIO(b"\0" * (10 * 1024 * 1024 + 1)), filename="big.bin")
    with pytest.raises(discord.HTTPException) as caught:
        await channel.send(file=big)
    assert (caught.value.status, caught.value.code) == (413, Code.REQUEST_TOO_LARGE)
    scene.allow.add(Code.REQUEST_TOO_LARGE)


async def test_more_than_25_select_options_refused(scene: Scene) -> None:
    s, bot = scene.standin, scene.bot
    it = await s.slash(scene.alice, scene.channel, "bigmenu")
    reply = await it.response()
    assert reply is not None and reply.content == "fallback"
    (error,) = bot.errors
    assert isinstance(error, discord.HTTPException) and error.code == Code.INVALID_FORM_BODY
    assert "data.components.0.components.0.options" in error.text
    scene.allow.add(Code.INVALID_FORM_BODY)


async def test_expired_token_is_invalid_webhook_token(scene: Scene) -> None:
    s, bot = scene.standin, scene.bot
    it = await s.slash(scene.alice, scene.channel, "hold")
    await it.response()
    await s.wait_for(lambda: bot.held is not None)
    assert bot.held is not None
    await bot.held.followup.send("still in time")
    scene.clock.advance(15 * 60 + 1)
    with pytest.raises(discord.HTTPException) as caught:
        await bot.held.followup.send("too late")
    assert caught.value.status == 401 and caught.value.code == Code.INVALID_WEBHOOK_TOKEN
    scene.allow.add(Code.INVALID_WEBHOOK_TOKEN)


async def test_armed_rate_limit_is_retried(scene: Scene) -> None:
    s = scene.standin
    s.arm_rate_limit("POST", "/channels/{channel_id}/messages", retry_after=0.05)
    channel = scene.bot.get_channel(scene.channel.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send("after a 429")
    assert s.rate_limited == [f"POST /api/v10/channels/{scene.channel.id}/messages"]
    assert [m.content for m in s.messages(scene.channel)] == ["after a 429"]
    assert sent.id == s.messages(scene.channel)[0].id


async def test_unknown_route_is_recorded(scene: Scene) -> None:
    s = scene.standin
    channel = scene.bot.get_channel(scene.channel.id)
    assert isinstance(channel, discord.TextChannel)
    message = await channel.send("react to me")
    with pytest.raises(discord.NotFound):
        await message.add_reaction("\N{THUMBS UP SIGN}")
    assert len(s.unknown_routes) == 1 and "/reactions/" in s.unknown_routes[0]
    with pytest.raises(AssertionError, match="unknown route"):
        s.assert_clean()
    s.unknown_routes.clear()


async def test_more_than_25_autocomplete_choices_refused(scene: Scene) -> None:
    s = scene.standin
    with pytest.raises(AssertionError, match="50035"):
        await s.autocomplete(
            scene.alice, scene.channel, "game pick", focused="word", word="*", timeout=0.3
        )
    (error,) = s.interactions[-1].errors
    assert error.errors == {
        "data": {
            "choices": {
                "_errors": [
                    {"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 25 or fewer in length."}
                ]
            }
        }
    }
    scene.allow.add(Code.INVALID_FORM_BODY)


async def test_webhook_before_ack_is_unknown_webhook(scene: Scene) -> None:
    s, bot = scene.standin, scene.bot
    bot.slow_delay = 0.5
    it = await s.slash(scene.alice, scene.channel, "slow")
    url = f"{s.api_base}/webhooks/{s.application_id}/{it.token}"
    async with (
        aiohttp.ClientSession() as session,
        session.post(url, json={"content": "early"}) as r,
    ):
        assert r.status == 404 and (await r.json())["code"] == Code.UNKNOWN_WEBHOOK
    await it.response()
    scene.allow.add(Code.UNKNOWN_WEBHOOK)
