"""A person's games at a glance, as `/mygames` and the daily digest list them: which wait for
them, in what order, and one line each."""

from bot.service.service import Table
from bot.service.shapes import shape
from bot.store.repo import PanelRow
from bot.ui.common import game_ref, said
from engine.core import queue


def panel_link(table: Table, panel: PanelRow) -> str:
    """The link to a person's turn panel: in their DMs, or in the game's channel (DMs closed)."""
    where = "@me" if panel.dm else table.row.guild_id or "@me"
    return f"https://discord.com/channels/{where}/{panel.channel_id}/{panel.message_id}"


def mine(table: Table, user_id: int) -> bool:
    """Whether the game waits for this person now."""
    return any(s.user_id == user_id and not s.is_ai for s in table.waiting_for())


def urgency(table: Table, user_id: int) -> tuple[int, float]:
    """Games waiting for you first, then the others running, then lobbies; nearest deadline
    first within each."""
    rank = 0 if mine(table, user_id) else 1 if table.state is not None else 2
    due = table.row.deadline.timestamp() if table.row.deadline else float("inf")
    return rank, due


def before_you(table: Table, user_id: int) -> str:
    """ " · 2 players before you": the other seats that move before your turn comes, when the
    game can say (`engine.core.queue`)."""
    seat = table.seat_of(user_id)
    order = queue(table.game, table.state)
    if seat is None or not order or seat.seat not in order:
        return ""
    ahead = len(set(order[: order.index(seat.seat)]))
    return f" · {ahead} player{'' if ahead == 1 else 's'} before you" if ahead else ""


def my_line(table: Table, user_id: int, panel: PanelRow | None, page: str | None = None) -> str:
    """One game in /mygames: where, the round in words, whose move it is, and for a game that
    waits for you, a link to your panel; for one that does not, how many move before you; and
    its web `page`, if there is one."""
    head = f"**{game_ref(table)}**"
    if table.state is None:
        return f"{head} · lobby, {len(table.seats)} seated: waiting for the host to start"
    waiting = [s for s in table.waiting_for() if not s.is_ai]
    closes = f", closes <t:{int(table.row.deadline.timestamp())}:R>" if table.row.deadline else ""
    if table.row.paused_at:
        closes = ", its clock stopped for a vacation"
    if mine(table, user_id):
        where = f" · [your panel]({panel_link(table, panel)})" if panel else ""
        move = f"**your move**{closes}{where}"
    elif waiting:
        move = f"waiting for {', '.join(said(s.name) for s in waiting)}{closes}"
    else:
        move = "resolving"
    if not mine(table, user_id):
        move += before_you(table, user_id)
    if shape(table).together and table.seats:
        done = len(table.seats) - len(table.waiting_for())
        move += f" · {done}/{len(table.seats)} planned"
    web = f" · [on the web]({page})" if page else ""
    return f"{head} · {table.game.progress(table.state).words} · {move}{web}"
