"""Flights: what sharing a room's table numbers costs (issue 23 §1).

1. The pure ``allocate``: ``--claims`` matches of three events claiming a
   room of ``--tables`` numbers with half of them busy (median of 200 calls).
2. On a server (SQLite in a temporary file, in a thread, the director's HTTP
   API): three events of ``--players`` players each, in one room of
   ``--tables`` tables, clock policy ``--clock``.  Each event's first round
   start is timed (the first is seated whole, the later ones partly or not at
   all: they wait); then a result frees a table, and the time until the
   waiting match with precedence holds it is measured (the after-action
   task).  Beside them: the same round start of an event in no room.

    PYTHONPATH=$PWD python bench/flights.py
    PYTHONPATH=$PWD python bench/flights.py --players 128 --tables 80 --clock required
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from bench.web_kit import LiveServer, running_server
from bgclock.tournament._flights import Claim, allocate


def bench_allocate(claims: int, tables: int) -> float:
    cs = [Claim(tournament=k % 3, event=f"E{k % 3}", precedence=k % 3 + 1, bracket="main",
                round=k // 97, match=k) for k in range(claims)]
    busy = set(range(1, tables + 1, 2))
    times = []
    for _ in range(200):
        t0 = time.perf_counter()
        allocate(cs, busy, tables)
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e3


def event(live: LiveServer, name: str, players: int, clock: str,
          room: dict[str, Any] | None) -> str:
    tid = live.tournament(name)["id"]
    base = f"/api/tournaments/{tid}"
    live.api("POST", f"{base}/settings", {"rounds": [{"length": 5, "clock": clock}]})
    if room is not None:
        live.api("POST", f"{base}/flight", room)
    for i in range(1, players + 1):
        live.api("POST", f"{base}/players", {"name": f"{name} {i:03d}"})
        live.api("POST", f"{base}/players/{i}/check-in")
    live.api("POST", f"{base}/draw", {"seed": 1})
    return base


def timed(live: LiveServer, method: str, path: str, body: Any) -> tuple[float, Any]:
    t0 = time.perf_counter()
    out = live.api(method, path, body)
    return (time.perf_counter() - t0) * 1e3, out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--players", type=int, default=64)
    p.add_argument("--tables", type=int, default=48)
    p.add_argument("--claims", type=int, default=300)
    p.add_argument("--clock", default="none", choices=["none", "required"])
    a = p.parse_args()
    print(f"allocate: {a.claims} claims, {a.tables} tables (half busy): "
          f"{bench_allocate(a.claims, a.tables):.3f} ms median")
    with running_server() as live:
        alone = event(live, "Alone", a.players, a.clock, None)
        ms, _ = timed(live, "POST", f"{alone}/rounds", {"round": 0})
        print(f"round start outside a room: {a.players // 2} matches seated in {ms:.1f} ms")
        # the Beginners (precedence 3) start first and take the tables they find
        bases = [event(live, name, a.players, a.clock,
                       {"room": "Sala", "precedence": k, "tables": a.tables})
                 for name, k in (("Beginners", 3), ("Championship", 1), ("Intermediate", 2))]
        for base in bases:
            ms, out = timed(live, "POST", f"{base}/rounds", {"round": 0})
            print(f"round start in the room ({base}): {len(out['tables'])} seated, "
                  f"{len(out['waiting'])} waiting in the room, {ms:.1f} ms")
        beginners, champ = bases[0], bases[1]
        m = live.api("GET", f"{beginners}/state")["matches"][0]
        before = len(live.api("GET", f"{champ}/state")["waiting"])
        t0 = time.perf_counter()
        live.api("POST", f"{beginners}/results", {"round": 0, "match": m["match"],
                                                  "winner": m["a"]})
        while len(live.api("GET", f"{champ}/state")["waiting"]) == before:
            time.sleep(0.005)
        print(f"a freed table taken by the Championship's waiting match: "
              f"{(time.perf_counter() - t0) * 1e3:.1f} ms from the result's request")
        ms, _ = timed(live, "GET", f"{champ}/flight", None)
        print(f"GET .../flight (three events): {ms:.1f} ms")


if __name__ == "__main__":
    main()
