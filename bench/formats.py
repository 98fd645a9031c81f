"""Time to pair one round of a Swiss / More Swiss (tournament.md section 6),
beside the floor the issue sets: well under a second at 256 players.

Run: ``python -m bench.formats [--runs R]``.  For 16, 64 and 256 players it
plays a More Swiss (out at 4 losses) and a Swiss at random from a seed and
times every round's pairing (``pair_round``: the bye, the exact matching),
then prints the median and the worst round.  The hardest rounds are the
early ones, with every player in and many records alike; the records in
the field vary from seed to seed.
"""

from __future__ import annotations

import argparse
import random
import time

from bgclock.tournament.formats import (
    Result,
    moreswiss_pairing,
    players_in,
    swiss_pairing,
)

FLOOR_S = 1.0


def _play(pairs: list[tuple[str, str | None]], rng: random.Random) -> list[Result]:
    return [Result(a=a, b=b, winner=a if b is None or rng.random() < 0.5 else b)
            for a, b in pairs]


def rounds_timed(n: int, seed: int) -> list[float]:
    """Every round's pairing time of a More Swiss and a 9-round Swiss of ``n``."""
    names = [f"P{i}" for i in range(1, n + 1)]
    rng = random.Random(seed)
    times: list[float] = []
    results: list[list[Result]] = []
    while len(players_in(names, results, losses=4)) >= 2:
        t0 = time.perf_counter()
        pairing = moreswiss_pairing(names, results, losses=4, rng=rng)
        times.append(time.perf_counter() - t0)
        results.append(_play(pairing.round(), rng))
    results = []
    for _ in range(9):
        t0 = time.perf_counter()
        pairing = swiss_pairing(names, results, rounds=9, rng=rng)
        times.append(time.perf_counter() - t0)
        results.append(_play(pairing.round(), rng))
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3, help="events per size (seeds)")
    args = parser.parse_args()
    for n in (16, 64, 256):
        times = sorted(t for seed in range(args.runs) for t in rounds_timed(n, seed))
        median, worst = times[len(times) // 2], times[-1]
        print(f"{n:>4} players: {len(times)} rounds paired, median {median * 1000:7.2f} ms, "
              f"worst {worst * 1000:7.2f} ms a round (floor {FLOOR_S:.0f} s: "
              f"{'ok' if worst < FLOOR_S else 'OVER'})")


if __name__ == "__main__":
    main()
