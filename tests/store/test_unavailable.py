"""A database that cannot be opened stops the bot with one sentence, and leaves nothing running
that would keep the process from exiting."""

import threading
from pathlib import Path

import pytest

from bot.store.database import DatabaseUnavailable, open_database


async def test_a_damaged_file_is_refused_in_a_sentence_and_closed(tmp_path: Path) -> None:
    damaged = tmp_path / "bot.sqlite3"
    damaged.write_bytes(b"this was a database once" * 200)
    before = {t.ident for t in threading.enumerate() if not t.daemon}
    with pytest.raises(DatabaseUnavailable, match=rf"the database at {damaged} could not be"):
        await open_database(damaged)
    left = [t for t in threading.enumerate() if not t.daemon and t.ident not in before]
    for thread in left:
        thread.join(timeout=2)
    assert not [t for t in left if t.is_alive()], "a connection thread outlived the refusal"


async def test_a_server_that_refuses_is_refused_in_a_sentence() -> None:
    with pytest.raises(DatabaseUnavailable, match="the PostgreSQL server could not be opened"):
        await open_database("postgresql://nobody@127.0.0.1:1/none")
