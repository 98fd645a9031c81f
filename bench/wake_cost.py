"""What a sleep costs the work after it, on this machine.

The same fixed piece of Python work (a loop of arithmetic) is done
``--rounds`` times, first back to back, then with the thread sleeping
between rounds (``time.sleep``, as a thread does while it waits for a
socket, a queue or a disk), and each round's CPU time is printed.  Where
the work after a sleep costs more CPU than the same work back to back, a
server pays that for every time it wakes: at a lightly loaded room the
event loop wakes once for a press and again for its commit, and the
store's thread once for the commit (docs/performance.md, "What a wake-up
costs").

    python bench/wake_cost.py [--rounds 3000] [--work 3000]
"""

from __future__ import annotations

import argparse
import os
import time

SLEEPS_S = (0.0, 0.0002, 0.001, 0.002)


def work(n: int) -> int:
    total = 0
    for i in range(n):
        total += i * i
    return total


def cpu_per_round(rounds: int, n: int, sleep_s: float) -> float:
    """CPU µs a round of ``work(n)``, sleeping ``sleep_s`` between rounds."""
    cpu0 = time.thread_time()
    for _ in range(rounds):
        work(n)
        if sleep_s:
            time.sleep(sleep_s)
    return (time.thread_time() - cpu0) / rounds * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3000)
    parser.add_argument("--work", type=int, default=3000,
                        help="additions a round (default 3000: about 150 µs here)")
    args = parser.parse_args()
    if not 10 <= args.rounds <= 1_000_000:
        parser.error("--rounds: from 10 to 1,000,000")
    if not 1 <= args.work <= 10_000_000:
        parser.error("--work: from 1 to 10,000,000")
    print("| sleep between rounds | CPU per round µs | ÷ back to back | load avg |")
    print("|---|---|---|---|")
    base = 0.0
    for sleep_s in SLEEPS_S:
        cpu = cpu_per_round(args.rounds, args.work, sleep_s)
        base = base or cpu
        label = "none (back to back)" if not sleep_s else f"{sleep_s * 1e3:g} ms"
        print(f"| {label} | {cpu:.1f} | {cpu / base:.2f} | {os.getloadavg()[0]:.2f} |",
              flush=True)


if __name__ == "__main__":
    main()
