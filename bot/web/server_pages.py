"""A server's leaderboards and a tournament's bracket as web pages, from the service's reads.

Classes used (for site.css): `ranks` (a table of people by place), `num` (a number cell),
`provisional` (a rating still settling), `note` (a small explanation under a heading or table),
`empty` (a page or stage with nothing to show yet), `champion` (the tournament's winner).
"""

from collections.abc import Callable
from html import escape
from itertools import groupby

from bot.service.hosting import hosted, hosting
from bot.service.ratings import Rating
from bot.service.service import Service
from bot.service.tournament.margins import margin_of_defeat, margin_of_victory
from bot.service.tournament.models import HeatGame
from bot.service.tournament.runner import Tournaments
from bot.service.tournament.seeding import ordinal
from bot.store.tournaments import TournamentRow
from bot.web.html import page

TOP = 25
"""People shown per game's leaderboard: the first page a phone reads without paging."""


async def leaderboard_html(service: Service, guild_id: int, guild_name: str | None) -> str:
    """The server's leaderboard of every hosted game it has rated players in."""
    where = guild_name or "This server"
    sections = []
    for name, game in hosted().items():
        rows, total = await service.leaderboard(name, guild_id, 0, TOP)
        if rows:
            sections.append(_ranking(game.title, rows, total))
    body = "".join(sections) or '<p class="empty">No rated games in this server yet.</p>'
    note = (
        '<p class="note">A newcomer starts at 1500; “provisional” until about ten games.</p>'
        if sections
        else ""
    )
    return page(f"{where} — leaderboards", f"<h1>{escape(where)} — leaderboards</h1>{note}{body}")


def _ranking(title: str, rows: list[dict], total: int) -> str:
    """One game's leaderboard rows as a table, rated the way `/leaderboard` shows them."""
    lines = []
    for rank, row in enumerate(rows, start=1):
        rating = Rating(row["mu"], row["sigma"], row["rated_games"])
        mark = ' <span class="provisional">provisional</span>' if rating.provisional else ""
        lines.append(
            f'<tr><td class="num">{rank}</td><td>{escape(row["name"])}</td>'
            f'<td class="num">{rating.shown}{mark}</td>'
            f'<td class="num">{row["games"]}</td><td class="num">{row["wins"]}</td></tr>'
        )
    more = (
        f'<p class="note">The top {len(rows)} of {total} rated players.</p>'
        if total > len(rows)
        else ""
    )
    return (
        f"<section><h2>{escape(title)}</h2>"
        '<table class="ranks"><thead><tr><th class="num">#</th><th>Player</th>'
        '<th class="num">Rating</th><th class="num">Games</th><th class="num">Wins</th></tr>'
        f"</thead><tbody>{''.join(lines)}</tbody></table>{more}</section>"
    )


async def bracket_html(
    service: Service,
    tournaments: Tournaments,
    tournament_id: int,
    link_of_game: Callable[[int], str],
) -> str:
    """Every table of the tournament by stage, with places and margins once a table finished;
    a `UserError` for a tournament that does not exist."""
    # One read for the whole page, so no table finishes between its heading and its places.
    async with service.repo.reading():
        t = await tournaments.get(tournament_id)
        rows = await tournaments.store.bracket(tournament_id)
        parts = []
        champion = ""
        for (stage, heat), group in groupby(rows, key=lambda r: (r.stage, r.heat)):
            heading = f"Heat {heat}" if stage == "heat" else stage.capitalize()
            tables = []
            for row in group:
                table = await service.table(row.game_id)
                # The runner's own reading of a finished game, so margins match the seeding's.
                result = await tournaments.result(row.game_id, row.heat)
                names = {s.user_id: s.name for s in table.seats}
                link = escape(link_of_game(row.game_id))
                head = f'<h3><a href="{link}">Table {row.table_no}</a> · game #{row.game_id}</h3>'
                if result is None:
                    seated = "".join(f"<li>{escape(s.name)}</li>" for s in table.seats)
                    words = table.game.progress(table.state).words
                    tables.append(f"{head}<p>Playing: {escape(words)}</p><ol>{seated}</ol>")
                    continue
                tables.append(head + _places(result, names))
                if stage == "final":
                    who = names.get(result.winner().player, "?")
                    champion = f'<p class="champion">Champion: {escape(who)}</p>'
            parts.append(f"<section><h2>{heading}</h2>{''.join(tables)}</section>")
    body = "".join(parts) or '<p class="empty">No tables yet.</p>'
    title = f"{t.name} — bracket"
    intro = f"<h1>{escape(title)}</h1><p>{escape(hosting(t.game).title)} · {_stage(t)}</p>"
    return page(title, intro + champion + body)


def _places(result: HeatGame, names: dict[int | None, str]) -> str:
    """A finished table from first to last, each with the margin the seeding ranks it by."""
    winner = result.winner().player
    lines = []
    for seat in result.by_rank():
        margin = (
            margin_of_victory(result, seat.player)
            if seat.player == winner
            else margin_of_defeat(result, seat.player)
        )
        lines.append(
            f"<tr><td>{ordinal(seat.rank)}</td><td>{escape(names.get(seat.player, '?'))}</td>"
            f"<td>{escape(margin.explain)}</td></tr>"
        )
    return (
        '<table class="ranks"><thead><tr><th>Place</th><th>Player</th><th>Margin</th></tr>'
        f"</thead><tbody>{''.join(lines)}</tbody></table>"
    )


def _stage(t: TournamentRow) -> str:
    """Where the tournament stands, in words."""
    if t.stage == "registration":
        return "registration open"
    if t.stage == "heat":
        return f"heat {t.heats_started} of {t.heats}"
    return t.stage
