"""Guild scheduled events: MANAGE_EVENTS, Discord's field rules and statuses, the gateway events."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import discord
import pytest

from standin import StandIn
from standin.limits import INTENT_GUILD_SCHEDULED_EVENTS, Code
from standin.model import P_ADMINISTRATOR, P_MANAGE_EVENTS
from tests.standin.conftest import Scene, StartBot
from tests.standin.testbot import ProbeBot

EVENT_FRAMES = (
    "GUILD_SCHEDULED_EVENT_CREATE",
    "GUILD_SCHEDULED_EVENT_UPDATE",
    "GUILD_SCHEDULED_EVENT_DELETE",
)


def _event_frames(s: StandIn, *, with_intent: bool = True) -> list[tuple[str, dict[str, Any]]]:
    """Scheduled event dispatches sent to the sessions that have (or lack) the intent."""
    return [
        (frame["t"], frame["d"])
        for session in s.gateway.sessions.values()
        if bool(session.intents & INTENT_GUILD_SCHEDULED_EVENTS) == with_intent
        for frame in session.sent
        if frame["t"] in EVENT_FRAMES
    ]


def _form_codes(s: StandIn) -> dict[str, list[str]]:
    """The field error codes of the last error answered, by dotted path."""
    found: dict[str, list[str]] = {}

    def walk(node: dict[str, Any], path: tuple[str, ...]) -> None:
        for key, child in node.items():
            if key == "_errors":
                found[".".join(path)] = [e["code"] for e in child]
            else:
                walk(child, (*path, key))

    walk(s.errors[-1].errors or {}, ())
    return found


async def _client_guild(scene: Scene) -> discord.Guild:
    """The bot's cached guild once it knows the bot role's current permissions."""
    guild = scene.bot.get_guild(scene.guild.id)
    assert guild is not None
    role = scene.guild.bot_role
    cached = guild.get_role(role.id)
    assert cached is not None
    await scene.standin.wait_for(lambda: cached.permissions.value == role.permissions)
    return guild


async def _external(
    guild: discord.Guild, *, name: str = "Spring Cup", start_in: timedelta = timedelta(days=1)
) -> discord.ScheduledEvent:
    """An external event two hours long, as a bot announcing a tournament makes it."""
    start = discord.utils.utcnow() + start_in
    return await guild.create_scheduled_event(
        name=name,
        start_time=start,
        end_time=start + timedelta(hours=2),
        entity_type=discord.EntityType.external,
        privacy_level=discord.PrivacyLevel.guild_only,
        location="https://discord.com/channels/1/2",
    )


async def test_external_event_lifecycle(scene: Scene) -> None:
    s, g = scene.standin, scene.guild
    s.grant_bot(g, P_MANAGE_EVENTS)
    guild = await _client_guild(scene)
    assert guild.me.guild_permissions.manage_events
    start = discord.utils.utcnow() + timedelta(days=2)
    place = scene.bot.get_channel(scene.channel.id).jump_url  # type: ignore[union-attr]
    event = await guild.create_scheduled_event(
        name="Spring Cup",
        description="Register with /tournament register 1.",
        start_time=start,
        end_time=start + timedelta(hours=3),
        entity_type=discord.EntityType.external,
        privacy_level=discord.PrivacyLevel.guild_only,
        location=place,
    )
    assert f"POST /api/v10/guilds/{g.id}/scheduled-events" in s.requests
    assert (event.status, event.location, event.channel_id) == (
        discord.EventStatus.scheduled,
        place,
        None,
    )
    assert abs((event.start_time - start).total_seconds()) < 0.001
    assert event.creator_id == s.bot_user.id
    (stored,) = s.scheduled_events(g)
    assert stored["entity_metadata"] == {"location": place} and stored["entity_type"] == 3
    assert stored["image"] is None and stored["recurrence_rule"] is None
    assert "user_count" not in stored
    await s.wait_for(lambda: guild.get_scheduled_event(event.id))

    listed = await guild.fetch_scheduled_events()
    assert [(e.id, e.user_count) for e in listed] == [(event.id, 0)]
    fetched = await guild.fetch_scheduled_event(event.id, with_counts=False)
    assert fetched.name == "Spring Cup" and fetched.description == stored["description"]

    edited = await event.edit(name="Spring Cup (finals)", description="Finals only.")
    assert edited.name == "Spring Cup (finals)" and edited.location == place
    started = await edited.start()
    assert started.status is discord.EventStatus.active
    await s.wait_for(
        lambda: guild.get_scheduled_event(event.id).status is discord.EventStatus.active  # type: ignore[union-attr]
    )
    ended = await started.end()
    assert ended.status is discord.EventStatus.completed
    assert s.scheduled_events(g)[0]["status"] == 3
    events = [t for t, _ in _event_frames(s)]
    assert events == ["GUILD_SCHEDULED_EVENT_CREATE"] + ["GUILD_SCHEDULED_EVENT_UPDATE"] * 3
    await s.wait_for(
        lambda: guild.get_scheduled_event(event.id).status is discord.EventStatus.completed  # type: ignore[union-attr]
    )

    await ended.delete()
    assert s.scheduled_events(g) == []
    assert _event_frames(s)[-1][0] == "GUILD_SCHEDULED_EVENT_DELETE"
    await s.wait_for(lambda: guild.get_scheduled_event(event.id) is None)
    assert s.errors == []


async def test_without_manage_events_is_forbidden(scene: Scene) -> None:
    s, g = scene.standin, scene.guild
    guild = await _client_guild(scene)
    assert not guild.me.guild_permissions.manage_events
    with pytest.raises(discord.Forbidden) as refused:
        await _external(guild)
    assert (refused.value.status, refused.value.code) == (403, Code.MISSING_PERMISSIONS)
    assert refused.value.text == "Missing Permissions"
    assert s.scheduled_events(g) == [] and _event_frames(s) == []
    scene.allow.add(Code.MISSING_PERMISSIONS)


async def test_administrator_needs_no_manage_events(scene: Scene) -> None:
    s, g = scene.standin, scene.guild
    s.grant_bot(g, P_ADMINISTRATOR)
    event = await _external(await _client_guild(scene))
    assert [e["id"] for e in s.scheduled_events(g)] == [str(event.id)]


def _future(**delta: float) -> str:
    return (discord.utils.utcnow() + timedelta(**delta)).isoformat()


GOOD: dict[str, Any] = {
    "name": "Spring Cup",
    "entity_type": 3,
    "privacy_level": 2,
    "entity_metadata": {"location": "Board room"},
}


@pytest.mark.parametrize(
    ("change", "path", "code"),
    [
        (
            {"scheduled_start_time": "past"},
            "scheduled_start_time",
            "GUILD_SCHEDULED_EVENT_SCHEDULE_PAST",
        ),
        ({"entity_metadata": None}, "entity_metadata.location", "BASE_TYPE_REQUIRED"),
        (
            {"entity_metadata": {"location": "x" * 101}},
            "entity_metadata.location",
            "BASE_TYPE_BAD_LENGTH",
        ),
        ({"scheduled_end_time": None}, "scheduled_end_time", "BASE_TYPE_REQUIRED"),
        (
            {"scheduled_end_time": "early"},
            "scheduled_end_time",
            "GUILD_SCHEDULED_EVENT_END_BEFORE_START",
        ),
        ({"name": "x" * 101}, "name", "BASE_TYPE_BAD_LENGTH"),
        ({"name": ""}, "name", "BASE_TYPE_BAD_LENGTH"),
        ({"description": "x" * 1001}, "description", "BASE_TYPE_MAX_LENGTH"),
        ({"privacy_level": 1}, "privacy_level", "BASE_TYPE_CHOICES"),
        ({"entity_type": None}, "entity_type", "BASE_TYPE_REQUIRED"),
        ({"channel_id": "channel"}, "channel_id", "GUILD_SCHEDULED_EVENT_CHANNEL_NOT_ALLOWED"),
        (
            {"entity_type": 2, "entity_metadata": None, "channel_id": "channel"},
            "channel_id",
            "GUILD_SCHEDULED_EVENT_INVALID_CHANNEL_TYPE",
        ),
        ({"entity_type": 1, "entity_metadata": None}, "channel_id", "BASE_TYPE_REQUIRED"),
    ],
)
async def test_create_refusals(scene: Scene, change: dict[str, Any], path: str, code: str) -> None:
    s, g = scene.standin, scene.guild
    s.grant_bot(g, P_MANAGE_EVENTS)
    await _client_guild(scene)
    start = discord.utils.utcnow() + timedelta(hours=1)
    payload = {
        **GOOD,
        "scheduled_start_time": start.isoformat(),
        "scheduled_end_time": (start + timedelta(hours=1)).isoformat(),
        **change,
    }
    times = {"past": _future(minutes=-1), "early": _future(minutes=30)}
    for key, value in payload.items():
        if isinstance(value, str) and value in times:
            payload[key] = times[value]
        elif value == "channel":
            payload[key] = str(scene.channel.id)
    with pytest.raises(discord.HTTPException) as refused:
        await scene.bot.http.create_guild_scheduled_event(g.id, **payload)
    assert (refused.value.status, refused.value.code) == (400, Code.INVALID_FORM_BODY)
    assert _form_codes(s) == {path: [code]}
    assert s.scheduled_events(g) == []
    scene.allow.add(Code.INVALID_FORM_BODY)


async def test_discord_py_refusals_keep_discords_codes(scene: Scene) -> None:
    s, g = scene.standin, scene.guild
    s.grant_bot(g, P_MANAGE_EVENTS)
    guild = await _client_guild(scene)
    with pytest.raises(discord.HTTPException) as past:
        await _external(guild, start_in=timedelta(minutes=-5))
    assert past.value.code == Code.INVALID_FORM_BODY
    assert past.value.text.endswith("In scheduled_start_time: Cannot schedule event in the past.")
    assert _form_codes(s) == {"scheduled_start_time": ["GUILD_SCHEDULED_EVENT_SCHEDULE_PAST"]}
    with pytest.raises(discord.HTTPException):
        await _external(guild, name="x" * 101)
    assert _form_codes(s) == {"name": ["BASE_TYPE_BAD_LENGTH"]}
    # discord.py leaves entity_type out when it infers it from a location; Discord needs it.
    with pytest.raises(discord.HTTPException) as untyped:
        start = discord.utils.utcnow() + timedelta(hours=1)
        await guild.create_scheduled_event(
            name="Cup", start_time=start, end_time=start + timedelta(hours=1), location="Here"
        )
    assert untyped.value.code == Code.INVALID_FORM_BODY
    assert _form_codes(s) == {"entity_type": ["BASE_TYPE_REQUIRED"]}
    event = await _external(guild)
    with pytest.raises(discord.HTTPException) as moved:
        await event.edit(start_time=discord.utils.utcnow() - timedelta(hours=1))
    assert moved.value.code == Code.INVALID_FORM_BODY
    assert _form_codes(s) == {"scheduled_start_time": ["GUILD_SCHEDULED_EVENT_SCHEDULE_PAST"]}
    assert s.scheduled_events(g)[0]["name"] == "Spring Cup"
    scene.allow.add(Code.INVALID_FORM_BODY)


async def test_status_transitions(scene: Scene) -> None:
    s, g = scene.standin, scene.guild
    s.grant_bot(g, P_MANAGE_EVENTS)
    guild = await _client_guild(scene)
    event = await _external(guild)
    bad = "GUILD_SCHEDULED_EVENT_INVALID_STATUS_TRANSITION"
    # discord.py guards start/end/cancel by the cached status; the raw route shows Discord's
    # answer. SCHEDULED goes only to ACTIVE or CANCELED, ACTIVE only to COMPLETED.
    for before, after in ((1, 3), (2, 4), (2, 1)):
        if before == 2 and event.status is discord.EventStatus.scheduled:
            event = await event.start()
        with pytest.raises(discord.HTTPException) as refused:
            await scene.bot.http.edit_scheduled_event(g.id, event.id, status=after)
        assert refused.value.code == Code.INVALID_FORM_BODY
        assert _form_codes(s) == {"status": [bad]}
        assert s.scheduled_events(g)[0]["status"] == before
    started = event
    canceled = await (await _external(guild, name="Autumn Cup")).cancel()
    assert canceled.status is discord.EventStatus.cancelled
    # A finished event takes no edit at all.
    for finished in (canceled, await started.end()):
        with pytest.raises(discord.HTTPException) as refused:
            await finished.edit(name="Again")
        assert (refused.value.status, refused.value.code) == (400, Code.FINISHED_EVENT_UPDATE)
        assert refused.value.text == "Cannot update a finished event"
    assert [e["status"] for e in s.scheduled_events(g)] == [3, 4]
    scene.allow.update({Code.INVALID_FORM_BODY, Code.FINISHED_EVENT_UPDATE})


async def test_unknown_event(scene: Scene) -> None:
    s, g, http = scene.standin, scene.guild, scene.bot.http
    s.grant_bot(g, P_MANAGE_EVENTS)
    guild = await _client_guild(scene)
    with pytest.raises(discord.NotFound) as unknown:
        await guild.fetch_scheduled_event(12345)
    assert unknown.value.code == Code.UNKNOWN_GUILD_SCHEDULED_EVENT
    assert unknown.value.text == "Unknown Guild Scheduled Event"
    with pytest.raises(discord.NotFound) as unknown:
        await http.edit_scheduled_event(g.id, 12345, name="Gone")
    assert unknown.value.code == Code.UNKNOWN_GUILD_SCHEDULED_EVENT
    event = await _external(guild)
    await event.delete()
    with pytest.raises(discord.NotFound) as unknown:
        await event.delete()
    assert unknown.value.code == Code.UNKNOWN_GUILD_SCHEDULED_EVENT
    # An event of another guild is unknown here too.
    other = s.add_guild("Elsewhere")
    s.grant_bot(other, P_MANAGE_EVENTS)
    elsewhere = await http.create_guild_scheduled_event(
        other.id,
        **GOOD,
        scheduled_start_time=_future(hours=1),
        scheduled_end_time=_future(hours=2),
    )
    with pytest.raises(discord.NotFound) as unknown:
        await http.get_scheduled_event(g.id, elsewhere["id"], False)
    assert unknown.value.code == Code.UNKNOWN_GUILD_SCHEDULED_EVENT


async def test_at_most_100_live_events(scene: Scene) -> None:
    s, g, http = scene.standin, scene.guild, scene.bot.http
    s.grant_bot(g, P_MANAGE_EVENTS)
    await _client_guild(scene)
    body = {
        **GOOD,
        "scheduled_start_time": _future(hours=1),
        "scheduled_end_time": _future(hours=2),
    }
    created = [await http.create_guild_scheduled_event(g.id, **body) for _ in range(100)]
    with pytest.raises(discord.HTTPException) as refused:
        await http.create_guild_scheduled_event(g.id, **body)
    assert (refused.value.status, refused.value.code) == (400, Code.MAX_GUILD_SCHEDULED_EVENTS)
    assert refused.value.text == "Maximum number of guild scheduled events reached (100)"
    # Finished events do not count.
    await http.edit_scheduled_event(g.id, created[0]["id"], status=4)
    await http.create_guild_scheduled_event(g.id, **body)
    assert len(s.scheduled_events(g)) == 101
    scene.allow.add(Code.MAX_GUILD_SCHEDULED_EVENTS)


async def test_gateway_events_need_the_intent(standin: StandIn, start_bot: StartBot) -> None:
    s = standin
    g = s.add_guild("Quiet")
    s.grant_bot(g, P_MANAGE_EVENTS)
    intents = discord.Intents.default()
    intents.guild_scheduled_events = False
    quiet = await start_bot(ProbeBot(g.id, intents=intents))
    loud = await start_bot(ProbeBot(g.id))
    body = {
        **GOOD,
        "scheduled_start_time": _future(hours=1),
        "scheduled_end_time": _future(hours=2),
    }
    made = await quiet.http.create_guild_scheduled_event(g.id, **body)
    await quiet.http.edit_scheduled_event(g.id, made["id"], status=2)
    assert _event_frames(s, with_intent=False) == []
    kinds = [(t, d["id"], d["guild_id"]) for t, d in _event_frames(s)]
    assert kinds == [
        ("GUILD_SCHEDULED_EVENT_CREATE", made["id"], str(g.id)),
        ("GUILD_SCHEDULED_EVENT_UPDATE", made["id"], str(g.id)),
    ]
    loud_guild = loud.get_guild(g.id)
    assert loud_guild is not None
    await s.wait_for(lambda: loud_guild.get_scheduled_event(int(made["id"])))
    quiet_guild = quiet.get_guild(g.id)
    assert quiet_guild is not None and list(quiet_guild.scheduled_events) == []
    # A session that starts later finds the event in GUILD_CREATE.
    late = await start_bot(ProbeBot(g.id))
    late_guild = late.get_guild(g.id)
    assert late_guild is not None
    (known,) = late_guild.scheduled_events
    assert known.id == int(made["id"]) and known.status is discord.EventStatus.active
    s.assert_clean()
