"""Start-up time and memory of ``bgclock serve`` for a long evening.

Builds an evening in a temporary store: ``--tables`` tables (300) each with a
log of ``--events`` events (2,000: an opening roll, then alternate hits a
second apart, the clocks left running), and a tournament of ``--players``
registered and checked-in players (256).  Then starts ``bgclock serve`` on it
and measures, from the moment the process is started:

- ``url``: when the director's URL is printed;
- ``answers``: when ``GET /api/tables/N`` first answers;
- ``press``: when a first command is accepted (the director resumes table 1,
  which the restart stopped: an ``ack`` after its commit); then the same at
  the last table (on stderr: the table a first start's background fold
  reaches last, so it is folded on that use);

and the server's RSS then, beside the RSS of the bare server
(``bench/bare_server.py``: the same uvicorn stack, no engine, no store).

The first start reads a log written straight into the store, without a
snapshot (``first``: as after an upgrade): it answers before it has folded
the tables (each is folded on its first use, the others by a background
task), stores each table's snapshot as it folds it, and the tournament's
players are registered through it; it is stopped only once every table is
folded (printed on stderr: when, and the RSS then), so that the next
starts find every snapshot.  The next starts
(``restart``) fold each table's snapshot and the events after it.  Prints one
Markdown row per run, per store, with the machine's load average (1 min,
the larger of before and after).  Never a timed test.

    python bench/startup.py [--tables 300] [--events 2000] [--players 256] [--runs 2]
    python bench/startup.py --db sqlite --db postgresql://127.0.0.1:5432/test
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.load import free_port, rss_mb  # noqa: E402
from bgclock.store import StoredEvent, TableSpec  # noqa: E402
from bgclock.store.connect import open_store

KEY = "startup-director-secret"
SPEC = TableSpec(rules="usbgf-2013-delay", length=25, players=("Ann", "Bob"))


async def build(db: str, schema: str | None, tables: int, events: int) -> int:
    """The evening's tables and logs, written straight into the store; the
    tournament's id."""
    store = open_store(db, schema=schema)
    await store.open()
    try:
        now = int(time.time() * 1000)
        t = await store.create_tournament("evening", now)
        batch: list[StoredEvent] = []
        for _ in range(tables):
            row = await store.create_table(t.id, SPEC, now - events * 1000 - 60_000)
            batch.append(StoredEvent(
                table_id=row.id, seq=1, idem_key="o", at_ms=1000,
                event={"do": "opening_roll", "at_ms": 1000, "dice": [6, 1], "v": 1},
                source="table", lag_credit_ms=0, received_ms=now))
            for seq in range(2, events + 1):
                batch.append(StoredEvent(
                    table_id=row.id, seq=seq, idem_key=f"h{seq}", at_ms=seq * 1000,
                    event={"do": "hit", "at_ms": seq * 1000, "side": "AB"[seq % 2], "v": 1},
                    source="table", lag_credit_ms=0, received_ms=now))
            if len(batch) >= 20_000:
                await store.commit(batch, {})
                batch = []
        if batch:
            await store.commit(batch, {})
        return t.id
    finally:
        await store.close()


def serve_args(db: str, schema: str | None, port: int) -> list[str]:
    return [sys.executable, "-m", "bgclock.cli", "serve", "--port", str(port), "--db", db,
            *(["--db-schema", schema] if schema else []), "--director-password", KEY,
            "--no-qr"]


async def register(port: int, tournament: int, players: int) -> None:
    """The tournament's players, registered and checked in (through the API)."""
    headers = {"Authorization": f"Bearer {KEY}"}
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", headers=headers,
                                 timeout=60) as http:
        csv = "".join(f"Player {i:03d},\n" for i in range(players))
        r = await http.post(f"/api/tournaments/{tournament}/players.csv", content=csv,
                            headers={"Content-Type": "text/csv"})
        r.raise_for_status()
        state = (await http.get(f"/api/tournaments/{tournament}/state")).json()
        for p in state["players"]:
            (await http.post(f"/api/tournaments/{tournament}/players/{p['id']}/check-in",
                             json={})).raise_for_status()


async def wait_answer(port: int, deadline: float) -> None:
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=5) as http:
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.HTTPError):
                r = await http.get("/api/tables/1",
                                   headers={"Authorization": f"Bearer {KEY}"})
                if r.status_code == 200:
                    return
            await asyncio.sleep(0.02)
    raise RuntimeError("the server never answered")


async def first_press(port: int, table: int = 1) -> None:
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws", max_size=2**24) as ws:
        await ws.send(json.dumps({"type": "hello", "key": KEY}))
        await ws.send(json.dumps({"type": "cmd", "id": "first", "table": table,
                                  "do": "resume"}))
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 60))
            if msg.get("id") == "first":
                if msg["type"] != "ack":
                    raise RuntimeError(f"the first command was refused: {msg}")
                return


