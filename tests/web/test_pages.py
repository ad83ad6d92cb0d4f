"""The web companion in headless Chromium, served by the real bot during stand-in games: live
updates, the replay by keyboard, a player's own view, hidden money, bad links and the rate limit,
and the pages at phone and desktop widths."""

import asyncio
import base64
import copy
import io
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from playwright.async_api import Browser, Page

from bot.ui.planning import board_of
from bot.ui.presenter import presenter
from bot.web import app as web_app
from bot.workers import draw
from engine.power_grid import autopilot
from standin import Message
from tests.bot.conftest import Scene
from tests.bot.helpers import TIMEOUT, Game, answer, png, started_game, started_with_ai
from tests.web.conftest import (
    DESKTOP,
    PHONE,
    WAIT_MS,
    Site,
    check_layout,
    layout_problems,
    open_page,
)

GALLERY = Path(__file__).parents[2] / "docs" / "gallery"
"""Where `UPDATE_GALLERY=1` puts the screenshots (else the test's own folder, so that a run of
the tests leaves the tree as it was)."""
NAVIGATIONS = "performance.getEntriesByType('navigation').length"


def _text_is(element: str, text: str) -> str:
    """A page condition: the element's text is `text` (for wait_for_function)."""
    return f"document.getElementById({element!r}).innerText === {text!r}"


async def _src(page: Page, selector: str) -> str:
    src = await page.get_attribute(selector, "src")
    assert src is not None, f"{selector} has no src"
    return src


async def _finished(site: Site) -> Game:
    """A two-person Powerline game in the scene's channel that the AI has played to its end."""
    s = site.scene
    game = await started_game(s.server, site.bot, s.channel, s.ada, [s.ben])
    for person in (s.ada, s.ben):
        await site.bot.service.hand_to_ai(game.gid, person.id, person.id, False, leaving=False)

    async def over() -> bool:
        return (await game.table()).row.status == "finished"

    await s.server.wait_for(over, TIMEOUT)
    await s.server.wait_for(game.outbox_empty, TIMEOUT)
    return game


# ---- 1. live -------------------------------------------------------------------------------


async def test_the_game_page_shows_each_move_and_the_next_round_without_reloading(
    site: Site, browser: Browser
) -> None:
    s = site.scene
    game = await started_game(s.server, site.bot, s.channel, s.ada, [s.ben])
    page = await open_page(browser, site.web.game_url(game.gid))
    await page.evaluate("window.__marker = 'the same page'")
    status = await page.inner_text("#status")
    assert re.search(r"\bRound 1\b", status) and "planning — Ada" in status, status
    first = (await site.data(game.gid))["steps"]
    assert await page.inner_text("#step") == f"Step {first} of {first} (now)"

    await game.plan_with_commands(s.ada)
    # The channel's status board says Ada is done; so does the page, by itself.
    await page.wait_for_function(
        "document.getElementById('status').innerText.includes('submitted — Ada')", timeout=WAIT_MS
    )
    await game.plan_with_commands(s.ben)
    await page.wait_for_function(
        "/\\bRound 2\\b/.test(document.getElementById('status').innerText)", timeout=WAIT_MS
    )
    assert await page.evaluate("window.__marker") == "the same page", "the page was reloaded"
    assert await page.evaluate(NAVIGATIONS) == 1
    now = (await site.data(game.gid))["steps"]
    assert now > first
    await page.wait_for_function(_text_is("step", f"Step {now} of {now} (now)"), timeout=WAIT_MS)
    assert (await _src(page, "#image")).endswith(f"/step/{now}.png")
    assert "Round 1:" in await page.inner_text("#moves"), "round 1's summary, in words"
    options = await page.eval_on_selector_all("#round option", "os => os.map(o => o.textContent)")
    assert options == ["Round 1", "Round 2"]


# ---- 2. replay -----------------------------------------------------------------------------


