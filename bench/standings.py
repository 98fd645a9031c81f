"""Cost of the tournament's end: standings, every player's results, the
room's additions (``room_standings``: champions, standings, registered,
result order, seats) and the printable pages, for a played-out Main and
consolation of N players.

Run: ``python -m bench.standings [--players N] [--runs R]``.  The room's
additions are computed on every ``room.json`` read (each room display reads
it every 2 s), so their figure is the one that matters most.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

from bgclock.server.tournaments.standings import pairings_html, room_standings, standings_html
from bgclock.tournament import Tournament, final_standings, player_results


def played_out(n: int, seed: int = 1) -> Tournament:
    """``n`` players, the Main and the consolation played out by hand."""
    t = Tournament.fold([{"do": "settings", "seed": seed},
                         *({"do": "register", "name": f"Player {i}"} for i in range(1, n + 1)),
                         *({"do": "check_in", "player": i} for i in range(1, n + 1)),
                         {"do": "draw"}])
    rng = random.Random(seed)
    for event in ("main", "consolation"):
        while True:
            drawn = t.main if event == "main" else t.consolation
            if drawn is None:
                break
            ready = [(r, i, m) for r, ms in enumerate(drawn.bracket.rounds)
                     for i, m in enumerate(ms) if m.a and m.b and not m.winner]
            if not ready:
                break
            for r, i, m in ready:
                t._apply({"do": "result", "event": event, "round": r, "match": i,
                          "winner": rng.choice([m.a, m.b])})
    return t


def timed(fn: Callable[[], Any], runs: int) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    times.sort()
    return times[len(times) // 2] * 1000, times[-1] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=512)
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    t = played_out(args.players)
    for label, fn in (
            ("standings", lambda: final_standings(t).to_dict()),
            ("every player's results", lambda: player_results(t)),
            ("room.json's additions", lambda: room_standings(t)),
            ("standings page", lambda: standings_html("Open", t, "it")),
            ("wall pairings, round 1", lambda: pairings_html("Open", t, "main", 0, "it"))):
        median, worst = timed(fn, args.runs)
        print(f"{args.players} players, {label}: median {median:.2f} ms, worst {worst:.2f} ms")


if __name__ == "__main__":
    main()
