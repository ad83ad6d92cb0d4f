"""The channel's words on a page: Discord's markdown (bold, italics, links) and timestamps in
safe HTML, so the page says exactly what the status board says."""

import re
from datetime import UTC, datetime
from html import escape
from typing import Any

_STAMP = re.compile(r"&lt;t:(\d+)(?::([tTdDfFR]))?&gt;")
_LINK = re.compile(r"\[([^\]]+)\]\((https?://[^)\s]+)\)")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_ITALIC = re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])")


def _stamp(match: re.Match[str]) -> str:
    """A timestamp as a <time> the page's script writes in the reader's own time."""
    when = datetime.fromtimestamp(int(match.group(1)), UTC)
    style = match.group(2) or "f"
    return (
        f'<time datetime="{when.isoformat()}" data-style="{style}">'
        f"{when:%d %b %Y, %H:%M} UTC</time>"
    )


def inline(text: str) -> str:
    """One line of the channel's markdown as HTML (its text escaped first)."""
    html = escape(text, quote=False)
    html = _STAMP.sub(_stamp, html)
    html = _LINK.sub(lambda m: f'<a href="{escape(m.group(2))}">{m.group(1)}</a>', html)
    html = _BOLD.sub(r"<b>\1</b>", html)
    return _ITALIC.sub(r"<i>\1</i>", html)


def _lines(text: str) -> str:
    return "<br>".join(inline(line) for line in text.split("\n"))


def embed_html(embed: dict[str, Any]) -> str:
    """A status board (a Discord embed as a dict) as HTML: its description and fields."""
    parts = []
    if embed.get("title"):
        parts.append(f'<h2 class="where">{inline(embed["title"])}</h2>')
    if embed.get("description"):
        parts.append(f'<p class="lead">{_lines(embed["description"])}</p>')
    for field in embed.get("fields", []):
        parts.append(
            f'<div class="field"><h3>{inline(field["name"])}</h3>'
            f"<p>{_lines(field['value'])}</p></div>"
        )
    return "".join(parts)
