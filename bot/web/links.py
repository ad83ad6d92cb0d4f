"""Signed links: what a page shows is named in its link (a game, a person's own view of it, a
server, a tournament) and signed with the bot's secret, so nobody can forge or widen one."""

import base64
import hashlib
import hmac
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

Kind = Literal["game", "mine", "server", "tournament"]
KINDS: tuple[Kind, ...] = ("game", "mine", "server", "tournament")
LASTS: dict[Kind, timedelta | None] = {
    "game": None,
    "mine": timedelta(days=2),
    "server": None,
    "tournament": None,
}
"""How long a link works: a personal view's link expires, since it shows secrets; the public
pages' links never do (a game's link pinned in its channel stays the same)."""


class BadLink(Exception):
    """A link that is forged, cut short or expired; `expired` tells which."""

    def __init__(self, expired: bool) -> None:
        super().__init__("expired" if expired else "not valid")
        self.expired = expired


@dataclass(frozen=True, slots=True)
class Claim:
    """What a valid link grants: a kind of page about `id` (and, for "mine", person `user`);
    `expires` 0: never."""

    kind: Kind
    id: int
    user: int
    expires: int


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class Links:
    """Makes and checks the signed links of the pages at `base` (the public address)."""

    def __init__(self, secret: bytes, base: str) -> None:
        self.secret = secret
        self.base = base.rstrip("/")

    def _sign(self, body: str) -> str:
        digest = hmac.new(self.secret, body.encode(), hashlib.sha256).digest()[:18]
        return _b64(digest)

    def token(self, kind: Kind, id_: int, now: datetime, user: int = 0) -> str:
        lasts = LASTS[kind]
        expires = int((now + lasts).timestamp()) if lasts else 0
        body = f"{KINDS.index(kind)}.{id_}.{user}.{expires}"
        return f"{body}.{self._sign(body)}"

    def url(self, kind: Kind, id_: int, now: datetime, user: int = 0) -> str:
        prefix = {"game": "g", "mine": "g", "server": "s", "tournament": "t"}[kind]
        return f"{self.base}/{prefix}/{self.token(kind, id_, now, user)}"

    def check(self, token: str, now: datetime) -> Claim:
        """The claim of a genuine, unexpired link; BadLink otherwise."""
        body, _, signature = token.rpartition(".")
        if not hmac.compare_digest(self._sign(body), signature):
            raise BadLink(expired=False)
        try:
            kind, id_, user, expires = (int(part) for part in body.split("."))
            claim = Claim(KINDS[kind], id_, user, expires)
        except (ValueError, IndexError):
            raise BadLink(expired=False) from None
        if claim.expires and claim.expires < now.timestamp():
            raise BadLink(expired=True)
        return claim
