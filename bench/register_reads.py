"""Tables' presses while the desk reads a 10,000-player register (issue 32 §7).

Starts ``bgclock serve`` on loopback (SQLite in a temporary file, or
PostgreSQL with ``--db postgresql://...``), fills the register with
``--players`` players (CSV imports of 2,048 rows, the most one may hold),
and keeps ``--tables`` tables pressing (a ``hit`` every ``--every-ms`` each,
never two in flight at one table), measuring each press -> ack:

1. ``no reads``: the presses alone for ``--seconds``;
2. ``reads``: ``--readers`` clients read the whole lists one after another
   for ``--seconds`` (the rating list as JSON, CSV and A4 HTML, the
   register's export, a search): the presses sent while a read was in
   flight (a list read again while the register is unchanged is the one
   kept);
3. ``cold``: the same, each read after an edit of a player (every list
   built anew).

It prints p50/p95/max press -> ack (ms) per phase beside the 250 ms floor,
the reads' times, the server's CPU and the machine's load.  ``--src`` runs
another tree's server (e.g. ``git archive main`` unpacked), for a before and
after on one machine.

    PYTHONPATH=$PWD python bench/register_reads.py
    PYTHONPATH=$PWD python bench/register_reads.py --db postgresql://127.0.0.1:5432/test
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time
from pathlib import Path

import httpx

from bench.attack import pct
from bench.tourney_import import Presser, cpu_s, served

#: A press's acknowledgement at the 95th percentile, at most (issue 32 §7).
FLOOR_MS = 250.0
READS = ("/api/register/ratings.json", "/api/register/ratings.csv",
         "/api/register/ratings.html?lang=it", "/api/register.csv",
         "/api/register?q=giocatore&order=rating&limit=200")


def row(name: str, delays: list[float], note: str) -> str:
    p95 = pct(delays, 0.95)
    verdict = "within" if p95 <= FLOOR_MS else "OVER"
    return (f"{name:9} {pct(delays, 0.5):7.1f} {p95:7.1f} "
            f"{max(delays, default=float('nan')):7.1f} {len(delays):5d}  "
            f"{verdict} {FLOOR_MS:.0f} ms  {note}")


async def fill(http: httpx.AsyncClient, players: int) -> None:
    for first in range(0, players, 2048):
        last = min(players, first + 2048)
        text = "name,federation_id,club,rating,experience\n" + "".join(
            f"Giocatore {i:05d},FIBT{i},Circolo {i % 40},{1300 + (i * 37) % 500}.{i % 100:02d},"
            f"{i % 700}\n" for i in range(first, last))
        r = await http.post("/api/register.csv", content=text.encode(),
                            headers={"content-type": "text/csv"})
        assert r.status_code == 201, r.text


async def reader(http: httpx.AsyncClient, end: float, k: int,
                 windows: list[tuple[float, float]], times: dict[str, list[float]],
                 failed: list[str], edit: bool) -> None:
    n = k
    while time.monotonic() < end:
        path = READS[n % len(READS)]
        n += 1
        if edit:
            r = await http.patch(f"/api/register/{1 + n % 100}", json={"club": f"Club {n}"})
            assert r.status_code == 200, r.text
        start = time.monotonic()
        r = await http.get(path)
        stop = time.monotonic()
        if r.status_code != 200:
            failed.append(f"{path}: {r.status_code}")
            continue
        windows.append((start, stop))
        times.setdefault(path.split("?")[0], []).append((stop - start) * 1000)


async def run(args: argparse.Namespace, http: httpx.AsyncClient, ws_url: str,
              pid: int) -> None:
    t0 = time.monotonic()
    await fill(http, args.players)
    print(f"register filled: {args.players} players in {time.monotonic() - t0:.1f} s")
    t = (await http.post("/api/tournaments", json={"name": "presses"})).json()
    pressers = []
    for _ in range(args.tables):
        table = (await http.post(f"/api/tournaments/{t['id']}/tables",
                                 json={"rules": "usbgf-2013-delay", "length": 25})).json()
        pressers.append(Presser(ws_url, table["token"], args.every_ms / 1000))
    pressing = [asyncio.create_task(p.run()) for p in pressers]
    load_before = os.getloadavg()
    windows: list[tuple[float, float]] = []
    cold: list[tuple[float, float]] = []
    times: dict[str, list[float]] = {}
    cold_times: dict[str, list[float]] = {}
    failed: list[str] = []
    try:
        await asyncio.sleep(1)  # the opening rolls are in
        quiet = (time.monotonic(), time.monotonic() + args.seconds)
        await asyncio.sleep(args.seconds)
        cpu0 = cpu_s(pid)
        end = time.monotonic() + args.seconds
        await asyncio.gather(*(reader(http, end, k, windows, times, failed, False)
                               for k in range(args.readers)))
        read_cpu = cpu_s(pid) - cpu0
        cpu0 = cpu_s(pid)
        end = time.monotonic() + args.seconds
        await asyncio.gather(*(reader(http, end, k, cold, cold_times, failed, True)
                               for k in range(args.readers)))
        cold_cpu = cpu_s(pid) - cpu0
    finally:
        for p in pressers:
            p.stop.set()
        await asyncio.gather(*pressing)
    load_after = os.getloadavg()

    def delays(ws: list[tuple[float, float]]) -> list[float]:
        return [d for p in pressers for d in p.between(ws)]

    print(f"store {args.db.split(':')[0]}, {args.tables} tables pressing every "
          f"{args.every_ms} ms, {args.readers} readers, {os.cpu_count()} cores, "
          f"load average {load_before[0]:.2f} before, {load_after[0]:.2f} after")
    print(f"{'phase':9} {'p50':>7} {'p95':>7} {'max':>7} {'n':>5}  (press -> ack, ms)")
    print(row("no reads", delays([quiet]), ""))
    print(row("reads", delays(windows), f"{len(windows)} reads, server CPU "
              f"{read_cpu:.1f} s in {args.seconds:g} s"))
    print(row("cold", delays(cold), f"{len(cold)} reads, server CPU "
              f"{cold_cpu:.1f} s in {args.seconds:g} s"))
    for name, kept in (("reads", times), ("cold", cold_times)):
        for path, ms in sorted(kept.items()):
            ms.sort()
            print(f"  {name} {path}: {len(ms)}, {ms[len(ms) // 2]:.0f} ms median, "
                  f"{ms[-1]:.0f} ms max")
    errors = sum(p.errors for p in pressers)
    if errors or failed:
        print(f"{errors} presses answered with an error; {len(failed)} reads failed "
              f"({', '.join(sorted(set(failed))[:4])})")


async def main_async(args: argparse.Namespace) -> None:
    async with served(args.db, Path(args.src).resolve()) as (http, ws_url, pid):
        await run(args, http, ws_url, pid)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--db", default="sqlite",
                   help="sqlite (a temporary file) or a postgresql:// URL")
    p.add_argument("--players", type=int, default=10_000, help="players in the register")
    p.add_argument("--tables", type=int, default=8, help="tables pressing")
    p.add_argument("--readers", type=int, default=2, help="clients reading lists at once")
    p.add_argument("--seconds", type=float, default=6.0,
                   help="how long each phase runs")
    p.add_argument("--every-ms", type=int, default=200, help="a press every so many ms")
    p.add_argument("--src", default=".", help="the tree whose server runs (default: this)")
    asyncio.run(main_async(p.parse_args()))


if __name__ == "__main__":
    main()
