"""The load generator's worker processes (used by ``bench/load.py``).

A worker owns a share of the connections: either the table devices of some
tables (it sends their presses) or the director's dashboard.  It speaks
WebSocket through a minimal client on a raw asyncio ``Protocol`` (one
``transport.write`` per press, frames parsed in ``data_received``, no task,
no queue, no keep-alive timer per connection), on uvloop when installed, with
the garbage collector frozen and off once the connections are set up, so that
the generator's own overhead stays small against the server's.  With several
server processes (``device_ports``: table -> the ports of its devices A and
B), every table's A connects first, then every B.

The server as shipped lets one client address open 40 WebSocket connections
at once, then 10 a second (``bgclock/server/edge/guard.py``): so each table's two
devices connect from their own loopback source address (``127.1.x.y``, see
``source_address``), as each table's phones would from their own address in a
room; the dashboard connects from 127.0.0.1.  A connection is tried a bounded
number of times within ``CONNECT_DEADLINE_S``, then the worker fails loudly.

It records instants only, on ``time.monotonic()`` (CLOCK_MONOTONIC, the same
clock in every process of the machine): each press's send, each ``update``'s
arrival at each watcher, each ``ack``; ``bench/load.py`` joins them after the
run.  It also records its own event-loop lag (how late a 5 ms timer fires)
and how late each press went out against its schedule: if those are small,
the delays measured are the server's, not the generator's.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import heapq
import resource
import time
from dataclasses import dataclass, field
from typing import Any

try:
    import orjson

    loads: Any = orjson.loads

    def dumps(obj: Any) -> bytes:
        return orjson.dumps(obj)
except ImportError:  # pragma: no cover - the plain library works too, slower
    import json

    loads = json.loads

    def dumps(obj: Any) -> bytes:
        return json.dumps(obj, separators=(",", ":")).encode()


LAG_TICK = 0.005
TIMER_RESOLUTION = 0.001
#: Tries of one connection (a refusal or a reset), and the time they may take.
CONNECT_ATTEMPTS = 5
CONNECT_DEADLINE_S = 30.0


def source_address(index: int) -> str:
    """The loopback address table ``index`` (0-based) connects from:
    127.1.0.1, ..., 127.1.0.250, 127.1.1.1, ... (65,000 tables at most)."""
    if not 0 <= index < 250 * 256:
        raise ValueError(f"table index {index} has no loopback source address")
    return f"127.1.{index // 250}.{index % 250 + 1}"


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


@dataclass
class Log:
    """What one worker saw (sent back to the parent when it ends)."""

    #: (press id, table, planned instant, sent instant)
    sent: list[tuple[str, int, float, float]] = field(default_factory=list)
    #: press id -> seq (from its ack)
    acks: dict[str, int] = field(default_factory=dict)
    #: (table, seq, watcher, instant); watcher 0/1 = the table's devices, 2 = dashboard
    updates: list[tuple[int, int, int, float]] = field(default_factory=list)
    #: (instant, lag) of every lag probe
    lags: list[tuple[float, float]] = field(default_factory=list)
    errors: int = 0
    error_sample: str = ""
    cpu: tuple[float, float] = (0.0, 0.0)
    closed: int = 0


@dataclass
class WorkerFailed:
    """Sent instead of any other message by a worker that could not go on."""

    reason: str


class Client(asyncio.Protocol):
    """One WebSocket connection, client side, minimal (text frames, ping/pong)."""

    def __init__(self, host: str, port: int, log: Log, table: int, watcher: int) -> None:
        loop = asyncio.get_running_loop()
        self.request = (f"GET /ws HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                        "Sec-WebSocket-Version: 13\r\n\r\n").encode()
        self.log = log
        self.table = table
        self.watcher = watcher
        self.buf = bytearray()
        self.open = False
        #: done when the server answered the upgrade (101), or refused it
        self.upgraded: asyncio.Future[None] = loop.create_future()
        self.welcomed: asyncio.Future[None] = loop.create_future()
        for fut in (self.upgraded, self.welcomed):  # a refusal is read by _connect
            fut.add_done_callback(lambda f: f.cancelled() or f.exception())
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        transport.write(self.request)

    def connection_lost(self, exc: Exception | None) -> None:
        self.log.closed += 1
        for fut in (self.upgraded, self.welcomed):
            if not fut.done():
                fut.set_exception(ConnectionError("closed before welcome"))

    def send(self, payload: bytes, opcode: int = 0x1) -> None:
        # Client frames must be masked; a zero mask leaves the payload as it is.
        n = len(payload)
        if n < 126:
            head = bytes((0x80 | opcode, 0x80 | n))
        elif n < 65536:
            head = bytes((0x80 | opcode, 0x80 | 126)) + n.to_bytes(2, "big")
        else:
            head = bytes((0x80 | opcode, 0x80 | 127)) + n.to_bytes(8, "big")
        assert self.transport is not None
        self.transport.write(head + b"\0\0\0\0" + payload)

    def data_received(self, data: bytes) -> None:
        now = time.monotonic()
        buf = self.buf
        buf += data
        pos = 0
        if not self.open:
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                return
            if b" 101 " not in buf[:end]:
                said = ConnectionError(buf[:end].decode(errors="replace"))
                for fut in (self.upgraded, self.welcomed):
                    if not fut.done():
                        fut.set_exception(said)
                if self.transport is not None:
                    self.transport.close()
                return
            self.open = True
            if not self.upgraded.done():
                self.upgraded.set_result(None)
            pos = end + 4
        size = len(buf)
        while size - pos >= 2:
            b0, n = buf[pos], buf[pos + 1] & 0x7F
            start = pos + 2
            if n == 126:
                if size - pos < 4:
                    break
                n, start = int.from_bytes(buf[pos + 2:pos + 4], "big"), pos + 4
            elif n == 127:
                if size - pos < 10:
                    break
                n, start = int.from_bytes(buf[pos + 2:pos + 10], "big"), pos + 10
            if size < start + n:
                break
            payload = bytes(buf[start:start + n])
            pos = start + n
            opcode = b0 & 0x0F
            if opcode == 0x1:
                self.message(payload, now)
            elif opcode == 0x9:
                self.send(payload, 0xA)
            elif opcode == 0x8 and self.transport is not None:
                self.transport.close()
        del buf[:pos]

    def message(self, payload: bytes, now: float) -> None:
        msg = loads(payload)
        if msg.get("type") == "batch":  # what one commit said (hello ``batch``)
            for one in msg["messages"]:
                self.one(one, now)
        else:
            self.one(msg, now)

    def one(self, msg: dict[str, Any], now: float) -> None:
        kind = msg.get("type")
        if kind == "update":
            self.log.updates.append((msg["table"], msg["seq"], self.watcher, now))
        elif kind == "ack":
            self.log.acks[msg["id"]] = msg["seq"]
        elif kind == "welcome":
            if not self.welcomed.done():
                self.welcomed.set_result(None)
        elif kind == "error":
            self.log.errors += 1
            if not self.log.error_sample:
                self.log.error_sample = str(msg)[:300]


async def _connect(host: str, port: int, log: Log, table: int, watcher: int,
                   hello: dict[str, Any], sem: asyncio.Semaphore,
                   source: str | None = None) -> Client:
    """One connection through its welcome, from ``source`` (a loopback
    address) when given: ``CONNECT_ATTEMPTS`` tries within
    ``CONNECT_DEADLINE_S``, then the last error is raised."""
    async with sem:
        loop = asyncio.get_running_loop()
        deadline = time.monotonic() + CONNECT_DEADLINE_S
        local = (source, 0) if source else None
        last: BaseException | None = None
        for attempt in range(CONNECT_ATTEMPTS):
            left = deadline - time.monotonic()
            if left <= 0:
                break
            client: Client | None = None
            try:
                _, client = await asyncio.wait_for(loop.create_connection(
                    lambda: Client(host, port, log, table, watcher), host, port,
                    local_addr=local), left)
                await asyncio.wait_for(client.upgraded, max(0.01, deadline - time.monotonic()))
                client.send(dumps(hello))
                await asyncio.wait_for(client.welcomed, max(0.01, deadline - time.monotonic()))
                return client
            except (TimeoutError, OSError) as exc:
                last = exc
                if client is not None and client.transport is not None:
                    client.transport.close()
                await asyncio.sleep(min(0.2 * (attempt + 1), max(0.0, deadline - time.monotonic())))
        raise ConnectionError(f"table {table} watcher {watcher} from {source or host}: "
                              f"no welcome after {CONNECT_ATTEMPTS} tries: {last!r}")


async def _lag_probe(log: Log, until: float) -> None:
    expected = time.monotonic() + LAG_TICK
    while expected < until:
        await asyncio.sleep(max(0.0, expected - time.monotonic()))
        now = time.monotonic()
        log.lags.append((expected, now - expected))
        expected = now + LAG_TICK


def run_worker(spec: dict[str, Any], conn: Any) -> None:
    """Entry point of a worker process; ``conn`` is its end of a Pipe."""
    with contextlib.suppress(ImportError):
        import uvloop

        uvloop.install()
    try:
        log = asyncio.run(_worker(spec, conn))
    except Exception as exc:  # the parent raises it rather than waiting for ever
        conn.send(WorkerFailed(f"{spec['role']} worker: {exc}"))
        conn.close()
        return
    conn.send(log)
    conn.close()


async def _worker(spec: dict[str, Any], conn: Any) -> Log:
    host, port = "127.0.0.1", spec["port"]
    log = Log()
    sem = asyncio.Semaphore(64)
    loop = asyncio.get_running_loop()
    tables: list[tuple[int, Any]] = spec["tables"]  # (table id, hello fields)
    if spec["role"] == "dashboard":
        clients = [await _connect(host, port, log, 0, 2, spec["director_hello"], sem)]
        pairs: list[tuple[int, Client, Client]] = []
    elif "device_ports" in spec:
        # Several processes: each table's A first (its process takes the
        # table's lease: it owns the table), then B (relayed when elsewhere).
        where: dict[str, tuple[int, int]] = spec["device_ports"]
        sides = [await asyncio.gather(*(
            _connect(host, where[str(tid)][w], log, tid, w, hello, sem,
                     source_address(spec["index_of"][str(tid)]))
            for tid, hello in tables)) for w in (0, 1)]
        pairs = [(tid, sides[0][i], sides[1][i]) for i, (tid, _) in enumerate(tables)]
        clients = [*sides[0], *sides[1]]
    else:
        made = await asyncio.gather(*(
            _connect(host, port, log, tid, w, hello, sem,
                     source_address(spec["index_of"][str(tid)]))
            for tid, hello in tables for w in (0, 1)))
        pairs = [(tid, made[2 * i], made[2 * i + 1]) for i, (tid, _) in enumerate(tables)]
        clients = list(made)
    conn.send("connected")
    # The parent says when to start the clocks, then the schedule.
    msg = await loop.run_in_executor(None, conn.recv)
    if msg == "roll":
        for tid, a, _ in pairs:
            a.send(dumps({"type": "cmd", "id": f"roll-{tid}", "do": "opening_roll",
                          "dice": [6, 1]}))
        await asyncio.sleep(1.0)
        conn.send("rolled")
        msg = await loop.run_in_executor(None, conn.recv)
    t0, end, stop = msg["t0"], msg["end"], msg["stop"]
    gc.collect()
    gc.freeze()
    gc.disable()
    log.updates.clear()
    log.acks.clear()
    probe = loop.create_task(_lag_probe(log, stop))
    cpu_at: dict[str, float] = {}

    async def cpu_marks() -> None:
        await asyncio.sleep(max(0.0, msg["measure_from"] - time.monotonic()))
        cpu_at["from"] = _cpu()
        await asyncio.sleep(max(0.0, msg["measure_to"] - time.monotonic()))
        cpu_at["to"] = _cpu()

    marks = loop.create_task(cpu_marks())
    n = max(1, spec["total_tables"])
    if pairs:
        # One scheduler: table i presses at t0 + i/n + k seconds (A, B, A, ...),
        # so the presses are spread evenly over each second.
        schedule = sorted(((t0 + spec["index_of"][str(tid)] / n, j)
                           for j, (tid, _, _) in enumerate(pairs)))
        ks = [0] * len(pairs)
        heap = [(at, j) for at, j in schedule]
        heapq.heapify(heap)
        while heap:
            at, j = heap[0]
            if at >= end:
                break
            delay = at - time.monotonic()
            if delay > TIMER_RESOLUTION:
                await asyncio.sleep(delay)
            # Presses due within the timer's resolution go now: uvloop's timers
            # count whole milliseconds, and a shorter sleep would spin.
            now = time.monotonic() + TIMER_RESOLUTION
            while heap and heap[0][0] <= now and heap[0][0] < end:
                at, j = heapq.heappop(heap)
                tid, a, b = pairs[j]
                k = ks[j]
                ks[j] = k + 1
                side, device = ("A", a) if k % 2 == 0 else ("B", b)
                pid = f"p{tid}-{k}"
                device.send(dumps({"type": "cmd", "id": pid, "do": "hit", "side": side}))
                log.sent.append((pid, tid, at, time.monotonic()))
                heapq.heappush(heap, (at + 1.0, j))
    await asyncio.sleep(max(0.0, stop - time.monotonic()))
    await probe
    await marks
    log.cpu = (cpu_at.get("from", 0.0), cpu_at.get("to", 0.0))
    gc.enable()
    for c in clients:
        if c.transport is not None:
            c.transport.close()
    return log
