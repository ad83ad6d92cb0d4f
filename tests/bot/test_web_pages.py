"""The web companion in a real headless Chromium (Debian's, installed by scripts/setup-chromium),
against the bot's own web server during stand-in games: live updates, the replay by keyboard, a
player's own view, hidden money, bad links, and the layout at phone and desktop widths."""

import asyncio
import io
import json
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from PIL import Image
from playwright.async_api import Browser, Page, async_playwright

from bot.app import GameBot
from bot.drawing import draw
from bot.sandbox.postgres import free_port
from bot.service.clock import ManualClock
from bot.ui.planning import board_of
from bot.ui.presenter import presenter
from bot.web import app as web_app
from engine.power_grid import autopilot
from tests.bot.conftest import Bots, Scene
from tests.bot.helpers import Game, started_game, started_with_ai

GALLERY = Path(__file__).parents[2] / "docs" / "gallery"
"""Where `UPDATE_GALLERY=1` puts the screenshots (else the test's own folder: a run of the suite
leaves the tree as it was)."""
CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE, DESKTOP = {"width": 390, "height": 844}, {"width": 1280, "height": 800}
WAIT = 15_000
"""Milliseconds a page may take to show what the test waits for."""

LAYOUT = """() => {
  const small = [], cut = [];
  for (const el of document.querySelectorAll('body *')) {
    const style = getComputedStyle(el);
    if (style.display === 'none' || style.visibility === 'hidden') continue;
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (own && parseFloat(style.fontSize) < 9) small.push(el.tagName + ' ' + style.fontSize);
    if (own && style.overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1)
      cut.push(el.tagName + '#' + el.id);
    const box = el.getBoundingClientRect();
    if (box.width && box.right > innerWidth + 1) cut.push(el.tagName + '#' + el.id + ' past edge');
  }
  return {small, cut, wide: document.documentElement.scrollWidth > innerWidth};
}"""


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield launched
        await launched.close()


async def _web_bot(bots: Bots, clock: ManualClock | None = None) -> GameBot:
    bot = await bots.start(
        clock=clock, web_port=free_port(), web_host="127.0.0.1", web_secret="test-secret"
    )
    assert bot.web is not None
    return bot


async def _open(browser: Browser, url: str, viewport: dict[str, int] = PHONE) -> Page:
    page = await browser.new_page(viewport=viewport)
    await page.goto(url)
    await page.wait_for_selector("#step", timeout=WAIT)
    return page


async def _get(url: str) -> tuple[int, bytes]:
    async with aiohttp.ClientSession() as session, session.get(url) as reply:
        return reply.status, await reply.read()


async def _settle(game: Game) -> None:
    await game.server.wait_for(game.outbox_empty, 15)


async def test_the_game_page_follows_the_game_without_reloading(
    scene: Scene, bots: Bots, browser: Browser
) -> None:
    bot = await _web_bot(bots)
    game = await started_game(scene.server, bot, scene.channel, scene.ada, [scene.ben])
    assert bot.web is not None
    page = await _open(browser, bot.web.game_url(game.gid))
    await page.evaluate("window.__stayed = true")
    before = await page.inner_text("#status")
    assert "round 1" in before.lower()
    for person in (scene.ada, scene.ben):
        await game.plan_with_commands(person)
    await _settle(game)
    await page.wait_for_function(
        "document.getElementById('status').innerText.toLowerCase().includes('round 2')",
        timeout=WAIT,
    )
    assert await page.evaluate("window.__stayed === true"), "updated in place, not reloaded"
    steps = (await _fetch_data(bot, game.gid))["steps"]
    assert await page.inner_text("#step") == f"Step {steps} of {steps} (now)"
    assert "Round 1:" in await page.inner_text("#moves"), "the round's summary, in words"


async def _fetch_data(bot: GameBot, gid: int, at: int | None = None) -> dict[str, Any]:
    assert bot.web is not None
    query = "" if at is None else f"?at={at}"
    status, body = await _get(f"{bot.web.game_url(gid)}/data.json{query}")
    assert status == 200
    return json.loads(body)


