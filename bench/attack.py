"""What one table, or one token, can do to the rest of the room.

Starts ``bgclock serve`` on loopback (SQLite, or PostgreSQL with ``--db
postgresql://...``), over a database seeded with a table whose log is long
(``--log-events``), then runs each attack class of ``ATTACKS`` in turn for
``--seconds`` while a victim table presses once a second.  For each class it
prints the victim's press -> update delay (p50/p95/max, ms), the server's RSS
and what the attack achieved (messages sent, events or notes stored).

Every attack is bounded in time and count and stops by itself.  To add a
class (e.g. the HTTP layer's), write ``async def name(ctx: Ctx) -> str`` that
runs until ``ctx.until`` and returns a one-line summary, and append it to
``ATTACKS``.

The last class is not a client's: the database goes silent (``stalled_db``;
PostgreSQL is reached through a relay in this process that can swallow every
byte, SQLite's file is write-locked by another connection) while a table
presses; the server must answer errors, not hang, and go on by itself.

    PYTHONPATH=$PWD python bench/attack.py --seconds 8
    PYTHONPATH=$PWD python bench/attack.py --db postgresql://127.0.0.1:5432/test
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets
from attack_edge import EDGE_ATTACKS  # bench/ beside this file

from bgclock.store import StoredEvent, TableSpec
from bgclock.store.connect import open_store

KEY = "attack-director-secret"
SPEC = TableSpec(rules="usbgf-2013-delay", length=25, players=("Ann", "Bob"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


@dataclass
class Ctx:
    url: str
    ws_url: str
    http: httpx.AsyncClient
    #: the table with the long log, and its token
    long_table: int
    long_token: str
    until: float
    pid: int
    extra: dict[str, Any] = field(default_factory=dict)

    async def new_table(self) -> tuple[int, str]:
        t = (await self.http.post("/api/tournaments", json={"name": "attack"})).json()
        r = (await self.http.post(f"/api/tournaments/{t['id']}/tables",
                                  json={"rules": "usbgf-2013-delay", "length": 25})).json()
        return int(r["id"]), str(r["token"])

    async def stored(self, table_id: int) -> tuple[int, int]:
        body = (await self.http.get(f"/api/tables/{table_id}/log.json")).json()
        return len(body["events"]), len(body["notes"])


async def _hello(ws: Any, token: str, last_seq: int | None = None) -> None:
    hello: dict[str, Any] = {"type": "hello", "token": token}
    if last_seq is not None:
        hello["last_seq"] = last_seq
    await ws.send(json.dumps(hello))


async def _drain(ws: Any) -> int:
    """Read until closed; the bytes read."""
    n = 0
    with contextlib.suppress(Exception):
        async for message in ws:
            n += len(message)
    return n


# ---------------------------------------------------------------- attacks

async def baseline(ctx: Ctx) -> str:
    await asyncio.sleep(max(ctx.until - time.monotonic(), 0))
    return "no attack"


async def sync_flood(ctx: Ctx) -> str:
    """30 connections on the long-log table send ``sync`` 10 times a second."""
    sent = 0

    async def one() -> None:
        nonlocal sent
        async with websockets.connect(ctx.ws_url, max_size=None) as ws:
            await _hello(ws, ctx.long_token)
            reader = asyncio.create_task(_drain(ws))
            while time.monotonic() < ctx.until:
                await ws.send('{"type":"sync"}')
                sent += 1
                await asyncio.sleep(0.1)
            reader.cancel()

    await asyncio.gather(*(one() for _ in range(30)), return_exceptions=True)
    return f"{sent} syncs"


async def hello_replay(ctx: Ctx) -> str:
    """80 connections say hello with ``last_seq: 0``, again and again."""
    received = hellos = 0

    async def one() -> None:
        nonlocal received, hellos
        while time.monotonic() < ctx.until:
            with contextlib.suppress(Exception):
                async with websockets.connect(ctx.ws_url, max_size=None) as ws:
                    await _hello(ws, ctx.long_token, 0)
                    hellos += 1
                    while True:
                        m = await asyncio.wait_for(ws.recv(), 5)
                        received += len(m)
                        if '"snapshot"' in m[:30]:
                            break

    await asyncio.gather(*(one() for _ in range(80)), return_exceptions=True)
    return f"{hellos} hellos, {received / 1e6:.1f} MB sent by the server"


async def noop_hits(ctx: Ctx) -> str:
    """40 connections on one token press the idle side's button 20 times a second."""
    table, token = await ctx.new_table()
    sent = 0
    async with websockets.connect(ctx.ws_url) as first:
        await _hello(first, token)
        await first.send(json.dumps({"type": "cmd", "id": "o", "do": "opening_roll",
                                     "dice": [6, 1]}))  # A on turn: B's hits do nothing
        await asyncio.sleep(0.2)

        async def one(i: int) -> None:
            nonlocal sent
            async with websockets.connect(ctx.ws_url) as ws:
                await _hello(ws, token)
                reader = asyncio.create_task(_drain(ws))
                n = 0
                while time.monotonic() < ctx.until:
                    n += 1
                    await ws.send(json.dumps({"type": "cmd", "id": f"h{i}-{n}", "do": "hit",
                                              "side": "B"}))
                    sent += 1
                    await asyncio.sleep(0.05)
                reader.cancel()

        await asyncio.gather(*(one(i) for i in range(40)), return_exceptions=True)
    events, _ = await ctx.stored(table)
    return f"{sent} no-op hits, {events - 1} stored"


