"""What folding a tournament's log costs, per action (issue 18 §1).

Builds the log of a Main and its consolation played out by hand (``--players``
registered, checked in, drawn, every match's result), then prints:

- ``fold``: ``Tournament.fold`` of the whole log (the server's load of a
  tournament, a restart), total and per action;
- ``apply``: deciding the same actions one by one on a live state (what a
  2,048-row CSV import does, row by row), per action;
- ``decode``: turning a stored action (a dict) into its declared Struct
  (``bgclock.tournament.actions.decode_action``), per action, when the
  module exists (it runs on older trees too, for a comparison).

    PYTHONPATH=$PWD python bench/tourney_fold.py --players 2048
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from bgclock.tournament import Tournament


def played_log(n: int, seed: int = 1) -> list[dict[str, Any]]:
    """The log of ``n`` players' Main and consolation played out by hand."""
    log: list[dict[str, Any]] = [{"do": "settings", "seed": seed},
                                 *({"do": "register", "name": f"Player {i}"}
                                   for i in range(1, n + 1)),
                                 *({"do": "check_in", "player": i} for i in range(1, n + 1)),
                                 {"do": "draw"}]
    t = Tournament.fold(log)
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
                action = {"do": "result", "event": event, "round": r, "match": i,
                          "winner": rng.choice([m.a, m.b]), "source": "hand"}
                t.apply(action)
                log.append(action)
    return log


def best_of(runs: int, fn: Any) -> float:
    """The best of ``runs`` timings of ``fn()``, in seconds."""
    best = float("inf")
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=2048)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    log = played_log(args.players)
    n = len(log)
    print(f"log: {n} actions ({args.players} players, the Main and the consolation)")

    fold = best_of(args.runs, lambda: Tournament.fold(log))
    print(f"fold:   {fold * 1000:8.1f} ms in all, {fold / n * 1e6:6.1f} µs per action")

    def one_by_one() -> None:
        t = Tournament()
        for a in log:
            t.apply(a)

    apply = best_of(args.runs, one_by_one)
    print(f"apply:  {apply * 1000:8.1f} ms in all, {apply / n * 1e6:6.1f} µs per action")
    try:
        from bgclock.tournament.actions import decode_action
    except ImportError:
        print("decode: (no bgclock.tournament.actions in this tree)")
        return

    def decode_all() -> None:
        for a in log:
            decode_action(a)

    decode = best_of(args.runs, decode_all)
    print(f"decode: {decode * 1000:8.1f} ms in all, {decode / n * 1e6:6.1f} µs per action")


if __name__ == "__main__":
    main()
