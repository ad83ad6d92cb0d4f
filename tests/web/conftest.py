"""The web pages' fixtures: Debian's Chromium driven by Playwright, the real bot with its web
server against the stand-in, and a check that a page fits the screen it is shown on."""

import json
import zlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import aiohttp
import pytest
from playwright.async_api import Browser, Page, async_playwright

import bot.service.lobby as lobby_module
from bot.app import GameBot
from bot.sandbox.postgres import free_port
from bot.service.clock import ManualClock
from bot.web.app import Web
from render.common import MIN_TEXT, PHONE_TEXT
from tests.bot import conftest as bot_fixtures
from tests.bot.conftest import Bots, Scene

# The stand-in, its guild and people, and the bots run against it: tests/bot's own fixtures.
server, scene, bots = bot_fixtures.server, bot_fixtures.scene, bot_fixtures.bots

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
WAIT_MS = 15_000
"""How long a page may take to show what a test waits for."""
SMALLEST_PX = float(PHONE_TEXT)
"""The smallest legible text on a phone (the stylesheet aims at 14 px and more; the images'
smallest text, MIN_TEXT, is this high when they are shown PHONE_WIDTH wide)."""


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield launched
        finally:
            await launched.close()


@dataclass
class Site:
    """A running bot with its web pages, on a clock the test moves."""

    scene: Scene
    bot: GameBot
    clock: ManualClock

    @property
    def web(self) -> Web:
        assert self.bot.web is not None, "the bot started without its web pages"
        return self.bot.web

    @property
    def base(self) -> str:
        return self.web.links.base

    async def get(self, url: str) -> tuple[int, str, bytes]:
        """A plain request (no browser): status, content type and body; `url` may be a path."""
        url = url if url.startswith("http") else self.base + url
        async with aiohttp.ClientSession() as session, session.get(url) as reply:
            return reply.status, reply.content_type, await reply.read()

    async def data(self, gid: int, at: int | None = None) -> dict[str, Any]:
        """The spectator page's data.json, at step `at` (None: now)."""
        query = "" if at is None else f"?at={at}"
        status, kind, body = await self.get(f"{self.web.game_url(gid)}/data.json{query}")
        assert (status, kind) == (200, "application/json"), body[:300]
        return json.loads(body)


@pytest.fixture
async def site(
    request: pytest.FixtureRequest, scene: Scene, bots: Bots, monkeypatch: pytest.MonkeyPatch
) -> Site:
    """The bot with its web server on a free port; games seeded from the test's name."""
    # Each game's seed from the test's name, as tests/bot does: varied but reproducible.
    seed = zlib.crc32(request.node.nodeid.encode()) & ((1 << 48) - 1)
    monkeypatch.setattr(lobby_module, "secrets", SimpleNamespace(randbits=lambda _bits: seed))
    # Real time at the start, so a deadline on the page reads "in 1 day", not months ago.
    clock = ManualClock(datetime.now(UTC))
    port = free_port()
    bot = await bots.start(
        clock=clock,
        web_port=port,
        web_host="127.0.0.1",
        web_secret="test-secret",
        public_url=f"http://127.0.0.1:{port}",
    )
    return Site(scene, bot, clock)


async def open_page(browser: Browser, url: str, viewport: dict[str, int] = PHONE) -> Page:
    """A fresh page (its own cache) at `url`, once it and its images have loaded."""
    page = await browser.new_page(viewport=viewport)
    reply = await page.goto(url)
    assert reply is not None and reply.status == 200, f"{url}: {reply and reply.status}"
    await page.wait_for_load_state("networkidle")
    return page


LAYOUT = """() => {
  const width = window.innerWidth, found = {small: [], cut: [], wide: [], images: []};
  const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
    + (el.className && typeof el.className === 'string' ? '.' + el.className.split(' ')[0] : '');
  for (const el of document.querySelectorAll('body *')) {
    const style = getComputedStyle(el);
    if (style.display === 'none' || style.visibility === 'hidden') continue;
    const box = el.getBoundingClientRect();
    if (box.width && (box.left < -1 || box.right > width + 1))
      found.wide.push(`${name(el)} spans ${Math.round(box.left)}..${Math.round(box.right)}`);
    const text = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())
      || ['BUTTON', 'SELECT', 'INPUT'].includes(el.tagName);
    if (!text) continue;
    if (parseFloat(style.fontSize) < SMALLEST)
      found.small.push(`${name(el)} ${style.fontSize}: ${el.textContent.trim().slice(0, 40)}`);
    const clips = style.overflowX !== 'visible' || style.textOverflow === 'ellipsis';
    if (clips && el.scrollWidth > el.clientWidth + 1)
      found.cut.push(`${name(el)} ${el.scrollWidth} > ${el.clientWidth}`);
  }
  for (const img of document.images) {
    const what = name(img) + ' ' + img.src.split('/').pop().slice(0, 40);
    const box = img.getBoundingClientRect();
    const shrunk = img.clientWidth / img.naturalWidth;
    if (!img.complete || img.naturalWidth === 0) found.images.push(`${what} not loaded`);
    else if (box.width > width || box.right > width + 1)
      found.images.push(`${what} is ${Math.round(box.width)} px wide`);
    else if (IMAGE_TEXT * shrunk < SMALLEST - 0.05)
      found.images.push(`${what}: its smallest text is ${(IMAGE_TEXT * shrunk).toFixed(1)} px`
        + ` (${img.naturalWidth} px shown ${img.clientWidth} px wide)`);
  }
  found.overflow = document.documentElement.scrollWidth - width;
  return found;
}""".replace("SMALLEST", str(SMALLEST_PX)).replace("IMAGE_TEXT", str(MIN_TEXT))


async def layout_problems(page: Page) -> list[str]:
    """What does not fit on the page's screen: the page wider than it, an element past its edge,
    text cut off or under SMALLEST_PX, an image missing, too wide or shrunk until its text is."""
    found = await page.evaluate(LAYOUT)
    problems = [f"{found['overflow']} px wider than the screen"] if found["overflow"] > 0 else []
    problems += [f"past the screen's edge: {what}" for what in found["wide"]]
    problems += [f"text under {SMALLEST_PX} px: {what}" for what in found["small"]]
    problems += [f"text cut off: {what}" for what in found["cut"]]
    return problems + [f"image {what}" for what in found["images"]]


async def check_layout(page: Page, what: str) -> None:
    problems = await layout_problems(page)
    assert not problems, f"{what}: " + "; ".join(problems[:8])
