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
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import httpx
import pytest
import websockets

from bgclock.server.cluster import Leases
from bgclock.server.cluster.config import SECRET_ENV
from bgclock.store import Fenced, StoredEvent, TableSpec
from bgclock.store._postgres import PostgresStore
from bgclock.store._schema import LATEST
from bgclock.store._sqlite import SqliteStore
from tests._lb_proxy import balancer
from tests._serve_proc import Serving, run_serve, start
from tests._server_kit import POSTGRES, anyio_backend, free_port, fresh_schema

__all__ = ["anyio_backend"]
REDIS = os.environ.get("BGCLOCK_TEST_REDIS", "redis://127.0.0.1:6379/0")
#: The secret the processes of a test's cluster share (``cluster.seal``).
SECRET = secrets.token_hex(32)
PASSWORD = "cluster-test-key"
SPEC = TableSpec(name="1", players=("Ann", "Bob"), rules="usbgf-2013-delay", length=3)
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

    def __init__(self, name: str, schema: str, prefix: str, extra: tuple[str, ...] = ()) -> None:
        self.name = name
        self.prefix = prefix
        self.port = free_port()
        self.serving: Serving = start([
            "--db", str(POSTGRES), "--db-schema", schema, "--port", str(self.port),
            "--cluster", REDIS, "--cluster-prefix", prefix, "--node-name", name,
            "--director-password", PASSWORD, *extra], env={SECRET_ENV: SECRET})
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
async def cluster(*names: str, extra: tuple[str, ...] = ()
                  ) -> AsyncIterator[tuple[str, list[Node]]]:
    async with fresh_schema() as schema:
        prefix = f"bgtest{secrets.token_hex(4)}"
        nodes: list[Node] = []
        try:
            for name in names:
                nodes.append(Node(name, schema, prefix, extra))
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


async def query(sql: str, *args: Any) -> list[Any]:
    """Rows read beside the processes, on a connection of the test's own."""
    import asyncpg

    conn = await asyncpg.connect(POSTGRES)
    try:
        return list(await conn.fetch(sql, *args))
    finally:
        await conn.close()


async def stored(schema: str, table_id: int) -> list[dict[str, Any]]:
    rows = await query(f'SELECT seq, idem_key, at_ms, body, source FROM "{schema}".'
                       "clock_events WHERE table_id = $1 ORDER BY seq", table_id)
    return [{"seq": r[0], "idem_key": r[1], "at_ms": r[2], **json.loads(r[3])} for r in rows]


async def _lease(schema: str, kind: str, ident: int) -> tuple[str, int] | None:
    rows = await query(f'SELECT owner, epoch FROM "{schema}".leases '
                       "WHERE kind = $1 AND id = $2", kind, ident)
    return None if not rows else (str(rows[0][0]), int(rows[0][1]))


async def lease(schema: str, table_id: int) -> tuple[str, int] | None:
    return await _lease(schema, "table", table_id)


async def tournament_lease(schema: str, tournament_id: int) -> tuple[str, int] | None:
    return await _lease(schema, "tournament", tournament_id)


#: Refusals of the moment: the command is sent again (docs/protocol.md).
AGAIN = ("rate_limited", "busy", "loading")


