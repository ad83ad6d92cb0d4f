"""Many stored games fast: copies of one game's rows (the game, its seats and its log), made in
SQL, for benchmarks that need thousands of games in the database."""

import sqlite3
from collections.abc import Sequence
from pathlib import Path


def _columns(raw: sqlite3.Connection, table: str, leave_out: str) -> list[str]:
    return [r[1] for r in raw.execute(f"PRAGMA table_info({table})") if r[1] != leave_out]


def copy_game(path: Path, source: int, channels: Sequence[int]) -> list[int]:
    """One copy of game `source` in each of `channels` (its id, seats and log its own); returns
    the copies' ids. Their pending posts are marked sent, as in a database long in use."""
    raw = sqlite3.connect(path)
    ids = []
    with raw:
        game_cols = _columns(raw, "games", "id")
        picked = ", ".join("?" if c == "channel_id" else c for c in game_cols)
        logs = {t: _columns(raw, t, "game_id") for t in ("seats", "actions")}
        for channel in channels:
            made = raw.execute(
                f"INSERT INTO games ({', '.join(game_cols)}) SELECT {picked} FROM games "
                "WHERE id = ?",
                (channel, source),
            )
            ids.append(made.lastrowid)
            for table, cols in logs.items():
                cols = [c for c in cols if c != "id"]
                raw.execute(
                    f"INSERT INTO {table} (game_id, {', '.join(cols)}) "
                    f"SELECT ?, {', '.join(cols)} FROM {table} WHERE game_id = ?",
                    (made.lastrowid, source),
                )
        raw.execute("UPDATE outbox SET sent_at = 'seeded' WHERE sent_at IS NULL")
    raw.close()
    return [i for i in ids if i is not None]
