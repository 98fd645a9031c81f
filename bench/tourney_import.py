"""A table's presses while the director works on a big tournament.

Starts ``bgclock serve`` on loopback (SQLite in a temporary file, or
PostgreSQL with ``--db postgresql://...``) and keeps one table pressing (a
``hit`` every ``--every-ms``), measuring each press -> ack.  In one run:

1. ``no import``: the presses alone for ``--seconds``;
2. ``import``: players' CSV imports of ``--rows`` rows (2,048, the most), one
   after another into fresh tournaments for ``--seconds``: the presses sent
   while an import was in flight, and each import's time;
3. ``round start``: ``--mains`` times, a Main of ``--main`` players (256)
   is registered, checked in and drawn, then its first round is started
   (every match gets its table: ``--main``/2 clock tables made and bound)
   while the table presses.

It prints p50/p95/max press -> ack (ms) per phase, the imports' and the
round start's times, the server's CPU, and the machine's load beside them
(a shared machine's figures move with its load).  The goal: p95 < 100 ms
during an import.

    PYTHONPATH=$PWD python bench/tourney_import.py
    PYTHONPATH=$PWD python bench/tourney_import.py --db postgresql://127.0.0.1:5432/test
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import websockets

from bench.attack import free_port, pct

KEY = "import-director-secret"


def cpu_s(pid: int) -> float:
    """The process's user + system CPU seconds so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Presser:
    """One table pressing every ``every_s`` (never two presses in flight);
    each press's ack delay, with the instant it was sent."""

    def __init__(self, ws_url: str, token: str, every_s: float) -> None:
        self.ws_url, self.token, self.every_s = ws_url, token, every_s
        self.samples: list[tuple[float, float]] = []  # (sent at, delay ms)
        self.errors = 0
        self.stop = asyncio.Event()

    async def run(self) -> None:
        async with websockets.connect(self.ws_url, max_size=2**22, ping_interval=None) as ws:
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            sent: dict[str, float] = {}

            async def read() -> None:
                async for raw in ws:
                    m = json.loads(raw)
                    if m.get("type") in ("ack", "error") and m.get("id") in sent:
                        at = sent.pop(m["id"])
                        if m["type"] == "ack":
                            self.samples.append((at, (time.monotonic() - at) * 1000))
                        else:
                            self.errors += 1

            reader = asyncio.create_task(read())
            await ws.send(json.dumps({"type": "cmd", "id": "o", "do": "opening_roll",
                                      "dice": [6, 1]}))
            n = 0
            while not self.stop.is_set():
                await asyncio.sleep(self.every_s)
                if sent:  # one press in flight at most: a stalled server is measured
                    continue  # by its delay, not flooded by the presses queued behind it
                n += 1
                cid = f"p{n}"
                sent[cid] = time.monotonic()
                await ws.send(json.dumps({"type": "cmd", "id": cid, "do": "hit",
                                          "side": "AB"[n % 2]}))
            await asyncio.sleep(0.5)
            reader.cancel()

    def between(self, windows: list[tuple[float, float]]) -> list[float]:
        """The delays of the presses sent inside one of ``windows``."""
        return [d for at, d in self.samples if any(a <= at <= b for a, b in windows)]


def row(name: str, delays: list[float], note: str) -> str:
    return (f"{name:12} {pct(delays, 0.5):7.1f} {pct(delays, 0.95):7.1f} "
            f"{max(delays, default=float('nan')):7.1f} {len(delays):4d}  {note}")


@contextlib.asynccontextmanager
async def served(db_arg: str, src: Path | None = None) -> AsyncIterator[
        tuple[httpx.AsyncClient, str, int]]:
    """``bgclock serve`` on loopback over ``db_arg`` (sqlite: a temporary
    file; or a postgresql:// URL, in a schema of its own dropped after), from
    the tree ``src`` (default: the current one): a client with the
    director's key, the WebSocket URL and the server's pid."""
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        schema = f"bgclock_bench_{secrets.token_hex(4)}"
        if db_arg.startswith("postgres"):
            db = ["--db", db_arg, "--db-schema", schema]
        else:
            db = ["--db", str(Path(tmp) / "bench.db")]
        env = None if src is None else {**os.environ, "PYTHONPATH": str(src)}
        proc = subprocess.Popen(
            [sys.executable, "-m", "bgclock.cli", "serve", "--port", str(port), *db,
             "--director-password", KEY, "--no-qr"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=src, env=env)
        try:
            for _ in range(400):
                with contextlib.suppress(OSError), socket.create_connection(
                        ("127.0.0.1", port), 0.1):
                    break
                await asyncio.sleep(0.05)
            async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=120,
                                         headers={"Authorization": f"Bearer {KEY}"}) as http:
                yield http, f"ws://127.0.0.1:{port}/ws", proc.pid
        finally:
            proc.terminate()
            proc.wait(10)
            if db_arg.startswith("postgres"):
                import asyncpg

                conn = await asyncpg.connect(db_arg)
                await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
                await conn.close()


