"""Excess traffic is shed with a refusal the page understands, in order,
and pings never are (issue 33, item 2; ``bgclock.server.ws.shed``).

The storm: a keeper presses 15 times a second (past the 10 messages a
second a device may send) for 14 seconds, its link dropped and made again
three times, resending its whole queue each time, as the table page does
(kit/link.js).  On both stores, every press it applied is stored once,
in its order, none is refused or lost, and the device and the server agree.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import websockets

from bgclock.server.edge.auth import RateLimiter
from bgclock.server.live.commands import HitCmd
from bgclock.server.ws.shed import FLOOD_CLOSE, Shed
from tests._server_kit import STORES, Live, anyio_backend, live_server, store_factory

__all__ = ["anyio_backend"]

PRESSES_A_SECOND = 15
STORM_S = 14.0
#: When the link is dropped: the first connection lasts long enough for the
#: device to outrun its bucket (30, then 10 a second: past 6 s at 15 a second).
DROPS_S = (8.0, 10.0, 12.0)


def _hit(msg_id: str) -> HitCmd:
    return HitCmd(type="cmd", id=msg_id, side="A")


def test_a_ping_is_never_shed_by_the_messages_bucket() -> None:
    shed = Shed(RateLimiter(1, 0.0001))
    assert shed.admit(_hit("a")) and not shed.admit(_hit("b"))
    assert all(shed.ping() for _ in range(5))


def test_after_a_shed_command_the_later_ones_wait_for_it() -> None:
    shed = Shed(RateLimiter(1, 0.0001))
    assert shed.admit(_hit("a"))
    assert not shed.admit(_hit("b"))  # the bucket is empty: shed, and waited for
    shed.limiter = RateLimiter(10, 0.0001)  # refilled
    assert not shed.admit(_hit("c"))  # after b: not before it
    assert shed.admit(_hit("b")) and shed.admit(_hit("c"))
    assert shed.refusal(_hit("b"), 3).to_message()["retry_ms"] > 0


def test_a_flood_of_shed_messages_is_told_apart() -> None:
    shed = Shed(RateLimiter(1, 0.0001))
    shed.admit(_hit("first"))
    for n in range(FLOOD_CLOSE):
        shed.admit(_hit(f"x{n}"))
    assert shed.flooding


class Page:
    """A table device as the page's link behaves: a press applied at once and
    kept until its ack, sent in order; the shed one and those after it sent
    again after ``retry_ms``; the whole queue sent again at each connection."""

    def __init__(self, live: Live, table: dict[str, Any]) -> None:
        self.live = live
        self.table = table
        self.pending: list[dict[str, Any]] = []
        self.pressed: list[str] = []
        self.acked: dict[str, int] = {}
        self.noops: list[str] = []
        self.refused: list[dict[str, Any]] = []
        self.shed = 0
        self.pings = self.pongs = self.connections = 0
        self.ws: Any = None
        self.ready = False
        self.waiting_for: str | None = None
        self.retry_at = 0.0
        self._reader: asyncio.Task[None] | None = None
        self._n = 0

    def now_ms(self) -> int:
        return self.live.server.clock.now_ms() - int(self.table["created_ms"])

    async def connect(self) -> None:
        self.ready = False
        self.ws = await websockets.connect(self.live.ws_url)
        self.connections += 1
        await self.ws.send(json.dumps({"type": "hello", "token": self.table["token"],
                                       "device": "storm-phone", "batch": True,
                                       "queued": len(self.pending)}))
        self._reader = asyncio.get_running_loop().create_task(self._read(self.ws))

    async def drop(self) -> None:
        """The link is declared dead: the socket is abandoned."""
        ws, self.ws, self.ready = self.ws, None, False
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        with contextlib.suppress(Exception):
            await ws.close()

    async def _send(self, message: dict[str, Any]) -> None:
        if self.ws is not None and self.ready:
            with contextlib.suppress(websockets.ConnectionClosed):
                await self.ws.send(json.dumps(message))

    async def _transmit(self, press: dict[str, Any]) -> None:
        await self._send({"type": "cmd", "id": press["id"], "do": press["do"],
                          **press["fields"], "device_at_ms": press["at"]})

    async def press(self, do: str, **fields: Any) -> None:
        self._n += 1
        press = {"id": f"p{self._n}", "do": do, "fields": fields, "at": self.now_ms()}
        self.pending.append(press)
        if do == "hit":
            self.pressed.append(press["id"])
        if self.waiting_for is None:
            await self._transmit(press)

    async def flush(self, start: str | None = None) -> None:
        """Send the queue again, in order (from ``start``'s place)."""
        ids = [p["id"] for p in self.pending]
        first = ids.index(start) if start in ids else 0
        for press in list(self.pending[first:]):
            await self._transmit(press)

    async def tick(self) -> None:
        if self.waiting_for is not None and time.monotonic() >= self.retry_at and self.ready:
            start, self.waiting_for = self.waiting_for, None
            await self.flush(start)

    async def ping(self) -> None:
        if self.ready:
            self.pings += 1
            await self._send({"type": "ping", "t": self.pings})

    async def _read(self, ws: Any) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for text in ws:
                message = json.loads(text)
                for m in message["messages"] if message["type"] == "batch" else [message]:
                    await self._take(m)

    async def _take(self, m: dict[str, Any]) -> None:
        if m["type"] == "welcome":
            self.ready = True
            self.waiting_for = None
            await self.flush()
        elif m["type"] == "pong":
            self.pongs += 1
        elif m["type"] == "ack" and m.get("id"):
            self.pending = [p for p in self.pending if p["id"] != m["id"]]
            if m.get("noop"):
                self.noops.append(m["id"])
            else:
                assert self.acked.setdefault(m["id"], m["seq"]) == m["seq"], m
        elif m["type"] == "error" and m.get("code") == "rate_limited" and m.get("id"):
            self.shed += 1
            if self.waiting_for is None:
                self.waiting_for = m["id"]
                self.retry_at = time.monotonic() + m["retry_ms"] / 1000
        elif m["type"] == "error":
            self.refused.append(m)
            self.pending = [p for p in self.pending if p["id"] != m.get("id")]


@pytest.fixture(params=STORES)
async def live(request: Any, tmp_path: Path) -> AsyncIterator[Live]:
    async with store_factory(request.param, tmp_path) as make, live_server(make) as server:
        yield server


@pytest.mark.anyio
async def test_a_storm_of_presses_with_reconnects_is_stored_once_in_order(live: Live) -> None:
    table = await live.table(rules="usbgf-2013-delay", length=5)
    page = Page(live, table)
    await page.connect()
    for _ in range(1000):
        if page.ready:
            break
        await asyncio.sleep(0.005)
    await page.press("opening_roll", dice=[6, 1])
    start = time.monotonic()
    next_press = next_ping = start
    drops = [start + s for s in DROPS_S]
    side = "A"
    while (now := time.monotonic()) < start + STORM_S:
        if now >= next_press:
            await page.press("hit", side=side)
            side = "B" if side == "A" else "A"
            next_press += 1 / PRESSES_A_SECOND
        if now >= next_ping:
            await page.ping()
            next_ping += 1.0
        if drops and now >= drops[0]:
            drops.pop(0)
            await page.drop()
            await page.connect()
        await page.tick()
        await asyncio.sleep(0.005)
    # the storm is over: the device sends what it holds until all is answered
    deadline = time.monotonic() + 60
    while page.pending and time.monotonic() < deadline:
        await page.tick()
        await asyncio.sleep(0.02)
    await page.drop()
    assert not page.pending, f"{len(page.pending)} presses never answered"
    assert page.shed > 0 and page.connections >= 4  # the storm did shed, and reconnect
    assert page.refused == [] and page.noops == []  # nothing lost, nothing out of order
    assert page.pongs >= page.pings - page.connections  # pings were never shed
    stored = await live.stored(table["id"])
    keys = [e["idem_key"] for e in stored]
    assert keys == ["p1", *page.pressed]  # every press once, in the order it was made
    assert [e["seq"] for e in stored] == list(range(1, len(stored) + 1))
    assert {k: s for k, s in page.acked.items()} == {e["idem_key"]: e["seq"] for e in stored}
    # the device and the server agree: the same last event, the same side on turn
    hub_table = live.server.hub.tables[table["id"]]
    on_turn = "A" if len(page.pressed) % 2 == 0 else "B"
    assert hub_table.committed_seq == max(page.acked.values())
    assert hub_table.state_now().on_turn == on_turn
