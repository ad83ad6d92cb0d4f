"""What one turn-panel click and one planner submit cost at the database: statements (`execute`,
`one`, `all`, `script` calls), write transactions (`transaction()` blocks) and reads (`reading()`
blocks), counted by `bot.store.counting` around the bot's SQLite database, through the stand-in.

A click is counted from the interaction's arrival until the bot is idle again (no interaction
being handled, the outbox sent), in two parts: the move (the handler, without its flush) and the
delivery (what `Delivery.flush()` ran to send the posts the move queued). The games are the first
hosted turn-based game and the first with a planner, played by two people with a fixed seed.
(On SQLite a read takes the connection but no BEGIN; on PostgreSQL it is a read-only transaction.)

Run: .venv/bin/python -m bench.clicks [--clicks N] [--trace] [--against COMMIT]
--against measures that commit's bot too, with this tree's counter: any commit since 615de10
(the worker needs `bot.app.HANDLER_TASKS` and `bot/store/backend.py`).
"""

import argparse
import statistics
from collections import Counter
from pathlib import Path
from typing import Any

from bench.baseline import ROOT, run_worker, tree_at

WORKER = Path(__file__).parent / "workers" / "clicks.py"
KINDS = {
    "turn": "turn-panel click",
    "submit": "planner submit, the other still planning",
    "resolve": "planner submit that resolves the round",
}
FIGURES = ("statements", "transactions", "reads")


def spread(values: list[int]) -> str:
    """Median (min-max)."""
    return f"{statistics.median(values):g} ({min(values)}-{max(values)})"


def parts(clicks: list[dict[str, Any]]) -> dict[str, dict[str, list[int]]]:
    """Per part (move, delivery, total), each figure's value for every click."""
    found: dict[str, dict[str, list[int]]] = {}
    for part in ("move", "delivery", "total"):
        found[part] = {
            figure: [
                c["move"][figure] + c["delivery"][figure] if part == "total" else c[part][figure]
                for c in clicks
            ]
            for figure in FIGURES
        }
    return found


def table(runs: dict[str, dict[str, Any]]) -> list[str]:
    """One row per kind of click, tree and part: each figure's median (min-max)."""
    lines = [f"{'':56}{'':11}{'':9}" + "".join(f"{f:>17}" for f in FIGURES)]
    for kind, title in KINDS.items():
        label = f"{title} ({next(iter(runs.values()))[kind]['game']})"
        for tree, run in runs.items():
            for part, figures in parts(run[kind]["clicks"]).items():
                cells = "".join(f"{spread(figures[f]):>17}" for f in FIGURES)
                lines.append(f"{label:56}{tree:11}{part:9}{cells}")
                label = tree = ""
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=10, help="clicks of each kind (10)")
    parser.add_argument("--trace", action="store_true", help="the first click's statements")
    parser.add_argument("--against", help="a commit whose bot is measured too (in a worktree)")
    args = parser.parse_args()
    trees = {"this tree": ROOT}
    if args.against:
        trees = {"old": tree_at(args.against), "new": ROOT}
    runs = {name: run_worker(WORKER, [str(args.clicks)], tree) for name, tree in trees.items()}
    print(
        f"Database work per click: median (min-max) over {args.clicks} clicks of each kind, "
        "from the interaction's arrival until the bot is idle (outbox sent); move = the "
        "handler's own, delivery = its outbox flush"
        + (f"; old = {args.against}, new = this tree" if args.against else "")
    )
    print("\n".join(table(runs)))
    for tree, run in runs.items():
        made = Counter(c["what"] for c in run["turn"]["clicks"])
        print(f"{tree}: turn-panel moves made: " + ", ".join(f"{k} x{n}" for k, n in made.items()))
    if args.against:
        for kind, title in KINDS.items():
            old, new = (parts(runs[t][kind]["clicks"])["total"] for t in ("old", "new"))
            print(
                f"{title}, new/old median: "
                + ", ".join(
                    f"{f} {statistics.median(new[f]) / statistics.median(old[f]):.2f}x"
                    for f in FIGURES
                )
            )
    if args.trace:
        for tree, run in runs.items():
            for kind, title in KINDS.items():
                first = run[kind]["clicks"][0]
                print(f"\n{tree}, first {title} ({first['what']}): its statements in order")
                for n, (label, sql) in enumerate(first["trace"], 1):
                    print(f"{n:4} {label or 'move':9} {' '.join(sql.split())[:110]}")


if __name__ == "__main__":
    main()