class Phone:
    """A table device that keeps its unacknowledged commands and sends them
    again, with their device instants, after it reconnects (as the page does)."""

    def __init__(self, token: str, device: str, source: str | None = None) -> None:
        self.token = token
        self.device = device
        #: The loopback address it connects from (a phone of its own), or any.
        self.source = source
        self.ws: Any = None
        self.history: list[dict[str, Any]] = []
        self.acked: dict[str, dict[str, Any]] = {}
        self.refused: dict[str, dict[str, Any]] = {}
        self.queue: dict[str, dict[str, Any]] = {}
        self.sent: dict[str, dict[str, Any]] = {}
        self.seen_seq = 0
        self._reader: asyncio.Task[None] | None = None
        self.closed = asyncio.Event()
        self.welcomes = 0
        self._resend: asyncio.Task[None] | None = None
        self.changed = asyncio.Event()

    async def connect(self, url: str) -> None:
        self.closed.clear()
        # a paused server never answers a close: the page gives up on it too
        self.ws = await websockets.connect(
            url, close_timeout=0.5,
            **({"local_addr": (self.source, 0)} if self.source is not None else {}))
        await self.ws.send(json.dumps({"type": "hello", "token": self.token,
                                       "device": self.device, "name": self.device,
                                       "last_seq": self.seen_seq,
                                       "queued": len(self.queue)}))
        self._reader = asyncio.get_running_loop().create_task(self._read())
        await self._send_queue(0)

    async def _send_queue(self, after: float) -> None:
        await asyncio.sleep(after)
        with contextlib.suppress(websockets.ConnectionClosed):
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
        self.changed.set()
        if m["type"] == "welcome":
            self.welcomes += 1
        if m["type"] in ("update", "snapshot"):
            self.seen_seq = max(self.seen_seq, int(m["seq"]))
        elif m["type"] == "ack" and m.get("id") in self.queue:
            self.acked[m["id"]] = m
            self.queue.pop(m["id"])
        elif m["type"] == "error" and m.get("id") in self.queue and m["code"] not in (
                "storage", "not_owner", *AGAIN):
            self.refused[m["id"]] = m
            self.queue.pop(m["id"])
        elif m["type"] == "error" and m["code"] in AGAIN and (
                self._resend is None or self._resend.done()):
            # the connection's bucket (a reconnect resends its whole queue), or
            # a table busy a moment: send what is still unanswered again after
            # the wait it names, as the page does (kit/link.js)
            wait = float(m.get("retry_ms") or 1000) / 1000
            self._resend = asyncio.get_running_loop().create_task(self._send_queue(wait))

    async def cmd(self, do: str, **fields: Any) -> str:
        cid = f"{self.device}-{secrets.token_hex(4)}"
        cmd = {"type": "cmd", "id": cid, "do": do, **fields}
        self.queue[cid] = cmd
        self.sent[cid] = cmd
        with contextlib.suppress(websockets.ConnectionClosed):
            await self.ws.send(json.dumps(cmd))
        return cid

    async def answered(self, cid: str, within: float = 20.0) -> dict[str, Any]:
        """The command's ack or refusal (woken by each message, no polling)."""
        until = time.monotonic() + within
        while cid not in self.acked and cid not in self.refused:
            self.changed.clear()
            left = until - time.monotonic()
            if left <= 0:
                raise AssertionError(f"never happened: an answer to {cid}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), min(left, 0.5))
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
                # the second phone asks (relayed to the owner), the keeper agrees
                await second.ws.send(json.dumps({"type": "keep_request", "id": "k1"}))
                await eventually(lambda: any(m["type"] == "keep_asked"
                                             for m in keeper.history),
                                 what="the request at the keeper on a")
                await keeper.ws.send(json.dumps({"type": "keep_answer", "device": "second",
                                                 "yes": True}))
                await eventually(lambda: any(m["type"] == "keep_granted" and m.get("id") == "k1"
                                             for m in second.history),
                                 what="the hand-over at b")
                press = await second.answered(await second.cmd(
                    "hit", side="B", device_at_ms=_device_ms(table)))
                assert press["type"] == "ack"
                await eventually(lambda: any(u["seq"] == press["seq"]
                                             for u in keeper.updates()),
                                 what="b's press at the keeper on a")
        events = await stored(schema, table["id"])
        assert [e["do"] for e in events] == ["opening_roll", "hit", "hit"]
        assert await lease(schema, table["id"]) == ("a", 1)  # nobody else took it


def _assert_log_holds_acks_once(events: list[dict[str, Any]], *phones: Phone) -> None:
    """Every acknowledged command is in the stored log exactly once, at the
    seq its ack named; the log has no hole."""
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    keys = [e["idem_key"] for e in events if e["idem_key"] is not None]
    assert len(keys) == len(set(keys))
    by_key = {e["idem_key"]: e for e in events}
    for p in phones:
        for cid, ack in p.acked.items():
            assert cid in by_key, f"acknowledged {cid} is not stored"
            assert by_key[cid]["seq"] == ack["seq"]


async def _press_on(keeper: Phone, table: dict[str, Any], n: int) -> None:
    """``n`` presses, each side in turn, at the device's instants."""
    side = "A"
    for _ in range(n):
        await keeper.cmd("hit", side=side, device_at_ms=_device_ms(table))
        side = "B" if side == "A" else "A"
        await asyncio.sleep(0.03)


async def test_kill_9_of_the_owner_under_presses_loses_nothing() -> None:
    async with cluster("a", "b") as (schema, (a, b)):
        table = make_table(a)
        async with phone(a.ws, table["token"], "keeper") as keeper:
            await keeper.answered(await keeper.cmd("opening_roll", dice=[6, 1],
                                                   device_at_ms=_device_ms(table)))
            assert await lease(schema, table["id"]) == ("a", 1)
            watcher = Phone(table["token"], "watcher")
            await watcher.connect(b.ws)
            await eventually(lambda: any(m["type"] == "snapshot" for m in watcher.history),
                             what="the watcher's snapshot, relayed by b")
            pressing = asyncio.get_running_loop().create_task(_press_on(keeper, table, 40))
            await eventually(lambda: len(keeper.acked) >= 10, what="ten presses acked")
            killed = time.monotonic()
            a.serving.kill9()
            await pressing  # the rest made while nobody owned the table: queued
            # b relays the watcher: it takes the table over (the lease was freed
            # with a's connection) and sends its devices to reconnect
            await eventually(lambda: watcher.closed.is_set(), what="b takes the table over")
            taken = time.monotonic() - killed
            assert await lease(schema, table["id"]) == ("b", 2)
            await keeper.closed.wait()
            await keeper.connect(b.ws)  # the page reconnects, to any process
            await watcher.connect(b.ws)
            await eventually(lambda: not keeper.queue, what="every queued press answered")
            print(f"takeover after kill -9: {taken * 1000:.0f} ms")
            await watcher.close()
        events = await stored(schema, table["id"])
        _assert_log_holds_acks_once(events, keeper)
        assert len(keeper.acked) + len(keeper.refused) == 41
        assert len(keeper.refused) == 0, keeper.refused
        # the presses made while nobody owned the table are stored at their
        # device instants (not when they reached b, about a second later);
        # the rules' floor (never before the log's last event) may move one
        # a few ms
        sent = {cid: cmd["device_at_ms"] for cid, cmd in keeper.sent.items()}
        late = [e for e in events if e["idem_key"] in sent and e["seq"] > 11]
        assert late
        for e in late:
            assert 0 <= e["at_ms"] - sent[e["idem_key"]] <= 50, e


async def test_a_paused_owner_past_its_lease_writes_nothing_and_says_so() -> None:
    async with cluster("a", "b") as (schema, (a, b)):
        table = make_table(a)
        async with phone(a.ws, table["token"], "keeper") as keeper:
            await keeper.answered(await keeper.cmd("opening_roll", dice=[6, 1],
                                                   device_at_ms=_device_ms(table)))
            await keeper.answered(await keeper.cmd("hit", side="A",
                                                   device_at_ms=_device_ms(table)))
            assert await lease(schema, table["id"]) == ("a", 1)
            watcher = Phone(table["token"], "watcher")
            await watcher.connect(b.ws)
            await eventually(lambda: any(m["type"] == "snapshot" for m in watcher.history),
                             what="the watcher's snapshot, relayed by b")
            os.kill(a.serving.proc.pid, signal.SIGSTOP)
            try:
                # PostgreSQL ends the paused owner's silent lease session; b,
                # relaying the watcher, takes the table with a newer epoch
                await eventually(lambda: watcher.closed.is_set(), within=30,
                                 what="b takes the table over from the paused a")
                assert await lease(schema, table["id"]) == ("b", 2)
                await watcher.connect(b.ws)
                # the keeper's press reaches the paused a (its socket buffers it)
                late = await keeper.cmd("hit", side="B", device_at_ms=_device_ms(table))
            finally:
                os.kill(a.serving.proc.pid, signal.SIGCONT)
            # a wakes up, decides the press, and the store refuses its write
            # (the epoch moved on), or its lease connection tells it first:
            # either way it drops the table and sends the keeper away
            await eventually(lambda: keeper.closed.is_set(), what="a sends the keeper away")
            assert not any(m["type"] == "ack" and m.get("id") == late for m in keeper.history)
            await keeper.connect(b.ws)
            ack = await keeper.answered(late)
            assert ack["type"] == "ack"
            assert ack["seq"] == 3
            await watcher.close()
        events = await stored(schema, table["id"])
        _assert_log_holds_acks_once(events, keeper)
        assert [e["do"] for e in events] == ["opening_roll", "hit", "hit"]
        err = a.stop()
        said = [x for x in err.splitlines() if "no longer owns it and drops it" in x]
        assert said, err
        print("\n".join(said))


async def test_a_dashboard_on_another_process_sees_the_table_live_and_acts_on_it() -> None:
    async with cluster("a", "b") as (schema, (a, b)):
        table = make_table(a)
        tid = table["id"]
        async with phone(a.ws, table["token"], "keeper") as keeper:
            await keeper.answered(await keeper.cmd("opening_roll", dice=[6, 1],
                                                   device_at_ms=_device_ms(table)))
            async with websockets.connect(b.ws) as ws:
                got: list[dict[str, Any]] = []

                async def read() -> None:
                    async for text in ws:
                        msg = json.loads(text)
                        got.extend(msg["messages"] if msg["type"] == "batch" else [msg])

                reader = asyncio.get_running_loop().create_task(read())
                await ws.send(json.dumps({"type": "hello", "key": PASSWORD}))
                # the catch-up comes from the table's keeper, a
                await eventually(lambda: any(m["type"] == "snapshot" and m["table"] == tid
                                             and m["seq"] == 1 for m in got),
                                 what="the dashboard on b has a's table")
                hit = await keeper.answered(await keeper.cmd(
                    "hit", side="A", device_at_ms=_device_ms(table)))
                await eventually(lambda: any(m["type"] == "update" and m["seq"] == hit["seq"]
                                             for m in got),
                                 what="the press on a reaches the dashboard on b")
                # the director's command goes to a and its ack comes back
                await ws.send(json.dumps({"type": "cmd", "table": tid, "id": "d1",
                                          "do": "adjust", "side": "A", "delta_ms": 1000}))
                await eventually(lambda: any(m["type"] == "ack" and m.get("id") == "d1"
                                             for m in got), what="the director's ack on b")
                await eventually(lambda: any(u["event"]["do"] == "adjust"
                                             for u in keeper.updates()),
                                 what="the director's adjust at the keeper on a")
                reader.cancel()
        events = await stored(schema, tid)
        assert [e["do"] for e in events] == ["opening_roll", "hit", "adjust"]
        assert events[2]["idem_key"] == "director/d1"
        assert await lease(schema, tid) == ("a", 1)


async def test_behind_a_round_robin_proxy_a_killed_process_costs_the_table_nothing() -> None:
    """docs/cluster.md's set-up: one address in front of two processes, no
    stickiness; the devices reconnect through it after a process dies."""
    async with cluster("a", "b") as (schema, (a, b)), balancer([a.port, b.port]) as port:
        front = f"ws://127.0.0.1:{port}/ws"
        table = make_table(a)
        keeper, second = Phone(table["token"], "keeper"), Phone(table["token"], "second")
        await keeper.connect(front)
        await second.connect(front)  # the other process: relayed
        await keeper.answered(await keeper.cmd("opening_roll", dice=[6, 1],
                                               device_at_ms=_device_ms(table)))
        first = await lease(schema, table["id"])
        assert first is not None
        for _ in range(5):
            await keeper.answered(await keeper.cmd(
                "hit", side="A" if len(keeper.acked) % 2 else "B",
                device_at_ms=_device_ms(table)))
        await eventually(lambda: len(second.updates()) >= 6,
                         what="the second phone sees every press")
        owner, survivor = (a, b) if first[0] == "a" else (b, a)
        owner.serving.kill9()
        pending = await keeper.cmd("hit", side="A" if len(keeper.acked) % 2 else "B",
                                   device_at_ms=_device_ms(table))
        for p in (keeper, second):  # the pages reconnect, through the proxy
            await p.closed.wait()
            await p.connect(front)
        ack = await keeper.answered(pending, within=30)
        assert ack["type"] == "ack" and ack["seq"] == 7
        got = await lease(schema, table["id"])
        assert got is not None and got[0] == survivor.name and got[1] > first[1]
        await eventually(lambda: any(u["seq"] == 7 for u in second.updates()),
                         what="the press after the kill at the second phone")
        await keeper.close()
        await second.close()
        _assert_log_holds_acks_once(await stored(schema, table["id"]), keeper)


async def test_a_director_write_at_a_process_that_does_not_keep_the_table_goes_to_its_keeper(
        ) -> None:
    async with cluster("a", "b") as (schema, (a, b)):
        table = make_table(a)
        tid = table["id"]
        async with phone(a.ws, table["token"], "keeper") as keeper:
            await eventually(lambda: any(m["type"] == "snapshot" for m in keeper.history),
                             what="a keeps the table")
            # b heard of the table a made (the cluster's ``all`` channel)
            await eventually(lambda: httpx.get(f"{b.url}/api/tables/{tid}", headers=AUTH,
                                               timeout=10).status_code == 200,
                             what="b knows the table a made")
            # the edit sent to b is made by a, the keeper, and its device told
            done = httpx.patch(f"{b.url}/api/tables/{tid}", json={"length": 5},
                               headers=AUTH, timeout=10)
            assert done.status_code == 200 and done.json()["length"] == 5
            await eventually(lambda: any(m["type"] == "table" and m["info"]["length"] == 5
                                         for m in keeper.history),
                             what="the keeper's device sees the edit")
            # a refusal comes back as the keeper said it, the field named
            bad = httpx.patch(f"{b.url}/api/tables/{tid}", json={"length": 0},
                              headers=AUTH, timeout=10)
            local = httpx.patch(f"{a.url}/api/tables/{tid}", json={"length": 0},
                                headers=AUTH, timeout=10)
            assert bad.status_code == local.status_code == 422
            assert bad.json() == local.json() and "body.length" in bad.json()["message"]
            closed = httpx.post(f"{b.url}/api/tables/{tid}/close", headers=AUTH, timeout=10)
            assert closed.status_code == 200 and closed.json()["status"] == "closed"
        assert await lease(schema, tid) == ("a", 1)


async def test_a_tournament_is_kept_by_one_process_and_taken_over_after_it_dies() -> None:
    async with cluster("a", "b") as (schema, (a, b)):
        t = httpx.post(f"{a.url}/api/tournaments", json={"name": "Club"}, headers=AUTH,
                       timeout=10).json()
        players = f"/api/tournaments/{t['id']}/players"
        first = httpx.post(a.url + players, json={"name": "Ann"}, headers=AUTH, timeout=10)
        assert first.status_code == 201, first.text
        # b does not act on a's tournament (two folds would fork it): a does
        second = httpx.post(b.url + players, json={"name": "Bob"}, headers=AUTH, timeout=10)
        assert second.status_code == 201, second.text
        assert await tournament_lease(schema, t["id"]) == ("a", 1)
        a.serving.kill9()
        # a's lease died with it: b takes the tournament, folded from the store
        # (once PostgreSQL has seen a's connection go: 503 until then)
        until = time.monotonic() + 20
        while True:
            third = httpx.post(b.url + players, json={"name": "Cy"}, headers=AUTH, timeout=10)
            if third.status_code != 503 or time.monotonic() > until:
                break
            await asyncio.sleep(0.1)
        assert third.status_code == 201, third.text
        names = [p["name"] for p in third.json()["state"]["players"]]
        assert names == ["Ann", "Bob", "Cy"]
        assert await tournament_lease(schema, t["id"]) == ("b", 2)


def test_cluster_with_sqlite_is_refused(tmp_path: Any) -> None:
    done = run_serve(["--db", str(tmp_path / "t.db"), "--port", str(free_port()),
                      "--cluster", REDIS], env={SECRET_ENV: SECRET})
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert lines == ["bgclock serve: --cluster needs PostgreSQL (--db postgresql://...): "
                     "a SQLite file belongs to one process"]


# ------------------------------------------------------------ the fence itself

def _event(table_id: int, seq: int) -> StoredEvent:
    return StoredEvent(table_id=table_id, seq=seq, idem_key=f"k{seq}", at_ms=seq * 100,
                       event={"v": 1, "do": "hit", "at_ms": seq * 100, "side": "A"},
                       source="table", lag_credit_ms=0, received_ms=seq)


async def test_a_write_at_an_older_epoch_is_refused_whole() -> None:
    """The lease dies with its connection; the next owner's epoch fences
    every write of the former one, in the commit's own transaction."""
    async with fresh_schema() as schema:
        assert POSTGRES
        first, second = PostgresStore(POSTGRES, schema=schema), PostgresStore(POSTGRES,
                                                                              schema=schema)
        lost: list[tuple[str, int, str]] = []
        a = Leases(POSTGRES, schema, "a", deadline_s=5, on_lost=lambda *x: lost.append(x))
        b = Leases(POSTGRES, schema, "b", deadline_s=5, on_lost=lambda *x: None)
        await first.open()
        await second.open()
        try:
            t = await first.create_tournament("Club", 1)
            row = await first.create_table(t.id, SPEC, 1)
            await a.open()
            await b.open()
            first.fenced_by(a)
            second.fenced_by(b)
            assert await a.take("table", row.id) == 1
            assert await b.take("table", row.id) is None  # a holds it
            await first.commit([_event(row.id, 1)], {})
            with pytest.raises(Fenced):  # b does not own it: nothing written
                await second.commit([_event(row.id, 2)], {row.id: 50})
            # a's lease connection goes (as a paused process's does after
            # LEASE_TTL_S); b takes the table at a newer epoch
            import asyncpg

            conn = await asyncpg.connect(POSTGRES)
            try:
                await conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                   "WHERE application_name = 'bgclock lease a'")
            finally:
                await conn.close()

            async def b_took() -> bool:
                return await b.take("table", row.id) == 2

            await eventually(b_took, what="b takes the lease a lost")
            # a, unaware, still writes at epoch 1: refused whole
            with pytest.raises(Fenced, match="owned by another process"):
                await first.commit([_event(row.id, 2)], {row.id: 200})
            await second.commit([_event(row.id, 2)], {})
            assert [e.seq for e in await second.events(row.id)] == [1, 2]
            assert (await second.events(row.id))[1].received_ms == 2
            assert (await second.table(row.id)).checkpoint_ms is None
            # a's heartbeat finds its lease taken, and says which
            await eventually(lambda: bool(lost), what="a learns it lost the table")
            assert lost == [("table", row.id, "another process took it (epoch 2, ours 1)")]
            assert a.epoch("table", row.id) is None
        finally:
            await a.close()
            await b.close()
            await first.close()
            await second.close()


