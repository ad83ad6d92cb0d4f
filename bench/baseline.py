"""Old-versus-new benchmarks: a worker script run alternately in a git worktree of a baseline
commit and in another tree (this one), so both sides see the same machine noise.

Use: trees = {"old": tree_at("f7461ab"), "new": ROOT}; runs = interleaved(worker, args, trees, 5)
"""

import fcntl
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TREES = Path("/tmp/bench-trees")


def tree_at(commit: str) -> Path:
    """A detached git worktree of `commit` under /tmp/bench-trees, created once and reused."""
    sha = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--verify", f"{commit}^{{commit}}"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    tree = TREES / sha[:12]
    TREES.mkdir(parents=True, exist_ok=True)
    # Several benchmarks may ask for the same tree at once; the lock makes one of them create it.
    with open(TREES / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (tree / ".git").exists():
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), sha],
                check=True,
                capture_output=True,
            )
    return tree


def run_worker(worker: Path, args: list[str], tree: Path) -> dict:
    """Run the worker once with `tree` first on the import path; its one JSON object."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(
        [sys.executable, str(worker.resolve()), *args],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
    )
    if done.returncode:
        raise RuntimeError(f"{worker.name} failed in {tree}:\n{done.stderr}")
    return json.loads(done.stdout)


def interleaved(
    worker: Path, args: list[str], trees: dict[str, Path], rounds: int
) -> dict[str, list[dict]]:
    """Each round runs the worker once per tree, in turn; every tree's results, by name."""
    results: dict[str, list[dict]] = {name: [] for name in trees}
    for _ in range(rounds):
        for name, tree in trees.items():
            results[name].append(run_worker(worker, args, tree))
    return results


def ratio(old: list[float], new: list[float]) -> float:
    """Median of `new` over median of `old`: the speed-up when both are rates (games/s)."""
    return statistics.median(new) / statistics.median(old)


def comparison(label: str, old: list[float], new: list[float], unit: str) -> str:
    """One line: both medians, their spread and the new/old ratio."""
    return (
        f"{label}: old {statistics.median(old):.1f} {unit} (range {min(old):.1f}-{max(old):.1f}), "
        f"new {statistics.median(new):.1f} {unit} (range {min(new):.1f}-{max(new):.1f}), "
        f"new/old {ratio(old, new):.2f}x over {len(old)} rounds"
    )