async def summon_flood(ctx: Ctx) -> str:
    """10 connections on one token summon the director as fast as allowed."""
    table, token = await ctx.new_table()
    sent = 0

    async def one(i: int) -> None:
        nonlocal sent
        async with websockets.connect(ctx.ws_url) as ws:
            await _hello(ws, token)
            reader = asyncio.create_task(_drain(ws))
            n = 0
            while time.monotonic() < ctx.until and n < 2000:
                n += 1
                await ws.send(json.dumps({"type": "summon", "id": f"s{i}-{n}",
                                          "why": "director", "side": "A"}))
                sent += 1
                await asyncio.sleep(0.02)
            reader.cancel()

    await asyncio.gather(*(one(i) for i in range(10)), return_exceptions=True)
    _, notes = await ctx.stored(table)
    return f"{sent} summonses, {notes} notes stored"


async def edit_race(ctx: Ctx) -> str:
    """The director edits a fresh table as its first press lands, 20 times."""
    both = tries = 0
    while time.monotonic() < ctx.until and tries < 20:
        table, token = await ctx.new_table()
        async with websockets.connect(ctx.ws_url) as ws:
            await _hello(ws, token)
            await ws.recv()
            await ws.recv()
            press = ws.send(json.dumps({"type": "cmd", "id": "p", "do": "opening_roll",
                                        "dice": [6, 1]}))
            edit = ctx.http.patch(f"/api/tables/{table}", json={"length": 7})
            _, r = await asyncio.gather(press, edit)
            answer: dict[str, Any] = {}
            while answer.get("id") != "p":
                answer = json.loads(await asyncio.wait_for(ws.recv(), 5))
            both += r.status_code == 200 and answer["type"] == "ack"
            tries += 1
    return f"{tries} races, {both} with both the edit and the press accepted"


async def csv_import(ctx: Ctx) -> str:
    """The director imports players' CSVs of 2,048 rows (the most), one after
    another, each into a fresh tournament (``bench/tourney_import.py`` has
    the detail, and a round start of a big Main)."""
    body = ("name,federation_id\n" + "".join(
        f"Giocatore {i:04d},FIBT{i}\n" for i in range(1, 2049))).encode()
    took: list[float] = []
    while time.monotonic() < ctx.until:
        t = (await ctx.http.post("/api/tournaments", json={"name": "import"})).json()
        start = time.monotonic()
        r = await ctx.http.post(f"/api/tournaments/{t['id']}/players.csv", content=body,
                                headers={"content-type": "text/csv"})
        if r.status_code != 201:
            return f"refused: {r.status_code} {r.text[:80]}"
        took.append((time.monotonic() - start) * 1000)
    return (f"{len(took)} imports of 2048 rows, {pct(took, 0.5):.0f} ms median, "
            f"{max(took, default=float('nan')):.0f} ms max")