async def test_a_lease_connection_that_blinks_keeps_its_tables_when_nobody_took_them() -> None:
    async with fresh_schema() as schema:
        assert POSTGRES
        store = PostgresStore(POSTGRES, schema=schema)
        lost: list[tuple[str, int, str]] = []
        a = Leases(POSTGRES, schema, "a", deadline_s=5, on_lost=lambda *x: lost.append(x))
        await store.open()
        try:
            t = await store.create_tournament("Club", 1)
            row = await store.create_table(t.id, SPEC, 1)
            await a.open()
            store.fenced_by(a)
            assert await a.take("table", row.id) == 1
            import asyncpg

            conn = await asyncpg.connect(POSTGRES)
            try:
                old = await conn.fetchval("SELECT pid FROM pg_stat_activity "
                                          "WHERE application_name = 'bgclock lease a'")
                await conn.execute("SELECT pg_terminate_backend($1)", old)

                async def back() -> bool:
                    pid = await conn.fetchval(
                        "SELECT l.pid FROM pg_locks l JOIN pg_stat_activity s ON "
                        "s.pid = l.pid WHERE l.locktype = 'advisory' "
                        "AND s.application_name = 'bgclock lease a'")
                    return pid is not None and pid != old

                # a fresh lease connection holds the lock again, same epoch
                await eventually(back, what="a takes its lease back")
            finally:
                await conn.close()
            assert a.epoch("table", row.id) == 1 and not lost
            await store.commit([_event(row.id, 1)], {})  # writes go on
            assert [e.seq for e in await store.events(row.id)] == [1]
        finally:
            await a.close()
            await store.close()


async def test_sqlite_keeps_no_lease_table(tmp_path: Any) -> None:
    store = SqliteStore(tmp_path / "one.db")
    await store.open()
    try:
        assert await store.schema_version() == LATEST
        with sqlite3.connect(tmp_path / "one.db") as db:
            names = {r[0] for r in db.execute("SELECT name FROM sqlite_master")}
        assert "leases" not in names and "clock_events" in names
    finally:
        await store.close()
