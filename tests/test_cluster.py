"""Several ``bgclock serve`` processes on one PostgreSQL database (issue 22).

Each test starts real processes (``tests._serve_proc``) on a schema of its
own and a Redis prefix of its own: a table is owned by one process at a
time (a lease: an advisory lock that dies with its connection, and an epoch
every write is fenced by); the others relay its devices.  Waits are on
state (``eventually``), never on wall time.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import signal
import socket
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import httpx
import pytest
import websockets

from tests._serve_proc import Serving, run_serve, start
from tests._server_kit import POSTGRES, anyio_backend, free_port, fresh_schema

__all__ = ["anyio_backend"]
REDIS = os.environ.get("BGCLOCK_TEST_REDIS", "redis://127.0.0.1:6379/0")
PASSWORD = "cluster-test-key"
AUTH = {"Authorization": f"Bearer {PASSWORD}"}


def _redis_up() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=1):
            return True
    except OSError:
        return False


pytestmark = [
    pytest.mark.anyio,
    pytest.mark.skipif(not POSTGRES, reason="BGCLOCK_TEST_POSTGRES is not set"),
    pytest.mark.skipif(not _redis_up(), reason="no Redis at 127.0.0.1:6379"),
]


async def eventually(check: Callable[[], Awaitable[bool]] | Callable[[], bool], *,
                     within: float = 20.0, what: str = "") -> None:
    """Until ``check`` holds (polled); a bound against a hang, not a timing."""
    until = time.monotonic() + within
    while True:
        got = check()
        if asyncio.iscoroutine(got):
            got = await got
        if got:
            return
        if time.monotonic() > until:
            raise AssertionError(f"never happened: {what}")
        await asyncio.sleep(0.05)


class Node:
    """One ``bgclock serve --cluster`` process."""

    def __init__(self, name: str, schema: str, prefix: str) -> None:
        self.name = name
        self.port = free_port()
        self.serving: Serving = start([
            "--db", str(POSTGRES), "--db-schema", schema, "--port", str(self.port),
            "--cluster", REDIS, "--cluster-prefix", prefix, "--node-name", name,
            "--director-password", PASSWORD])
        self.err = ""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def stop(self) -> str:
        self.err += self.serving.stop()
        return self.err


@contextlib.asynccontextmanager
async def cluster(*names: str) -> AsyncIterator[tuple[str, list[Node]]]:
    async with fresh_schema() as schema:
        prefix = f"bgtest{secrets.token_hex(4)}"
        nodes: list[Node] = []
        try:
            for name in names:
                nodes.append(Node(name, schema, prefix))
            yield schema, nodes
        finally:
            for node in nodes:
                node.stop()


def make_table(node: Node, **spec: Any) -> dict[str, Any]:
    t = httpx.post(f"{node.url}/api/tournaments", json={"name": "Club"}, headers=AUTH,
                   timeout=10).json()
    body = {"rules": "usbgf-2013-delay", "length": 3, **spec}
    table = httpx.post(f"{node.url}/api/tournaments/{t['id']}/tables", json=body,
                       headers=AUTH, timeout=10).json()
    return dict(table)


async def stored(schema: str, table_id: int) -> list[dict[str, Any]]:
    import asyncpg

    conn = await asyncpg.connect(POSTGRES)
    try:
        rows = await conn.fetch(f'SELECT seq, idem_key, at_ms, body, source FROM "{schema}".'
                                "clock_events WHERE table_id = $1 ORDER BY seq", table_id)
    finally:
        await conn.close()
    return [{"seq": r[0], "idem_key": r[1], "at_ms": r[2], **json.loads(r[3])} for r in rows]


async def lease(schema: str, table_id: int) -> tuple[str, int] | None:
    import asyncpg

    conn = await asyncpg.connect(POSTGRES)
    try:
        row = await conn.fetchrow(f'SELECT owner, epoch FROM "{schema}".leases '
                                  "WHERE kind = 'table' AND id = $1", table_id)
    finally:
        await conn.close()
    return None if row is None else (str(row[0]), int(row[1]))


class Phone:
    """A table device that keeps its unacknowledged commands and sends them
    again, with their device instants, after it reconnects (as the page does)."""

    def __init__(self, token: str, device: str) -> None:
        self.token = token
        self.device = device
        self.ws: Any = None
        self.history: list[dict[str, Any]] = []
        self.acked: dict[str, dict[str, Any]] = {}
        self.refused: dict[str, dict[str, Any]] = {}
        self.queue: dict[str, dict[str, Any]] = {}
        self.seen_seq = 0
        self._reader: asyncio.Task[None] | None = None
        self.closed = asyncio.Event()
        self.welcomes = 0

    async def connect(self, url: str) -> None:
        self.closed.clear()
        self.ws = await websockets.connect(url)
        await self.ws.send(json.dumps({"type": "hello", "token": self.token,
                                       "device": self.device, "name": self.device,
                                       "last_seq": self.seen_seq,
                                       "queued": len(self.queue)}))
        self._reader = asyncio.get_running_loop().create_task(self._read())
        for cmd in list(self.queue.values()):
            await self.ws.send(json.dumps(cmd))

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                msg = json.loads(text)
                for m in msg["messages"] if msg.get("type") == "batch" else [msg]:
                    self._got(m)
        except websockets.ConnectionClosed:
            pass
        finally:
            self.closed.set()

    def _got(self, m: dict[str, Any]) -> None:
        self.history.append(m)
        if m["type"] == "welcome":
            self.welcomes += 1
        if m["type"] == "update":
            self.seen_seq = max(self.seen_seq, int(m["seq"]))
        elif m["type"] == "snapshot":
            self.seen_seq = max(self.seen_seq, int(m["seq"]))
        elif m["type"] == "ack" and m.get("id") in self.queue:
            self.acked[m["id"]] = m
            self.queue.pop(m["id"])
        elif m["type"] == "error" and m.get("id") in self.queue and m["code"] not in (
                "storage", "not_owner"):
            self.refused[m["id"]] = m
            self.queue.pop(m["id"])

    async def cmd(self, do: str, **fields: Any) -> str:
        cid = f"{self.device}-{secrets.token_hex(4)}"
        cmd = {"type": "cmd", "id": cid, "do": do, **fields}
        self.queue[cid] = cmd
        with contextlib.suppress(websockets.ConnectionClosed):
            await self.ws.send(json.dumps(cmd))
        return cid

    async def answered(self, cid: str, within: float = 20.0) -> dict[str, Any]:
        await eventually(lambda: cid in self.acked or cid in self.refused, within=within,
                         what=f"an answer to {cid}")
        return self.acked.get(cid) or self.refused[cid]

    def updates(self) -> list[dict[str, Any]]:
        return [m for m in self.history if m["type"] == "update"]

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader


@contextlib.asynccontextmanager
async def phone(url: str, token: str, device: str) -> AsyncIterator[Phone]:
    p = Phone(token, device)
    await p.connect(url)
    try:
        yield p
    finally:
        await p.close()


def _device_ms(table: dict[str, Any]) -> int:
    """The table's time line now, as a device would read it."""
    return int(time.time() * 1000) - int(table["created_ms"])


