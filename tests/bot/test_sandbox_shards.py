"""The README's offline look at a large deployment: `python -m bot sandbox --postgres --shards 2`
plays through two bot processes, one shard each, on one PostgreSQL database."""

import asyncio
import os
import re
import sys
from pathlib import Path

import asyncpg

from bot.sandbox.processes import ROOT


async def test_the_sandbox_plays_through_two_shard_processes_on_postgres(
    tmp_path: Path, pg_cluster
) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "SHARD_"))}
    env.update(DATABASE=pg_cluster.url(), PYTHONPATH=str(ROOT))
    # Two of the games keep it short; one falls on each shard's server.
    games = "powerline,railroad_ink"
    proc = await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "bot", "sandbox", "--postgres", "--shards", "2", "--games", games),
        cwd=tmp_path,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), 120)
    assert proc.returncode == 0, err.decode()[-4000:]
    (path,) = tmp_path.glob("sandbox-output/*/transcript.md")
    assert str(path.relative_to(tmp_path)) in out.decode()
    text = path.read_text("utf-8")
    sections = dict(part.split("\n", 1) for part in text.split("\n## ")[1:])

    # Each game in a server on its own shard, served by that shard's process to the end, and
    # each of its rounds' posts out exactly once.
    powerline = sections["#powerline · Sandbox Server 1, shard 0 (process 1)"]
    railroad = sections["#railroad-ink · Sandbox Server 2, shard 1 (process 2)"]
    for body, rounds in ((powerline, 15), (railroad, 6)):
        assert "**Game over!**" in body
        for r in range(1, rounds + 1):
            assert body.count(f"**Round {r} of {rounds}**") == 1, (rounds, r)
            assert body.count(f"**Round {r} built.**") == 1, (rounds, r)

    summary = sections["Operator summary"]
    exits = re.findall(r"shard (\d) of 2, exited (-?\d+) after SIGTERM, no error lines", summary)
    assert exits == [("0", "0"), ("1", "0")], summary
    assert sorted(re.findall(r"`(\d) of 2` at ", summary)) == ["0", "1"], summary
    assert "none pending" in summary and "each posted once" in summary, summary

    # The sandbox's own database is gone from the server that DATABASE named.
    conn = await asyncpg.connect(pg_cluster.url())
    try:
        left = await conn.fetch("SELECT datname FROM pg_database WHERE datname LIKE 'sandbox_%'")
    finally:
        await conn.close()
    assert not left
