"""Fixtures shared by every test folder: the database under test, on each backend."""

import itertools

import pytest

from bot.sandbox.postgres import Cluster

_names = itertools.count(1)


@pytest.fixture(scope="session")
def pg_cluster():
    """One throwaway PostgreSQL server for the whole run, started only if a test asks for it."""
    cluster = Cluster().start()
    yield cluster
    cluster.stop()


@pytest.fixture(params=["sqlite", "postgres"])
async def database_target(request, tmp_path) -> str:
    """What `DATABASE` would say: a fresh SQLite file, or a fresh database on the test server."""
    if request.param == "sqlite":
        return str(tmp_path / "bot.sqlite3")
    cluster = request.getfixturevalue("pg_cluster")
    return await cluster.create_database(f"test_{next(_names)}")
