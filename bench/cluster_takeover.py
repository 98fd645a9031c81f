"""How long a table is without an owner when its owner dies (kill -9) or
pauses (SIGSTOP): two ``bgclock serve --cluster`` processes on one
PostgreSQL schema and one Redis prefix of their own.

Each round: a table kept by a phone on process A, a second phone on B
(relayed); then A is killed (or paused), and the time is taken until B owns
the table (the lease row says ``b`` at a newer epoch) and until the keeper,
reconnected to B, has its press made meanwhile acknowledged.  Prints
p50/max per way of dying.

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


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if not os.environ.get("BGCLOCK_TEST_POSTGRES"):
        raise SystemExit("set BGCLOCK_TEST_POSTGRES=postgresql://...")
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
