"""A connection's ``send``: a frame goes to the socket in place (no task)
while the socket takes it, through a sender task, in order, while the
socket's buffer is full; a socket gone marks the connection dead."""

from __future__ import annotations

import asyncio

from starlette.websockets import WebSocketDisconnect

from bgclock.server.edge.auth import RateLimiter
from bgclock.server.ws.connection import Connection


class FakeSocket:
    """An ASGI WebSocket whose send waits while ``writable`` is clear, as
    uvicorn's does while the transport's buffer is full."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.writable = asyncio.Event()
        self.writable.set()
        self.gone = False

    async def send_text(self, text: str) -> None:
        await self.writable.wait()
        if self.gone:
            raise WebSocketDisconnect(1006)
        self.sent.append(text)


def _conn(ws: FakeSocket) -> Connection:
    return Connection(ws, RateLimiter(100, 100))  # type: ignore[arg-type]


def test_a_frame_goes_out_in_place_without_a_task() -> None:
    async def run() -> None:
        ws = FakeSocket()
        conn = _conn(ws)
        conn.send("a")
        conn.send("b")
        assert ws.sent == ["a", "b"]  # before any turn of the loop
        assert conn._task is None

    asyncio.run(run())


def test_a_full_buffer_queues_in_order_and_drains() -> None:
    async def run() -> None:
        ws = FakeSocket()
        conn = _conn(ws)
        conn.send("a")
        ws.writable.clear()
        conn.send("b")  # suspends: a task finishes it
        conn.send("c")
        conn.send("d")
        assert conn._task is not None
        await asyncio.sleep(0)
        assert ws.sent == ["a"]
        ws.writable.set()
        await asyncio.wait_for(conn._drained.wait(), 5)
        assert ws.sent == ["a", "b", "c", "d"]
        assert conn._task is None
        conn.send("e")
        assert ws.sent[-1] == "e"

    asyncio.run(run())


def test_a_socket_gone_marks_the_connection_dead() -> None:
    async def run() -> None:
        ws = FakeSocket()
        conn = _conn(ws)
        ws.gone = True
        conn.send("a")
        assert conn.dead and ws.sent == []
        conn.send("b")  # nothing more is tried
        assert ws.sent == []

    asyncio.run(run())


def test_a_socket_gone_while_waiting_ends_the_task() -> None:
    async def run() -> None:
        ws = FakeSocket()
        conn = _conn(ws)
        ws.writable.clear()
        conn.send("a")
        conn.send("b")
        ws.gone = True
        ws.writable.set()
        await asyncio.wait_for(conn._drained.wait(), 5)
        assert conn.dead and conn._task is None and ws.sent == []

    asyncio.run(run())


def test_stop_cancels_a_waiting_send() -> None:
    async def run() -> None:
        ws = FakeSocket()
        conn = _conn(ws)
        ws.writable.clear()
        conn.send("a")
        await asyncio.sleep(0)
        await conn.stop()
        assert conn._task is None and conn._drained.is_set()

    asyncio.run(run())