async def test_the_replay_steps_by_keyboard_and_jumps_to_a_rounds_first_step(
    site: Site, browser: Browser
) -> None:
    s = site.scene
    game = await started_game(s.server, site.bot, s.channel, s.ada, [s.ben])
    for _ in range(2):
        round_ = await game.round()
        for person in (s.ada, s.ben):
            await game.plan_with_commands(person)
        await game.wait_round_over(round_)
    data = await site.data(game.gid)
    last, rounds = data["steps"], dict(data["rounds"])
    assert sorted(rounds) == [1, 2, 3] and last > 4

    page = await open_page(browser, site.web.game_url(game.gid))
    # Keys pressed faster than the page fetches each step add up.
    for _ in range(4):
        await page.keyboard.press("ArrowLeft")
    await page.keyboard.press("ArrowRight")
    at = last - 3
    await page.wait_for_function(_text_is("step", f"Step {at} of {last}"), timeout=WAIT_MS)
    assert (await _src(page, "#image")).endswith(f"/step/{at}.png")
    assert f"Replay: step {at} of {last}" in await page.inner_text("#status")
    assert await page.is_enabled("#live") and await page.is_enabled("#prev")

    await page.select_option("#round", str(rounds[2]))
    await page.wait_for_function(_text_is("step", f"Step {rounds[2]} of {last}"), timeout=WAIT_MS)
    src = await _src(page, "#image")
    assert src.endswith(f"/step/{rounds[2]}.png")
    assert await page.eval_on_selector("#round", "s => s.value") == str(rounds[2])
    # What the image shows: the channel's status picture of the table at that step.
    status, kind, shown = await site.get(src)
    assert (status, kind) == (200, "image/png")
    png(shown)
    table = await game.table()
    state = await site.bot.service.state_at(game.gid, rounds[2])
    names = [seat.name for seat in table.seats]
    render = presenter("powerline").status_image
    assert shown == await draw(render, table.game.view(state, None), names)
    _, _, other = await site.get(src.replace(f"/step/{rounds[2]}.png", f"/step/{rounds[3]}.png"))
    png(other)
    assert other != shown, "another round, another picture"
    # The arrow keys step on from the round just chosen, as a person who used the list expects.
    await page.focus("#round")
    await page.keyboard.press("ArrowLeft")
    await page.wait_for_function(
        _text_is("step", f"Step {rounds[2] - 1} of {last}"), timeout=WAIT_MS
    )

    assert await page.eval_on_selector("#round", "s => s.value") == str(rounds[1])
    await page.click("#step")  # the focus leaves the list: Home and End are the replay's again
    await page.keyboard.press("Home")
    await page.wait_for_function(_text_is("step", f"Step 0 of {last}"), timeout=WAIT_MS)
    assert await page.is_disabled("#prev") and await page.is_disabled("#first")
    await page.keyboard.press("End")
    await page.wait_for_function(_text_is("step", f"Step {last} of {last} (now)"), timeout=WAIT_MS)
    assert await page.is_disabled("#next") and await page.is_disabled("#live")
    assert (await _src(page, "#image")).endswith(f"/step/{last}.png")


# ---- 3. one's own view ---------------------------------------------------------------------


async def test_a_personal_link_shows_that_persons_draft_and_expires(
    site: Site, browser: Browser
) -> None:
    s = site.scene
    game = await started_game(s.server, site.bot, s.channel, s.ada, [s.ben])
    for person in (s.ada, s.ben):
        await game.plan_with_commands(person, submit=False)
    spectator = await open_page(browser, site.web.game_url(game.gid))
    assert await spectator.locator("#mine-image").count() == 0
    assert await spectator.inner_text("#mine") == ""

    shown: dict[int, bytes] = {}
    for person in (s.ada, s.ben):
        page = await open_page(browser, site.web.mine_url(game.gid, person.id))
        assert f"Your view, {person.name}" in await page.inner_text("#mine")
        status, kind, shown[person.id] = await site.get(await _src(page, "#mine-image"))
        assert (status, kind) == (200, "image/png")
        png(shown[person.id])
        drawn = await board_of(await site.bot.service.draft(game.gid, person.id))
        assert shown[person.id] == drawn.fp.read(), f"{person.name}'s board with her draft"
    assert shown[s.ada.id] != shown[s.ben.id]

    url = site.web.mine_url(game.gid, s.ada.id)
    forged = url[:-1] + ("A" if url[-1] != "A" else "B")
    page = await browser.new_page()
    reply = await page.goto(forged)
    assert reply is not None and reply.status == 404
    assert "not valid" in await page.inner_text("main")
    assert await page.locator("#game, img, script").count() == 0, "a plain page"
    status, _, body = await site.get(forged + "/mine.png")
    assert status == 404 and b"not valid" in body

    site.clock.advance(days=2, minutes=1)
    reply = await page.goto(url)
    assert reply is not None and reply.status == 410
    assert "expired" in await page.inner_text("main")
    assert await page.locator("#game, img, script").count() == 0, "a plain page"
    for tail in ("/mine.png", "/data.json", "/log.json"):
        status, _, body = await site.get(url + tail)
        assert status == 410 and b"expired" in body, tail
    status, _, _ = await site.get(site.web.game_url(game.gid))
    assert status == 200, "a game's own link does not expire"


