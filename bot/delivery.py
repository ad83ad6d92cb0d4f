"""Delivers the outbox: renders images and posts to channels and DMs, after the change is stored."""

import asyncio
import contextlib
import contextvars
import io
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

import aiohttp
import discord

from bot.service.challenges import SEASON_RULES
from bot.service.errors import UserError
from bot.service.hosting import fill, join, needed
from bot.service.service import Service, Table
from bot.service.shapes import shape
from bot.store.repo import PanelRow, Pending, SeatRow
from bot.ui import daily as daily_ui
from bot.ui.common import game_ref, said, said_names
from bot.ui.dashboard import my_line
from bot.ui.lobby import duration, lobby_embed, lobby_view, rematch_view, seat_notes
from bot.ui.planning import open_planner_view, planner_view
from bot.ui.presenter import presenter
from bot.ui.recap import recap_file
from bot.ui.roles import cannot_give
from bot.ui.shapes import face
from bot.ui.turns import open_panel_view, panel_file, turn_text
from bot.ui.turns import panel as turn_panel
from bot.ui.web import Pages, with_page
from bot.workers import draw
from render.daily import daily_board

log = logging.getLogger(__name__)

RETRY_CAP = 300
"""The longest wait, in seconds, before an event that failed for a passing reason is retried."""
BATCH = 20
"""Games leased at once: the rest stay free for the other processes."""
NONCE_TRUST = timedelta(minutes=1)
"""Discord answers a repeated nonce with its first message for "a few minutes"; an event older
than this may have posted in an earlier try that was never confirmed, so it looks first."""
LOOKUP = 50
"""How many of a channel's messages since the game's last confirmed post are looked through."""
SENDING = "delivery-soon"
"""The name of the task sending a tick's posts while the tick goes on (a shutdown waits for it)."""
PODIUM = 3
"""The boards shown in a day's closing post."""
Channel = (
    discord.TextChannel
    | discord.Thread
    | discord.VoiceChannel
    | discord.StageChannel
    | discord.DMChannel
    | discord.PartialMessageable
)
"""Where a game posts: a channel whose messages the bot can edit in place."""


@dataclass
class _Sending:
    """The event being delivered: its id (the nonces' stem), the parts Discord confirmed, and
    where to look for unconfirmed posts (the game's last confirmed message), if at all."""

    event: int
    done: dict[str, int] = field(default_factory=dict)
    since: int | None = None


_SENDING: contextvars.ContextVar[_Sending] = contextvars.ContextVar("sending")
"""Per task, not per Delivery: a send still under way when its event gave up (a sibling failed)
must not take the next event's nonce or mark its parts."""


async def _all(*sends: Awaitable[Any]) -> list[Any]:
    """Run sends together and wait for every one, then raise the first failure: a send left
    running after its event gave up could post once more when the event is tried again."""
    results = await asyncio.gather(*sends, return_exceptions=True)
    for result in results:
        if isinstance(result, BaseException):
            raise result
    return results


def _file(data: bytes, name: str) -> discord.File:
    return discord.File(io.BytesIO(data), filename=name)