async def main_async(args: argparse.Namespace) -> None:
    async with served(args.db) as (http, ws_url, pid):
        await run(args, http, ws_url, pid)


async def run(args: argparse.Namespace, http: httpx.AsyncClient, ws_url: str,
              pid: int) -> None:
    t = (await http.post("/api/tournaments", json={"name": "presses"})).json()
    table = (await http.post(f"/api/tournaments/{t['id']}/tables",
                             json={"rules": "usbgf-2013-delay", "length": 25})).json()
    presser = Presser(ws_url, table["token"], args.every_ms / 1000)
    pressing = asyncio.create_task(presser.run())
    load_before = os.getloadavg()
    try:
        await asyncio.sleep(1)  # the opening roll is in
        # 1. the presses alone
        quiet = (time.monotonic(), time.monotonic() + args.seconds)
        await asyncio.sleep(args.seconds)
        # 2. imports one after another
        csv_text = ("name,federation_id\n" + "".join(
            f"Giocatore {i:04d},FIBT{i}\n" for i in range(1, args.rows + 1))).encode()
        windows: list[tuple[float, float]] = []
        times: list[float] = []
        cpu0 = cpu_s(pid)
        end = time.monotonic() + args.seconds
        while time.monotonic() < end or not windows:
            tid = (await http.post("/api/tournaments", json={"name": "import"})).json()["id"]
            start = time.monotonic()
            r = await http.post(f"/api/tournaments/{tid}/players.csv", content=csv_text,
                                headers={"content-type": "text/csv"})
            stop = time.monotonic()
            assert r.status_code == 201, r.text
            windows.append((start, stop))
            times.append((stop - start) * 1000)
        import_cpu = (cpu_s(pid) - cpu0) / len(times)
        # 3. round starts of big Mains (each made ready first)
        starts: list[tuple[float, float]] = []
        round_cpu = 0.0
        seated = 0
        for k in range(args.mains):
            tid = (await http.post("/api/tournaments", json={"name": f"main {k}"})).json()["id"]
            base = f"/api/tournaments/{tid}"
            await http.post(f"{base}/settings", json={"seed": 7 + k, "rounds": [
                {"length": 7, "rules": "usbgf-2013-delay", "clock": "required"}]})
            names = "".join(f"Main {i:03d}\n" for i in range(1, args.main + 1)).encode()
            r = await http.post(f"{base}/players.csv", content=names,
                                headers={"content-type": "text/csv"})
            assert r.status_code == 201, r.text
            for pid_ in range(1, args.main + 1):
                await http.post(f"{base}/players/{pid_}/check-in", json={})
            r = await http.post(f"{base}/draw", json={})
            assert r.status_code == 200, r.text
            cpu0 = cpu_s(pid)
            start = time.monotonic()
            r = await http.post(f"{base}/rounds", json={"event": "main", "round": 0})
            starts.append((start, time.monotonic()))
            assert r.status_code == 200, r.text
            round_cpu += cpu_s(pid) - cpu0
            seated = len(r.json()["tables"])
    finally:
        presser.stop.set()
        await pressing
    load_after = os.getloadavg()
    print(f"store {args.db.split(':')[0]}, a press every {args.every_ms} ms, "
          f"{os.cpu_count()} cores, load average {load_before[0]:.2f} before, "
          f"{load_after[0]:.2f} after")
    print(f"{'phase':12} {'p50':>7} {'p95':>7} {'max':>7} {'n':>4}  (press -> ack, ms)")
    print(row("no import", presser.between([quiet]), ""))
    times.sort()
    print(row("import", presser.between(windows),
              f"{len(times)} imports of {args.rows} rows: {times[len(times) // 2]:.0f} ms "
              f"median, {times[-1]:.0f} ms max; server CPU {import_cpu * 1000:.0f} ms each"))
    took = sorted((b - a) * 1000 for a, b in starts)
    print(row("round start", presser.between(starts),
              f"{len(starts)} round starts of a {args.main}-player Main, {seated} matches "
              f"seated at new tables: {took[len(took) // 2]:.0f} ms median, {took[-1]:.0f} ms "
              f"max; server CPU {round_cpu / len(starts) * 1000:.0f} ms each"))
    if presser.errors:
        print(f"{presser.errors} presses answered with an error")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--db", default="sqlite",
                   help="sqlite (a temporary file) or a postgresql:// URL")
    p.add_argument("--seconds", type=float, default=5.0,
                   help="how long the quiet phase and the imports run")
    p.add_argument("--rows", type=int, default=2048, help="rows of each CSV import")
    p.add_argument("--main", type=int, default=256, help="players of the Main started")
    p.add_argument("--mains", type=int, default=4, help="how many Mains are started")
    p.add_argument("--every-ms", type=int, default=150, help="a press every so many ms")
    asyncio.run(main_async(p.parse_args()))


if __name__ == "__main__":
    main()