async def stalled_db(ctx: Ctx) -> str:
    """The database stops answering for the class's time while a table presses
    twice a second; then it answers again (the server is not restarted)."""
    table, token = await ctx.new_table()
    answers: dict[str, int] = {}
    waits: list[float] = []
    async with websockets.connect(ctx.ws_url) as ws:
        await _hello(ws, token)

        async def cmd(cid: str, **fields: Any) -> dict[str, Any]:
            await ws.send(json.dumps({"type": "cmd", "id": cid, **fields}))
            while True:
                m = json.loads(await asyncio.wait_for(ws.recv(), 60))
                if m.get("id") == cid and m.get("type") in ("ack", "error"):
                    return dict(m)

        await cmd("o", do="opening_roll", dice=[6, 1])
        ctx.extra["stall"]()
        stalled = time.monotonic()
        director = asyncio.create_task(ctx.http.post("/api/tournaments", json={"name": "x"}))
        n = 0
        while time.monotonic() < ctx.until:
            n += 1
            sent = time.monotonic()
            m = await cmd(f"s{n}", do="hit", side="A")
            waits.append(time.monotonic() - sent)
            key = m["type"] if m["type"] == "ack" else m["code"]
            answers[key] = answers.get(key, 0) + 1
            await asyncio.sleep(0.5)
        status = (await director).status_code
        took = time.monotonic() - stalled
        ctx.extra["resume"]()
        back = time.monotonic()
        while (await cmd(f"s{n}", do="hit", side="A"))["type"] != "ack":
            await asyncio.sleep(0.1)
        again = time.monotonic() - back
    return (f"{took:.0f} s silent: {n} presses answered {answers} (max wait "
            f"{max(waits, default=0):.1f} s), director POST {status}; the press sent again "
            f"acked {again:.1f} s after the database came back")


#: The attack classes, run in this order (append the HTTP layer's here; the
#: stalled database last: the victim's alternation is off after it).
async def second_server(ctx: Ctx) -> str:
    """A second ``bgclock serve`` on the same database, started again and again
    while a table presses: each must refuse to start (one line, exit 2) and
    touch nothing of the first's (issue 18 §2)."""
    codes: list[int] = []
    lines: set[str] = set()
    took: list[float] = []
    while time.monotonic() < ctx.until - 1:
        t0 = time.monotonic()
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bgclock.cli", "serve", "--port", str(free_port()),
            *ctx.extra["served"], "--director-password", KEY, "--no-qr",
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
        try:
            _, err = await asyncio.wait_for(proc.communicate(), 30)
        except TimeoutError:
            proc.kill()
            await proc.wait()
            return "failed: a second server kept running"
        took.append((time.monotonic() - t0) * 1000)
        codes.append(proc.returncode or 0)
        lines |= {ln for ln in err.decode(errors="replace").splitlines() if ln.strip()}
    refused = sum(c == 2 for c in codes)
    return (f"{refused}/{len(codes)} second servers refused (exit 2) in median "
            f"{pct(took, 0.5):.0f} ms; said: {' | '.join(sorted(lines))[:120]}")


ATTACKS: list[Callable[[Ctx], Awaitable[str]]] = [
    baseline, sync_flood, hello_replay, noop_hits, summon_flood, edit_race, csv_import,
    stalled_db, second_server,
]
ATTACKS += EDGE_ATTACKS  # what the room token reads, malformed bodies (attack_edge.py)


def _stall_sqlite(path: Path, extra: dict[str, Any]) -> None:
    """``extra``'s stall/resume for a SQLite file: another connection holds its
    write lock (a backup tool, a sqlite3 shell in a transaction)."""
    import sqlite3

    held: list[sqlite3.Connection] = []

    def stall() -> None:
        db = sqlite3.connect(path, isolation_level=None)
        db.execute("BEGIN EXCLUSIVE")
        held.append(db)

    def resume() -> None:
        while held:
            db = held.pop()
            db.rollback()
            db.close()

    extra.update(stall=stall, resume=resume)


# ----------------------------------------------------------------- victim

async def victim(ctx: Ctx, token: str, delays: list[float], stop: asyncio.Event) -> None:
    """Presses once a second; the delay from each press to its update."""
    async with websockets.connect(ctx.ws_url) as ws:
        await _hello(ws, token)
        sent: dict[str, float] = {}
        n = 0

        async def read() -> None:
            async for raw in ws:
                m = json.loads(raw)
                if m.get("type") == "ack" and m.get("id") in sent:
                    delays.append((time.monotonic() - sent.pop(m["id"])) * 1000)

        reader = asyncio.create_task(read())
        await ws.send(json.dumps({"type": "cmd", "id": "v0", "do": "opening_roll",
                                  "dice": [6, 1]}))
        while not stop.is_set():
            await asyncio.sleep(1)
            n += 1
            cid = f"v{n}"
            sent[cid] = time.monotonic()
            await ws.send(json.dumps({"type": "cmd", "id": cid, "do": "hit",
                                      "side": "AB"[(n - 1) % 2]}))
        await asyncio.sleep(1)
        reader.cancel()


# ------------------------------------------------------------------- main