class Delivery:
    """Turns queued events into Discord posts; safe to run again after a crash."""

    def __init__(
        self, client: discord.Client, service: Service, owner: str, lease: timedelta
    ) -> None:
        self.client = client
        self.service = service
        self.pages: Pages | None = None
        """The web companion's page of a game, when this process serves one."""
        self._lock = asyncio.Lock()
        self.owner = owner
        """This process among those sharing the database, as lease holder. A restarted process
        has its predecessor's name, so it takes back that one's leases at once."""
        self.lease = lease
        """How long a game's delivery is held between renewals; a dead process's lapses."""
        self._sending: asyncio.Task[None] | None = None
        self._again = False
        """More was queued while a send was under way: it sends once more."""
        self.tables_over: list[Callable[[Table], Awaitable[None]]] = []
        """Called after a game's results (or adjudication) are posted, such as a tournament's
        post of the stage the game belongs to."""

    async def flush(self) -> int:
        """Send every pending event in order; returns how many went out (or failed for good).
        Each game's events go out from one process at a time, under its lease."""
        sent = 0
        async with self._lock:
            while True:
                # Read before the lease is taken, so it never outlives what the database holds.
                held = self.service.clock.now() + self.lease
                games = await self.service.lease_games(self.owner, self.lease, BATCH)
                if not games:
                    return sent
                progress = 0
                for game_id in games:
                    try:
                        progress += await self._deliver_game(game_id, held)
                    finally:
                        await self.service.release_lease(game_id, self.owner)
                sent += progress
                # A short batch took every due game: what is queued since has a flush of its own
                # waiting on the lock, or the next tick.
                if not progress or len(games) < BATCH:
                    return sent

    async def after_change(self) -> None:
        """Send what a person's change just queued. Its failure is the outbox's to retry at the
        next tick, never the person's to hear: their answer is given already."""
        try:
            await self.flush()
        except Exception as exc:
            level = logging.DEBUG if self.service.transient(exc) else logging.WARNING
            log.log(level, "the posts of a change wait for the next tick: %r", exc)

    def soon(self) -> None:
        """Send what was just queued without waiting for the caller (a tick with more games to
        play out); calls while a send is under way make it send once more when done."""
        self._again = True
        if self._sending is None or self._sending.done():
            self._sending = asyncio.create_task(self._send_again(), name=SENDING)

    async def _send_again(self) -> None:
        while self._again:
            self._again = False
            await self.after_change()

    async def _deliver_game(self, game_id: int, held: datetime) -> int:
        """A leased game's due events in order, renewing the lease (held until `held`) before an
        event once half of it has run; stops at the first event that waits to be retried, or if
        the lease was lost."""
        sent = 0
        for event in await self.service.pending_of(game_id):
            now = self.service.clock.now()
            if now > held - self.lease / 2:
                if not await self.service.renew_lease(game_id, self.owner, self.lease):
                    return sent
                held = now + self.lease
            if not await self._deliver_one(event):
                return sent
            sent += 1
        return sent

    async def _deliver_one(self, event: Pending) -> bool:
        """One event; False when it waits to be retried. A failure is this event's alone, and
        only one on a healthy database, not passing, sets the event aside."""
        token = _SENDING.set(_Sending(event[0]))
        try:
            return await self._deliver_event(event, _SENDING.get())
        finally:
            _SENDING.reset(token)

    async def _deliver_event(self, event: Pending, sending: _Sending) -> bool:
        outbox_id, game_id, kind, payload, attempts, queued = event
        error = None
        try:
            sending.done = await self.service.posted(outbox_id)
            if self.service.clock.now() - queued > NONCE_TRUST:
                sending.since = await self.service.last_posted(game_id, outbox_id) or 0
            await self._deliver(game_id, kind, payload)
        except (discord.Forbidden, discord.NotFound) as exc:
            log.warning("event %s of game %s can't go out: %s", kind, game_id, exc)
            error = str(exc)
        except Exception as exc:
            if await self._passing(exc):
                # Passing: what Discord confirmed is marked per part, the rest goes out later.
                delay = timedelta(seconds=min(RETRY_CAP, 2**attempts))
                log.warning("event %s of game %s: %s; retry in %s", kind, game_id, exc, delay)
                with contextlib.suppress(Exception):  # the database may be what is down
                    await self.service.retry_later(outbox_id, attempts + 1, delay, str(exc))
                return False
            log.exception("event %s (%s) of game %s failed", kind, outbox_id, game_id)
            error = repr(exc)
        await self.service.mark_sent(outbox_id, error)
        return True

    async def _passing(self, exc: Exception) -> bool:
        """A fault that passes: Discord's 5xx or a rate limit that outlasted discord.py's own
        tries, the network, or the database (a known passing error, or one it cannot answer)."""
        if isinstance(exc, discord.DiscordServerError | aiohttp.ClientError | TimeoutError):
            return True
        if isinstance(exc, discord.HTTPException) and exc.status == 429:
            return True
        return self.service.transient(exc) or not await self.service.healthy()

    async def _post(self, where: discord.abc.Messageable, part: str, **kwargs: Any) -> int:
        """Send one message of the current event once: a part Discord confirmed is not sent
        again, the nonce makes Discord answer a repeated send with the message it made, and past
        the nonce's window an unconfirmed post is looked for before it is sent."""
        sending = _SENDING.get()
        if part in sending.done:
            return sending.done[part]
        found = await self._made_earlier(where, kwargs) if sending.since is not None else None
        if found is None:
            found = (await where.send(nonce=f"{sending.event}.{part}"[:25], **kwargs)).id
        await self.service.mark_posted(sending.event, part, found)
        sending.done[part] = found
        return found

    async def _made_earlier(
        self, where: discord.abc.Messageable, kwargs: dict[str, Any]
    ) -> int | None:
        """The message an unconfirmed try of this post made: the bot's, since the game's last
        confirmed post, alike in content, embeds and files, and owned by no event."""
        sending = _SENDING.get()
        after = discord.Object(sending.since) if sending.since else None
        alike = [
            m.id
            async for m in where.history(limit=LOOKUP, after=after)
            if m.author == self.client.user and _alike(m, kwargs)
        ]
        taken = set(sending.done.values()) | await self.service.owned(alike)
        return next((m for m in alike if m not in taken), None)

    async def _deliver(self, game_id: int, kind: str, payload: dict[str, Any]) -> None:
        table = await self.service.table(game_id)
        handler = getattr(self, f"_on_{kind}")
        await handler(table, payload)

    async def _channel(self, table: Table) -> Channel:
        return await self._channel_at(table.row.where)

    async def _channel_at(self, where: int) -> Channel:
        channel = self.client.get_channel(where) or await self.client.fetch_channel(where)
        assert isinstance(channel, Channel)
        return channel

    def _page(self, table: Table) -> str | None:
        return self.pages(table.row.id) if self.pages else None

    def _names(self, table: Table) -> list[str]:
        return [s.name for s in table.seats]

    async def _dm(self, table: Table, seat: int, **kwargs: Any) -> bool:
        """DM a seat's player; False (and the seat marked) when their DMs are closed."""
        return await self._dm_message(table, seat, **kwargs) is not None

    async def _dm_message(self, table: Table, seat: int, **kwargs: Any) -> PanelRow | None:
        """DM a seat's player; where the message is, or None (and the seat marked) when their
        DMs are closed."""
        user_id = table.seats[seat].user_id
        if user_id is None:
            return None
        try:
            user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
            message_id = await self._post(user, f"dm{seat}", **kwargs)
        except discord.Forbidden:
            await self.service.dms_closed(table.row.id, seat)
            return None
        dm = user.dm_channel or await user.create_dm()
        return PanelRow(dm.id, message_id, dm=True)

    async def _strip(self, panel: PanelRow | None) -> None:
        """Take the controls off a panel that is no longer the seat's live one."""
        if panel is None:
            return
        message = self.client.get_partial_messageable(panel.channel_id).get_partial_message(
            panel.message_id
        )
        with contextlib.suppress(discord.NotFound, discord.Forbidden):
            await message.edit(view=None)

    # ---- events ----------------------------------------------------------------------------

    async def _on_started(self, table: Table, payload: dict[str, Any]) -> None:
        await self._refresh_lobby(table, "The game has started.")
        if face(table).status_with_moves:
            await self._status(table)
        if not face(table).tells_start:
            return
        owed = table.game.to_act(table.state)
        first = join([said(s.name) for s in table.seats if s.seat in owed]) or "The game"
        names = join([said(s.name) for s in table.seats])
        for seat in table.seats:
            if not seat.is_ai and seat.seat not in owed:
                await self._dm(
                    table,
                    seat.seat,
                    content=f"{game_ref(table)} has started: {names}. {first} moves first; "
                    "your panel comes when it is your turn.",
                )

    async def _on_cancelled(self, table: Table, payload: dict[str, Any]) -> None:
        await self._refresh_lobby(table, "This game was cancelled.")
        if table.row.status == "abandoned":
            channel = await self._channel(table)
            await self._post(
                channel, "post", content=f"{table.label} was cancelled by <@{payload['by']}>."
            )

    async def _refresh_lobby(self, table: Table, note: str | None, live: bool = False) -> None:
        """The lobby message redrawn: with its buttons while it is `live`, else closed."""
        if table.row.lobby_message_id is None:
            return
        channel = await self._channel(table)
        message = channel.get_partial_message(table.row.lobby_message_id)
        notes = await seat_notes(self.service, table)
        await message.edit(
            embed=lobby_embed(table, note, notes), view=lobby_view(table) if live else None
        )

    async def _on_lobby(self, table: Table, payload: dict[str, Any]) -> None:
        """The host changed the table's setup: the lobby says it."""
        if table.row.status == "lobby":
            await self._refresh_lobby(table, None, live=True)

    async def _on_away(self, table: Table, payload: dict[str, Any]) -> None:
        """Once per vacation and game: the table learns the clock will wait."""
        seat = table.seats[payload["seat"]]
        starts = int(datetime.fromisoformat(payload["starts"]).timestamp())
        ends = int(datetime.fromisoformat(payload["ends"]).timestamp())
        channel = await self._channel(table)
        await self._post(
            channel,
            "post",
            content=f"🏖️ {said(seat.name)} is away from <t:{starts}:f> to <t:{ends}:f>. While "
            "they are, the clock stops whenever the game waits for them, and runs again when "
            "they are back.",
        )

    async def _on_round_started(self, table: Table, payload: dict[str, Any]) -> None:
        """One post for the channel: the last round's summary with this round's roll; the status
        board edited in place; each person's board and planner by DM."""
        state = await self.service.state_at(table.row.id, payload["at"])
        game = table.game
        names = self._names(table)
        channel = await self._channel(table)
        public = game.view(state, None)
        show = presenter(table.row.game)
        round_ = game.progress(state).round
        current = round_ == game.progress(table.state).round and table.row.status == "active"
        people = [s for s in table.seats if current and not (s.is_ai or s.left_game)]
        built = None
        if round_ > 1:
            built = game.view(await self.service.state_at(table.row.id, payload["at"] - 1), None)
        # Every image of the round at once, one per core: the roll and summary first, since the
        # channel's post waits for them, and each DM goes out as soon as its board is drawn.
        # A game in its one player's DMs (a daily) posts each round once, with the planner; its
        # board there shows what a summary would.
        alone = table.row.guild_id is None
        roll = asyncio.ensure_future(draw(needed(show.roll, "roll"), public, names))
        summary = (
            asyncio.ensure_future(draw(needed(show.round_image, "round image"), built, names))
            if built and not alone
            else None
        )
        boards = {
            s.seat: asyncio.ensure_future(draw(show.board, game.view(state, s.seat), s.seat, names))
            for s in people
        }
        try:
            lines, files = [], []
            if built is not None:
                lines += [*self._summary(table, round_ - 1, built), ""]
            if summary is not None:
                files.append(_file(await summary, "summary.png"))
            lines.append(f"**Round {round_} of {public['rounds']}**: the dice are rolled.")
            if not alone:
                lines[-1] += (
                    f" Plan in your DMs (`/{table.hosted.command}` commands) or with the planner "
                    "there."
                )
            files.append(_file(await roll, f"round-{round_}.png"))
            if not alone or not current:
                # Where the game has moved on, its one player still reads how the round went.
                await self._post(channel, "roll", content="\n".join(lines)[:2000], files=files)
            if not current:
                return  # the game has moved on: the planners of this round are no use any more

            async def planner(seat: SeatRow) -> bool:
                try:
                    draft = await self.service.draft(table.row.id, seat.user_id or 0)
                except UserError:
                    return True  # the game ended (or the seat went) while the round was drawn
                board = _file(await boards[seat.seat], f"board-{seat.seat + 1}.png")
                text = f"{game_ref(table)}, round {round_}: your board. {show.plan_hint}"
                return await self._dm(
                    table,
                    seat.seat,
                    content="\n".join([*lines, "", text] if alone else [text])[:2000],
                    files=[*files, board] if alone else [board],
                    view=planner_view(draft),
                )

            if alone:
                for seat in people:
                    await planner(seat)  # with closed DMs, there is nowhere else to plan
                return
            # The status edit and every DM at once: their requests overlap instead of queueing.
            *sent, _ = await _all(*(planner(seat) for seat in people), self._status(table, channel))
        finally:
            for job in (roll, summary, *boards.values()):
                if job is not None:
                    job.cancel()
        closed = [seat for seat, ok in zip(people, sent, strict=True) if not ok]
        if closed:
            mentions = " ".join(f"<@{s.user_id}>" for s in closed)
            await self._post(
                channel,
                "closed",
                content=f"{mentions} I can't send you DMs. Use the button to plan privately here.",
                view=open_planner_view(table.row.id, round_),
                allowed_mentions=discord.AllowedMentions(
                    users=[discord.Object(s.user_id) for s in closed if s.user_id]
                ),
            )

    async def _status(self, table: Table, channel: Channel | None = None) -> None:
        """The game's one status board, redrawn as the game stands."""
        embed = await face(table).status(self.service, table)
        await self._status_board(table, channel or await self._channel(table), embed)

    async def _status_board(self, table: Table, channel: Channel, embed: discord.Embed) -> None:
        """The game's one status board: posted once, then edited in place."""
        page = with_page(None, self._page(table))
        if table.row.status_message_id is not None:
            message = channel.get_partial_message(table.row.status_message_id)
            await message.edit(embed=embed, view=page)
            return
        posted = await self._post(channel, "status", embed=embed, view=page)
        await self.service.set_message(table.row.id, "status_message_id", posted)

    def _summary(self, table: Table, round_: int, view: dict[str, Any]) -> list[str]:
        lines = needed(table.hosted.round_lines, "round lines")(view, said_names(table))
        return [f"**Round {round_} built.**", *lines]

    async def _on_status(self, table: Table, payload: dict[str, Any]) -> None:
        if table.row.status_message_id is None or table.game.is_over(table.state):
            return
        channel = await self._channel(table)
        message = channel.get_partial_message(table.row.status_message_id)
        await message.edit(embed=await face(table).status(self.service, table))

    async def _on_last_one(self, table: Table, payload: dict[str, Any]) -> None:
        text = f"{game_ref(table)}: everyone else has planned round {_round(table)}"
        if "minutes_left" in payload:
            text = f"Reminder: {text}, and {shape(table).reminder(_round(table), _left(payload))}"
        else:
            text += "; everyone is waiting for you."
        await self._dm(table, payload["seat"], content=text)

    async def _on_made(self, table: Table, payload: dict[str, Any]) -> None:
        """A change whose answer its process died before sending: confirmed by DM."""
        words = fill(payload["words"], said_names(table))
        await self._dm(
            table,
            payload["seat"],
            content=f"✅ You {words} in {game_ref(table)}. The bot could not answer you at the "
            "time (it was restarting); your move is stored.",
        )

    async def _on_reminder(self, table: Table, payload: dict[str, Any]) -> None:
        left = _left(payload)
        await self._dm(
            table,
            payload["seat"],
            content=f"Reminder: {game_ref(table)}, {shape(table).reminder(_round(table), left)}",
        )

    async def _on_heads_up(self, table: Table, payload: dict[str, Any]) -> None:
        """ "You're next": the seat before theirs started its turn (no news once theirs came)."""
        if table.row.status != "active" or payload["seat"] in table.game.to_act(table.state):
            return
        movers = [said(table.seats[s].name) for s in payload["movers"]]
        verb = "is" if len(movers) == 1 else "are"
        await self._dm(
            table,
            payload["seat"],
            content=f"⏭️ You're next in {game_ref(table)}: {join(movers)} {verb} moving now.",
        )

    async def _on_digest(self, table: Table, payload: dict[str, Any]) -> None:
        """The daily digest: the games that wait for the person as it goes out (none: no DM)."""
        user_id = table.seats[payload["seat"]].user_id
        if user_id is None:
            return
        lines = []
        for waiting in await self.service.waiting(user_id):
            seat = waiting.seat_of(user_id)
            assert seat is not None
            panel = await self.service.live_panel(waiting.row.id, seat.seat)
            lines.append(f"• {my_line(waiting, user_id, panel, self._page(waiting))}")
        if not lines:
            return
        games = f"{len(lines)} game{'s' if len(lines) > 1 else ''}"
        text = [
            f"📬 Your daily digest: {games} waiting for you.",
            *lines,
            "Your turn panels still come as your turns do; `/settings digest` changes this.",
        ]
        await self._dm(table, payload["seat"], content="\n".join(text)[:2000])

    async def _on_timeout(self, table: Table, payload: dict[str, Any]) -> None:
        channel = await self._channel(table)
        names = [said(table.seats[s].name) for s in payload["seats"]]
        verb = shape(table).verb
        text = f"Time is up: the autopilot {verb} for {', '.join(names)}."
        names_ = said_names(table)
        for s, moves in payload.get("said", {}).items():
            if moves and int(s) not in payload["to_ai"]:
                await self._dm(
                    table,
                    int(s),
                    content=f"Time ran out on your turn in {game_ref(table)}: the autopilot "
                    f"{fill(join(moves), names_)} for you.",
                )
        for s in payload["to_ai"]:
            seat = table.seats[s]
            await self._retire_panel(table, s)
            text += f"\n{said(seat.name)}'s seat is now played by the AI after repeated timeouts."
            await self._dm(
                table,
                s,
                content=f"{game_ref(table)}: after repeated timeouts the AI plays your seat. "
                "Take it back any time with `/game reclaim`.",
            )
        await self._post(channel, "post", content=text)

    async def _on_to_ai(self, table: Table, payload: dict[str, Any]) -> None:
        seat = table.seats[payload["seat"]]
        await self._retire_panel(table, seat.seat)
        channel = await self._channel(table)
        if payload["left"] and payload["by"] == seat.user_id:
            await self._post(
                channel,
                "post",
                content=f"{said(seat.name)} left the game; the AI plays their seat.",
            )
            return
        verb = "removed from the game" if payload["left"] else "replaced by the AI"
        await self._post(
            channel,
            "post",
            content=f"{said(seat.name)} was {verb} by <@{payload['by']}>; the AI plays the seat.",
        )
        if not payload["left"]:
            await self._dm(
                table,
                seat.seat,
                content=f"{game_ref(table)}: the host handed your seat to the AI. "
                "Take it back with `/game reclaim`.",
            )

    async def _on_adjudicated(self, table: Table, payload: dict[str, Any]) -> None:
        standings = sorted(table.game.outcome(table.state), key=lambda r: r["rank"])
        score = table.hosted.score
        shown = said_names(table)
        lines = [f"{r['rank']}. {shown[r['seat']]}: {score(r['score'])}" for r in standings]
        channel = await self._channel(table)
        await self._post(
            channel,
            "post",
            content=f"{table.label} was adjudicated by <@{payload['by']}> in round "
            f"{_round(table)}; these standings are its result:\n" + "\n".join(lines),
        )
        for hook in self.tables_over:
            await hook(table)

    async def _on_round_resolved(self, table: Table, payload: dict[str, Any]) -> None:
        """A summary queued on its own (by a version before rounds were posted with the next
        roll or the results): posted alone."""
        state = await self.service.state_at(table.row.id, payload["at"])
        public = table.game.view(state, None)
        render = needed(presenter(table.row.game).round_image, "round image")
        image = await draw(render, public, self._names(table))
        channel = await self._channel(table)
        lines = self._summary(table, payload["round"], public)
        await self._post(
            channel, "post", content="\n".join(lines)[:2000], file=_file(image, "summary.png")
        )

    async def _retire_panel(self, table: Table, seat: int) -> None:
        """The seat's panel loses its controls: the AI plays it now."""
        await self._strip(await self.service.replace_panel(table.row.id, seat, None))

    async def _on_game_over(self, table: Table, payload: dict[str, Any]) -> None:
        for live in await self.service.close_panels(table.row.id):
            await self._strip(live)
        state = await self.service.state_at(table.row.id, payload["at"])
        if table.row.challenge is not None:
            await self._daily_over(table, state)
            return
        game = table.game
        names = self._names(table)
        public = game.view(state, None)
        show = presenter(table.row.game)
        image = await draw(show.results, public, names)
        channel = await self._channel(table)
        standings = sorted(game.outcome(state), key=lambda r: (r["rank"], r["seat"]))
        score, words = table.hosted.score, table.hosted.standings
        shown = said_names(table)
        lines = (
            words(standings, shown)
            if words
            else [f"{r['rank']}. {shown[r['seat']]}: {score(r['score'])}" for r in standings]
        )
        rated = payload.get("ratings", {})
        for i, row in enumerate(standings):
            user = table.seats[row["seat"]].user_id
            if str(user) in rated and i < len(lines):
                before, after = rated[str(user)]
                lines[i] += f" · rating {after:,} ({after - before:+d})"
        winners = [table.seats[r["seat"]] for r in standings if r["rank"] == 1]
        named = join([f"<@{s.user_id}>" if not s.is_ai else said(s.name) for s in winners])
        verb = "wins" if len(winners) == 1 else "share the win"
        title = f"**Game over!** {table.label}: {named} {verb}."
        head, files = [], []
        if show.round_image is not None:
            # The last round's summary goes with the results: one post, and one score sheet
            # where the summary and the results are the same picture.
            head = [*self._summary(table, public["round"], public), ""]
            if show.round_image is not show.results:
                files.append(_file(await draw(show.round_image, public, names), "summary.png"))
        files.append(_file(image, "results.png"))
        await self._post(
            channel,
            "results",
            content="\n".join([*head, title, *lines])[:2000],
            files=files,
            view=with_page(rematch_view(table.row.id), self._page(table)),
            allowed_mentions=discord.AllowedMentions(
                users=[discord.Object(s.user_id) for s in winners if s.user_id and not s.is_ai]
            ),
        )
        if table.row.status_message_id is not None and not face(table).status_with_moves:
            await self._status(table, channel)  # the board says the game is over, not "planning"
        for hook in self.tables_over:
            await hook(table)
        rows = {r["seat"]: r for r in standings}
        for seat in table.seats:
            # A person the AI stood in for after timeouts still learns how their game ended.
            if not seat.left_game and (not seat.is_ai or seat.replaced_by_ai):
                view = game.view(state, seat.seat)
                board = await draw(show.board, view, seat.seat, names)
                mine = rows[seat.seat]
                tied = sum(1 for r in standings if r["rank"] == mine["rank"]) > 1
                place = f"{ordinal(mine['rank'])}{' (tied)' if tied else ''} of {len(standings)}"
                await self._dm(
                    table,
                    seat.seat,
                    content=f"{game_ref(table)} is over: you placed {place} with "
                    f"{score(mine['score'])}. Your final board:",
                    file=_file(board, "final-board.png"),
                )

    async def _on_recap(self, table: Table, payload: dict[str, Any]) -> None:
        """The game round by round as one animation, after its results."""
        _, file = await recap_file(self.service, table.row.id)
        await self._post(
            await self._channel(table),
            "recap",
            content=f"🎞️ {game_ref(table)}, round by round (`/game recap` shows it again).",
            file=file,
        )

    # ---- daily challenges -----------------------------------------------------------------

    async def _daily_over(self, table: Table, state: Any) -> None:
        """One DM ends an entry: its place so far, the streak, the final board and score sheet."""
        entry = await self.service.daily_entry(table.row.id)
        user = table.seats[0].user_id
        if entry is None or user is None:
            return
        guild = entry.guild_id or None
        board = await self.service.daily_day(entry.challenge, guild, user, entry.day)
        streak = await self.service.streak(user, guild)
        show, names = presenter(table.row.game), self._names(table)
        files = [
            _file(await draw(show.board, table.game.view(state, 0), 0, names), "final-board.png"),
            _file(await draw(show.results, table.game.view(state, None), names), "results.png"),
        ]
        where = "in your server" if guild else "in all servers"
        await self._post(
            await self._channel(table),
            "results",
            content=daily_ui.done_words(board, streak, where),
            files=files,
        )

    async def _on_daily_late(self, table: Table, payload: dict[str, Any]) -> None:
        """An entry the day's close ended: it counts with what it had."""
        for live in await self.service.close_panels(table.row.id):
            await self._strip(live)
        score = table.hosted.score(payload["score"])
        await self._post(
            await self._channel(table),
            "post",
            content=f"⌛ The day closed before you finished {game_ref(table)}: it counts with "
            f"{score}, what your board had.",
        )

    async def _on_daily_board(self, table: Table, payload: dict[str, Any]) -> None:
        """The day's table of a challenge in a server, posted once when the day closes, with
        the podium's boards."""
        day = date.fromisoformat(payload["day"])
        board = await self.service.daily_day(payload["key"], payload["guild"], None, day)
        thumbnails = []
        for placed in board.scored[:PODIUM]:
            assert placed.entry.game_id is not None
            theirs = await self.service.table(placed.entry.game_id)
            assert theirs.state is not None
            view = theirs.game.view(theirs.state, 0)
            show = presenter(theirs.row.game)
            thumbnails.append(await draw(show.board, view, 0, self._names(theirs)))
        text, title, subtitle, rows = daily_ui.board_post(board)
        image = await draw(daily_board, title, subtitle, rows, thumbnails)
        channel = await self._channel_at(payload["to"])
        await self._post(
            channel,
            "post",
            content=text,
            file=_file(image, "daily.png"),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def _on_daily_reminder(self, table: Table, payload: dict[str, Any]) -> None:
        closes = int(datetime.fromisoformat(payload["closes"]).timestamp())
        streak = payload["streak"]
        keep = f"your {streak}-day streak ends" if streak else "today's dailies close"
        await self._dm(
            table,
            0,
            content=f"⏰ You haven't played a daily today: {keep} <t:{closes}:R>. "
            "`/daily play` starts one; `/daily remind on:False` stops these DMs.",
        )

    async def _on_season_over(self, table: Table, payload: dict[str, Any]) -> None:
        """The season's champion, announced once; the server's role moves to them."""
        guild_id = payload["guild"]
        ladder = await self.service.season_ladder(guild_id, payload["season"])
        if not ladder:
            return
        champion = ladder[0]
        role_words = await self._crown(guild_id, champion.user_id)
        lines = [
            f"🏆 **Season {payload['season']} is over.** Champion: <@{champion.user_id}> with "
            f"{champion.points:g} points.{role_words}",
            *daily_ui.table_lines(ladder[:10], "points"),
            SEASON_RULES,
        ]
        channel = await self._channel_at(payload["to"])
        await self._post(
            channel,
            "post",
            content="\n".join(lines)[:2000],
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(champion.user_id)]),
        )

    async def _crown(self, guild_id: int, user_id: int) -> str:
        """Give the server's champion role (taken from the last champion); what to say of it."""
        server = await self.service.daily_server(guild_id)
        role_id = server.get("champion_role")
        if not role_id:
            return ""
        guild = self.client.get_guild(guild_id)
        role = guild.get_role(role_id) if guild else None
        if guild is None or role is None:
            return " (The champion's role no longer exists.)"
        # Checked first, as Discord would refuse: Manage Roles, and a role below the bot's own.
        problem = cannot_give(guild, role)
        if problem is not None:
            return f" ({problem})"
        try:
            previous = server.get("champion_id")
            if previous and previous != user_id:
                with contextlib.suppress(discord.NotFound):
                    old = guild.get_member(previous) or await guild.fetch_member(previous)
                    await old.remove_roles(role, reason="a new season's champion")
            member = guild.get_member(user_id) or await guild.fetch_member(user_id)
            await member.add_roles(role, reason="the season's champion")
        except discord.NotFound:
            return " (They have left the server, so the role stays where it was.)"
        await self.service.champion_crowned(guild_id, user_id)
        return f" They now hold {role.mention}."

    async def _on_deadline(self, table: Table, payload: dict[str, Any]) -> None:
        if table.row.status != "active" or table.row.deadline is None:
            return
        closes = f"<t:{int(table.row.deadline.timestamp())}:R>"
        channel = await self._channel(table)
        await self._post(
            channel,
            "post",
            content=f"<@{payload['by']}> set the round deadline to {duration(payload['minutes'])}: "
            f"round {_round(table)} closes {closes}.",
        )
        await self._on_status(table, payload)

    # ---- turn-based games ------------------------------------------------------------------

    async def _on_moves(self, table: Table, payload: dict[str, Any]) -> None:
        await self._status(table)

    async def _on_phase(self, table: Table, payload: dict[str, Any]) -> None:
        """A phase's image, if its game posts one; and at a round's end the status board moves
        down to the newest posts (the old one is deleted), so it stays findable."""
        phase_image = presenter(table.row.game).phase_image
        if phase_image is None and table.row.status_message_id is None:
            return  # nothing to draw or to move: no replay of the log
        state = await self.service.state_at(table.row.id, payload["at"])
        channel = await self._channel(table)
        made = None
        if phase_image is not None:
            public = table.game.view(state, None)
            made = await draw(phase_image, public, self._names(table), payload["phase"])
        if made is not None:
            caption, image = made
            await self._post(
                channel,
                "post",
                content=f"**{table.label}** · {caption}",
                file=_file(image, "phase.png"),
            )
        ended = payload["phase"][0]
        if table.row.status_message_id is not None and table.game.progress(state).round != ended:
            old = table.row.status_message_id
            embed = await face(table).status(self.service, table)
            posted = await self._post(channel, "status", embed=embed)
            await self.service.set_message(table.row.id, "status_message_id", posted)
            if old != posted:
                with contextlib.suppress(discord.NotFound):
                    await channel.get_partial_message(old).delete()

    async def _on_turn(self, table: Table, payload: dict[str, Any]) -> None:
        """The seat's "your turn" panel by DM, or a button in the channel (DMs closed): one
        message, and so one notification, per turn; the panel it replaces loses its controls."""
        seat = table.seats[payload["seat"]]
        if seat.is_ai or seat.left_game or seat.user_id is None:
            return
        try:
            tv = await self.service.fresh_turn(table.row.id, seat.user_id, payload["at"])
        except UserError:
            return  # the game moved on before this went out, or a newer turn has its own panel
        file = await panel_file(tv)
        kwargs: dict[str, Any] = {"file": file} if file else {}
        live = await self._dm_message(
            table, seat.seat, content=turn_text(tv), view=turn_panel(tv), **kwargs
        )
        if live is None:
            channel = await self._channel(table)
            message_id = await self._post(
                channel,
                "closed",
                content=f"<@{seat.user_id}> it's your turn in {table.label}. I can't send you "
                "DMs: use the button to play privately here.",
                view=open_panel_view(table.row.id, tv.turn),
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(seat.user_id)]),
            )
            live = PanelRow(channel.id, message_id, dm=False)
        old = await self.service.replace_panel(table.row.id, seat.seat, live)
        if old != live:
            await self._strip(old)

    async def _on_panel(self, table: Table, payload: dict[str, Any]) -> None:
        """A person moved and the turn did not leave them for anyone else: their live panel is
        redrawn in place (no notification), or loses its controls once they owe nothing."""
        seat = table.seats[payload["seat"]]
        live = await self.service.live_panel(table.row.id, seat.seat)
        if live is None or live.message_id == payload["via"] or seat.user_id is None:
            return  # the click that made the move already redrew it
        try:
            tv = await self.service.turn(table.row.id, seat.user_id)
        except UserError:
            await self.service.replace_panel(table.row.id, seat.seat, None)
            await self._strip(live)
            return
        if not live.dm:
            return  # the channel's button opens the newest panel whenever it is pressed
        file = await panel_file(tv)
        message = self.client.get_partial_messageable(live.channel_id).get_partial_message(
            live.message_id
        )
        with contextlib.suppress(discord.NotFound):
            await message.edit(
                content=turn_text(tv), view=turn_panel(tv), attachments=[file] if file else []
            )


def _alike(message: discord.Message, kwargs: dict[str, Any]) -> bool:
    """Whether `message` is what sending `kwargs` makes."""
    embeds = kwargs.get("embeds") or [e for e in [kwargs.get("embed")] if e]
    files = kwargs.get("files") or [f for f in [kwargs.get("file")] if f]
    return (
        message.content == (kwargs.get("content") or "")
        and [(e.title, e.description) for e in message.embeds]
        == [(e.title, e.description) for e in embeds]
        and [a.filename for a in message.attachments] == [f.filename for f in files]
    )


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th … 11th, 12th, 13th, 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _left(payload: dict[str, Any]) -> str:
    """A reminder's time left in words: "5 min", "2 h 30 min"."""
    minutes = int(payload["minutes_left"])
    return f"{minutes // 60} h {minutes % 60} min" if minutes >= 60 else f"{minutes} min"


def _round(table: Table) -> int:
    return table.game.progress(table.state).round
