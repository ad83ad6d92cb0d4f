"""Persistence: aiosqlite with numbered SQL migrations, behind a small interface."""
