"""Time to draw and play out a 512-player Main with its Progressive Consolation.

Run: ``python -m bench.draw [--players N] [--runs R] [--seeds K] [--groups G]
[--last-chance]``.  Each run draws the Main (bgclock.tournament), records every
result (which advances winners and, once every first-match loser is known,
draws the consolation) and plays the consolation out (and the Last Chance):
the ``bgclock draw simulate`` path.
"""

from __future__ import annotations

import argparse
import time

from bgclock.tournament._draw import simulate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=512)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--seeds", type=int, default=0)
    parser.add_argument("--groups", type=int, default=None)
    parser.add_argument("--last-chance", action="store_true")
    args = parser.parse_args()
    times = []
    for seed in range(args.runs):
        t0 = time.perf_counter()
        simulate(args.players, seed=seed, consolation=True, seeds=args.seeds,
                 groups=args.groups, last_chance=args.last_chance)
        times.append(time.perf_counter() - t0)
    times.sort()
    extra = (f", {args.seeds} seeds" if args.seeds else "") \
        + (f", {args.groups} groups" if args.groups else "") \
        + (", Last Chance" if args.last_chance else "")
    print(f"{args.players} players{extra}, Main + consolation drawn and played, {args.runs} runs: "
          f"median {times[len(times) // 2] * 1000:.2f} ms, worst {times[-1] * 1000:.2f} ms")


if __name__ == "__main__":
    main()
