"""The server pages: a server's leaderboards (its own results only) and a tournament's bracket."""

from html.parser import HTMLParser
from itertools import count

import pytest

from bot.service.errors import UserError
from bot.service.options import TableOptions
from bot.service.ratings import Rating
from bot.service.tournament import margin_of_defeat, margin_of_victory
from bot.service.tournament.runner import Tournaments
from bot.service.tournament.seeding import ordinal
from bot.web.server_pages import bracket_html, leaderboard_html
from tests.service.conftest import world  # noqa: F401  (the service fixture, on each backend)
from tests.service.helpers import ALICE, BOB, CARL, fill_draft

HERE, THERE = 1, 2
SHADY = "<b>x</b>"
"""A name that would be markup if it were not escaped."""


class Page(HTMLParser):
    """A page's table rows (header rows left out) as cell texts under their heading (h2), its
    links, and its text."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.heading = ""
        self.rows: list[tuple[str, list[str]]] = []
        self.links: list[str] = []
        self.text = ""
        self._in: str | None = None
        self._head = False
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "thead":
            self._head = True
        elif tag == "tr" and not self._head:
            self.rows.append((self.heading, []))
        elif tag == "td":
            self._in = tag
            self.rows[-1][1].append("")
        elif tag == "h2":
            self._in, self.heading = tag, ""
        elif tag == "a":
            self.links.append(dict(attrs)["href"] or "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "thead":
            self._head = False
        elif tag in ("td", "h2"):
            self._in = None

    def handle_data(self, data: str) -> None:
        self.text += data
        if self._in == "h2":
            self.heading += data
        elif self._in == "td":
            self.rows[-1][1][-1] += data

    def body(self, heading: str) -> list[list[str]]:
        """The rows of the tables under `heading`."""
        return [cells for h, cells in self.rows if h == heading]


async def _play(svc, guild: int, people: list[tuple[int, str]], by_hand: bool) -> int:
    """A finished two-player game in `guild`: planned by its people, or handed to the AI."""
    (host, host_name), *others = people
    table = await svc.open_table(
        "powerline", guild, 10 + guild, host, host_name, {"variants": []}, TableOptions()
    )
    gid = table.row.id
    for uid, name in others:
        await svc.join(gid, uid, name)
    table = await svc.start(gid, host, False)
    while by_hand and table.row.status == "active":
        for uid, _ in people:
            await fill_draft(svc, gid, uid)
            table, _ = await svc.submit(gid, uid)
    for uid, _ in people:
        if table.row.status == "active":
            table = await svc.hand_to_ai(gid, uid, uid, False, leaving=False)
    assert table.row.status == "finished"
    return gid


async def test_a_servers_leaderboard_shows_its_own_rated_players_only(world):  # noqa: F811
    svc, _, _ = world
    await _play(svc, HERE, [(ALICE, SHADY), (BOB, "Bob")], by_hand=True)
    for _ in range(2):
        await _play(svc, THERE, [(ALICE, SHADY), (CARL, "Carl")], by_hand=False)

    html = await leaderboard_html(svc, HERE, "Home & Co")
    page = Page(html)
    assert "<b>x</b>" not in html and "&lt;b&gt;x&lt;/b&gt;" in html
    assert "Home &amp; Co — leaderboards" in html
    expected = []
    for row in (await svc.leaderboard("powerline", HERE, 0))[0]:
        rating = Rating(row["mu"], row["sigma"], row["rated_games"])
        shown = f"{rating.shown}" + (" provisional" if rating.provisional else "")
        expected.append([row["name"], shown, "1", str(row["wins"])])
    assert [cells[1:] for cells in page.body("Powerline")] == expected
    assert {cells[1] for cells in page.body("Powerline")} == {SHADY, "Bob"}
    assert [cells[0] for cells in page.body("Powerline")] == ["1", "2"]
    # Alice's two games there count nowhere here, and Carl, who played only there, is absent.
    assert "Carl" not in page.text

    there = Page(await leaderboard_html(svc, THERE, None))
    assert {cells[1] for cells in there.body("Powerline")} == {SHADY, "Carl"}
    assert {cells[3] for cells in there.body("Powerline")} == {"2"}
    assert "Bob" not in there.text

    empty = await leaderboard_html(svc, 3, "Quiet")
    assert "No rated games in this server yet." in empty and "<table" not in empty


async def _play_out(svc, games: list[int]) -> None:
    """Everyone hands their seat to the AI (keeping it), which plays each game to its end."""
    for gid in games:
        for seat in (await svc.table(gid)).seats:
            if seat.user_id is not None and not seat.is_ai:
                await svc.hand_to_ai(gid, seat.user_id, seat.user_id, False, leaving=False)


async def test_a_brackets_page_shows_each_stage_with_places_margins_and_links(world):  # noqa: F811
    svc, _, _ = world
    tours = Tournaments(svc)
    threads = count(5000)

    async def place(label: str, players: list[int]) -> tuple[int, int | None]:
        return 10, next(threads)

    def link(game_id: int) -> str:
        return f"/game/{game_id}?sig=a&b"

    t = await tours.create(HERE, 10, ALICE, "Cup <i>", "powerline", 1, {}, TableOptions(), 3)
    names = {200 + i: f"P{i}" for i in range(8)} | {200: SHADY}
    for uid, name in names.items():
        await tours.register(t.id, uid, name)
    assert "No tables yet." in await bracket_html(svc, tours, t.id, link)

    heat = await tours.start_heat(t.id, ALICE, False, place)
    await _play_out(svc, heat)
    semis = await tours.start_semifinal(t.id, ALICE, False, place)
    await _play_out(svc, semis)
    final = await tours.start_final(t.id, ALICE, False, place)

    running = Page(html := await bracket_html(svc, tours, t.id, link))
    assert "Cup &lt;i&gt; — bracket" in html and "Powerline · final" in html
    assert "<b>x</b>" not in html and "&lt;b&gt;x&lt;/b&gt;" in html
    assert running.body("Final") == [] and "Playing: round" in html
    assert "Champion" not in html

    await _play_out(svc, [final])
    html = await bracket_html(svc, tours, t.id, link)
    page = Page(html)
    games = [*heat, *semis, final]
    # Each table links to its game (the frame's own links aside).
    tables = [href for href in page.links if href.startswith("/game/")]
    assert tables == [f"/game/{g}?sig=a&b" for g in games]
    assert f'href="/game/{final}?sig=a&amp;b"' in html
    for heading, stage in (("Heat 1", "heat"), ("Semifinal", "semifinal"), ("Final", "final")):
        shown = page.body(heading)
        expected = []
        for game in await tours.stage_results(t.id, stage):
            for seat in game.by_rank():
                won = seat.player == game.winner().player
                margin = (margin_of_victory if won else margin_of_defeat)(game, seat.player)
                expected.append([ordinal(seat.rank), names[seat.player], margin.explain])
        assert len(expected) == {"heat": 8, "semifinal": 8, "final": 3}[stage]
        assert sorted(shown) == sorted(expected)
    champion = (await tours.stage_results(t.id, "final"))[0].winner().player
    assert f"Champion: {names[champion]}" in page.text

    with pytest.raises(UserError, match="no tournament #999"):
        await bracket_html(svc, tours, 999, link)
