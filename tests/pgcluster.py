"""A throwaway PostgreSQL cluster from the machine's PostgreSQL binaries, on a private port.

The tests and benchmarks that need a real server start one of these and remove it afterwards;
`scripts/setup-postgres` installs the binaries from the Debian packages when they are missing.
"""

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import asyncpg


class NoPostgres(RuntimeError):
    """The binaries are not installed."""


def bindir() -> Path:
    """Where initdb and pg_ctl live (the newest Debian PostgreSQL, else the PATH)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    if initdb:
        return Path(initdb).resolve().parent
    raise NoPostgres("PostgreSQL's initdb is not installed: run scripts/setup-postgres")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """initdb into a temporary folder, then pg_ctl start on a free port; `stop()` removes it."""

    def __init__(self) -> None:
        self.bin = bindir()
        self.root = Path(tempfile.mkdtemp(prefix="pgtest-"))
        self.data = self.root / "data"
        self.port = _free_port()
        # PostgreSQL refuses to run as root: as root, the server runs as the postgres user.
        self.user = "postgres" if os.geteuid() == 0 else None

    def _run(self, *args: str) -> None:
        prefix = ["runuser", "-u", self.user, "--"] if self.user else []
        subprocess.run([*prefix, *args], check=True, capture_output=True, text=True)

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
        conn = await asyncpg.connect(self.url())
        try:
            await conn.execute(f'CREATE DATABASE "{name}"')
        finally:
            await conn.close()
        return self.url(name)

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
