"""A database that goes silent under a pressing table: how long until the
press's error, the director's 503, and the first ack once it answers again.

A server in this process over SQLite (another connection holds the file's
write lock) and, with ``--postgres URL``, PostgreSQL through a relay that
swallows every byte (``tests._db_proxy``; the real server is never stopped).
Each round: stall, press (time to its ``storage`` error), a director POST
(its status and time), resume, press again with the same id until it is
acknowledged (time to the ack).  Prints p50/max per store.

    PYTHONPATH=$PWD python bench/stalled_store.py --rounds 3
    PYTHONPATH=$PWD python bench/stalled_store.py --deadline 2 \\
        --postgres postgresql://127.0.0.1:5432/test
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bgclock.store import DEFAULT_DEADLINE_S, check_deadline  # noqa: E402
from bgclock.store._postgres import PostgresStore  # noqa: E402
from bgclock.store._sqlite import SqliteStore  # noqa: E402
from tests._db_proxy import blackhole_proxy  # noqa: E402
from tests._server_kit import DIRECTOR, Device, fresh_schema, live_server  # noqa: E402


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


async def rounds(make: Any, stall: Any, resume: Any, n: int, deadline: float) -> dict[str, Any]:
    to_error: list[float] = []
    to_ack: list[float] = []
    director: list[tuple[int, float]] = []
    async with live_server(make) as live:
        table = await live.table()
        async with Device.open(live.ws_url, {"token": table["token"]}) as a:
            await a.welcome()
            assert (await a.cmd("opening_roll", dice=[6, 1]))["type"] == "ack"
            side = "A"
            for k in range(n):
                stall()
                went = time.monotonic()
                await a.send({"type": "cmd", "id": f"p{k}", "do": "hit", "side": side})
                while True:
                    msg = await a.recv(timeout=3 * deadline + 5)
                    if msg.get("id") == f"p{k}" and msg["type"] in ("ack", "error"):
                        break
                assert msg["type"] == "error" and msg["code"] == "storage", msg
                to_error.append(time.monotonic() - went)
                t0 = time.monotonic()
                r = await live.http.post("/api/tournaments", json={"name": "x"},
                                         headers=DIRECTOR, timeout=3 * deadline + 5)
                director.append((r.status_code, time.monotonic() - t0))
                resume()
                back = time.monotonic()
                while True:
                    answer = await a.cmd("hit", id=f"p{k}", side=side)
                    if answer["type"] == "ack":
                        break
                    await asyncio.sleep(0.1)
                to_ack.append(time.monotonic() - back)
                side = "B" if side == "A" else "A"
    return {"to_error": to_error, "to_ack": to_ack, "director": director}


def report(kind: str, deadline: float, got: dict[str, Any]) -> None:
    statuses = sorted({s for s, _ in got["director"]})
    took = [t for _, t in got["director"]]
    print(f"{kind:9} deadline {deadline:g} s | press -> storage error p50 "
          f"{pct(got['to_error'], 0.5):.2f} s max {max(got['to_error']):.2f} s | "
          f"director POST {statuses} p50 {pct(took, 0.5):.2f} s max {max(took):.2f} s | "
          f"resume -> ack p50 {pct(got['to_ack'], 0.5):.2f} s max {max(got['to_ack']):.2f} s",
          flush=True)


async def main_async(args: argparse.Namespace) -> None:
    import sqlite3

    deadline = args.deadline
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "stall.db"
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

        got = await rounds(lambda: SqliteStore(path, deadline_s=deadline), stall, resume,
                           args.rounds, deadline)
        report("sqlite", deadline, got)
    if args.postgres:
        import os

        os.environ["BGCLOCK_TEST_POSTGRES"] = args.postgres
        import tests._server_kit as kit

        kit.POSTGRES = args.postgres
        async with fresh_schema() as schema, blackhole_proxy(args.postgres) as proxy:
            got = await rounds(lambda: PostgresStore(proxy.dsn(args.postgres), schema=schema,
                                                     deadline_s=deadline),
                               proxy.hold, proxy.release, args.rounds, deadline)
        report("postgres", deadline, got)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, choices=range(1, 51),
                        metavar="1-50")
    parser.add_argument("--deadline", type=float, default=DEFAULT_DEADLINE_S,
                        help="the stores' deadline, seconds (as --db-timeout)")
    parser.add_argument("--postgres", default=None, metavar="URL",
                        help="also PostgreSQL (a fresh schema, dropped afterwards)")
    args = parser.parse_args()
    check_deadline(args.deadline)
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
