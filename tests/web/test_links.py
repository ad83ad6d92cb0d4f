"""Signed links and the channel's words on a page: what a link grants cannot be forged, widened
or used after it expires; markdown becomes safe HTML."""

from datetime import UTC, datetime, timedelta

import pytest

from bot.web.links import BadLink, Links
from bot.web.markdown import embed_html, inline

NOW = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)


def test_a_link_grants_what_it_names_and_no_more():
    links = Links(b"secret", "https://games.example.org/")
    url = links.url("mine", 42, NOW, user=7)
    assert url.startswith("https://games.example.org/g/")
    claim = links.check(url.rsplit("/", 1)[1], NOW)
    assert (claim.kind, claim.id, claim.user) == ("mine", 42, 7)
    # A game's link is the same each time it is made, and never expires.
    token = links.token("game", 42, NOW)
    assert token == links.token("game", 42, NOW + timedelta(days=30))
    assert links.check(token, NOW + timedelta(days=3650)).kind == "game"


@pytest.mark.parametrize(
    "change",
    [
        lambda t: t[:-1] + ("A" if t[-1] != "A" else "B"),  # the signature touched
        lambda t: t.replace("1.42.", "1.43.", 1),  # another game
        lambda t: t.replace(".7.", ".8.", 1),  # another person's view
        lambda t: "0" + t[1:],  # a personal link made a spectator's one
        lambda t: t.split(".", 1)[1],  # cut short
        lambda t: "garbage",
    ],
)
def test_a_changed_link_is_refused_as_not_valid(change):
    links = Links(b"secret", "http://x")
    token = links.token("mine", 42, NOW, user=7)
    with pytest.raises(BadLink) as bad:
        links.check(change(token), NOW)
    assert not bad.value.expired


def test_a_personal_link_expires_and_another_secret_voids_every_link():
    links = Links(b"secret", "http://x")
    token = links.token("mine", 42, NOW, user=7)
    assert links.check(token, NOW + timedelta(days=2) - timedelta(seconds=1)).user == 7
    with pytest.raises(BadLink) as late:
        links.check(token, NOW + timedelta(days=2, seconds=1))
    assert late.value.expired
    with pytest.raises(BadLink):
        Links(b"other", "http://x").check(links.token("game", 42, NOW), NOW)


def test_markdown_becomes_escaped_html_with_links_and_reader_local_times():
    html = inline(
        "**Ada** <script>x</script> plans [game #1](https://d.com/c/1) by <t:1795800000:R>"
    )
    assert html.startswith("<b>Ada</b> &lt;script&gt;x&lt;/script&gt; plans ")
    assert '<a href="https://d.com/c/1">game #1</a>' in html
    assert '<time datetime="2026-11-27T17:20:00+00:00" data-style="R">' in html
    assert inline("[x](javascript:alert(1))") == "[x](javascript:alert(1))", "only web links"
    page = embed_html(
        {"title": "Round 2", "description": "a\nb", "fields": [{"name": "S", "value": "*c*"}]}
    )
    assert page == (
        '<h2 class="where">Round 2</h2><p class="lead">a<br>b</p>'
        '<div class="field"><h3>S</h3><p><i>c</i></p></div>'
    )
