"""PostgreSQL for the sandbox, the tests and the benchmarks: a throwaway cluster from the
machine's PostgreSQL binaries on a private port, or a fresh database in the server that
`DATABASE` names. `scripts/setup-postgres` installs the binaries from the Debian packages when
they are missing.
"""

import contextlib
import glob
import logging
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from bot.store.database import is_postgres

log = logging.getLogger(__name__)


class NoPostgres(RuntimeError):
    """No PostgreSQL database to use; the message says why in one sentence."""


def bindir() -> Path:
    """Where initdb and pg_ctl live (the newest Debian PostgreSQL, else the PATH)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    if initdb:
        return Path(initdb).resolve().parent
    raise NoPostgres("PostgreSQL's initdb is not installed: run scripts/setup-postgres")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def named(url: str, database: str) -> str:
    """The URL of another database on the same server, as the same role."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{database}"))


async def _admin(url: str, sql: str) -> None:
    """One statement on `url`'s own database (CREATE and DROP DATABASE take no transaction)."""
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


async def create_database(url: str, name: str) -> str:
    """A new empty database `name` on the server of `url`; returns its URL."""
    await _admin(url, f'CREATE DATABASE "{name}"')
    return named(url, name)


async def drop_database(url: str, name: str) -> None:
    """Drop database `name` on the server of `url`."""
    await _admin(url, f'DROP DATABASE IF EXISTS "{name}"')


class Cluster:
    """initdb into a temporary folder, then pg_ctl start on a free port; `stop()` removes it."""

    def __init__(self, prefix: str = "pgtest-") -> None:
        self.bin = bindir()
        self.root = Path(tempfile.mkdtemp(prefix=prefix))
        self.data = self.root / "data"
        self.port = free_port()
        # PostgreSQL refuses to run as root: as root, the server runs as the postgres user.
        self.user = "postgres" if os.geteuid() == 0 else None

    def _run(self, *args: str) -> None:
        prefix = ["runuser", "-u", self.user, "--"] if self.user else []
        # A session of its own: Ctrl-C reaches only whoever started the cluster, which stops
        # the server after the clients that use it.
        subprocess.run(
            [*prefix, *args], check=True, capture_output=True, text=True, start_new_session=True
        )

    def start(self) -> "Cluster":
        if self.user:
            shutil.chown(self.root, self.user)
        self._run(
            str(self.bin / "initdb"),
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "--auth=trust",
            "--no-locale",
            "-E",
            "UTF8",
            "--no-sync",
        )
        # Durability is not what the tests measure: without fsync a cluster is fast on any disk.
        options = (
            f"-c port={self.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories="
            f"{self.root} -c fsync=off -c synchronous_commit=off -c full_page_writes=off "
            "-c max_connections=200"
        )
        self._run(
            str(self.bin / "pg_ctl"),
            "-D",
            str(self.data),
            "-l",
            str(self.root / "log"),
            "-o",
            options,
            "-w",
            "start",
        )
        return self

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    async def create_database(self, name: str) -> str:
        """A new empty database; returns its URL."""
        return await create_database(self.url(), name)

    def stop(self) -> None:
        # Already down is fine: the folder goes anyway.
        with contextlib.suppress(subprocess.CalledProcessError):
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")
        for _ in range(50):
            try:
                shutil.rmtree(self.root)
                return
            except OSError:
                time.sleep(0.1)


def sandbox_database(configured: str, name: str) -> AbstractAsyncContextManager[tuple[str, str]]:
    """A fresh database `name` for the sandbox, and where it is in words: on the PostgreSQL
    server that `configured` (the `DATABASE` setting) names if it is one, else on a throwaway
    cluster. The database is dropped, or the cluster stopped and removed, when the block ends."""
    return _on_server(configured, name) if is_postgres(configured) else _on_cluster(name)


@contextlib.asynccontextmanager
async def _on_server(configured: str, name: str) -> AsyncIterator[tuple[str, str]]:
    try:
        url = await create_database(configured, name)
    except asyncpg.InsufficientPrivilegeError:
        raise NoPostgres(
            f"the role in DATABASE may not create the sandbox's database {name}: grant it "
            "CREATEDB, or unset DATABASE to let the sandbox start a PostgreSQL of its own"
        ) from None
    except (OSError, asyncpg.PostgresError) as exc:
        raise NoPostgres(f"the PostgreSQL server in DATABASE refused: {exc}") from None
    try:
        yield url, f"database `{name}` on the PostgreSQL server DATABASE names, dropped after"
    finally:
        try:
            await drop_database(configured, name)
        except (OSError, asyncpg.PostgresError) as exc:
            log.warning("the sandbox's database %s is left on the server: %s", name, exc)


@contextlib.asynccontextmanager
async def _on_cluster(name: str) -> AsyncIterator[tuple[str, str]]:
    cluster = Cluster(prefix="pgsandbox-")
    try:
        try:
            cluster.start()
        except subprocess.CalledProcessError as exc:
            why = (exc.stderr or "").strip().splitlines()[-1:] or [str(exc)]
            raise NoPostgres(f"the throwaway PostgreSQL cluster did not start: {why[0]}") from None
        url = await cluster.create_database(name)
        yield (
            url,
            (
                f"database `{name}` on a throwaway PostgreSQL cluster ({cluster.bin.parent.name}, "
                f"port {cluster.port}, in {cluster.root}), removed after"
            ),
        )
    finally:
        cluster.stop()
