"""Load benchmark of ``bgclock serve``: press-to-all-watchers latency and server CPU.

Simulated tables on loopback: each table has two table devices (A and B), each
pressing every 2 s (so one press a second per table, alternating), and one
director's dashboard watches every table.  A press's latency is the time from
its send to the moment the *last* of its three watchers (both devices and the
dashboard) has the update.  The same traffic then goes through a bare
WebSocket broadcast server (``bench/bare_server.py``: same uvicorn stack, no
engine, no database) as the floor.

The load generator is one Python process on the same 2-core machine as the
server: it competes with it for CPU, and its own delays are in the figures.

Run: ``python bench/load.py`` (100, 500 and 2,000 tables) or
``python bench/load.py --tables 100 --duration 5``.  Prints a Markdown table.
Never a timed test.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

KEY = "bench-director-secret"
ROOT = Path(__file__).resolve().parent.parent
CLK_TCK = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def own_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


@dataclass
class Pending:
    sent: float
    remaining: int


@dataclass
class Run:
    tables: int
    watchers_per_table: int = 3
    pending: dict[int, Pending] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)
    measuring: bool = False
    lost: int = 0
    presses: int = 0
    errors: int = 0

    def updated(self, table: int) -> None:
        p = self.pending.get(table)
        if p is None:
            return
        p.remaining -= 1
        if p.remaining == 0:
            del self.pending[table]
            if self.measuring:
                self.latencies.append(time.perf_counter() - p.sent)


async def reader(ws: Any, run: Run) -> None:
    with contextlib.suppress(websockets.ConnectionClosed):
        async for raw in ws:
            msg = json.loads(raw)
            kind = msg.get("type")
            if kind == "update":
                run.updated(msg["table"])
            elif kind == "error":
                run.errors += 1


async def start_server(kind: str, port: int, workdir: Path) -> subprocess.Popen[bytes]:
    if kind == "bgclock":
        cmd = [sys.executable, "-m", "bgclock.cli", "serve", "--port", str(port), "--db",
               str(workdir / f"bench-{port}.db"), "--director-password", KEY, "--no-qr"]
    else:
        cmd = [sys.executable, str(ROOT / "bench" / "bare_server.py"), "--port", str(port)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(400):
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.1):
            return proc
        await asyncio.sleep(0.05)
    proc.kill()
    raise RuntimeError(f"{kind} server did not start")


async def create_tables(port: int, n: int) -> list[tuple[int, str]]:
    headers = {"Authorization": f"Bearer {KEY}"}
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", headers=headers,
                                 timeout=30) as http:
        t = (await http.post("/api/tournaments", json={"name": "bench"})).json()
        sem = asyncio.Semaphore(20)

        async def one(i: int) -> tuple[int, str]:
            async with sem:
                r = await http.post(f"/api/tournaments/{t['id']}/tables",
                                    json={"rules": "usbgf-2013-delay", "length": 25,
                                          "name": str(i)})
                body = r.json()
                return int(body["id"]), str(body["token"])

        return list(await asyncio.gather(*(one(i) for i in range(n))))


async def measure(kind: str, n: int, duration: float, warmup: float,
                  workdir: Path) -> dict[str, Any]:
    port = free_port()
    proc = await start_server(kind, port, workdir)
    run = Run(tables=n)
    conns: list[Any] = []
    tasks: list[asyncio.Task[None]] = []
    url = f"ws://127.0.0.1:{port}/ws"
    try:
        if kind == "bgclock":
            tables = await create_tables(port, n)
            hellos = [{"type": "hello", "token": tok} for _, tok in tables]
            director_hello: dict[str, Any] = {"type": "hello", "key": KEY}
        else:
            tables = [(i + 1, "") for i in range(n)]
            hellos = [{"type": "hello", "table": tid} for tid, _ in tables]
            director_hello = {"type": "hello", "director": True}
        sem = asyncio.Semaphore(100)

        async def connect(hello: dict[str, Any]) -> Any:
            async with sem:
                ws = await websockets.connect(url, max_size=None, ping_interval=None,
                                              open_timeout=60)
                await ws.send(json.dumps(hello))
                await ws.recv()  # welcome
                return ws

        director = await connect(director_hello)
        devices = await asyncio.gather(*(connect(h) for h in hellos for _ in range(2)))
        conns = [director, *devices]
        pairs = [(devices[2 * i], devices[2 * i + 1]) for i in range(n)]
        for ws in conns:
            tasks.append(asyncio.get_running_loop().create_task(reader(ws, run)))
        if kind == "bgclock":  # every clock starts: A is on turn
            for (tid, _), (a, _) in zip(tables, pairs, strict=True):
                await a.send(json.dumps({"type": "cmd", "id": f"roll-{tid}",
                                         "do": "opening_roll", "dice": [6, 1]}))
            await asyncio.sleep(1.0 + n / 2000)
        run.pending.clear()
        t0 = time.perf_counter() + 0.2
        end = t0 + warmup + duration

        async def table_loop(index: int, tid: int, a: Any, b: Any) -> None:
            k = 0
            next_at = t0 + index / n
            while True:
                delay = next_at - time.perf_counter()
                if delay > 0:
                    await asyncio.sleep(delay)
                if time.perf_counter() >= end:
                    return
                device, side = (a, "A") if k % 2 == 0 else (b, "B")
                if tid in run.pending:
                    run.lost += 1
                run.pending[tid] = Pending(time.perf_counter(), run.watchers_per_table)
                run.presses += run.measuring
                await device.send(json.dumps({"type": "cmd", "id": f"p{tid}-{k}", "do": "hit",
                                              "side": side}))
                k += 1
                next_at += 1.0

        loops = [asyncio.get_running_loop().create_task(table_loop(i, tid, a, b))
                 for i, ((tid, _), (a, b)) in enumerate(zip(tables, pairs, strict=True))]
        await asyncio.sleep(max(0.0, t0 + warmup - time.perf_counter()))
        run.measuring = True
        cpu0, own0, wall0 = cpu_seconds(proc.pid), own_cpu(), time.perf_counter()
        await asyncio.sleep(duration)
        cpu1, own1, wall1 = cpu_seconds(proc.pid), own_cpu(), time.perf_counter()
        await asyncio.gather(*loops)
        await asyncio.sleep(0.5)
        run.measuring = False
        lat = sorted(run.latencies)
        wall = wall1 - wall0

        def pct(q: float) -> float:
            return lat[min(len(lat) - 1, int(q * len(lat)))] * 1000 if lat else float("nan")

        return {
            "server": kind, "tables": n, "connections": len(conns), "presses": len(lat),
            "p50": pct(0.50), "p99": pct(0.99), "max": lat[-1] * 1000 if lat else float("nan"),
            "mean": statistics.fmean(lat) * 1000 if lat else float("nan"),
            "server_cpu": 100 * (cpu1 - cpu0) / wall, "client_cpu": 100 * (own1 - own0) / wall,
            "unanswered": run.lost, "errors": run.errors,
        }
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.gather(*(ws.close() for ws in conns), return_exceptions=True)
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


async def main_async(args: argparse.Namespace) -> None:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.tables:
            for kind in ("bgclock", "bare"):
                row = await measure(kind, n, args.duration, args.warmup, Path(tmp))
                rows.append(row)
                print(f"# {kind} {n} tables: p50 {row['p50']:.1f} ms, p99 {row['p99']:.1f} ms, "
                      f"server CPU {row['server_cpu']:.0f}%", file=sys.stderr, flush=True)
    print("| server | tables | connections | presses measured | p50 ms | p99 ms | max ms "
          "| server CPU (% of a core) | load generator CPU | p99 / bare p99 |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    bare = {r["tables"]: r for r in rows if r["server"] == "bare"}
    for r in rows:
        ratio = r["p99"] / bare[r["tables"]]["p99"] if r["server"] == "bgclock" else 1.0
        note = f" ({r['unanswered']} unanswered, {r['errors']} errors)" if (
            r["unanswered"] or r["errors"]) else ""
        print(f"| {r['server']} | {r['tables']} | {r['connections']} | {r['presses']}{note} "
              f"| {r['p50']:.1f} | {r['p99']:.1f} | {r['max']:.1f} | {r['server_cpu']:.0f}% "
              f"| {r['client_cpu']:.0f}% | {ratio:.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, nargs="+", default=[100, 500, 2000],
                        help="table counts to run (default 100 500 2000)")
    parser.add_argument("--duration", type=float, default=10.0,
                        help="seconds measured per run (default 10)")
    parser.add_argument("--warmup", type=float, default=3.0,
                        help="seconds of traffic before measuring (default 3)")
    args = parser.parse_args()
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
