"""The web companion's server: aiohttp (which discord.py brings) in the bot's own process. Every
page is named by a signed link; a game's page follows it live (server-sent events) and steps
back through it; a person's own link adds what only they may see."""

import asyncio
import json
import logging
import time
from collections import defaultdict, deque
from collections.abc import Awaitable, Callable
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aiohttp import web

from bot.service.errors import UserError
from bot.service.service import Service, Table
from bot.ui.presenter import presenter
from bot.ui.shapes import face
from bot.web.html import notice, page
from bot.web.links import BadLink, Claim, Kind, Links
from bot.web.markdown import embed_html, inline
from bot.web.replay import Replay, Replays, names_of
from bot.web.server_pages import bracket_html, leaderboard_html
from bot.workers import draw

if TYPE_CHECKING:
    from bot.app import GameBot

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
POLL_SECONDS = 1.0
"""How often an open game page's stream looks whether the game moved (any process may move it,
so the database, not this process's events, is what it watches)."""
PING_SECONDS = 15.0
"""A comment on a quiet stream, so proxies keep it open."""
RATE = (240, 60.0)
"""Requests one address may make in a window of seconds."""
ADDRESSES_KEPT = 10_000
"""Addresses whose recent requests are counted at once."""
FOREVER = "public, max-age=31536000, immutable"

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class Web:
    """The pages of one bot process, served on `port` and reached at `links.base`."""

    def __init__(self, bot: "GameBot", links: Links, port: int, host: str) -> None:
        self.bot, self.links, self.port, self.host = bot, links, port, host
        self.replays = Replays()
        self._hits: dict[str, deque[float]] = defaultdict(deque)
        self._versions: dict[int, tuple[float, int | None]] = {}
        self._runner: web.AppRunner | None = None
        self.app = web.Application(middlewares=[self._limit, self._plain_errors])
        get = self.app.router.add_get
        get("/g/{token}", self._game_page)
        get("/g/{token}/data.json", self._game_data)
        get(r"/g/{token}/step/{at:\d+}.png", self._step_image)
        get(r"/g/{token}/seat/{seat:\d+}/{at:\d+}.png", self._seat_image)
        get("/g/{token}/mine.png", self._mine_image)
        get("/g/{token}/log.json", self._log)
        get("/g/{token}/events", self._events)
        get("/s/{token}", self._server_page)
        get("/t/{token}", self._tournament_page)
        self.app.router.add_static("/static", STATIC)

    @property
    def service(self) -> Service:
        return self.bot.service

    async def start(self) -> None:
        self._runner = web.AppRunner(self.app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        await web.TCPSite(self._runner, self.host, self.port).start()
        log.info("web companion at %s (port %s)", self.links.base, self.port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # ---- links -------------------------------------------------------------------------------

    def game_url(self, game_id: int) -> str:
        return self.links.url("game", game_id, self.bot.clock.now())

    def mine_url(self, game_id: int, user_id: int) -> str:
        return self.links.url("mine", game_id, self.bot.clock.now(), user_id)

    def server_url(self, guild_id: int) -> str:
        return self.links.url("server", guild_id, self.bot.clock.now())

    def tournament_url(self, tournament_id: int) -> str:
        return self.links.url("tournament", tournament_id, self.bot.clock.now())

    # ---- middleware --------------------------------------------------------------------------

    @web.middleware
    async def _limit(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """At most RATE requests per window from one address; a plain page past it."""
        if len(self._hits) > ADDRESSES_KEPT:
            self._hits = defaultdict(deque)  # a new window for all: a bounded memory matters more
        hits, now = self._hits[request.remote or "?"], time.monotonic()
        while hits and hits[0] < now - RATE[1]:
            hits.popleft()
        if len(hits) >= RATE[0]:
            text = "Too many requests from your address; wait a minute and reload."
            return _html(notice("Slow down", text), 429)
        hits.append(now)
        return await handler(request)

    @web.middleware
    async def _plain_errors(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """A bad link, a missing game or a passing fault: a plain page that says which."""
        try:
            return await handler(request)
        except BadLink as bad:
            if bad.expired:
                text = "This link has expired. Ask the bot for a new one: /game web in Discord."
                return _html(notice("Link expired", text), 410)
            return _html(notice("Link not valid", "This link is not one the bot gave out."), 404)
        except UserError as refused:
            return _html(notice("Not found", refused.message), 404)
        except web.HTTPException:
            raise
        except Exception as exc:
            if self.service.repo.database.transient(exc):
                text = "The games' database is not answering right now; reload in a minute."
                return _html(notice("Try again soon", text), 503)
            log.exception("web page %s failed", request.path)
            return _html(notice("Something went wrong", "The page could not be made."), 500)

    # ---- games -------------------------------------------------------------------------------

    def _claim(self, request: web.Request, *kinds: Kind) -> Claim:
        claim = self.links.check(request.match_info["token"], self.bot.clock.now())
        if claim.kind not in kinds:
            raise BadLink(expired=False)
        return claim

    async def _game(self, request: web.Request) -> tuple[Claim, Table, Replay]:
        claim = self._claim(request, "game", "mine")
        table, steps = await self.service.with_log(claim.id)
        if table.state is None:
            raise UserError(f"{table.label} has not started yet.")
        return claim, table, await self.replays.of(table, steps)

    async def _game_page(self, request: web.Request) -> web.StreamResponse:
        claim, table, replay = await self._game(request)
        data = await self._data(request, claim, table, replay, None)
        body = (
            f'<section id="game" data-api="{escape(request.path)}">'
            f"<h1>{escape(table.label)}</h1>"
            f'<div id="status">{data["status"]}</div>'
            f'<section id="mine">{_mine(data)}</section>'
            f'<figure id="board"><img id="image" src="{escape(data["image"])}" '
            f'alt="The table after step {data["at"]}" width="800"></figure>'
            f'<nav id="replay" aria-label="Replay">{_controls(data)}</nav>'
            f'<section id="revealed">{_revealed(data)}</section>'
            '<section id="log"><h2>Moves, newest first</h2>'
            f'<ol id="moves" reversed>{_moves(data)}</ol></section>'
            f'<script id="data" type="application/json">{_json_in_html(data)}</script>'
            "</section>"
        )
        return _html(page(table.label, body, scripts=("/static/game.js",)))

    async def _game_data(self, request: web.Request) -> web.StreamResponse:
        claim, table, replay = await self._game(request)
        at = request.query.get("at")
        if at is not None and not at.isdigit():
            raise UserError(f"“{at[:20]}” is not a step of this game.")
        data = await self._data(request, claim, table, replay, int(at) if at else None)
        return web.json_response(data, headers={"Cache-Control": "no-cache"})

    async def _data(
        self, request: web.Request, claim: Claim, table: Table, replay: Replay, at: int | None
    ) -> dict[str, Any]:
        """Everything the page shows at step `at` (None: now), as the channel may see it; with a
        person's own link, their view too; once the game is over, everything."""
        last = len(replay.steps)
        at = last if at is None else max(0, min(at, last))
        base = f"/g/{request.match_info['token']}"
        names = names_of(table)
        over = table.row.status != "active"
        if at == last and over:
            rows = sorted(table.game.outcome(table.state), key=lambda r: (r["rank"], r["seat"]))
            places = " · ".join(
                f"{r['rank']}. {escape(names[r['seat']])} {table.hosted.score(r['score'])}"
                for r in rows
            )
            status = f'<h2 class="where">Game over</h2><p class="lead">{places}</p>'
        elif at == last:
            embed = await face(table).status(self.service, table)
            # The page's heading already names the game.
            where = (embed.title or "").removeprefix(f"{table.label} · ")
            embed.title = where[:1].upper() + where[1:]
            status = embed_html(dict(embed.to_dict()))
        else:
            words = table.game.progress(replay.states[at]).words
            status = (
                f'<p class="lead replaying">Replay: step {at} of {last}, {escape(words)}. '
                "“Now” goes back to the game as it stands.</p>"
            )
        data: dict[str, Any] = {
            "title": table.label,
            "version": table.row.version,
            "at": at,
            "steps": last,
            "rounds": sorted(replay.rounds.items()),
            "status": status,
            "image": f"{base}/step/{at}.png",
            "moves": replay.moves(at, names),
            "over": over,
            "mine": None,
            "revealed": None,
        }
        for move in data["moves"]:
            move["html"] = inline(move.pop("text"))
        if claim.kind == "mine":
            seat = table.viewer(claim.user)
            if seat is not None:
                data["mine"] = {
                    "name": seat.name,
                    "image": f"{base}/mine.png?v={table.row.version}",
                }
        if over:
            data["revealed"] = {
                "seed": table.row.seed,
                "log": f"{base}/log.json",
                "seats": [
                    {"name": s.name, "image": f"{base}/seat/{s.seat}/{at}.png"} for s in table.seats
                ],
            }
        return data

    async def _step_image(self, request: web.Request) -> web.StreamResponse:
        _, _, replay = await self._game(request)
        at = int(request.match_info["at"])
        if not 0 <= at <= len(replay.steps):
            raise UserError("That step is not in this game (yet).")
        png = await self.replays.image(replay, at)
        return web.Response(body=png, content_type="image/png", headers={"Cache-Control": FOREVER})

    async def _seat_image(self, request: web.Request) -> web.StreamResponse:
        """A seat's own board at a step: only once the game is over, when nothing is secret."""
        _, table, replay = await self._game(request)
        seat, at = int(request.match_info["seat"]), int(request.match_info["at"])
        if table.row.status == "active":
            raise UserError("A running game's boards are each their player's own until it ends.")
        if not (0 <= seat < len(table.seats) and 0 <= at <= len(replay.steps)):
            raise UserError("There is no such seat or step in this game.")
        view = table.game.view(replay.states[at], seat)
        png = await draw(presenter(table.row.game).board, view, seat, names_of(table))
        return web.Response(body=png, content_type="image/png", headers={"Cache-Control": FOREVER})

    async def _mine_image(self, request: web.Request) -> web.StreamResponse:
        """The link's person's own view now: their board with their draft on it in a round, else
        the table as they see it."""
        claim = self._claim(request, "mine")
        table = await self.service.table(claim.id)
        seat = table.viewer(claim.user)
        if seat is None or table.state is None:
            raise UserError("You play no seat of that game (any more).")
        show = presenter(table.row.game)
        if show.draft_board is not None and table.row.status == "active":
            draft = await self.service.draft(claim.id, claim.user)
            view = table.game.view(table.state, draft.seat)
            args = (view, draft.seat, names_of(table), draft.steps, draft.vacation)
            png = await draw(show.draft_board, *args)
        else:
            # The table's picture as this seat sees it: their money, their hand, at phone size.
            view = table.game.view(table.state, seat.seat)
            png = await draw(show.status_image, view, names_of(table))
        return web.Response(
            body=png, content_type="image/png", headers={"Cache-Control": "no-store"}
        )

    async def _log(self, request: web.Request) -> web.StreamResponse:
        """The replay document `/game log` gives this link's reader (whole once it has ended)."""
        claim = self._claim(request, "game", "mine")
        doc = await self.service.export(claim.id, claim.user if claim.kind == "mine" else None)
        return web.json_response(doc, headers={"Cache-Control": "no-cache"})

    async def _events(self, request: web.Request) -> web.StreamResponse:
        """A stream that says "moved" each time the game's row changes, from any process."""
        claim = self._claim(request, "game", "mine")
        stream = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"}
        )
        await stream.prepare(request)
        seen: int | None = None
        quiet = 0.0
        while True:
            version = await self._version(claim.id)
            if version != seen:
                if seen is not None:
                    await stream.write(f"event: moved\ndata: {version}\n\n".encode())
                seen, quiet = version, 0.0
            elif quiet >= PING_SECONDS:
                await stream.write(b": ping\n\n")
                quiet = 0.0
            await asyncio.sleep(POLL_SECONDS)
            quiet += POLL_SECONDS

    async def _version(self, game_id: int) -> int | None:
        """The game row's version, read at most once a poll however many pages watch it."""
        now = time.monotonic()
        read_at, version = self._versions.get(game_id, (-POLL_SECONDS, None))
        if now - read_at >= POLL_SECONDS * 0.9:
            async with self.service.repo.reading() as repo:
                row = await repo.game(game_id)
            version = row.version if row else None
            self._versions[game_id] = (now, version)
        return version

    # ---- servers -----------------------------------------------------------------------------

    async def _server_page(self, request: web.Request) -> web.StreamResponse:
        claim = self._claim(request, "server")
        guild = self.bot.get_guild(claim.id)
        html = await leaderboard_html(self.service, claim.id, guild.name if guild else None)
        return _html(html)

    async def _tournament_page(self, request: web.Request) -> web.StreamResponse:
        claim = self._claim(request, "tournament")
        html = await bracket_html(self.service, self.bot.tournaments, claim.id, self.game_url)
        return _html(html)


def _html(text: str, status: int = 200) -> web.Response:
    return web.Response(
        text=text, status=status, content_type="text/html", headers={"Cache-Control": "no-cache"}
    )


def _json_in_html(data: dict[str, Any]) -> str:
    """JSON inside a script tag: "</" would end the tag."""
    return json.dumps(data).replace("</", "<\\/")


def _controls(data: dict[str, Any]) -> str:
    """The replay's controls (the script makes them work; without it they are plain links)."""
    options = "".join(
        f'<option value="{at}">{_round_name(round_)}</option>' for round_, at in data["rounds"]
    )
    return (
        '<button id="first" aria-label="First step">First</button>'
        '<button id="prev" aria-label="Previous step">◀</button>'
        f'<span id="step">Step {data["at"]} of {data["steps"]}</span>'
        '<button id="next" aria-label="Next step">▶</button>'
        '<button id="live" aria-label="Now">Now ▶▶</button>'
        f'<label>Jump to <select id="round">{options}</select></label>'
    )


def _round_name(round_: int) -> str:
    """A round as the jump list names it (round 0: the setup before the first, e.g. regions)."""
    return f"Round {round_}" if round_ else "Setup"


def _mine(data: dict[str, Any]) -> str:
    mine = data["mine"]
    if mine is None:
        return ""
    return (
        f"<h2>Your view, {escape(mine['name'])} (only your link shows it)</h2>"
        f'<img id="mine-image" src="{escape(mine["image"])}" alt="Your board" width="800">'
    )


def _revealed(data: dict[str, Any]) -> str:
    shown = data["revealed"]
    if shown is None:
        return ""
    boards = "".join(
        f'<figure><img src="{escape(s["image"])}" alt="{escape(s["name"])}\'s board" '
        f'width="400"><figcaption>{escape(s["name"])}</figcaption></figure>'
        for s in shown["seats"]
    )
    return (
        "<h2>Everything, now that it is over</h2>"
        f'<p>Seed {shown["seed"]} · <a href="{escape(shown["log"])}">the whole log</a></p>'
        f'<div class="boards">{boards}</div>'
    )


def _moves(data: dict[str, Any]) -> str:
    """Newest first, as a game's log reads best beside its board."""
    return "".join(f'<li data-at="{m["at"]}">{m["html"]}</li>' for m in reversed(data["moves"]))
