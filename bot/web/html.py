"""The pages' shared frame: one stylesheet, a phone-first layout, escaped text only."""

from html import escape

CSS = "/static/site.css"


def page(title: str, body: str, *, scripts: tuple[str, ...] = ()) -> str:
    """A whole HTML page; `body` is HTML already escaped where it holds user text."""
    tags = "".join(f'<script src="{escape(src)}" defer></script>' for src in scripts)
    return (
        "<!doctype html>"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title>"
        f'<link rel="stylesheet" href="{CSS}">{tags}</head>'
        f'<body><header><span class="brand">Board games</span></header><main>{body}</main>'
        "</body></html>"
    )


def notice(title: str, text: str) -> str:
    """A plain page that says one thing (a bad or expired link, too many requests)."""
    return page(
        title, f'<section class="notice"><h1>{escape(title)}</h1><p>{escape(text)}</p></section>'
    )
