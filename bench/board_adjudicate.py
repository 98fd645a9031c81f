"""Adjudication time: the 18-answer outcome table for 1,000 fixed positions.

Prints p50 / p99 per kind (race, bear-off, contact) and overall, the slowest
position, and how many answers were ``unknown``.  Goals: no-contact p99 <=
200 ms; every position answered (or ``unknown``) within 2 s at the default
node budget.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bgclock.board import DEFAULT_NODE_BUDGET, outcome_table, position_id  # noqa: E402
from tests.board_random import random_position  # noqa: E402

KINDS = {"race": 400, "bearoff": 400, "contact": 200}


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    rng = random.Random(2014)
    positions = []
    for kind, n in KINDS.items():
        made = 0
        while made < n:
            pos = random_position(rng, "mixed" if kind == "contact" else kind)
            if pos.has_contact() != (kind == "contact"):
                continue
            positions.append((kind, pos))
            made += 1
    times: dict[str, list[float]] = {k: [] for k in KINDS}
    unknown = {k: 0 for k in KINDS}
    slowest = (0.0, "")
    for kind, pos in positions:
        t0 = time.perf_counter()
        table = outcome_table(pos)
        dt = time.perf_counter() - t0
        times[kind].append(dt)
        unknown[kind] += sum(a.value is None for a in table.values())
        if dt > slowest[0]:
            slowest = (dt, f"{kind} {position_id(pos)}")
    print(f"positions: {len(positions)} (seed 2014), node budget {DEFAULT_NODE_BUDGET}")
    for kind, values in times.items():
        print(
            f"{kind:8} n={len(values):4}  p50 {statistics.median(values) * 1000:8.1f} ms  "
            f"p99 {_pct(values, 0.99) * 1000:8.1f} ms  max {max(values) * 1000:8.1f} ms  "
            f"unknown answers {unknown[kind]}/{18 * len(values)}"
        )
    race = times["race"] + times["bearoff"]
    every = race + times["contact"]
    print(f"no contact p99 {_pct(race, 0.99) * 1000:.1f} ms (goal <= 200 ms)")
    print(f"all        p50 {statistics.median(every) * 1000:.1f} ms, p99 "
          f"{_pct(every, 0.99) * 1000:.1f} ms, over 2 s: {sum(t > 2 for t in every)}")
    print(f"slowest: {slowest[0] * 1000:.1f} ms ({slowest[1]})")


if __name__ == "__main__":
    main()