# ---- 4. hidden money -----------------------------------------------------------------------


async def test_a_hidden_money_games_page_shows_money_only_on_ones_own_link(
    site: Site, browser: Browser
) -> None:
    s = site.scene
    game = await started_with_ai(s.server, site.bot, s.ada, s.guild, "power_grid")
    table = await game.table()
    assert table.state.config.hidden_money, "Power Grid hides money by default (WBC)"
    # Ada plays her moves (the AI theirs) until every seat's money is its own figure.
    for _ in range(200):
        table = await game.table()
        money = [p.money for p in table.state.players]
        if len(set(money)) == len(money) and table.state.round >= 2:
            break
        waiting = [seat for seat in table.waiting_for() if not seat.is_ai]
        if waiting:
            seat = waiting[0].seat
            action = autopilot.choose(table.game.view(table.state, seat), seat)
            await site.bot.service.act(
                game.gid, s.ada.id, action.model_dump(mode="json", by_alias=True)
            )
        await asyncio.sleep(0.02)
    else:
        pytest.fail(f"the seats' money never parted: {money}")
    await s.server.wait_for(game.outbox_empty, TIMEOUT)
    table = await game.table()
    money = [p.money for p in table.state.players]
    ada = table.seat_of(s.ada.id)
    assert ada is not None
    names = [seat.name for seat in table.seats]

    page = await open_page(browser, site.web.game_url(game.gid))
    html = await page.content()
    text = await page.inner_text("body")
    data = await site.data(game.gid)
    older = await site.data(game.gid, data["steps"] // 2)
    _, _, log = await site.get(site.web.game_url(game.gid) + "/log.json")
    assert [seat["money"] for seat in json.loads(log)["view"]["seats"]] == [None] * len(names)
    for where, said in (("page", html), ("text", text), ("data", json.dumps([data, older]))):
        # Prices and bids are public; a seat's money beside its name is not.
        for name, figure in zip(names, money, strict=True):
            assert not re.search(rf"{re.escape(name)}: [^\n<]*\b{figure} Elektro", said), where
        seats_money = re.findall(r'"money": ?(-?\d+)', said)
        assert not seats_money, f"{where} holds money figures {seats_money}"
    # The spectator's picture is drawn from the view with every seat's money hidden.
    hidden = table.game.view(table.state, None)
    assert [seat["money"] for seat in hidden["seats"]] == [None] * len(names)
    _, _, spectator_png = await site.get(data["image"])
    assert spectator_png == await draw(presenter("power_grid").status_image, hidden, names)

    # Ada's own link shows her money: in its words, or in a picture of her own view that
    # changes with it.
    mine = await open_page(browser, site.web.mine_url(game.gid, s.ada.id))
    view = table.game.view(table.state, ada.seat)
    assert view["seats"][ada.seat]["money"] == money[ada.seat]
    if f"{money[ada.seat]} Elektro" not in await mine.inner_text("#mine"):
        assert await _shows_own_money(site, mine, view, ada.seat, names), (
            f"Ada's own page shows her {money[ada.seat]} Elektro nowhere"
        )
    assert await page.locator("#mine-image").count() == 0


async def _shows_own_money(
    site: Site, page: Page, view: dict[str, Any], seat: int, names: list[str]
) -> bool:
    """Whether one of the page's pictures is Power Grid's board, market or panel drawn from the
    seat's own view, and would change with its money."""
    show = presenter("power_grid")
    richer = copy.deepcopy(view)
    richer["seats"][seat]["money"] += 1
    drawings = [
        lambda v: draw(show.board, v, seat, names),
        lambda v: draw(show.status_image, v, names),
        lambda v: draw(show.panel_image, v, names),
    ]
    for src in await page.eval_on_selector_all("img", "all => all.map(i => i.src)"):
        _, _, shown = await site.get(src)
        for drawing in drawings:
            if shown == await drawing(view) and shown != await drawing(richer):
                return True
    return False


async def test_a_power_grid_players_own_page_is_legible_on_a_phone(
    site: Site, browser: Browser
) -> None:
    s = site.scene
    game = await started_with_ai(s.server, site.bot, s.ada, s.guild, "power_grid")
    spectator = await open_page(browser, site.web.game_url(game.gid))
    await check_layout(spectator, "a Power Grid game's page at 390 px")
    mine = await open_page(browser, site.web.mine_url(game.gid, s.ada.id))
    await check_layout(mine, "Ada's own Power Grid page at 390 px")


# ---- 5. phone and desktop ------------------------------------------------------------------


async def test_the_layout_check_finds_what_a_phone_would_not_show(browser: Browser) -> None:
    # The check that the pages pass, failing each way it can on a page made to fail it.
    picture = io.BytesIO()
    Image.new("RGB", (1040, 400), "white").save(picture, format="PNG")
    source = "data:image/png;base64," + base64.b64encode(picture.getvalue()).decode()
    page = await browser.new_page(viewport=PHONE)
    await page.set_content(
        '<main style="padding: 20px">'
        '<p id="fine">Fine text that wraps as a phone needs it to, over several lines.</p>'
        f'<img id="shrunk" src="{source}" style="width: 100%">'
        '<p id="tiny" style="font-size: 8px">tiny</p>'
        '<p id="clipped" style="width: 80px; overflow: hidden; white-space: nowrap">'
        "a line too long for its box</p>"
        '<div id="wide" style="width: 500px">wide</div></main>'
    )
    problems = await layout_problems(page)
    assert not [p for p in problems if "#fine" in p]
    for expected in (
        "px wider than the screen",
        "past the screen's edge: div#wide",
        "text under 9.0 px: p#tiny 8px",
        "text cut off: p#clipped",
        "its smallest text is 7.7 px (1040 px shown 334 px wide)",
    ):
        assert any(expected in p for p in problems), (expected, problems)
    assert any(p.startswith("image img#shrunk") for p in problems)
    await page.set_content(f'<body style="margin: 0"><img src="{source}" style="width: 100%">')
    assert await layout_problems(page) == [], "a bot's image shown 390 px wide is legible"


FIGURES = """() => {
  const paint = performance.getEntriesByName('first-contentful-paint')[0];
  const all = [...performance.getEntriesByType('navigation'),
               ...performance.getEntriesByType('resource')];
  const nav = performance.getEntriesByType('navigation')[0];
  return {fcp: paint ? paint.startTime : null, requests: all.length,
          html: nav.responseEnd,
          transfer: all.reduce((n, e) => n + (e.transferSize || 0), 0),
          body: all.reduce((n, e) => n + (e.encodedBodySize || 0), 0)};
}"""


async def test_the_pages_fit_a_phone_and_a_desktop(
    site: Site, browser: Browser, tmp_path: Path
) -> None:
    folder = GALLERY if os.environ.get("UPDATE_GALLERY") else tmp_path
    s = site.scene
    finished = await _finished(site)
    game = await started_game(s.server, site.bot, s.other_channel, s.ada, [s.ben])
    round_ = await game.round()
    for person in (s.ada, s.ben):
        await game.plan_with_commands(person)
    await game.wait_round_over(round_)
    await game.plan_with_commands(s.ada, submit=False)
    pages = {
        "game": site.web.game_url(game.gid),
        "mine": site.web.mine_url(game.gid, s.ada.id),
        "finished": site.web.game_url(finished.gid),
        "server": site.web.server_url(s.guild.id),
    }
    shots = {("game", 390), ("game", 1280), ("mine", 390), ("finished", 390)}
    for name, url in pages.items():
        for viewport in (PHONE, DESKTOP):
            width = viewport["width"]
            page = await open_page(browser, url, viewport)
            await check_layout(page, f"the {name} page at {width} px")
            if name == "server":
                assert "Powerline" in await page.inner_text("h2"), "the finished game's ratings"
            else:
                assert await page.locator("#image").is_visible()
            if name == "finished":
                boards = page.locator("#revealed img")
                assert await boards.count() == 2, "each seat's board, now that it is over"
            if (name, width) in shots:
                shot = await page.screenshot(full_page=name == "finished")
                assert png(shot).width == width
                (folder / f"web-{name}-{width}.png").write_bytes(shot)
            await page.close()

    # How soon a phone shows the game page and what it loads: printed, for the record.
    page = await open_page(browser, pages["game"], PHONE)
    figures = await page.evaluate(FIGURES)
    print(
        f"\ngame page at 390 px: first contentful paint {figures['fcp']:.0f} ms; "
        f"{figures['requests']} requests, {figures['transfer']} bytes transferred "
        f"({figures['body']} bytes of bodies); the HTML in {figures['html']:.0f} ms"
    )
    assert figures["fcp"] is not None and figures["transfer"] > 0


# ---- 6. safety -----------------------------------------------------------------------------


async def test_bad_links_and_a_burst_of_requests_get_plain_pages(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    s = site.scene
    game = await started_game(s.server, site.bot, s.channel, s.ada, [s.ben])
    limit = 8
    # From here on every request counts against the lowered limit (the game's start made none).
    monkeypatch.setattr(web_app, "RATE", (limit, 60.0))
    game_token = site.web.game_url(game.gid).rsplit("/", 1)[1]
    server_token = site.web.server_url(s.guild.id).rsplit("/", 1)[1]
    wrong = [
        "/g/garbage",
        f"/s/{game_token}",  # a game's token where a server's is due
        f"/t/{game_token}",
        f"/g/{server_token}",
        f"/g/{server_token}/data.json",
    ]
    for path in wrong:
        status, kind, body = await site.get(path)
        assert (status, kind) == (404, "text/html"), path
        assert b"Link not valid" in body and b"<script" not in body, path
    burst = [(await site.get(f"/g/{game_token}/data.json"))[0] for _ in range(limit)]
    left = limit - len(wrong)
    assert burst == [200] * left + [429] * (limit - left), burst
    status, kind, body = await site.get(f"/g/{game_token}")
    assert (status, kind) == (429, "text/html") and b"Too many requests" in body


# ---- 9. links from Discord ---------------------------------------------------------------------


async def test_discord_posts_link_to_the_pages(site: Site) -> None:
    s = site.scene
    game = await started_game(s.server, site.bot, s.channel, s.ada, [s.ben])
    page = site.web.game_url(game.gid)
    # The status board carries the page as a link button.
    board = await s.server.wait_for(lambda: _status_board(s, game.gid), 15)
    buttons = [c for c in board.iter_components() if c.get("url")]
    assert [(b["label"], b["url"]) for b in buttons] == [("View on the web", page)]
    # /game web: the page to anyone, and a seated player's own link to them alone.
    told = await answer(s.server.slash(s.ada, s.channel, "game web"))
    assert told.ephemeral and page in told.content
    assert site.web.mine_url(game.gid, s.ada.id) in told.content
    stranger = await answer(s.server.slash(s.outsider, s.channel, "game web"))
    assert page in stranger.content and "Your own view" not in stranger.content
    # /game log adds the replay; /mygames links each game.
    log = await answer(s.server.slash(s.ben, s.channel, "game log"))
    assert f"Step through it on the web: {page}" in log.content
    mine = await answer(s.server.slash(s.ada, s.server.dm_channel(s.ada), "mygames"))
    assert f"[on the web]({page})" in mine.embeds[0]["description"]


def _status_board(scene: Scene, gid: int) -> Message | None:
    return next(
        (
            m
            for m in scene.server.messages(scene.channel)
            if m.embeds and m.embeds[0].get("title", "").startswith(f"Powerline game #{gid} ·")
        ),
        None,
    )
