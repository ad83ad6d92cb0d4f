"""What the AI-strength benchmarks share: 95 % intervals, a decision-time line, and today's AI
frozen at a commit, playing from its own git worktree in a process of its own.

Use: with Frozen("1067556", "engine.power_grid.autopilot") as old: action = old(view, seat)
"""

import json
import math
import os
import statistics
import subprocess
import sys
from collections.abc import Sequence
from types import TracebackType
from typing import Any

from bench.baseline import tree_at

FROZEN = "1067556"
"""The commit whose AI is "today's AI" in issue 33: the last one before it was changed."""

_SERVE = """
import importlib, json, sys
module = importlib.import_module(sys.argv[1])
for line in sys.stdin:
    view, seat = json.loads(line)
    action = module.choose(view, seat)
    print(json.dumps(action.model_dump(mode="json")), flush=True)
"""


class Frozen:
    """An autopilot as it was at `commit`: `choose(view, seat)` answered by a process running
    that commit's tree, so nothing of today's code plays its side."""

    def __init__(self, commit: str, module: str) -> None:
        tree = tree_at(commit)
        self._proc = subprocess.Popen(
            [sys.executable, "-c", _SERVE, module],
            cwd=tree,
            env={**os.environ, "PYTHONPATH": str(tree)},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def __call__(self, view: dict[str, Any], seat: int) -> dict[str, Any]:
        """The frozen AI's action for `seat`, as JSON (parse it with today's engine)."""
        assert self._proc.stdin is not None and self._proc.stdout is not None
        self._proc.stdin.write(json.dumps([view, seat]) + "\n")
        self._proc.stdin.flush()
        line = self._proc.stdout.readline()
        if not line:
            raise RuntimeError("the frozen AI's process ended")
        return json.loads(line)

    def close(self) -> None:
        if self._proc.stdin is not None:
            self._proc.stdin.close()
        self._proc.wait(timeout=30)

    def __enter__(self) -> "Frozen":
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


def mean_ci(values: Sequence[float]) -> str:
    """The mean with its 95 % interval (normal approximation) and the count."""
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return f"{mean:.2f} ± {half:.2f} (95 %, n={len(values)})"


def rate_ci(wins: float, n: int) -> str:
    """A win rate with its 95 % Wilson interval; a shared win counts as a fraction."""
    if n == 0:
        return "no games"
    p, z = wins / n, 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return f"{100 * p:.1f} % [{100 * (centre - half):.1f}, {100 * (centre + half):.1f}] (n={n})"


def times_line(seconds: Sequence[float]) -> str:
    """Decision times as median / p95 / max in milliseconds, with the count."""
    ms = sorted(1000 * s for s in seconds)
    p95 = ms[min(len(ms) - 1, math.ceil(0.95 * len(ms)) - 1)]
    return f"median {statistics.median(ms):.1f} / p95 {p95:.1f} / max {ms[-1]:.1f} ms (n={len(ms)})"