async def test_the_replay_steps_by_keyboard_and_jumps_to_a_round(
    scene: Scene, bots: Bots, browser: Browser
) -> None:
    bot = await _web_bot(bots)
    game = await started_game(scene.server, bot, scene.channel, scene.ada, [scene.ben])
    for _ in range(2):
        for person in (scene.ada, scene.ben):
            await game.plan_with_commands(person)
        await _settle(game)
    data = await _fetch_data(bot, game.gid)
    last = data["steps"]
    assert bot.web is not None
    page = await _open(browser, bot.web.game_url(game.gid))
    image = page.locator("#image")
    for _ in range(3):
        await page.keyboard.press("ArrowLeft")
    await page.wait_for_function(
        f"document.getElementById('step').innerText === 'Step {last - 3} of {last}'", timeout=WAIT
    )
    assert (await image.get_attribute("src") or "").endswith(f"/step/{last - 3}.png")
    await page.keyboard.press("ArrowRight")
    await page.wait_for_function(
        f"document.getElementById('step').innerText === 'Step {last - 2} of {last}'", timeout=WAIT
    )
    rounds = dict(data["rounds"])
    await page.select_option("#round", str(rounds[2]))
    await page.wait_for_function(
        f"document.getElementById('image').getAttribute('src').endsWith('/step/{rounds[2]}.png')",
        timeout=WAIT,
    )
    assert "Replay: step" in await page.inner_text("#status")
    # The image of a step is the table as the channel saw it then.
    status, shown = await _get(f"{bot.web.game_url(game.gid)}/step/{rounds[2]}.png")
    state = await bot.service.state_at(game.gid, rounds[2])
    table = await game.table()
    public = table.game.view(state, None)
    names = [s.name for s in table.seats]
    drawn = await draw(presenter("powerline").status_image, public, names)
    assert status == 200 and shown == drawn
    _, first = await _get(f"{bot.web.game_url(game.gid)}/step/{rounds[1]}.png")
    assert first != shown, "another round, another picture"
    await page.keyboard.press("End")
    await page.wait_for_function(
        f"document.getElementById('step').innerText === 'Step {last} of {last} (now)'",
        timeout=WAIT,
    )


async def test_a_personal_link_shows_that_players_plan_and_no_one_elses(
    scene: Scene, bots: Bots, browser: Browser
) -> None:
    clock = ManualClock()
    bot = await _web_bot(bots, clock)
    game = await started_game(scene.server, bot, scene.channel, scene.ada, [scene.ben])
    for person in (scene.ada, scene.ben):
        await game.plan_with_commands(person, submit=False)
    assert bot.web is not None
    spectator = await _open(browser, bot.web.game_url(game.gid))
    assert await spectator.locator("#mine-image").count() == 0
    shown = {}
    for person in (scene.ada, scene.ben):
        page = await _open(browser, bot.web.mine_url(game.gid, person.id))
        assert person.name in await page.inner_text("#mine")
        src = await page.get_attribute("#mine-image", "src")
        assert src is not None
        _, shown[person.id] = await _get(bot.web.links.base + src)
        expected = await board_of(await bot.service.draft(game.gid, person.id))
        assert shown[person.id] == expected.fp.read(), f"{person.name}'s own draft"
    assert shown[scene.ada.id] != shown[scene.ben.id]
    # One character changed: a plain page that says so; an old personal link: expired.
    url = bot.web.mine_url(game.gid, scene.ada.id)
    status, body = await _get(url[:-1] + ("A" if url[-1] != "A" else "B"))
    assert status == 404 and b"This link is not one the bot gave out." in body
    clock.advance(days=2, minutes=1)
    status, body = await _get(url + "/mine.png")
    assert status == 410 and b"This link has expired." in body
    status, _ = await _get(bot.web.game_url(game.gid))
    assert status == 200, "a game's own link does not expire"


async def test_the_spectator_page_of_a_hidden_money_game_shows_no_money(
    scene: Scene, bots: Bots, browser: Browser
) -> None:
    bot = await _web_bot(bots)
    game = await started_with_ai(scene.server, bot, scene.ada, scene.guild, "power_grid")
    # Ada plays her moves (the AI plays theirs) until the seats' money differs.
    while True:
        table = await game.table()
        money = [p.money for p in table.state.players]
        if len(set(money)) == len(money) and table.state.round >= 2:
            break
        waiting = [s for s in table.waiting_for() if not s.is_ai]
        if waiting:
            view = table.game.view(table.state, waiting[0].seat)
            action = autopilot.choose(view, waiting[0].seat).model_dump(mode="json", by_alias=True)
            await bot.service.act(game.gid, scene.ada.id, action)
        await asyncio.sleep(0.05)
    await _settle(game)
    table = await game.table()
    assert all(p["money"] is None for p in table.game.view(table.state, None)["seats"])
    assert bot.web is not None
    data = await _fetch_data(bot, game.gid)
    _, shown = await _get(bot.web.links.base + data["image"])
    names = [s.name for s in table.seats]
    hidden = table.game.view(table.state, None)
    assert shown == await draw(presenter("power_grid").status_image, hidden, names)
    page = await _open(browser, bot.web.game_url(game.gid))
    text = await page.inner_text("body")
    for seat, player in enumerate(table.state.players):
        if table.seats[seat].is_ai:
            assert f"{player.money} Elektro" not in text and f"${player.money}" not in text
    assert "money" not in json.dumps(data).lower()
    ada = table.seat_of(scene.ada.id)
    assert ada is not None
    mine = await _open(browser, bot.web.mine_url(game.gid, scene.ada.id))
    src = await mine.get_attribute("#mine-image", "src")
    _, own = await _get(bot.web.links.base + (src or ""))
    view = table.game.view(table.state, ada.seat)
    assert own == await draw(presenter("power_grid").board, view, ada.seat, names)
    assert view["seats"][ada.seat]["money"] == table.state.players[ada.seat].money


