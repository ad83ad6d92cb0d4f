"""Structured logging: one line per event, key=value or JSON, with secrets redacted."""

import json
import logging
import sys
import time
from collections.abc import Iterable


class _Redact(logging.Filter):
    """Replace every occurrence of a secret in a record's final message."""

    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__()
        self.secrets = [s for s in secrets if s]

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        for secret in self.secrets:
            message = message.replace(secret, "[redacted]")
        record.msg, record.args = message, None
        return True


class _Json(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


def setup_logging(level: str, as_json: bool, secrets: Iterable[str] = ()) -> None:
    """Log to stderr; `secrets` (the token) never reach the output."""
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(_Redact(secrets))
    handler.setFormatter(
        _Json() if as_json else logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    )
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    logging.getLogger("discord").setLevel(max(root.level, logging.INFO))
    # A game bot never joins voice; discord.py's warning about voice libraries is noise here.
    logging.getLogger("discord.client").addFilter(
        lambda record: "voice will NOT be supported" not in record.getMessage()
    )
    # The stand-in's aiohttp server logs every request; only its problems are worth a line.
    logging.getLogger("aiohttp.access").setLevel(logging.WARNING)
