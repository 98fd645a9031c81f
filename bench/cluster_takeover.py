"""What a cluster costs and how it recovers: the press's round trip through
the table's owner (direct) and through another process (relayed over
Redis), then how long a table is without an owner when its owner dies (kill -9) or
pauses (SIGSTOP): two ``bgclock serve --cluster`` processes on one
PostgreSQL schema and one Redis prefix of their own.

Each round: a table kept by a phone on process A, a second phone on B
(relayed); then A is killed (or paused), and the time is taken until B owns
the table (the lease row says ``b`` at a newer epoch) and until the keeper,
reconnected to B, has its press made meanwhile acknowledged.  Prints
p50/p99 of the round trips (send to ack, one press at a time) and p50/max
per way of dying.

    BGCLOCK_TEST_POSTGRES=postgresql://127.0.0.1:5432/test \\
        PYTHONPATH=$PWD python bench/cluster_takeover.py --rounds 3
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.test_cluster import (  # noqa: E402
    Phone,
    _device_ms,
    cluster,
    eventually,
    lease,
    make_table,
)


async def one(how: str) -> tuple[float, float]:
    async with cluster("a", "b") as (schema, (a, b)):
        table = make_table(a)
        keeper, watcher = Phone(table["token"], "keeper"), Phone(table["token"], "watcher")
        await keeper.connect(a.ws)
        try:
            await keeper.answered(await keeper.cmd("opening_roll", dice=[6, 1],
                                                   device_at_ms=_device_ms(table)))
            assert await lease(schema, table["id"]) == ("a", 1)
            await watcher.connect(b.ws)
            await eventually(lambda: any(m["type"] == "snapshot" for m in watcher.history))
            went = time.monotonic()
            if how == "kill -9":
                a.serving.kill9()
            else:
                os.kill(a.serving.proc.pid, signal.SIGSTOP)
            press = await keeper.cmd("hit", side="A", device_at_ms=_device_ms(table))

            async def b_owns() -> bool:
                got = await lease(schema, table["id"])
                return got is not None and got[0] == "b"

            await eventually(b_owns, within=60, what="b owns the table")
            owned = time.monotonic() - went
            await keeper.close()
            await keeper.connect(b.ws)
            await keeper.answered(press, within=60)
            acked = time.monotonic() - went
        finally:
            if how != "kill -9":
                os.kill(a.serving.proc.pid, signal.SIGCONT)
            await keeper.close()
            await watcher.close()
    return owned, acked


#: Seconds between two presses of the round trips: slower than a table's rate
#: limit (30 at once, then 10 a second: ``app.table_rate``), which a faster
#: phone meets (``rate_limited``, and the test phone's resend a second later
#: is then what its p99 measures).
GAP_S = 0.12


async def round_trips(n: int, gap: float = GAP_S) -> tuple[list[float], list[float]]:
    """Send-to-ack of ``n`` presses by the keeper on A (A owns the table),
    then of ``n`` by a phone on B that took the time over (relayed), one
    every ``gap`` seconds at most."""
    async with cluster("a", "b") as (schema, (a, b)):
        table = make_table(a)
        direct, relayed = Phone(table["token"], "direct"), Phone(table["token"], "relayed")
        await direct.connect(a.ws)
        out: tuple[list[float], list[float]] = ([], [])
        try:
            await direct.answered(await direct.cmd("opening_roll", dice=[6, 1],
                                                   device_at_ms=_device_ms(table)))
            assert await lease(schema, table["id"]) == ("a", 1)
            await relayed.connect(b.ws)
            for k, p in enumerate((direct, relayed)):
                if p is relayed:  # it asks; the keeper on A agrees
                    await p.ws.send('{"type":"keep_request","id":"k"}')
                    await eventually(lambda: any(m.get("type") == "keep_asked"
                                                 for m in direct.history))
                    await direct.ws.send('{"type":"keep_answer","device":"relayed","yes":true}')
                    await eventually(lambda: any(m.get("type") == "keep_granted"
                                                 for m in relayed.history))
                side = "A" if len(direct.acked) % 2 else "B"
                for _ in range(n):
                    t0 = time.perf_counter()
                    ack = await p.answered(await p.cmd("hit", side=side,
                                                       device_at_ms=_device_ms(table)))
                    out[k].append((time.perf_counter() - t0) * 1000)
                    if ack["type"] == "ack":
                        side = "B" if side == "A" else "A"
                    await asyncio.sleep(gap)
        finally:
            await direct.close()
            await relayed.close()
    return out


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--presses", type=int, default=200)
    parser.add_argument("--gap", type=float, default=GAP_S,
                        help=f"seconds between two presses (default {GAP_S}: under the "
                             "table's rate limit of 10 a second)")
    args = parser.parse_args()
    if not os.environ.get("BGCLOCK_TEST_POSTGRES"):
        raise SystemExit("set BGCLOCK_TEST_POSTGRES=postgresql://...")
    direct, relayed = await round_trips(args.presses, args.gap)
    print(f"{'press, send to ack':<22} {'n':>5} {'p50 (ms)':>9} {'p99 (ms)':>9}")
    for name, xs in (("at the owner", direct), ("relayed over Redis", relayed)):
        print(f"{name:<22} {len(xs):>5} {pct(xs, 0.5):>9.1f} {pct(xs, 0.99):>9.1f}")
    print()
    print(f"{'owner':<10} {'rounds':>6} {'new owner p50/max (ms)':>24} "
          f"{'press acked p50/max (ms)':>26}")
    for how in ("kill -9", "SIGSTOP"):
        owned, acked = [], []
        for _ in range(args.rounds):
            o, k = await one(how)
            owned.append(o * 1000)
            acked.append(k * 1000)
        print(f"{how:<10} {args.rounds:>6} {pct(owned, 0.5):>12.0f} / {max(owned):<9.0f} "
              f"{pct(acked, 0.5):>13.0f} / {max(acked):<9.0f}")


if __name__ == "__main__":
    asyncio.run(main())
