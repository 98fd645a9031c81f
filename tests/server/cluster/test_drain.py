"""A process leaves and joins without a gap (issue 34).

Real ``bgclock serve --cluster`` processes on PostgreSQL and Redis
(``tests.test_cluster``'s fixtures), their devices behind a round-robin
proxy (``tests._lb_proxy``) that reconnect as the page does:

- three processes started at once on a fresh schema all start;
- ``bgclock drain`` (SIGTERM) of a process while its tables' devices press:
  every table is handed over to the others, the process exits, and no
  acknowledged press is lost or doubled;
- a process that joins takes a fair share of the tables.
Waits are on state, never on wall time.
"""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
from collections import Counter

import pytest

from tests._lb_proxy import balancer
from tests._server_kit import POSTGRES, anyio_backend, fresh_schema
from tests.conftest import ROOT
from tests.test_cluster import (
    Node,
    Phone,
    _assert_log_holds_acks_once,
    _device_ms,
    _press_on,
    _redis_up,
    cluster,
    eventually,
    lease,
    make_table,
    phone,
    query,
    stored,
)

__all__ = ["anyio_backend"]

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.skipif(not POSTGRES, reason="BGCLOCK_TEST_POSTGRES is not set"),
    pytest.mark.skipif(not _redis_up(), reason="no Redis at 127.0.0.1:6379"),
]


async def test_three_processes_started_at_once_on_a_fresh_schema_all_serve() -> None:
    async with fresh_schema() as schema:
        prefix = "bgtestfresh"
        loop = asyncio.get_running_loop()
        nodes: list[Node] = []
        try:
            started = await asyncio.gather(
                *(loop.run_in_executor(None, Node, name, schema, prefix) for name in "abc"),
                return_exceptions=True)
            nodes = [n for n in started if isinstance(n, Node)]
            assert len(nodes) == 3, [n for n in started if not isinstance(n, Node)]
            table = make_table(nodes[2])
            assert table["id"] > 0
        finally:
            for node in nodes:
                node.stop()


async def _follow(p: Phone, front: str, stop: asyncio.Event) -> None:
    """The page's link: closed, it reconnects (through the proxy) at once."""
    while not stop.is_set():
        await p.closed.wait()
        if stop.is_set():
            return
        try:
            await p.connect(front)
        except Exception:  # noqa: BLE001 - refused or cut while a process leaves: again
            await asyncio.sleep(0.05)
            p.closed.set()


async def test_a_drained_owner_hands_its_tables_over_while_they_press() -> None:
    async with cluster("a", "b", "c") as (schema, nodes), \
            balancer([n.port for n in nodes]) as port:
        front = f"ws://127.0.0.1:{port}/ws"
        tables = [make_table(nodes[0]) for _ in range(6)]
        phones = [Phone(t["token"], f"keeper{i}") for i, t in enumerate(tables)]
        stop = asyncio.Event()
        for p, t in zip(phones, tables, strict=True):
            await p.connect(front)
            await p.answered(await p.cmd("opening_roll", dice=[6, 1],
                                         device_at_ms=_device_ms(t)))
        followers = [asyncio.get_running_loop().create_task(_follow(p, front, stop))
                     for p in phones]
        first = {t["id"]: await lease(schema, t["id"]) for t in tables}
        owners = Counter(str(got[0]) for got in first.values() if got is not None)
        leaving = next(n for n in nodes if n.name == owners.most_common(1)[0][0])
        moved = [tid for tid, got in first.items() if got is not None and got[0] == leaving.name]
        pressing = [asyncio.get_running_loop().create_task(_press_on(p, t, 30))
                    for p, t in zip(phones, tables, strict=True)]
        await eventually(lambda: all(len(p.acked) >= 8 for p in phones), what="presses acked")
        drained = await asyncio.get_running_loop().run_in_executor(None, lambda: subprocess.run(
            [sys.executable, "-m", "bgclock.cli", "drain", str(leaving.serving.proc.pid)],
            capture_output=True, text=True, cwd=ROOT, timeout=60))
        assert drained.returncode == 0, drained.stderr
        assert drained.stdout.splitlines()[-1] == (
            f"bgclock drain: process {leaving.serving.proc.pid} drained and stopped")
        await asyncio.gather(*pressing)
        await eventually(lambda: all(not p.queue for p in phones), within=60,
                         what="every press answered")
        stop.set()
        for task in followers:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for p in phones:
            await p.close()
        err = leaving.stop()
        assert f"{len(moved)} tables handed over by {leaving.name}" in err, err
        for p, t in zip(phones, tables, strict=True):
            assert not p.refused, p.refused
            assert len(p.acked) == 31
            _assert_log_holds_acks_once(await stored(schema, t["id"]), p)
        for tid in moved:
            got, was = await lease(schema, tid), first[tid]
            assert got is not None and was is not None
            assert got[0] != leaving.name and got[1] > was[1]


async def test_a_process_that_joins_takes_a_fair_share_of_the_tables() -> None:
    async with cluster("a") as (schema, nodes):
        a = nodes[0]
        tables = [make_table(a) for _ in range(6)]
        async with contextlib.AsyncExitStack() as stack:
            phones = [await stack.enter_async_context(phone(a.ws, t["token"], f"k{i}"))
                      for i, t in enumerate(tables)]
            for p, t in zip(phones, tables, strict=True):
                await p.answered(await p.cmd("opening_roll", dice=[6, 1],
                                             device_at_ms=_device_ms(t)))
                # a stopped clock: quiet at the moment
                await p.answered(await p.cmd("stop", side="B", reason="break",
                                             device_at_ms=_device_ms(t)))
            nodes.append(Node("b", schema, a.prefix))

            async def b_has_its_share() -> bool:
                rows = await query(f'SELECT owner, count(*) FROM "{schema}".leases '
                                   "WHERE kind = 'table' GROUP BY owner")
                return dict((str(r[0]), int(r[1])) for r in rows).get("b", 0) >= 2

            await eventually(b_has_its_share, what="b takes some of a's tables")
            # the moved tables' devices were sent to reconnect: at a, relayed to b
            for p, t in zip(phones, tables, strict=True):
                got = await lease(schema, t["id"])
                assert got is not None
                if got[0] == "b":
                    await p.closed.wait()
                    await p.connect(a.ws)
            for p, t in zip(phones, tables, strict=True):
                ack = await p.answered(await p.cmd("resume", device_at_ms=_device_ms(t)))
                assert ack["type"] == "ack", ack