async def test_bad_links_and_too_many_requests_get_plain_pages(
    scene: Scene, bots: Bots, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = await _web_bot(bots)
    game = await started_game(scene.server, bot, scene.channel, scene.ada, [scene.ben])
    assert bot.web is not None
    base = bot.web.links.base
    status, body = await _get(f"{base}/g/garbage")
    assert status == 404 and b"Link not valid" in body
    token = bot.web.game_url(game.gid).rsplit("/", 1)[1]
    status, body = await _get(f"{base}/s/{token}")
    assert status == 404 and b"Link not valid" in body, "a game's link opens no server page"
    monkeypatch.setattr(web_app, "RATE", (5, 60.0))
    codes = [(await _get(bot.web.game_url(game.gid) + "/data.json"))[0] for _ in range(7)]
    assert codes == [200] * 3 + [429] * 4, "5 a minute, and two pages were asked for before"


async def _check_layout(page: Page, what: str) -> None:
    found = await page.evaluate(LAYOUT)
    assert not found["wide"], f"{what}: wider than the screen"
    assert not found["small"], f"{what}: text under 9 px: {found['small'][:5]}"
    assert not found["cut"], f"{what}: cut off: {found['cut'][:5]}"


async def test_pages_fit_a_phone_and_a_desktop(
    scene: Scene, bots: Bots, browser: Browser, tmp_path: Path
) -> None:
    shots = GALLERY if os.environ.get("UPDATE_GALLERY") else tmp_path
    bot = await _web_bot(bots)
    game = await started_game(scene.server, bot, scene.channel, scene.ada, [scene.ben])
    for person in (scene.ada, scene.ben):
        await game.plan_with_commands(person)
    await _settle(game)
    await game.plan_with_commands(scene.ada, submit=False)
    assert bot.web is not None
    pages = {
        "game": bot.web.game_url(game.gid),
        "mine": bot.web.mine_url(game.gid, scene.ada.id),
        "server": bot.web.server_url(scene.guild.id),
    }
    for name, url in pages.items():
        for viewport in (PHONE, DESKTOP):
            page = await browser.new_page(viewport=viewport)
            await page.goto(url)
            await page.wait_for_load_state("networkidle")
            await _check_layout(page, f"{name} at {viewport['width']} px")
            if name != "server":
                image = await page.eval_on_selector(
                    "#image", "i => i.getBoundingClientRect().width"
                )
                assert 0 < image <= viewport["width"]
            if name == "game" or (name == "mine" and viewport is PHONE):
                shot = await page.screenshot()
                (shots / f"web-{name}-{viewport['width']}.png").write_bytes(shot)
                assert Image.open(io.BytesIO(shot)).size == (viewport["width"], viewport["height"])
            await page.close()
    # What a phone loads for the game page, and how soon it shows: printed for the note.
    page = await browser.new_page(viewport=PHONE)
    await page.goto(pages["game"])
    await page.wait_for_load_state("networkidle")
    figures = await page.evaluate(
        """() => {
          const paint = performance.getEntriesByName('first-contentful-paint')[0];
          const all = [...performance.getEntriesByType('navigation'),
                       ...performance.getEntriesByType('resource')];
          return {fcp: paint ? paint.startTime : null,
                  bytes: all.reduce((n, e) => n + (e.encodedBodySize || 0), 0)};
        }"""
    )
    print(f"game page at 390 px: first paint {figures['fcp']:.0f} ms, {figures['bytes']} bytes")
    assert figures["fcp"] is not None and figures["bytes"] > 0
