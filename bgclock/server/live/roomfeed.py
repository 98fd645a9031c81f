"""The room display pushed: ``GET /api/tournaments/{id}/room.stream``.

The room token (or the director's key) opens a read-only stream of
server-sent events; each event's data is the whole ``room.json`` of that
moment.  A change (a press or a result at one of the tournament's tables,
or an action of the tournament) marks the room changed; at most every
``COALESCE_S`` the room's view is then built **once**, encoded once, and the
same bytes handed to every display of that room.  A display's cost is one
write per change, whatever the number of tables; nothing is built for a room
nobody watches.  A display that is slow to read keeps only the newest view
(each view is whole, so nothing is lost by skipping one).

The public page (``/p/{id}.stream``, docs/hosting.md) is pushed the same
way by a second feed of this class that follows the room's (``followers``:
every change mark reaches it too) and whose views are the public
projection; a view of ``None`` (the page taken down) ends its streams at once.

docs/pages.md ("The room display"), docs/protocol.md.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, Final

import orjson
from starlette.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

log = logging.getLogger("bgclock.server")

#: Changes within this long go out as one view (a result reaches every
#: display within this plus the view's build and the network).
COALESCE_S: Final = 0.05
#: A comment line this often keeps proxies and the display's socket awake.
KEEPALIVE_S: Final = 15.0
#: Streams open at once, over all rooms (each is a socket and a few objects).
MAX_STREAMS: Final = 512
#: Streams open at once on one room.
MAX_ROOM_STREAMS: Final = 128

#: Builds a room's view (``room.json``'s body) for the tournament's id (None:
#: there is none to show now, and the room's streams end).
Build = Callable[[int], Awaitable[dict[str, Any] | None]]


class _Display:
    """One open stream: the newest encoded view not yet written."""

    __slots__ = ("ended", "loop", "pending", "wake")

    def __init__(self) -> None:
        self.pending: bytes | None = None
        #: The view is gone (``RoomFeed.end``): the stream ends.
        self.ended = False
        self.wake = asyncio.Event()
        self.loop = asyncio.get_running_loop()

    def give(self, frame: bytes) -> None:
        self.pending = frame
        self.wake.set()


class RoomFeed:
    """Every room's displays, and the change marks that wake them."""

    def __init__(self, build: Build, *, event: str = "room") -> None:
        self.build = build
        #: The server-sent event's name (``room``, ``public``).
        self.event = event.encode()
        #: Feeds whose rooms change with these (the public pages).
        self.followers: list[RoomFeed] = []
        self.rooms: dict[int, set[_Display]] = {}
        self._scheduled: set[int] = set()
        self._closing = False
        #: Views built and encoded (one per change burst per watched room).
        self.built = 0

    def close(self) -> None:
        """End every stream (the server is stopping: a display reconnects to
        the next one).  Safe from a signal handler: the ends run in the loop."""
        self._closing = True
        for follower in self.followers:
            follower.close()
        for displays in list(self.rooms.values()):
            for display in list(displays):
                loop = display.loop
                loop.call_soon_threadsafe(display.wake.set)

    @property
    def streams(self) -> int:
        return sum(len(d) for d in self.rooms.values())

    def room_full(self, tournament_id: int) -> str | None:
        """Why another display cannot open ``tournament_id``'s stream now, or None."""
        if self.streams >= MAX_STREAMS:
            return "too many room displays on this server"
        if len(self.rooms.get(tournament_id, ())) >= MAX_ROOM_STREAMS:
            return "too many displays on this room"
        return None

    def changed(self, tournament_id: int | None) -> None:
        """Something the room shows changed (O(1) when nobody watches it)."""
        for follower in self.followers:
            follower.changed(tournament_id)
        if tournament_id is None or tournament_id not in self.rooms:
            return
        if tournament_id in self._scheduled:
            return
        self._scheduled.add(tournament_id)
        asyncio.get_running_loop().call_later(COALESCE_S, self._start_push, tournament_id)

    def _start_push(self, tournament_id: int) -> None:
        asyncio.get_running_loop().create_task(self._push(tournament_id),
                                               name=f"bgclock-room-{tournament_id}")

    async def _push(self, tournament_id: int) -> None:
        self._scheduled.discard(tournament_id)
        displays = self.rooms.get(tournament_id)
        if not displays:
            return
        try:
            frame = await self.frame(tournament_id)
        except Exception:  # the store failing: the next change tries again
            log.exception("room %d: its view could not be built", tournament_id)
            return
        if frame is None:
            self.end(tournament_id)
            return
        for display in list(self.rooms.get(tournament_id, ())):
            display.give(frame)

    async def frame(self, tournament_id: int) -> bytes | None:
        """The room's view now, as one server-sent event (None: no view)."""
        view = await self.build(tournament_id)
        if view is None:
            return None
        self.built += 1
        return b"event: " + self.event + b"\ndata: " + orjson.dumps(view) + b"\n\n"

    def end(self, tournament_id: int) -> None:
        """End every stream of ``tournament_id`` now (its view is gone)."""
        for display in list(self.rooms.get(tournament_id, ())):
            display.ended = True
            display.loop.call_soon_threadsafe(display.wake.set)

    async def stream(self, tournament_id: int, first: bytes) -> AsyncIterator[bytes]:
        """One display's events: ``first`` (the view when it opened), then
        the newest view after each change, a comment every ``KEEPALIVE_S``."""
        display = _Display()
        self.rooms.setdefault(tournament_id, set()).add(display)
        try:
            yield b"retry: 2000\n" + first
            while not self._closing and not display.ended:
                try:
                    await asyncio.wait_for(display.wake.wait(), KEEPALIVE_S)
                except TimeoutError:
                    yield b": keep-alive\n\n"
                    continue
                display.wake.clear()
                if self._closing or display.ended:
                    break
                frame, display.pending = display.pending, None
                if frame is not None:
                    yield frame
        finally:
            displays = self.rooms.get(tournament_id)
            if displays is not None:
                displays.discard(display)
                if not displays:
                    del self.rooms[tournament_id]


class EventStream(StreamingResponse):
    """A ``text/event-stream`` answer that ends as soon as its client goes.

    Starlette's own notices a client gone only at its next write (under ASGI
    2.4, as uvicorn speaks it), and a room's stream may not write for
    ``KEEPALIVE_S``: the display would stay counted that long.  Here the
    disconnect is listened for the whole time, and ends the stream."""

    def __init__(self, content: AsyncIterator[bytes]) -> None:
        super().__init__(content, media_type="text/event-stream",
                         headers={"X-Accel-Buffering": "no"})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        streaming = asyncio.ensure_future(self.stream_response(send))
        listening = asyncio.ensure_future(self.listen_for_disconnect(receive))
        try:
            await asyncio.wait((streaming, listening), return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (streaming, listening):
                task.cancel()
            await asyncio.gather(streaming, listening, return_exceptions=True)
        if not streaming.cancelled():
            error = streaming.exception()
            if error is not None and not isinstance(error, OSError):
                raise error