async def seed(db: list[str], events: int) -> tuple[int, int]:
    """A table with a long log: an opening roll then alternate hits 100 ms apart."""
    url = db[1]
    schema = db[3] if len(db) > 3 else None
    store = open_store(url, schema=schema)
    await store.open()
    now = int(time.time() * 1000)
    t = await store.create_tournament("seeded", now)
    row = await store.create_table(t.id, SPEC, now - events * 100 - 10_000)
    log = [StoredEvent(table_id=row.id, seq=1, idem_key="o", at_ms=100,
                       event={"do": "opening_roll", "at_ms": 100, "dice": [6, 1]},
                       source="table", lag_credit_ms=0, received_ms=now)]
    for seq in range(2, events + 1):
        log.append(StoredEvent(table_id=row.id, seq=seq, idem_key=f"h{seq}", at_ms=seq * 100,
                               event={"do": "hit", "at_ms": seq * 100, "side": "AB"[seq % 2]},
                               source="table", lag_credit_ms=0, received_ms=now))
    for i in range(0, len(log), 1000):
        await store.commit(log[i:i + 1000], {})
    await store.close()
    return t.id, row.id


async def main_async(args: argparse.Namespace) -> None:
    from tests._db_proxy import BlackholeProxy, blackhole_proxy

    port = free_port()
    extra: dict[str, Any] = {}
    async with contextlib.AsyncExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory())
        if args.db.startswith("postgres"):
            schema = f"bgclock_attack_{secrets.token_hex(4)}"
            db = ["--db", args.db, "--db-schema", schema]
            relay: BlackholeProxy = await stack.enter_async_context(blackhole_proxy(args.db))
            extra.update(stall=relay.hold, resume=relay.release)
            served = ["--db", relay.dsn(args.db), "--db-schema", schema]
        else:
            db = served = ["--db", str(Path(tmp) / "attack.db")]
            _stall_sqlite(Path(tmp) / "attack.db", extra)
        extra["served"] = served
        _, long_table = await seed(db, args.log_events)
        proc = subprocess.Popen(
            [sys.executable, "-m", "bgclock.cli", "serve", "--port", str(port), *served,
             "--director-password", KEY, "--no-qr"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(400):
                with contextlib.suppress(OSError), socket.create_connection(
                        ("127.0.0.1", port), 0.1):
                    break
                await asyncio.sleep(0.05)
            async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30,
                                         headers={"Authorization": f"Bearer {KEY}"}) as http:
                info = (await http.get(f"/api/tables/{long_table}")).json()
                print(f"store {args.db.split(':')[0]}, long log {args.log_events} events, "
                      f"{args.seconds:g} s a class")
                print(f"{'class':14} {'p50':>6} {'p95':>6} {'max':>6} {'n':>3} {'RSS MB':>7}"
                      "  attack")
                for attack in ATTACKS:
                    ctx = Ctx(url=f"http://127.0.0.1:{port}", ws_url=f"ws://127.0.0.1:{port}/ws",
                              http=http, long_table=long_table, long_token=info["token"],
                              until=time.monotonic() + args.seconds, pid=proc.pid,
                              extra=extra)
                    _, token = await ctx.new_table()
                    delays: list[float] = []
                    stop = asyncio.Event()
                    v = asyncio.create_task(victim(ctx, token, delays, stop))
                    try:
                        summary = await asyncio.wait_for(attack(ctx), args.seconds + 30)
                    except Exception as exc:  # noqa: BLE001 - report it and go on
                        summary = f"failed: {exc!r}"
                    stop.set()
                    await v
                    print(f"{attack.__name__:14} {pct(delays, 0.5):6.1f} {pct(delays, 0.95):6.1f}"
                          f" {max(delays, default=float('nan')):6.1f} {len(delays):3d}"
                          f" {rss_mb(proc.pid):7.1f}  {summary}", flush=True)
        finally:
            proc.terminate()
            proc.wait(10)
            if args.db.startswith("postgres"):
                import asyncpg

                conn = await asyncpg.connect(args.db)
                await conn.execute(f'DROP SCHEMA IF EXISTS "{db[3]}" CASCADE')
                await conn.close()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--db", default="sqlite",
                   help="sqlite (a temporary file) or a postgresql:// URL")
    p.add_argument("--seconds", type=float, default=8.0, help="how long each class runs")
    p.add_argument("--log-events", type=int, default=8000,
                   help="events in the long-log table's log")
    asyncio.run(main_async(p.parse_args()))


if __name__ == "__main__":
    main()