async def wait_folded(port: int, tournament: int, t0: float, pid: int, store: str) -> None:
    """Wait until the server has folded every table (none says ``loading``)."""
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60,
                                 headers={"Authorization": f"Bearer {KEY}"}) as http:
        while True:
            r = await http.get(f"/api/tournaments/{tournament}")
            r.raise_for_status()
            if not any(t.get("loading") for t in r.json()["tables"]):
                break
            if time.monotonic() - t0 > 600:
                raise RuntimeError("the first start never folded every table")
            await asyncio.sleep(0.1)
    print(f"# {store}: first start: every table folded at {time.monotonic() - t0:.2f} s "
          f"(RSS {rss_mb(pid):.0f} MB)", file=sys.stderr, flush=True)


async def bare_rss() -> float:
    """The RSS of the bare server once it answers (MB)."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, str(Path(__file__).parent / "bare_server.py"),
                             "--port", str(port)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                async with websockets.connect(f"ws://127.0.0.1:{port}/ws"):
                    break
            except OSError:
                await asyncio.sleep(0.05)
        return rss_mb(proc.pid)
    finally:
        proc.terminate()
        proc.wait(10)


async def one_run(db: str, schema: str | None, last_table: int,
                  then: Callable[[int, float, int], Awaitable[None]] | None = None,
                  ) -> dict[str, float]:
    """One start, measured; ``then(port, t0, pid)`` runs before the server stops."""
    port = free_port()
    load = os.getloadavg()[0]
    t0 = time.monotonic()
    proc = subprocess.Popen(serve_args(db, schema, port), stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    try:
        assert proc.stdout is not None
        loop = asyncio.get_running_loop()
        url_at: list[float] = []

        def read_url() -> None:
            assert proc.stdout is not None
            for line in proc.stdout:
                if line.startswith("Director: "):
                    url_at.append(time.monotonic())
                    return

        reader = loop.run_in_executor(None, read_url)
        await wait_answer(port, t0 + 300)
        answers = time.monotonic()
        await first_press(port)
        press = time.monotonic()
        rss = rss_mb(proc.pid)
        # the last table: the one a first start's background fold reaches last
        await first_press(port, last_table)
        last = time.monotonic()
        await asyncio.wait_for(reader, 60)
        if then is not None:
            await then(port, t0, proc.pid)
        return {"url": url_at[0] - t0, "answers": answers - t0, "press": press - t0,
                "last": last - t0, "rss": rss, "load": max(load, os.getloadavg()[0])}
    finally:
        proc.terminate()
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


async def one_store(db_arg: str, args: argparse.Namespace, bare: float) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        if db_arg != "sqlite":
            db, schema = db_arg, f"bench_startup_{secrets.token_hex(4)}"
        else:
            db, schema = str(Path(tmp) / "evening.db"), None
        store = "postgresql" if schema else "sqlite"
        try:
            started = time.monotonic()
            tournament = await build(db, schema, args.tables, args.events)
            print(f"# {store}: built {args.tables} tables x {args.events} events in "
                  f"{time.monotonic() - started:.1f} s", file=sys.stderr)

            async def players(port: int, t0: float, pid: int) -> None:
                if args.players:
                    await register(port, tournament, args.players)
                await wait_folded(port, tournament, t0, pid, store)

            for run in range(args.runs + 1):
                r = await one_run(db, schema, args.tables, players if run == 0 else None)
                print(f"# {store} {'first' if run == 0 else 'restart'}: a command at table "
                      f"{args.tables} (the last) accepted at {r['last']:.2f} s", file=sys.stderr,
                      flush=True)
                print(f"| {store} | {'first' if run == 0 else 'restart'} "
                      f"| {args.tables} x {args.events} | {args.players} | {r['url']:.2f} "
                      f"| {r['answers']:.2f} | {r['press']:.2f} | {r['rss']:.0f} | {bare:.0f} "
                      f"| {r['load']:.2f} |", flush=True)
        finally:
            if schema:
                import asyncpg  # type: ignore[import-untyped]

                conn = await asyncpg.connect(db)
                try:
                    await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
                finally:
                    await conn.close()


async def main_async(args: argparse.Namespace) -> None:
    bare = await bare_rss()
    print("| store | start | tables x events | players | URL printed s | first answer s "
          "| first accepted command s | RSS MB | bare server RSS MB | load avg |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for db in args.db or ["sqlite"]:
        await one_store(db, args, bare)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--events", type=int, default=2000)
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--runs", type=int, default=2, help="restarts after the first start")
    parser.add_argument("--db", action="append",
                        help="sqlite or a postgresql://... URL; repeat for both (default: sqlite)")
    args = parser.parse_args()
    if args.tables < 1 or args.events < 1 or not 0 <= args.players <= 2048 or args.runs < 1:
        parser.error("--tables, --events and --runs at least 1; --players 0..2048")
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