# ---------------------------------------------------------------- the tests

async def test_devices_of_one_table_on_two_processes_see_each_others_presses() -> None:
    async with cluster("a", "b") as (schema, (a, b)):
        table = make_table(a)
        async with phone(a.ws, table["token"], "keeper") as keeper:
            roll = await keeper.answered(await keeper.cmd(
                "opening_roll", dice=[6, 1], device_at_ms=_device_ms(table)))
            assert roll["type"] == "ack"
            assert await lease(schema, table["id"]) == ("a", 1)
            async with phone(b.ws, table["token"], "second") as second:
                # relayed: b answers the hello, the owner's catch-up follows
                await eventually(lambda: any(m["type"] == "snapshot" for m in second.history),
                                 what="the second phone's snapshot, through b")
                hit = await keeper.answered(await keeper.cmd(
                    "hit", side="A", device_at_ms=_device_ms(table)))
                assert hit["type"] == "ack"
                await eventually(lambda: any(u["seq"] == hit["seq"] for u in second.updates()),
                                 what="the keeper's press at the phone on b")
                # the second phone's press goes to the owner and is judged there
                refused = await second.answered(await second.cmd(
                    "hit", side="B", device_at_ms=_device_ms(table)))
                assert refused["code"] == "not_keeper"
                await second.ws.send(json.dumps({"type": "keep", "id": "k1"}))
                await eventually(lambda: any(m["type"] == "ack" and m.get("id") == "k1"
                                             for m in second.history),
                                 what="the hand-over's ack at b")
                press = await second.answered(await second.cmd(
                    "hit", side="B", device_at_ms=_device_ms(table)))
                assert press["type"] == "ack"
                await eventually(lambda: any(u["seq"] == press["seq"]
                                             for u in keeper.updates()),
                                 what="b's press at the keeper on a")
        events = await stored(schema, table["id"])
        assert [e["do"] for e in events] == ["opening_roll", "hit", "hit"]
        assert await lease(schema, table["id"]) == ("a", 1)  # nobody else took it


def test_cluster_with_sqlite_is_refused(tmp_path: Any) -> None:
    done = run_serve(["--db", str(tmp_path / "t.db"), "--port", str(free_port()),
                      "--cluster", REDIS])
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert lines == ["bgclock serve: --cluster needs PostgreSQL (--db postgresql://...): "
                     "a SQLite file belongs to one process"]


_unused: tuple[Any, ...] = (Iterator, signal)
